"""Heads-up Hold'em (SPEC §6): no-limit Texas Hold'em against the kit's bot, with the
house rules of the small game it comes from (the ace always low, ties by the sum of the five
cards). This package is the whole assignment: its description (``ASSIGNMENT``), its house rules
(``rules``), the betting state and the kit's part of the hand flow (``betting``), its checks,
the match (``model``, the bot included), its view and the names its notebook's setup cell
imports (``setup``).

Step 6, the student's own tests: ``my_settle_tests(settle)`` is graded as students' own tests
are (``plaisante.student_side.student_tests``), on a correct ``settle`` and on five buggy ones, each
a classic mistake of paying the pot (its hidden test cell holds them)."""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import Assignment, Step
from . import checks

ASSIGNMENT = Assignment(
    id="holdem",
    title="Heads-up Hold'em",
    steps=(
        Step(1, "category", (("category", checks.check_category),)),
        Step(2, "best_five", (("best_five", checks.check_best_five),)),
        Step(3, "compare", (("compare", checks.check_compare),)),
        Step(4, "betting", (("legal_actions", checks.check_legal_actions),
                            ("apply", checks.check_apply))),
        Step(5, "settle", (("settle", checks.check_settle),)),
        Step(6, "your tests of settle", (("my_settle_tests", checks.check_settle_tests),)),
    ),
    game=lambda **parts: holdem_table(**parts),
    presenter=lambda **parts: presenter_view(**parts),
)


def presenter_view(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the lecture-hall presenter view (a showdown and its x-ray) on ``parts``."""
    from .presenter import presenter_view as view

    return view(seed=seed, **parts)


def holdem_table(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the heads-up table on the student's parts, the first hand dealt (``seed``
    repeats the button, the cards and the bot's choices)."""
    from .model import Match
    from .view import HoldemView

    return HoldemView(Match(seed=seed, **parts))
