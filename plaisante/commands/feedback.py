"""Generate feedback HTML (hidden tests' code left out).

nbgrader's generate_feedback, one page per graded submission in
assignments/feedback/STUDENT/ID/; where nbgrader makes none, a page with the grader's reasons.
A failing hidden check is named by its rule line; with --reveal, after the assignment's due date
(in the gradebook; --force before it), its message in full: input, expected, got.
Each page is ready for nbgrader's release_feedback: the submission's exchange files beside it,
and a copy under the name the student handed the notebook in as (plaisante-Copy1.html).
Exits 1 when a page asked for is missing: nbgrader made none, or the work is not graded yet (a
--student named, or nothing of a named assignment graded: run grade first); 2 for a --student
with no submission. Run for every assignment (none named), an assignment none of whose
submissions is graded yet is said on stderr, and is no failure.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from typing import Any

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments (default: every one) and the students (default: every one)."""
    add_assignment_ids(parser)
    parser.add_argument("--student", action="append", help="only this student (repeatable)")
    parser.add_argument("--reveal", action="store_true",
                        help="after the due date: show failing hidden checks in full (input, "
                        "expected, got)")
    parser.add_argument("--force", action="store_true",
                        help="with --reveal: reveal even before the due date")


def run(args: argparse.Namespace) -> int:
    """Write the feedback pages; return 0, or 1 when nbgrader made no page for some graded
    submission (a page of the grader's reasons is written instead), or when a page could not
    be made because its submission is not graded yet, for a student named with ``--student``
    or for every submission of an assignment named (a class half graded is no failure, nor,
    run for every assignment, one not graded at all: they get their pages once graded).
    Raises ValueError for a ``--student`` with no submission."""
    from ..grading.feedback import write_missing_pages
    from ..grading.handed_in import feedback_as_handed_in
    from ..results.tables import plain

    layout = course_layout(args)
    root = layout.root
    failed: list[str] = []
    ungraded_asked = False
    if args.force and not args.reveal:
        raise ValueError("--force only goes with --reveal (reveal hidden checks before the "
                         "due date)")
    assignments = chosen(layout, args.assignments)
    reveal = []
    if args.reveal:
        reveal = [f"--HideHiddenTests.reveal={'always' if args.force else 'after_due_date'}"]
        if not args.force:
            for assignment in assignments:
                refuse_before_due(layout, assignment)
    for assignment in assignments:
        present = layout.submitted_students(assignment)
        for student in args.student or []:
            if student not in present:
                raise ValueError(f"no submission of {assignment!r} for student "
                                 f"{student!r}; submitted: {', '.join(present) or 'none'}")
        if not present:
            if args.assignments:
                print(f"plaisante feedback: no submissions of {assignment!r} yet, so no page "
                      "(plaisante submit, then plaisante grade)")
            continue
        wanted = args.student or present
        ungraded = [s for s in wanted if not layout.autograded(s, assignment).is_file()
                    and not layout.report(assignment, s).is_file()]
        if ungraded:
            print(f"plaisante feedback: not graded yet, so no page of {assignment!r} for "
                  f"{', '.join(ungraded)}: run `plaisante grade {assignment}` first",
                  file=sys.stderr)
            # with no assignment named, every assignment with submissions is looked at: one
            # still being handed in, none graded yet, is the normal state of the current week
            ungraded_asked = ungraded_asked or bool(args.student) or (
                bool(args.assignments) and len(ungraded) == len(wanted))
        if len(ungraded) == len(wanted):
            continue  # nbgrader would only say it matched no notebook
        said = course.run_nbgrader("generate_feedback", assignment, "--force",
                                   *only_students(args.student, present), *reveal,
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
    return 1 if failed or ungraded_asked else 0


def refuse_before_due(layout: Any, assignment: str) -> None:
    """Raise ValueError (one line, naming the due date) unless ``assignment``'s due date in
    the gradebook has passed."""
    from ..grading.feedback import due_date

    due = due_date(layout.gradebook_url, assignment)
    if due is None:
        raise ValueError(f"--reveal: {assignment!r} has no due date in the gradebook (set one "
                         f"with `plaisante nbgrader db assignment add {assignment} --duedate=…`"
                         "), or add --force")
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    if now < due:
        raise ValueError(f"--reveal: {assignment!r} is due {due:%Y-%m-%d %H:%M} UTC; hidden "
                         "checks are shown in full only after it (or add --force)")


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
