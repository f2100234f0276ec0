"""Generate feedback HTML (hidden tests' code left out).

nbgrader's generate_feedback, one page per graded submission in
assignments/feedback/STUDENT/ID/; where nbgrader makes none, a page with the grader's reasons.
Each page is ready for nbgrader's release_feedback: the submission's exchange files beside it,
and a copy under the name the student handed the notebook in as (plaisante-Copy1.html).
"""

from __future__ import annotations

import argparse
import sys

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments (default: every one) and the students (default: every one)."""
    add_assignment_ids(parser)
    parser.add_argument("--student", action="append", help="only this student (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Write the feedback pages; return 0, or 1 when nbgrader made no page for some graded
    submission (a page of the grader's reasons is written instead). Raises ValueError for a
    ``--student`` with no submission."""
    from ..grading.feedback import write_missing_pages
    from ..grading.handed_in import feedback_as_handed_in
    from ..tables import plain

    layout = course_layout(args)
    root = layout.root
    failed: list[str] = []
    for assignment in chosen(layout, args.assignments):
        present = layout.submitted_students(assignment)
        for student in args.student or []:
            if student not in present:
                raise ValueError(f"no submission of {assignment!r} for student "
                                 f"{student!r}; submitted: {', '.join(present) or 'none'}")
        if not present:
            continue
        said = course.run_nbgrader("generate_feedback", assignment, "--force",
                                   *only_students(args.student, present),
                                   "--log-level=ERROR", root=root, check=False, capture=True)
        sys.stdout.write(said.stdout)
        unmade = [s for s in args.student or present
                  if layout.autograded(s, assignment).is_file()
                  and not layout.feedback(s, assignment).is_file()]
        for page in write_missing_pages(root, assignment, args.student, after_nbgrader=True):
            print(f"plaisante feedback: no notebook to show, wrote the grader's reasons "
                  f"to {page}")
        if unmade:
            last = said.stderr.strip().splitlines()[-1:] or ["no error shown"]
            failed.append(f"nbgrader made no feedback page of {assignment!r} for "
                          f"{', '.join(unmade)} (a page with the grader's reasons instead); "
                          f"nbgrader said: {plain(last[0])[:300]}")
        else:
            sys.stderr.write(said.stderr)
        made = [s for s in args.student or present if layout.feedback(s, assignment).is_file()]
        feedback_as_handed_in(root, assignment, made)
        print(f"plaisante feedback: {len(made)} page(s) of {assignment!r} in "
              f"{layout.feedback('STUDENT', assignment)}")
    for line in failed:
        print(f"plaisante feedback: {line}", file=sys.stderr)
    return 1 if failed else 0


def only_students(asked: list[str] | None, present: list[str]) -> list[str]:
    """Return the nbgrader options that limit a converter (generate_feedback, autograde) to
    the ``asked`` students of those ``present``: nbgrader's ``--student`` is one glob, so a
    repeated one keeps only the last; several are every present student but the others
    (``CourseDirectory.student_id_exclude``). None asked: no option, every student."""
    wanted = list(dict.fromkeys(asked or []))
    if not wanted:
        return []
    if len(wanted) == 1:
        return [f"--student={wanted[0]}"]
    others = [s for s in present if s not in wanted]
    return [f"--CourseDirectory.student_id_exclude={','.join(others)}"] if others else []
