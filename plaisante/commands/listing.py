"""List the course's assignments.

One line each, in teaching order: its id, its title, whether it is generated and released, and
how many students submitted it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import course
from . import course_layout, known_assignments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``list`` takes no argument of its own."""


def run(args: argparse.Namespace) -> int:
    """Print the course's assignments (or that it has none yet); return 0."""
    from ..games import COURSE, load

    layout = course_layout(args)
    ordered = known_assignments(layout)
    if not ordered:
        source = layout.source_root
        where = source.relative_to(layout.root) if source.is_relative_to(layout.root) else source
        print(f"{layout.root}: a course with no assignments yet (none in {where}/: an "
              f"assignment is {where}/ID/ID.ipynb, an nbgrader source notebook)")
        return 0
    titles = {a: load(a).title if a in COURSE else "" for a in ordered}
    wide = max((len(a) for a in ordered), default=0), max(map(len, titles.values()), default=0)
    states = {a: release_state(layout, a) for a in ordered}
    wide_state = max(map(len, states.values()), default=0)
    for assignment in ordered:
        count = len(layout.submitted_students(assignment))
        print(f"{assignment:<{wide[0]}}  {titles[assignment]:<{wide[1]}}  "
              f"{states[assignment]:<{wide_state}}  {count} submission(s)")
    return 0


def release_state(layout: course.CourseLayout, assignment: str) -> str:
    """Return what ``list`` says of an assignment's release: whether its student version is
    generated in ``starter/``, and whether it is released into nbgrader's exchange (students
    can fetch it; the formgrader says "released") or not (the formgrader says "draft").
    Nothing is made: a course without an exchange folder has released nothing into it."""
    if not layout.release(assignment).is_file():
        return "not generated (plaisante release)"
    config = course.course_config(layout.root)
    exchange = config.get("Exchange", {}).get("root")
    course_id = config.get("CourseDirectory", {}).get("course_id")
    if not isinstance(exchange, str) or not exchange or not isinstance(course_id, str):
        return "in starter/ (no exchange configured)"
    if (Path(exchange) / course_id / "outbound" / assignment).is_dir():
        return "released (students can fetch it)"
    return "in starter/, not released (plaisante release)"
