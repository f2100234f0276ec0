"""After fixing a test in solutions/: release again, grade everyone, say whose score changed.

Each assignment (default: every one someone submitted to) is generated again from its source,
its submissions are graded as `plaisante grade` grades them, and the students whose total or
flag changed are listed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import course
from . import add_assignment_ids, chosen, course_layout
from .grade import add_grading_options, grade_assignment


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments, and the options of ``grade``."""
    add_assignment_ids(parser)
    add_grading_options(parser)


def run(args: argparse.Namespace) -> int:
    """Regrade each chosen assignment; return the worst exit status of its grading."""
    layout = course_layout(args)
    statuses = [regrade(layout.root, assignment, args)
                for assignment in chosen(layout, args.assignments)
                if args.assignments or layout.submitted_students(assignment)]
    return max(statuses, default=0)


def regrade(root: Path, assignment: str, args: argparse.Namespace) -> int:
    """Release ``assignment`` again (its source may have changed), grade its submissions, and
    print whose total changed; return the exit status."""
    from nbgrader.api import MissingEntry

    from ..results import scores

    def totals() -> dict[str, tuple[float, bool]]:
        try:
            return {r.student: (r.total, r.flagged) for r in scores.class_rows(root, assignment)}
        except MissingEntry:
            return {}

    before = totals()
    print(f"plaisante regrade: releasing {assignment!r} again from "
          f"{course.CourseLayout(root).source(assignment)}")
    # ERROR, as release: at WARN nbgrader says it is "Removing existing assignment", which it
    # always is here (--force replaces the starter, the point of regrading)
    course.run_nbgrader("generate_assignment", assignment, "--force", "--log-level=ERROR",
                        root=root)
    status = grade_assignment(root, assignment, args)
    print("\n".join(regrade_summary(assignment, before, totals())))
    return status


def regrade_summary(assignment: str, before: dict[str, tuple[float, bool]],
                    after: dict[str, tuple[float, bool]]) -> list[str]:
    """Return what regrade says: the students whose total changed (old -> new, the
    difference), then, apart, those whose flag changed (with their total, changed or not).
    ``before`` and ``after`` map each student to (total, flagged)."""
    def flag(flagged: bool) -> str:
        return "flagged" if flagged else "not flagged"

    scores, flags = [], []
    for student in sorted(after):
        old, new = before.get(student), after[student]
        if old is None:
            scores.append(f"  {student}: not graded -> {new[0]:g}")
            if new[1]:
                flags.append(f"  {student}: not graded -> flagged (score {new[0]:g})")
            continue
        if abs(old[0] - new[0]) > 1e-9:
            scores.append(f"  {student}: {old[0]:g} -> {new[0]:g}  ({new[0] - old[0]:+g})")
        if old[1] != new[1]:
            score = (f"score {new[0]:g}, unchanged" if abs(old[0] - new[0]) <= 1e-9
                     else f"score {old[0]:g} -> {new[0]:g}")
            flags.append(f"  {student}: {flag(old[1])} -> {flag(new[1])} ({score})")
    lines = [f"plaisante regrade: {len(scores)} score(s) of {assignment!r} changed:", *scores]\
        if scores else [f"plaisante regrade: no score of {assignment!r} changed"]
    if flags:
        lines += [f"plaisante regrade: {len(flags)} flag(s) of {assignment!r} changed:", *flags]
    if scores or flags:
        lines.append(f"Return the new feedback with `plaisante feedback {assignment}`.")
    return lines
