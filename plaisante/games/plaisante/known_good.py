"""The grader's half of Plaisante's checks (rules: SPEC §2–§3): the kit's known-good
``count_values``, the hands the hidden sweeps try, and the hidden-check helpers built on them.

Never on the student's side (``plaisante.boundary``): a kernel that could
import this module would hold a working answer and every hidden input. The judge imports it in
the grader (``plaisante.grading.judge.known_good_answers``); a hidden test region imports from
it what it uses. Importing it makes ``checks.KNOWN`` answer with the known-good part on any
hand, where the student's side knows only the visible cases' answers.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...student_side.cards import RANKS, hand, labels
from ...student_side.checking import Always, calls_of, expect_value, substituted
from .checks import KNOWN, expect_list_kept
from .rules import CHECK_FOR_HAND, HIGH_CARD


def kit_count_values(cards: list[Any]) -> list[int]:
    """Return the 15-slot counts list of ``cards`` (slot v: how many have value v)."""
    tally = Counter(card.value for card in cards)
    return [tally.get(value, 0) for value in range(15)]


KNOWN.use(count_values=kit_count_values)

#: Stand-ins for every part a scoring part may call (``checks.expect_untouched``): only the
#: part under test's own code can then change the list it is given.
STAND_INS: dict[str, Any] = {"count_values": kit_count_values,
                             **{check: Always(False) for check in CHECK_FOR_HAND.values()},
                             "evaluate": Always(HIGH_CARD), "total_value": Always(0),
                             "base_mult": Always(1)}


@functools.cache  # the same hands every time: grading asks for them in every sweep
def sweep_hands() -> tuple[str, ...]:
    """Return the hands (in notation) a part is compared on with a reference: every size from
    0 to 8 cards, and for each size a hand of every shape of counts (all values different, a
    pair, two pairs, three, four, a full house… with at most 4 cards per value) in mixed suits,
    and all values different in one suit; plus, for each size, values spanning exactly 4 (a
    straight's span, with repeats past 5 cards) and a run of one suit ending with the ace."""
    suits = "♣♦♥♠"

    def shapes(size: int, largest: int = 4) -> list[list[int]]:
        if size == 0:
            return [[]]
        return [[first, *rest] for first in range(min(size, largest), 0, -1)
                for rest in shapes(size - first, first)]

    hands: list[str] = []
    for size in range(9):
        for number, shape in enumerate(shapes(size)):
            values = [RANKS[(3 * group + number) % 13] for group in range(len(shape))]
            hands.append(" ".join(f"{values[group]}{suits[(copy + group) % 4]}"
                                  for group, many in enumerate(shape) for copy in range(many)))
            if size and shape == [1] * size:  # the same values, all of one suit
                hands.append(" ".join(f"{value}♥" for value in values))
        span = [3, 7, 4, 6, 5, 3, 7, 5][:size]  # values 3 and 7 first: a span of 4 at once
        if size >= 2:
            hands.append(" ".join(f"{value}{suits[(index + index // 4) % 4]}"
                                  for index, value in enumerate(span)))
            hands.append(" ".join(f"{RANKS[low]}♠" for low in range(13 - size, 13)))
    return tuple(dict.fromkeys(hands))


def expect_like_reference(part: Callable[..., Any], reference: Callable[[list[Any]], Any],
                          hands: tuple[str, ...] | None = None, **stand_ins: Any) -> None:
    """Check ``part`` gives what ``reference`` gives on every hand of ``hands`` (the sweep of
    0 to 8 cards by default), and leaves the list it is given as it was. ``stand_ins`` replace
    names in the part's globals meanwhile (e.g. the kit's count_values for a has-check)."""
    name = getattr(part, "__name__", "part")
    cases = [hand(text) for text in (sweep_hands() if hands is None else hands)]
    givens = [list(cards) for cards in cases]
    with substituted(part, **stand_ins):
        answers = calls_of(part, [(given,) for given in givens])
        for cards, given, answer in zip(cases, givens, answers):
            expect_value(f"{name}({labels(cards)})", reference(list(cards)), answer)
            expect_list_kept(f"{name}({labels(cards)})", cards, given)


def expect_has_like_reference(check: Callable[[list[Any]], bool],
                              reference: Callable[[list[int], list[Any]], bool]) -> None:
    """Check a has-check against ``reference(counts, cards)`` on the sweep of 0 to 8 cards,
    with the kit's count_values (``counts`` is its answer)."""
    expect_like_reference(check, lambda cards: reference(kit_count_values(cards), cards),
                          count_values=kit_count_values)


__all__ = ["KNOWN", "STAND_INS", "expect_has_like_reference", "expect_like_reference",
           "kit_count_values", "sweep_hands"]
