"""The class report: assignments/reports/ID/index.html with figures (histogram, steps, failing
test cells).
"""

from __future__ import annotations

import argparse

from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments (default: every one someone submitted to) and ``--open``."""
    add_assignment_ids(parser)
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")


def run(args: argparse.Namespace) -> int:
    """Write each report page, saying where; return 0."""
    from ..results import class_report as report

    layout = course_layout(args)
    for assignment in chosen(layout, args.assignments):
        if not args.assignments and not layout.submitted_students(assignment):
            continue
        page = report.write(layout.root, assignment)
        print(f"plaisante report: wrote {page}")
        if stale := report.stale_feedback(layout.root, assignment):
            print(f"plaisante report: the feedback page of {', '.join(stale)} is older than "
                  f"their grade (it shows an earlier score): run `plaisante feedback "
                  f"{assignment}`, then `plaisante report {assignment}` again")
        if args.open:
            import webbrowser

            if not webbrowser.open(page.as_uri()):
                print(f"plaisante report: no web browser to open here (a server without a "
                      f"display?): open {page} in yours (from another machine: copy "
                      f"{page.parent} there first)")
    return 0
