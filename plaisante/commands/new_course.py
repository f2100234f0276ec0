"""Make a new course folder from the kit's course: its nbgrader_config.py and solutions/.

plaisante new-course FOLDER [ID …] [--course-id ID]: FOLDER must not exist yet, or be empty
(one that holds anything is refused; nothing is ever written over). It gets the kit's
nbgrader_config.py, whose folders, gradebook (assignments/gradebook.db) and exchange
(assignments/exchange) are all inside FOLDER, with the course id set to FOLDER's name (or
--course-id), solutions/ID/ of the assignments named (default: all five) and an empty
assignments/ (the gradebook's folder). Then, from FOLDER,
plaisante release makes starter/ and puts them in the exchange (the formgrader lists them as
"draft" until then). Run it with the kit's clone's plaisante (the new course is made from it).
"""

from __future__ import annotations

import argparse
import os


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``new-course FOLDER [ID …] [--course-id ID]``."""
    parser.add_argument("folder", metavar="FOLDER",
                        help="the new course's folder (must not exist yet, or be empty)")
    parser.add_argument("assignments", nargs="*", metavar="ID",
                        help="the kit's assignments the course gets (default: all five)")
    parser.add_argument("--course-id", help="nbgrader's course id (default: FOLDER's name)")


def run(args: argparse.Namespace) -> int:
    """Make the course; print what it holds and what to run next; return 0."""
    from pathlib import Path

    from ..authoring.new_course import make_course

    if getattr(args, "course", None):
        raise ValueError("new-course makes the course FOLDER names; --course names one that "
                         "exists already: leave it out (plaisante new-course FOLDER)")
    made = make_course(Path(args.folder), args.assignments, args.course_id)
    shown = os.path.relpath(made.root) if made.root.is_relative_to(Path.cwd()) else made.root
    print(f"plaisante new-course: made {made.root} (course id {made.course_id}): "
          f"nbgrader_config.py, assignments/, and solutions/ with {', '.join(made.assignments)}")
    print(f"Next: cd {shown} && plaisante release    # starter/ and the exchange: until then "
          "the formgrader lists them as draft")
    return 0
