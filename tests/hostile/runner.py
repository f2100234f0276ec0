"""Grade a batch of hostile submissions as the grading user (``tests/test_hostile.py`` copies
this file into the course and runs it with that user's Python; see ``tests/grader_user.py``).

    python runner.py grade LIMITS_JSON KIND…    two at a time, in worker processes
    python runner.py ascii LIMITS_JSON KIND     in a child whose locale is plain ASCII
    python runner.py alone LIMITS_JSON KIND     in a child; adds its peak memory (VmHWM)
    python runner.py record RESULTS_JSON_FILE   records results into the course gradebook

Each prints one JSON line last: {kind: result as a dict} (``alone`` adds ``peak_kib``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from multiprocessing import get_context
from pathlib import Path

from plaisante.grading import Limits, SubmissionResult, grade_submission, record

ROOT = Path(__file__).resolve().parent


def _grade(limits: dict, kind: str) -> dict:
    return asdict(grade_submission(ROOT, kind, "plaisante", limits=Limits(**limits)))


def in_child(limits: dict, kind: str, env: dict[str, str], peak: bool) -> dict:
    """Grade ``kind`` in a child Python with ``env``; return its result (and peak memory)."""
    code = ("import json, sys; from dataclasses import asdict; from pathlib import Path;"
            "from plaisante.grading import grade_submission, Limits;"
            f"r = asdict(grade_submission(Path({str(ROOT)!r}), {kind!r}, 'plaisante', "
            f"limits=Limits(**{limits!r})));"
            "import locale; r['encoding'] = locale.getpreferredencoding(False);"
            "r['peak_kib'] = int([l.split()[1] for l in open('/proc/self/status') "
            "if l.startswith('VmHWM:')][0]);"
            "print(json.dumps(r, ensure_ascii=True))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, encoding="ascii", errors="replace", check=True)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if not peak:
        answer.pop("peak_kib")
    return answer


def main(command: str, *args: str) -> None:
    if command == "record":
        results = json.loads(Path(args[0]).read_text(encoding="utf-8"))
        fields = set(SubmissionResult.__dataclass_fields__)
        record(ROOT, [SubmissionResult(**{k: v for k, v in value.items() if k in fields})
                      for value in results.values()], "plaisante")
        print(json.dumps({"recorded": len(results)}))
        return
    limits, kinds = json.loads(args[0]), list(args[1:])
    if command == "grade":
        with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
            answers = dict(zip(kinds, pool.map(_grade, [limits] * len(kinds), kinds)))
    elif command == "ascii":
        env = {"PATH": os.environ["PATH"], "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0",
               "PYTHONCOERCECLOCALE": "0", "HOME": os.environ.get("HOME", str(ROOT)),
               "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
        answers = {kind: in_child(limits, kind, env, peak=False) for kind in kinds}
    elif command == "alone":
        answers = {kind: in_child(limits, kind, dict(os.environ), peak=True) for kind in kinds}
    else:
        raise SystemExit(f"unknown command {command!r}")
    print(json.dumps(answers, ensure_ascii=True))


if __name__ == "__main__":
    main(*sys.argv[1:])
