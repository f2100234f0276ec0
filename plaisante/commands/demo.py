"""The lecture-hall presenter view of an assignment, in Voila.

Full screen, on the kit's reference functions, or with --student on a student's submitted
functions (run in the grading sandbox). Every assignment of the course has one, each with
an x-ray of the rule it teaches beside its cards. The page's Cards box
deals exactly the cards written (e.g. 'Kh Kd 3c 7s 9h').
"""

from __future__ import annotations

import argparse

from . import course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignment, the first deal's seed, the port, and whose functions to play on."""
    parser.add_argument("assignment", nargs="?", metavar="ID",
                        help="the assignment (default: the course's first)")
    parser.add_argument("--seed", type=int,
                        help="the first deal's seed (default 2026): every load of the page "
                             "deals the same cards")
    parser.add_argument("--port", type=int, default=8866,
                        help="the server's port (default 8866)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the address, open nothing")
    parser.add_argument("--student", help="play on this student's submitted functions (run in "
                                           "the grading sandbox) instead of the reference")


def run(args: argparse.Namespace) -> int:
    """Serve the presenter view until stopped; return Voila's exit status."""
    from ..games import COURSE
    from ..live import demo

    return demo.serve(course_layout(args).root, args.assignment or COURSE[0], seed=args.seed,
                      student=args.student, port=args.port, open_browser=not args.no_browser)
