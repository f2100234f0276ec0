"""Keep a grader running for this course, warm, so that `grade ID --student S` hands it the
submission and answers at once (Ctrl-C stops it).

Keep a grader running for this course, warm, so that `plaisante grade ID --student S` hands it
the submission and answers in about half a second, with the same scores. It runs in the
foreground: Ctrl-C, or `plaisante grader --stop` from another terminal, stops it. It restarts
itself when the kit's code changes.
"""

from __future__ import annotations

import argparse

from . import chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignment to get ready for, the workers kept warm, the sandbox, ``--stop``."""
    parser.add_argument("assignment", nargs="?", help="the assignment to get ready for "
                        "(default: the one submitted to last); any is graded")
    parser.add_argument("--workers", type=int, default=1,
                        help="grading processes kept warm (default: %(default)s)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="get ready for unsandboxed grading (only for notebooks you trust)")
    parser.add_argument("--stop", action="store_true", help="stop this course's running grader")


def run(args: argparse.Namespace) -> int:
    """Serve until stopped and return the server's status; with ``--stop``, stop the running
    grader and return 0, or 1 when none runs."""
    from ..grading import service

    layout = course_layout(args)
    if args.stop:
        stopped = service.ask_to_stop(layout.root)
        print("plaisante grader: " + (f"stopped the grader of {layout.root} (pid {stopped})"
                                      if stopped else f"no grader serves {layout.root}"))
        return 0 if stopped else 1
    if args.assignment:
        chosen(layout, [args.assignment])
    return service.serve(layout.root, assignment=args.assignment, workers=args.workers,
                         sandbox=not args.no_sandbox)
