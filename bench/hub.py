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
board_median_s=… board_max_s=…``. Goals (the issue's): both medians ≤ 5 s on this 2-core
machine. Not part of the test suite: run it on demand.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests"))

SUBMITTER = r"""
import json, os, sys
from traitlets.config.loader import PyFileConfigLoader
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default.submit import ExchangeSubmit
folder = os.environ["JUPYTER_CONFIG_PATH"]
config = PyFileConfigLoader("nbgrader_config.py", path=folder).load_config()
config.Exchange.assignment_dir = os.environ["HOME"]
for line in sys.stdin:
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "plaisante"
    submit = ExchangeSubmit(coursedir=coursedir, config=config)
    submit.start()
    print(json.dumps({"done": True}), flush=True)
"""


def versions(count: int) -> list[str]:
    """``count`` notebooks' texts: the release with 0, 1, … 5 of its steps' answers written."""
    import nbformat

    source = nbformat.read(KIT / "solutions" / "plaisante" / "plaisante.ipynb", as_version=4)
    release = nbformat.read(KIT / "starter" / "plaisante" / "plaisante.ipynb", as_version=4)
    answers = [n for n, c in enumerate(source.cells)
               if c.metadata.get("nbgrader", {}).get("solution")]
    texts = []
    for k in range(count):
        steps = k % 6
        nb = nbformat.from_dict(json.loads(nbformat.writes(release)))
        for n in answers:
            grade_id = source.cells[n].metadata["nbgrader"]["grade_id"]
            if grade_id.startswith("step") and int(grade_id[4]) <= steps:
                nb.cells[n].source = "\n".join(
                    line for line in source.cells[n].source.split("\n")
                    if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)
        texts.append(nbformat.writes(nb))
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the class's folder")
    args = parser.parse_args()
    import hub_class
    from nbgrader.utils import notebook_hash

    with hub_class.HubClass(hub=False) as made:
        made.start_watch()
        submitters = {}
        for student in hub_class.STUDENTS:
            made.as_user(student, [made.python, "-m", "nbgrader", "fetch_assignment",
                                   "plaisante"])
            entry = __import__("pwd").getpwnam(student)
            submitters[student] = subprocess.Popen(
                ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                 "--init-groups", "--", made.python, "-c", SUBMITTER],
                cwd=made.home(student), env=made.env(student), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True)
        inbound = made.exchange / hub_class.COURSE_ID / "inbound"
        outbound = made.exchange / hub_class.COURSE_ID / "feedback"
        feedback_s, board_s = [], []
        texts = versions(args.submissions)
        try:
            for k, text in enumerate(texts):
                student = hub_class.STUDENTS[k % len(hub_class.STUDENTS)]
                notebook = made.home(student) / "plaisante" / "plaisante.ipynb"
                notebook.write_text(text, encoding="utf-8")
                before = set(inbound.iterdir())
                process = submitters[student]
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write("submit\n")
                process.stdin.flush()
                process.stdout.readline()
                submitted = time.perf_counter()
                folder = next(iter(set(inbound.iterdir()) - before))
                secret = (folder / "submission_secret.txt").read_text()
                page = outbound / f"{notebook_hash(secret=secret, notebook_id='plaisante')}.html"
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
                    raise SystemExit(f"submission {k + 1} ({student}) not answered in 120 s")
                feedback_s.append(fed)
                board_s.append(counted)
                print(f"{k + 1:2d} {student:14s} feedback {fed:5.2f} s  board {counted:5.2f} s",
                      flush=True)
        finally:
            for process in submitters.values():
                if process.stdin is not None:
                    process.stdin.close()
                process.wait(10)
            if args.keep:
                print(f"kept: {made.base}")
                made.base = Path("/nonexistent-kept")  # close() removes nothing then
    print(f"submissions={len(feedback_s)} feedback_median_s={statistics.median(feedback_s):.2f} "
          f"feedback_max_s={max(feedback_s):.2f} board_median_s={statistics.median(board_s):.2f} "
          f"board_max_s={max(board_s):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
