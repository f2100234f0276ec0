"""A student's submitted parts, answering the judge's requests from a plain process (no kernel):
what ``plaisante demo --student`` runs in the grader's sandbox (``plaisante.grading.live``).

    python -m plaisante.kernel.live      (inside the sandbox; the grader writes to its stdin)

Protocol, one JSON text a line: first the list of the notebook's cell sources to run, in order
(a cell that raises is reported and the next one runs, as in a notebook); then ``{"ready":
[cells that failed]}`` comes back; then each line is a judge request answered by
``plaisante.kernel.oracle.respond``, until ``{"op": "end"}`` or the end of the input. The student's
prints go to stderr, never into the answers.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

from . import oracle, syscall_filter


def run_cells(sources: list[str], user_ns: dict[str, Any]) -> list[str]:
    """Run each source in ``user_ns``; return one line per cell that raised."""
    failed = []
    for number, source in enumerate(sources, 1):
        try:
            exec(compile(source, f"<cell {number}>", "exec"), user_ns)
        except BaseException as error:  # noqa: B036  a student's cell may raise anything
            traceback.print_exc()
            failed.append(f"cell {number}: {type(error).__name__}: {error}"[:300])
    return failed


def main() -> int:
    syscall_filter.install()  # no memory outside its limits, as a graded kernel
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)  # whatever the student's code prints goes to stderr,
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)  # and input() reads nothing, never a request
    sys.stdout, sys.stdin = sys.stderr, open(os.devnull, encoding="utf-8")
    sources = json.loads(requests.readline() or "[]")
    user_ns: dict[str, Any] = {"__name__": "__main__"}
    failed = run_cells([str(source) for source in sources], user_ns)
    answers.write(json.dumps({"ready": failed}) + "\n")
    answers.flush()
    registry = oracle.Registry()

    def ask_grader(text: str) -> str:  # a stand-in's question, answered on the next line
        answers.write(text + "\n")
        answers.flush()
        return requests.readline()

    oracle.ask_grader_with(ask_grader)
    for line in requests:
        reply = oracle.respond(line, registry, user_ns)
        if reply is None:
            break
        answers.write(reply + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
