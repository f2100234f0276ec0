"""How fast the class, live, answers a student: ``plaisante watch`` on nbgrader's exchange.

    python bench/hub.py [--submissions 30] [--keep]

As root (it makes Unix accounts: ``tests/hub_class.py``, without the hub itself): an
instructor running ``plaisante watch plaisante`` (the board on loopback) and three students,
each a process of their own account that submits with nbgrader's own ``ExchangeSubmit`` (the
code the Assignments panel's Submit runs), one submission after another, the students in
turn, each a different notebook (0 to 5 steps done). For each submission it times, from the
moment nbgrader's submit returned:

* ``feedback``: until its feedback page is in the exchange where nbgrader's fetch_feedback
  finds it (``feedback/<notebook_hash(secret, notebook)>.html``);
* ``board``: until the board (``board.json``, over HTTP) counts it graded.

The last line is exactly ``submissions=N feedback_median_s=… feedback_max_s=…
board_median_s=… board_max_s=… load=…`` (load: the 1-minute load average). Goals (the
issue's): both medians ≤ 5 s on this 2-core machine. Not part of the test suite: run it on
demand.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests"))

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the class's folder")
    args = parser.parse_args()
    import hub_class

    with hub_class.HubClass(hub=False) as made:
        made.start_watch()
        submitters = [made.submitter(student) for student in hub_class.STUDENTS]
        feedback_s, board_s = [], []
        for k, text in enumerate(hub_class.versions(args.submissions)):
            submitter = submitters[k % len(submitters)]
            folder = submitter.submit(text)
            submitted = time.perf_counter()
            page = submitter.feedback_page(folder)
            fed = counted = None
            deadline = submitted + 120
            while (fed is None or counted is None) and time.perf_counter() < deadline:
                if fed is None and page.is_file():
                    fed = time.perf_counter() - submitted
                if counted is None and made.board()["graded_count"] >= k + 1:
                    counted = time.perf_counter() - submitted
                time.sleep(0.05)
            if fed is None or counted is None:
                print(made.watch_said()[-3000:], file=sys.stderr)
                raise SystemExit(f"submission {k + 1} ({submitter.student}) not answered in "
                                 "120 s")
            feedback_s.append(fed)
            board_s.append(counted)
            print(f"{k + 1:2d} {submitter.student:14s} feedback {fed:5.2f} s  board "
                  f"{counted:5.2f} s", flush=True)
        if args.keep:
            print(f"kept: {made.base}")
            made.base = Path("/nonexistent-kept")  # close() removes nothing then
    figures = {"submissions": str(len(feedback_s))}
    for name, seconds in (("feedback", feedback_s), ("board", board_s)):
        figures[f"{name}_median_s"] = f"{statistics.median(seconds):.2f}"
        figures[f"{name}_max_s"] = f"{max(seconds):.2f}"
    figures["load"] = f"{os.getloadavg()[0]:.1f}"
    print(" ".join(f"{key}={value}" for key, value in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
