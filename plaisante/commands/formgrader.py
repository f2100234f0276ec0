"""JupyterLab on the course with nbgrader's formgrader open (roster names shown; Ctrl-C stops it).
"""

from __future__ import annotations

import argparse

from . import course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The port, whether to open a browser, and more JupyterLab options after ``--``."""
    parser.add_argument("--port", type=int,
                        help="the server's port (default: JupyterLab's, 8888)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open a browser (a server)")
    parser.add_argument("lab_args", nargs=argparse.REMAINDER,
                        help="more JupyterLab options, after --, e.g. -- --ServerApp.ip=0.0.0.0")


def run(args: argparse.Namespace) -> int:
    """Serve until stopped; return JupyterLab's exit status."""
    from ..formgrader.server import serve

    extra = tuple(a for a in args.lab_args if a != "--")
    return serve(course_layout(args).root, port=args.port, open_browser=not args.no_browser,
                 extra=extra)
