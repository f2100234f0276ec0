"""Build the starters as a static JupyterLite site: students need nothing installed.

Students open a starter in their browser, with nothing installed, and download the notebook
to hand it in. The site needs no network:
Pyodide and every wheel are served from the site (fetched once by `make lite-assets`)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The verb's arguments: the assignment ids (default: every one) and ``--out DIR``."""
    parser.add_argument("assignments", nargs="*", metavar="ID",
                        help="assignment ids (default: every one with a starter)")
    parser.add_argument("--out", type=Path, required=True,
                        help="the site's folder (created; an earlier site there is replaced)")


def run(args: argparse.Namespace) -> int:
    """Build the site from the course's starters (``starter/ID/ID.ipynb``); print where it is
    and how to serve it. Raises ValueError for an unknown id or a missing starter."""
    from ..lite import site
    from . import chosen, course_layout

    layout = course_layout(args)

    starters = {}
    for assignment in chosen(layout, args.assignments):
        notebook = layout.release(assignment)
        if not notebook.is_file():
            raise ValueError(f"{assignment} has no starter ({notebook}): run "
                             f"`plaisante release {assignment}` first")
        starters[assignment] = notebook
    began = time.monotonic()
    out = site.build(args.out, starters)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"plaisante lite: {', '.join(starters)} -> {out} ({size / 1e6:.0f} MB, "
          f"{time.monotonic() - began:.0f} s); try it: python -m http.server -d {out}")
    return 0
