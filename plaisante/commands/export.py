"""Export grades to CSV (nbgrader export): per-step columns, flagged and reason; or an LMS layout.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments, the CSV file, its layout and the students."""
    add_assignment_ids(parser)
    parser.add_argument("--to", default="grades.csv",
                        help="the CSV file (default: %(default)s)")
    parser.add_argument("--layout", choices=("steps", "lms"), default="steps",
                        help="steps: one row per submission, each step's points, total, max, "
                             "flagged, reason, timestamp, late penalty (default); lms: one row "
                             "per student, an id column and one column per assignment, for a "
                             "Canvas or Moodle grade book import (README)")
    parser.add_argument("--student", action="append", help="only this student (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Write the CSV file; return 0. Raises FileNotFoundError when its folder does not exist,
    ``subprocess.CalledProcessError`` when nbgrader's export fails."""
    from ..results.export import LAYOUTS

    layout = course_layout(args)
    target = Path(args.to).resolve()
    if not target.parent.is_dir():
        raise FileNotFoundError(f"cannot write {target}: folder {target.parent} does not exist")
    flags = [f"--assignment={a}" for a in chosen(layout, args.assignments) if args.assignments]
    flags += [f"--student={s}" for s in args.student or []]
    course.run_nbgrader("export", f"--exporter={LAYOUTS[args.layout]}", f"--to={target}",
                        *flags, "--log-level=WARN", root=layout.root)
    print(f"plaisante export: wrote {target} ({args.layout} layout)")
    return 0
