"""Which students' code is suspiciously alike: pairs ranked, side by side (docs/similarity.md).

Compares the code of the answer cells only (the starter's lines and code never count),
pairwise, with copydetect's fingerprints (winnowing over normalised tokens, as MOSS does):
renamed variables, reordered functions, changed comments and whitespace do not hide a copy.
Writes assignments/reports/ID/similarity.html (each pair above the threshold, step by step,
the matching regions highlighted) and prints the ranking. Unreadable submissions are skipped
with a line saying so.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..similarity.compare import DEFAULT_MIN_MATCH, DEFAULT_THRESHOLD

    parser.add_argument("assignments", nargs="*", metavar="ID",
                        help="assignment ids (default: every one with submissions)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="list a pair when one side has at least this share of its code "
                             "(0 to 1) in passages the other shares (default "
                             f"{DEFAULT_THRESHOLD})")
    parser.add_argument("--min-match", type=int, default=DEFAULT_MIN_MATCH, metavar="CHARS",
                        help="the shortest passage that counts, in characters of normalised "
                             "code: names as one letter, no spaces or comments (default "
                             f"{DEFAULT_MIN_MATCH}; 5 to 500)")
    parser.add_argument("--include-reference", action="store_true",
                        help="compare the reference solution (solutions/) too, as a student: "
                             "finds copies of a leaked solution")
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")


def run(args: argparse.Namespace) -> int:
    from ..similarity.compare import check_options, similarity
    from ..similarity.page import table, write
    from . import chosen, course_layout

    check_options(args.threshold, args.min_match)
    layout = course_layout(args)
    root = layout.root
    done = 0
    for assignment in chosen(layout, args.assignments):
        if not args.assignments and not layout.submitted_students(assignment):
            continue
        done += 1
        result = similarity(root, assignment, threshold=args.threshold,
                            min_match=args.min_match, include_reference=args.include_reference)
        page = write(root, result, _title(assignment))
        print(table(result))
        print(f"plaisante similarity: wrote {page}")
        if args.open:
            import webbrowser

            webbrowser.open(page.as_uri())
    if not done:
        print(f"plaisante similarity: no submissions yet in {layout.submitted_root}")
    return 0


def _title(assignment: str) -> str:
    try:
        from ..games import COURSE, load

        if assignment in COURSE:
            return f"{load(assignment).title} ({assignment})"
    except Exception:  # noqa: BLE001  a description that does not load still has an id
        pass
    return assignment
