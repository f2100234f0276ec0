"""Copy a student's notebook into assignments/submitted; or every notebook of a folder or
.zip (LMS download).

A notebook needs --student; a folder with --student is that student's submission (its notebooks
and the data files beside them); a folder or .zip without it is a class, each student's newest
attempt found by --pattern or by the names LMS downloads give. Nothing unreadable is collected.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..intake import submitted
from ..intake.hand_in import assignment_of, refuse_unreadable, submit_many
from . import chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The notebook, folder or .zip; the student, the file-name pattern, the assignment,
    ``--replace`` and the download's time zone."""
    parser.add_argument("notebook", type=Path, help="a notebook (with --student), or a folder "
                                                    "or .zip of notebooks named by --pattern")
    parser.add_argument("--student", help="the student's id (a notebook, or one student's "
                                          "folder: its notebooks and data files)")
    parser.add_argument("--pattern", help="for a folder or .zip: a regex with a "
                                          "(?P<student_id>…) group that must match a whole "
                                          "file name, with or without its .ipynb (so "
                                          "'(?P<student_id>[a-z]+)_\\d+_deck' names "
                                          "smithkara_1234_deck.ipynb; default: the names "
                                          "Canvas, Moodle, Blackboard and Brightspace "
                                          "downloads give, else ID.ipynb)")
    parser.add_argument("--assignment", help="its assignment (default: the one whose cells the "
                                             "notebook holds; checked either way)")
    parser.add_argument("--replace", action="store_true",
                        help="replace an earlier submission (kept in assignments/replaced/)")
    parser.add_argument("--timezone", help="for an LMS download: the time zone of the times in "
                                           "its file names (an IANA name; default UTC)")


def run(args: argparse.Namespace) -> int:
    """Submit; return 0, or 1 when a class download had work that was refused. Raises
    ValueError (one line: what, and what to do) for a notebook that cannot be submitted."""
    layout = course_layout(args)
    chosen(layout, [args.assignment] if args.assignment else [])
    if args.notebook.is_dir() or args.notebook.suffix.lower() == ".zip":
        return submit_many(layout, args)
    if not args.student:
        raise ValueError("submit NOTEBOOK needs --student ID (a folder or .zip of "
                         "notebooks needs none: --pattern names them)")
    refuse_unreadable(args.notebook)
    assignment = assignment_of(layout, args.notebook, args.assignment)
    # as a folder's submission says it: whose, and where it went
    target = submitted.submit(args.notebook, args.student, layout.root, replace=args.replace,
                              assignment=assignment)
    print(f"{args.student}: {target} ({assignment})")
    return 0
