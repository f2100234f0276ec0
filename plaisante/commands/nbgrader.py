"""Run any nbgrader command from the course root.
"""

from __future__ import annotations

import argparse

from .. import course
from . import course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Everything after the verb goes to nbgrader as it is."""
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="nbgrader's command and its arguments, as `nbgrader ARGS…` takes them")


def run(args: argparse.Namespace) -> int:
    """Run ``nbgrader ARGS…`` in the course folder; return its exit status."""
    return course.run_nbgrader(*args.args, root=course_layout(args).root,
                               check=False).returncode
