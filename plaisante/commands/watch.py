"""A class, live on a shared server: watch nbgrader's exchange, grade each new submission in
the sandbox, release its feedback within seconds, keep the lab board up to date."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("assignment", metavar="ID", help="the assignment students submit")
    parser.add_argument("--board-port", type=int, metavar="PORT",
                        help="serve the lab board on 127.0.0.1:PORT (default: only written to "
                             "assignments/reports/ID/board/)")
    parser.add_argument("--anonymous", action="store_true",
                        help="no student id on the board (for the projector)")
    parser.add_argument("--workers", type=int, default=1,
                        help="submissions graded at once (default 1)")


def run(args: argparse.Namespace) -> int:
    from ..course import course_root
    from ..live.watch import watch

    port = args.board_port
    if port is not None and not 0 <= port <= 65535:
        raise ValueError(f"--board-port must be 0-65535 (0: any free port), got {port}")
    root = Path(args.course).resolve() if args.course else course_root()
    stop = threading.Event()

    def on_term(_signum: int, _frame: Any) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        return watch(root, args.assignment, port=port, anonymous=args.anonymous,
                     workers=args.workers, stop=stop)
    finally:
        signal.signal(signal.SIGTERM, previous)
