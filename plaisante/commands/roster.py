"""Names and emails of the class (nbgrader's student table).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The roster's own verbs: ``import FILE.csv``."""
    roster = parser.add_subparsers(dest="roster_command", required=True)
    p = roster.add_parser("import", help="import a CSV: a header row with id (or student_id) "
                                         "and any of first_name, last_name, email, "
                                         "lms_user_id (their login or user number in the "
                                         "LMS: submit files a download's work under the id)")
    p.add_argument("file", type=Path, help="the roster: a .csv file (commas, semicolons or tabs)")


def run(args: argparse.Namespace) -> int:
    """Import the CSV file into the gradebook, saying how many students; return 0. Raises
    ValueError for a file that is not such a CSV."""
    from ..results.roster import import_roster

    count = import_roster(args.file, course_layout(args).root)
    print(f"plaisante roster: {count} student(s) from {args.file} are in the gradebook")
    return 0
