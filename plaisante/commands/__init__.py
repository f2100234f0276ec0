"""The verbs of the ``plaisante`` command, one module each; ``plaisante.cli`` is their table.

A verb's module has a docstring that is its help (the first paragraph is the line
``plaisante --help`` shows; the whole text is what ``plaisante VERB --help`` shows above the
options) and two functions::

    def add_arguments(parser: argparse.ArgumentParser) -> None: ...  # its own options
    def run(args: argparse.Namespace) -> int: ...                    # do it; the exit status

``args`` holds the shared options too (``args.course``: the course folder asked for, or None).
A verb raises ValueError, FileNotFoundError, FileExistsError, PermissionError or RuntimeError,
with a one-line message saying what was wrong and what is allowed, for a run that cannot go
on: ``plaisante.cli`` prints it as ``plaisante: MESSAGE`` and exits with status 2. It imports
what it needs inside ``run``, so that ``plaisante --help`` stays quick.

The helpers below are what several verbs share.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..course import CourseLayout, find_course, kit_course


def course_layout(args: argparse.Namespace, *, configured: bool = True) -> CourseLayout:
    """Return the layout of the course the command acts on, chosen in this order: ``--course``
    (``args.course``), the environment variable PLAISANTE_COURSE, else the course the current
    folder is in (``course.find_course``: it or a folder above holds ``nbgrader_config.py``).
    The kit's own clone is never chosen for want of another: a command run outside any course
    must not release, grade or write feedback into the kit's. Raises FileNotFoundError, in
    one line saying what to do, when the folder named is no folder or no course, or when the
    current folder is in no course and none is named. With ``configured`` False (``new-game``,
    which writes into a kit's source tree and checks that itself) a folder named need not
    hold ``nbgrader_config.py``."""
    given = getattr(args, "course", None)
    if given:
        return CourseLayout(named_course(Path(given), "--course", configured))
    if os.environ.get("PLAISANTE_COURSE"):
        return CourseLayout(named_course(Path(os.environ["PLAISANTE_COURSE"]),
                                         "PLAISANTE_COURSE", configured))
    here = Path.cwd()
    found = find_course(here)
    if found is None:
        raise FileNotFoundError(
            f"{here} is in no course (no nbgrader_config.py here or above) and neither "
            "--course nor PLAISANTE_COURSE names one; run plaisante from your course's folder "
            f"or give it with --course FOLDER{kit_hint()}")
    return CourseLayout(found)


def named_course(folder: Path, named_by: str, configured: bool = True) -> Path:
    """Return ``folder`` (given by ``named_by``: ``--course`` or ``PLAISANTE_COURSE``),
    resolved, when it is a course's root (holds ``nbgrader_config.py``, unless not
    ``configured``); else raise FileNotFoundError saying what it is."""
    root = folder.resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"{named_by} {root}: no such folder; give the course's folder "
                                "(the one holding nbgrader_config.py)")
    if configured and not (root / "nbgrader_config.py").is_file():
        raise FileNotFoundError(f"{named_by} {root}: not a course (no nbgrader_config.py "
                                f"there); give the course's folder{kit_hint()}")
    return root


def kit_hint() -> str:
    """The end of a message saying no course was found: where the kit's own course is
    (``--course`` it), and the command that makes a course of one's own from it
    (``new-course``); nothing when this kit is an installed package with no course beside it."""
    kit = kit_course()
    if kit is None:
        return ""
    return (f" (the kit's own course: --course {kit}; a new course of your own: plaisante "
            "new-course FOLDER)")


def add_assignment_ids(parser: argparse.ArgumentParser) -> None:
    """Add the positional ``assignments`` (``ID …``, default every one) of a verb that acts
    on some or all of the course's assignments (see ``chosen``)."""
    parser.add_argument("assignments", nargs="*", metavar="ID",
                        help="assignment ids (default: every one)")


def known_assignments(layout: CourseLayout) -> list[str]:
    """Return the course's assignments in teaching order: those of ``games.COURSE`` first, in
    its order, then any other the course has (``solutions/ID/ID.ipynb``)."""
    from ..games import COURSE

    found = layout.assignments()
    return [a for a in COURSE if a in found] + [a for a in found if a not in COURSE]


def chosen(layout: CourseLayout, asked: list[str]) -> list[str]:
    """Return the assignment ids a command acts on: ``asked`` (repeats dropped), or every one
    of the course. Raises ValueError naming the course's assignments for an id it does not
    have."""
    known = known_assignments(layout)
    for assignment in asked:
        if assignment not in known:
            raise ValueError(f"unknown assignment {assignment!r}; the course has: "
                             f"{', '.join(known) or 'none (no solutions/ID/ID.ipynb)'}")
    return list(dict.fromkeys(asked)) or known
