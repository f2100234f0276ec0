"""Generate the student version into starter/ and release it into the course's exchange.

nbgrader's generate_assignment, from solutions/ID/ID.ipynb; then, when nbgrader_config.py sets
an exchange, nbgrader's release_assignment, so the formgrader says "released" and students can
fetch it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments to release (default: every one)."""
    add_assignment_ids(parser)


def run(args: argparse.Namespace) -> int:
    """Release each chosen assignment, saying what was made; return 0."""
    layout = course_layout(args)
    gradebook = layout.gradebook_file
    if gradebook is not None:  # the first release makes the gradebook: its folder first
        gradebook.parent.mkdir(parents=True, exist_ok=True)
    for assignment in chosen(layout, args.assignments):
        again = in_exchange(layout, assignment)
        course.run_nbgrader("generate_assignment", assignment, "--force", "--log-level=ERROR",
                            root=layout.root)
        print(f"plaisante release: {assignment} -> {released(layout, assignment)}"
              + (", replacing the earlier release" if again else ""))
    try:  # into the course's exchange too: "released" in the formgrader, fetched there
        from ..formgrader.server import release_to_exchange

        where = release_to_exchange(layout.root, chosen(layout, args.assignments))
        print(f"plaisante release: students can fetch {', '.join(chosen(layout, args.assignments))}"
              f" now (the exchange: {where})")
    except ValueError:
        pass  # a course whose nbgrader_config.py sets no exchange: nbgrader's default
    return 0


def released(layout: course.CourseLayout, assignment: str) -> str:
    """Return what ``release`` made of ``assignment``: the student version's path, its test
    cells and points."""
    path = layout.release(assignment)
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    graded = [c.get("metadata", {}).get("nbgrader", {}) for c in cells]
    points = sum(float(g.get("points", 0)) for g in graded if g.get("grade"))
    tests = sum(1 for g in graded if g.get("grade") and not g.get("solution"))
    shown = path.relative_to(layout.root) if path.is_relative_to(layout.root) else path
    return f"{shown} ({tests} test cells, {points:g} points)"


def in_exchange(layout: course.CourseLayout, assignment: str) -> bool:
    """Return True when ``assignment`` is already in the course's exchange (released to
    students before, who may have fetched it); False when it is not, or when the course sets
    no exchange. The starter already in ``starter/`` (a fresh clone ships one) is not a
    release students saw."""
    config = course.course_config(layout.root)
    root = config.get("Exchange", {}).get("root")
    course_id = config.get("CourseDirectory", {}).get("course_id")
    if not isinstance(root, str) or not root or not isinstance(course_id, str) or not course_id:
        return False
    return (Path(root) / course_id / "outbound" / assignment).is_dir()
