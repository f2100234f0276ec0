"""Tricks (SPEC §6): a four-player trick-taking game with 32 cards (7…A), the order
A 10 K Q J 9 8 7 inside a suit, and following suit. This package is the whole assignment: its
description (``ASSIGNMENT``), its rules and bots (``rules``), its checks, the table (model and
view) and the names its notebook's setup cell imports (``setup``).

Step 6, the student's own tests: ``my_trick_winner_tests(trick_winner)`` is graded as students'
own tests are (``plaisante.student_side.student_tests``), on a correct ``trick_winner`` and on five
buggy ones, each a classic mistake of finding a trick's winner (its hidden test cell holds them)."""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import Assignment, Step
from . import checks

ASSIGNMENT = Assignment(
    id="tricks",
    title="Tricks: follow suit",
    steps=(
        Step(1, "trick_strength", (("trick_strength", checks.check_trick_strength),)),
        Step(2, "sort_hand", (("sort_hand", checks.check_sort_hand),)),
        Step(3, "legal_plays", (("legal_plays", checks.check_legal_plays),)),
        Step(4, "trick_winner", (("trick_winner", checks.check_trick_winner),)),
        Step(5, "Trick: turns and tricks", (("Trick", checks.check_trick),)),
        Step(6, "your tests of trick_winner",
             (("my_trick_winner_tests", checks.check_trick_winner_tests),)),
    ),
    game=lambda **parts: trick_table(**parts),
    presenter=lambda **parts: presenter_view(**parts),
)


def presenter_view(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the lecture-hall presenter view (a trick and why it is won) on ``parts``."""
    from .presenter import presenter_view as view

    return view(seed=seed, **parts)


def trick_table(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the table's view on the student's parts, a deal already under way (``seed``
    repeats the deals)."""
    from .model import TrickTable
    from .view import TrickView

    return TrickView(TrickTable(seed=seed, **parts))
