"""The Plaisante notebook's last cell: ``play(...)`` checks the student's steps, then shows the
round or what still fails (the generic gate: ``plaisante.assignment``; the steps:
``plaisante.games.plaisante``).

Under nbgrader (``NBGRADER_EXECUTION`` is set) it only prints a line: grading never waits on a
widget.
"""

from __future__ import annotations

from typing import Any

from . import assignment
from .assignment import StepResult, checklist_html
from .games.plaisante import ASSIGNMENT

PART_NAMES: tuple[str, ...] = ASSIGNMENT.parts


def check_all(**parts: Any) -> list[StepResult]:
    """Return one StepResult per step (SPEC §3), in order. Every part in PART_NAMES is needed."""
    return assignment.check_all(ASSIGNMENT, parts)


def play(*, seed: int | None = None, four_colour: bool = False, **parts: Any) -> Any:
    """Check the student's parts; return a RoundView of a round on them, or the checklist.

    Keywords: Card, count_values, has_pair, has_three_of_a_kind, has_four_of_a_kind,
    has_two_pair, has_full_house, has_flush, has_straight, evaluate, total_value, base_mult,
    score, Tableau — the student's own objects. ``seed`` repeats a deal. Returns None (after one
    printed line) under nbgrader, where no widget should run.
    """
    return assignment.play(ASSIGNMENT, parts, seed=seed, four_colour=four_colour)


__all__ = ["PART_NAMES", "StepResult", "check_all", "checklist_html", "play"]
