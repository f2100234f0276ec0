"""Print per-step scores from the gradebook.

A table per assignment someone submitted to: each student's points per step, the maximum and
the class average of the work that is not flagged; flagged work is marked with its reason, and
a grade given by hand in the formgrader is named under the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments (default: every one) and the students (default: every one)."""
    add_assignment_ids(parser)
    parser.add_argument("--student", action="append",
                        help="only this student (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Print the tables; return 0. Raises ValueError for a malformed student id."""
    layout = course_layout(args)
    print_scores(layout.root, chosen(layout, args.assignments), args.student)
    return 0


def print_scores(root: Path, assignments: list[str], students: list[str] | None) -> None:
    """Print a table of per-step scores for each of ``assignments`` someone submitted to: of
    ``students`` (default: every one with a submission), with the maximum and the average of
    the work that is not flagged; flagged work is marked with its reason."""
    from nbgrader.api import MissingEntry

    from ..results import scores
    from ..results.tables import scores_table

    for student in students or []:
        if not course.STUDENT_ID.fullmatch(student):
            raise ValueError(f"student id {student!r}: use ASCII letters, digits, '_' and "
                             "'-' (not first) only")
    layout = course.CourseLayout(root)
    submitted = {a: layout.submitted_students(a) for a in assignments}
    shown = [a for a in assignments if submitted[a]] or assignments[:1]
    for index, assignment in enumerate(shown):
        try:
            rows = scores.class_rows(root, assignment)
        except MissingEntry:
            rows = []
        graded = {row.student for row in rows}
        if students:
            rows = [row for row in rows if row.student in students]
        waiting = [s for s in students or submitted[assignment] if s not in graded]
        if index:
            print()
        if rows:
            print(scores_table(rows, scores.step_titles(assignment), title=assignment))
            for line in manual_lines(rows):
                print(line)
        elif not waiting:
            print(f"{assignment}: no submissions yet (plaisante submit, then plaisante grade)")
        where = f" ({assignment})" if len(shown) > 1 else ""
        for student in waiting:
            print(f"{student} not graded yet{where}")
        for student, why in sorted(scores.nothing_handed_in(layout, assignment).items()):
            if not students or student in students:
                print(f"{student}: nothing graded{where}: {why}")


def manual_lines(rows: list[Any]) -> list[str]:
    """Return one line per student of ``rows`` (``scores.Row``) whose total holds a grade
    given by hand in the formgrader, naming its test cells, e.g. "manual grade: bob
    (step2_count_values), counted in the total instead of the autograded score"; none when
    no grade was given by hand."""
    return [f"manual grade: {row.student} ({', '.join(row.manual)}), counted in the total "
            "instead of the autograded score" for row in rows if row.manual]
