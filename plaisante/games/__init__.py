"""The course: its assignments, in teaching order (SPEC §6). Each is one module or package
here, ``plaisante.games.<id>``, whose ``ASSIGNMENT`` (a
``plaisante.student_side.assignment.Assignment``) describes it; this list is the only other place an
assignment is named."""

from __future__ import annotations

import importlib

from ..student_side.assignment import Assignment

COURSE: tuple[str, ...] = ("plaisante", "deck", "video_poker", "holdem", "tricks")


def load(assignment_id: str) -> Assignment:
    """Return the description of the assignment ``assignment_id``. Raises KeyError naming the
    course's assignments for any other id."""
    if assignment_id not in COURSE:
        raise KeyError(f"no assignment {assignment_id!r}; the course has: {', '.join(COURSE)}")
    return importlib.import_module(f"{__name__}.{assignment_id}").ASSIGNMENT
