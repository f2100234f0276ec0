"""Plaisante (SPEC §2–§3): a round of a poker-hand card game. This package is the whole
assignment: its description (``ASSIGNMENT``), its rules, its checks, the round (model and view)
and the names its notebook's setup cell imports (``setup``)."""

from __future__ import annotations

import itertools
from typing import Any

from ...student_side.assignment import Assignment, Step
from . import checks


def has_check(name: str) -> Any:
    """The check of the has-check ``name`` (its cases are picked by that name)."""
    return lambda function: checks.check_has(function, name)


ASSIGNMENT = Assignment(
    id="plaisante",
    title="Plaisante",
    steps=(
        Step(1, "Card", (("Card", checks.check_card_values), ("Card", checks.check_card_equality),
                         ("Card", checks.check_card_text))),
        Step(2, "count_values", (("count_values", checks.check_count_values),)),
        Step(3, "the has-checks", tuple((name, has_check(name))
                                        for name in checks.HAS_CHECK_CASES)),
        Step(4, "scoring", (("evaluate", checks.check_evaluate),
                            ("total_value", checks.check_total_value),
                            ("base_mult", checks.check_base_mult),
                            ("score", checks.check_score))),
        Step(5, "Tableau", (("Tableau", checks.check_toggle_selection),
                            ("Tableau", checks.check_move_selected))),
    ),
    game=lambda **parts: round_view(**parts),
    presenter=lambda **parts: presenter_view(**parts),
)


def presenter_view(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the lecture-hall presenter view (cards and the scoring x-ray) on ``parts``."""
    from .presenter import presenter_view as view

    return view(seed=seed, **parts)


def round_view(*, seed: int | None = None, four_colour: bool = False, **parts: Any) -> Any:
    """Return a playable RoundView on the student's parts; ``seed`` repeats a deal (New round
    deals seed + 1, seed + 2, …)."""
    from .model import Round
    from .view import RoundView

    deals = itertools.count()

    def new_round() -> Round:
        number = next(deals)
        return Round(card_class=parts["Card"], evaluate=parts["evaluate"],
                     total_value=parts["total_value"], base_mult=parts["base_mult"],
                     score=parts["score"], tableau_class=parts["Tableau"],
                     seed=None if seed is None else seed + number)

    return RoundView(new_round, four_colour=four_colour)
