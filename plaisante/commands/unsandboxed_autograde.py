"""Autograde submissions with plain nbgrader (trusts the student's code).

For notebooks you trust only: nbgrader runs them unsandboxed. `plaisante grade` is the way to
grade.
"""

from __future__ import annotations

import argparse

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments (default: every one) and the students (default: every one)."""
    add_assignment_ids(parser)
    parser.add_argument("--student", action="append",
                        help="only this student (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Run nbgrader's autograde per assignment (and per ``--student``); return 0. Raises
    ``subprocess.CalledProcessError`` when nbgrader fails."""
    layout = course_layout(args)
    for assignment in chosen(layout, args.assignments):
        if not args.student and not layout.submitted_students(assignment):
            print(f"plaisante autograde: no submissions of {assignment!r}, skipped")
            continue
        for student in args.student or [None]:
            flags = ["--student", student] if student else []
            course.run_nbgrader("autograde", assignment, "--force", *flags, root=layout.root)
    return 0
