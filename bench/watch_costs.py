"""What ``plaisante watch`` spends on a submission besides grading it, and what the exchange
service spends, in CPU seconds of one process (so a busy machine changes them little):

* the feedback: nbgrader's generate_feedback with the course's preprocessors and
  release_feedback (``watch.Feedback.release``), the samples graded first;
* the exchange service's store: a submission stored, each student's newest listed, one
  collected (no HTTP, no hub: ``plaisante.exchange_service.store``).

    python bench/watch_costs.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests"))
SAMPLES = KIT / "assignments" / "samples" / "plaisante"
STUDENTS = ("full_marks", "straight_ignores_duplicates")


def feedback_cpu(folder: Path, rounds: int) -> list[float]:
    from course_cli import cli, new_course

    root = new_course(folder / "course", ("solutions", "starter"))
    with (root / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write(f"c.Exchange.root = {str(folder / 'exchange')!r}\n"
                "c.CourseDirectory.course_id = 'bench'\n")
    cli("release", "plaisante", cwd=root)
    for student in STUDENTS:
        cli("submit", str(SAMPLES / f"{student}.ipynb"), "--student", student, cwd=root)
        # as a submission from nbgrader's exchange carries it (feedback is released by it)
        (root / "assignments" / "submitted" / student / "plaisante" /
         "submission_secret.txt").write_text("0" * 64, encoding="utf-8")
    cli("grade", "plaisante", cwd=root)
    os.chdir(root)
    from plaisante.live.watch import Feedback

    feedback = Feedback(root)
    spent = []
    for _ in range(rounds):
        for student in STUDENTS:
            start = time.process_time()
            problem = feedback.release(student, "plaisante")
            spent.append(time.process_time() - start)
            if problem:
                raise SystemExit(f"{student}: {problem}")
    return spent


def store_cpu(folder: Path, submissions: int = 200, students: int = 50) -> dict[str, float]:
    from plaisante.exchange_service.store import Store, decode_files, encode_folder

    notebook = (SAMPLES / "full_marks.ipynb").read_bytes()
    store = Store(folder / "store", "bench")
    store.release("bench", "plaisante", {"plaisante.ipynb": notebook})
    body = json.dumps({"files": {"plaisante.ipynb": base64.b64encode(notebook).decode()}})
    start = time.process_time()
    for n in range(submissions):
        store.submit("bench", "plaisante", f"s{n % students}",
                     decode_files(json.loads(body)["files"]))
    submit = (time.process_time() - start) / submissions
    start = time.process_time()
    for _ in range(submissions):
        newest = store.newest("bench", "plaisante")
    listing = (time.process_time() - start) / submissions
    start = time.process_time()
    for made in newest:
        _, files, _ = store.submission_files("bench", "plaisante", made.student, made.id)
        json.dumps(encode_folder(files))
    collect = (time.process_time() - start) / len(newest)
    return {"submit": submit, "newest": listing, "collect": collect,
            "notebook_bytes": len(notebook)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        store = store_cpu(Path(folder))
        print(f"exchange store, a {store['notebook_bytes'] / 1024:.0f} KB notebook: submit "
              f"{store['submit'] * 1000:.2f} ms, each student's newest (50 students) "
              f"{store['newest'] * 1000:.2f} ms, collect one {store['collect'] * 1000:.2f} ms "
              f"of CPU; load average {os.getloadavg()[0]:.1f}")
        spent = feedback_cpu(Path(folder), args.rounds)
        print(f"feedback made and released: first {spent[0]:.2f} s of CPU, then median "
              f"{statistics.median(spent[1:]):.2f} s (max {max(spent[1:]):.2f}) over "
              f"{len(spent) - 1}; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
