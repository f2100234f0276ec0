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
from pathlib import Path

from ..course import CourseLayout, course_root


def course_layout(args: argparse.Namespace) -> CourseLayout:
    """Return the layout of the course the command acts on: ``--course`` (``args.course``),
    else the one found from the current folder (``course.course_root``). Raises
    FileNotFoundError naming where it looked when there is none, or the ``--course`` given
    when it is no folder."""
    course = getattr(args, "course", None)
    if not course:
        return CourseLayout(course_root())
    root = Path(course).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"--course {root}: no such folder; give the course's folder "
                                "(the one holding nbgrader_config.py)")
    return CourseLayout(root)


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
