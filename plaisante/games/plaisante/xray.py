"""The scoring x-ray of the lecture-hall demo: every number a Plaisante score is made of, for the
cards the presenter has selected, computed by the parts handed in (the reference's or a
student's). Pure: no widget import; ``presenter.py`` draws it.

Rules: SPEC §2 ("Scoring a played hand"): the hand is named after the first row of the table,
read top-down, whose check holds; score = total value × the name's multiplier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...student_side.wire import described
from .rules import CHECK_FOR_HAND, HAND_ORDER, HIGH_CARD

#: The table's rows top-down, as (hand name, the has-check that recognises it or None).
ROWS: tuple[tuple[str, str | None], ...] = tuple((name, CHECK_FOR_HAND.get(name))
                                                  for name in HAND_ORDER)


@dataclass(frozen=True)
class XRay:
    """What the x-ray shows for ``cards`` (0 to 5 of them).

    ``counts``: the 15 ints ``count_values`` returned (index = card value, 2–14), or None.
    ``answers``: (has-check name, its answer), in the table's order, top-down.
    ``first``: the hand name of the first row whose check holds (High Card when none does).
    ``name``, ``total``, ``multiplier``, ``score``: what ``evaluate``, ``total_value``,
    ``base_mult`` and ``score`` returned. ``problem``: one line naming a part that raised or
    answered with the wrong type (the values after it are then None)."""

    cards: tuple[Any, ...]
    counts: list[int] | None = None
    answers: tuple[tuple[str, bool], ...] = ()
    first: str | None = None
    name: str | None = None
    total: int | None = None
    multiplier: int | None = None
    score: int | None = None
    problem: str | None = None

    @property
    def formula(self) -> str:
        """'total × multiplier = score', e.g. '45 × 2 = 90'; '' until all three are known."""
        if None in (self.total, self.multiplier, self.score):
            return ""
        return f"{self.total} × {self.multiplier} = {self.score}"


class _PartFailed(Exception):
    pass


def _ask(part: str, function: Callable[..., Any], cards: list[Any], kind: type) -> Any:
    try:
        answer = function(list(cards))
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as error:  # noqa: B036  the student's part (or its process, gone)
        raise _PartFailed(f"{part} raised {described(error)}") from None
    if type(answer) is not kind:
        raise _PartFailed(f"{part} returned {answer!r} ({type(answer).__name__}), "
                          f"expected {'an' if kind is int else 'a'} {kind.__name__}")
    return answer


def xray(cards: list[Any], parts: dict[str, Any]) -> XRay:
    """Return the x-ray of ``cards`` computed by ``parts`` (count_values, every has-check,
    evaluate, total_value, base_mult, score: the keywords ``play`` takes). An empty selection
    asks nothing. Raises KeyError naming a missing part."""
    chosen = tuple(cards)
    if not chosen:
        return XRay(chosen)
    found: dict[str, Any] = {}
    try:
        counts = _ask("count_values", parts["count_values"], list(chosen), list)
        found["counts"] = counts
        answers = []
        for _, check in ROWS:
            if check is not None:
                answers.append((check, _ask(check, parts[check], list(chosen), bool)))
        found["answers"] = tuple(answers)
        holding = dict(answers)
        found["first"] = next((name for name, check in ROWS
                               if check is None or holding[check]), HIGH_CARD)
        found["name"] = _ask("evaluate", parts["evaluate"], list(chosen), str)
        found["total"] = _ask("total_value", parts["total_value"], list(chosen), int)
        found["multiplier"] = _ask("base_mult", parts["base_mult"], list(chosen), int)
        found["score"] = _ask("score", parts["score"], list(chosen), int)
    except _PartFailed as failure:
        return XRay(chosen, problem=str(failure), **found)
    return XRay(chosen, **found)
