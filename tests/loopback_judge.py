"""The judge with the kernel replaced by a loopback: a test cell's source runs here and the
student's parts answer through the judge's wire format (``plaisante.kernel.oracle.respond``) from a
namespace built by running a notebook's answer cells in this process. Used by every
assignment's judge tests; the module-level fixtures they use (``source``, ``tests``,
``setup``, ``names``) are in conftest.py and read the test module's SOURCE and RELEASE."""

from __future__ import annotations

import queue
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import nbformat
from assignment_support import ROOT, unit

from plaisante.grading.execute import is_test
from plaisante.grading.judge import judge_cell, setup_namespace
from plaisante.grading.submission import setup_sources, student_names
from plaisante.kernel import oracle, routed


def loopback(user_ns: dict[str, Any]):
    """Return a transport answering as ``plaisante.kernel.oracle.serve`` would over ``user_ns``.

    The kernel's side runs in a thread of its own, as in a kernel: a request that makes it
    ask the grader (a routed call of ``plaisante.kernel.routed``) sends its question as the
    transport's answer and waits for the next request, which is the grader's reply."""
    registry = oracle.Registry()
    to_kernel: queue.Queue[str] = queue.Queue()
    from_kernel: queue.Queue[tuple[str, str | None]] = queue.Queue()
    waiting = threading.Event()  # the kernel's side waits for a reply to its question

    def send(question: str) -> str:
        waiting.set()
        from_kernel.put(("prompt", question))
        return to_kernel.get()

    def serve(text: str) -> None:
        routed.kernel_send = lambda: send  # type: ignore[assignment]
        try:
            from_kernel.put(("answer", oracle.respond(text, registry, user_ns)))
        except BaseException as error:  # noqa: B036  as a dying kernel
            from_kernel.put(("answer", f"died: {error!r}"))

    def transport(text: str) -> str:
        if waiting.is_set():
            waiting.clear()
            to_kernel.put(text)
        else:
            threading.Thread(target=serve, args=(text,), daemon=True).start()
        _, answer = from_kernel.get(timeout=60)
        assert answer is not None
        return answer
    return transport


def kernel_namespace(notebook: nbformat.NotebookNode, **changes: str) -> dict[str, Any]:
    """Run the notebook's non-test cells (with ``changes``: grade_id → new source) in a fresh
    namespace, as the kernel would; return it."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for cell in notebook.cells:
        if cell.cell_type != "code" or is_test(cell) or "play(" in cell.source:
            continue
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        source = changes.get(grade_id, cell.source)
        try:
            exec(compile(source, str(grade_id), "exec"), namespace)
        except Exception:  # noqa: BLE001  a broken answer cell, as in a notebook
            pass
    return namespace


def verdicts(tests: dict[str, str], setup: dict[str, Any], names: set[str],
             user_ns: dict[str, Any]) -> dict[str, Any]:
    return {grade_id: judge_cell(code, setup, names, loopback(user_ns))
            for grade_id, code in tests.items()}


@lru_cache(maxsize=None)
def judged(assignment: str, root: Path = ROOT) -> tuple[Any, dict[str, str], dict[str, Any],
                                                         set[str]]:
    """Return (source notebook, {grade_id: test cell}, the judge's setup namespace, the
    student's names) of ``assignment``."""
    found = unit(assignment, root)
    source = nbformat.read(found.source, as_version=4)
    release = nbformat.read(found.release, as_version=4)
    tests = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in source.cells
             if is_test(cell)}
    return source, tests, setup_namespace(setup_sources(release)), set(student_names(release))


def check_mistake(assignment: str, mistake: str, root: Path = ROOT) -> None:
    """Assert that ``mistake`` fails exactly the cells its record names, each with its error."""
    source, tests, setup, names = judged(assignment, root)
    found = unit(assignment, root)
    results = verdicts(tests, setup, names, kernel_namespace(source, **found.mistaken(mistake)))
    failed = {k for k, v in results.items() if not v.passed}
    assert failed == found.fails(mistake), {k: results[k].error for k in failed}
    for grade_id in failed:
        assert results[grade_id].error[0] == found.mistakes[mistake].error, (
            grade_id, results[grade_id].error)
