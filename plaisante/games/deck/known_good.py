"""The grader's half of Deck and deal's checks (SPEC §6): the kit's known-good ``sort_key``,
``order_hand`` and ``discard``, which answer the hidden cases of steps 4 and 5.

Never on the student's side (``plaisante.boundary``): a kernel that could
import this module would hold working answers. The judge imports it in the grader
(``plaisante.grading.judge.known_good_answers``); importing it makes ``checks.KNOWN`` answer with
these parts on any input, where the student's side knows only the visible cases' answers. A
hidden test region takes the ``expect_*`` helpers it calls from here, so that importing them
loads these answers in whatever process runs the region (the grader, or a kernel under plain
nbgrader).
"""

from __future__ import annotations

from typing import Any

from ...student_side.cards import RANK_VALUES, SUITS
from .checks import KNOWN, expect_discard, expect_discard_error, expect_order


def kit_sort_key(card: Any) -> tuple[int, int]:
    """Return the card's (suit number, value): clubs 0 … spades 3, value 2 … 14."""
    return (SUITS.index(card.suit), RANK_VALUES[card.rank])


def kit_order_hand(cards: list[Any]) -> list[Any]:
    """Return a new list of ``cards`` in hand order (suit, then value)."""
    return sorted(cards, key=kit_sort_key)


def kit_discard(cards: list[Any], positions: list[int]) -> list[Any]:
    """Remove the cards at ``positions`` (counted before removing) from ``cards`` and return
    them in the order given. Raises IndexError for a position out of range, ValueError for one
    given twice, ``cards`` unchanged either way."""
    if any(not 0 <= position < len(cards) for position in positions):
        raise IndexError(f"a position of {positions} is not in a hand of {len(cards)} cards")
    if len(set(positions)) != len(positions):
        raise ValueError(f"a position is given twice in {positions}")
    removed = [cards[position] for position in positions]
    cards[:] = [card for position, card in enumerate(cards) if position not in positions]
    return removed


KNOWN.use(sort_key=kit_sort_key, order_hand=kit_order_hand, discard=kit_discard)

__all__ = ["KNOWN", "expect_discard", "expect_discard_error", "expect_order", "kit_discard",
           "kit_order_hand", "kit_sort_key"]
