"""The judge with the kernel replaced by a loopback: a test cell's source runs here and the
student's parts answer through the oracle's wire format (``plaisante.oracle.respond``) from a
namespace built by running a notebook's answer cells in this process. Used by every
assignment's judge tests; the module-level fixtures they use (``source``, ``tests``,
``setup``, ``names``) are in conftest.py and read the test module's SOURCE and RELEASE."""

from __future__ import annotations

from typing import Any

import nbformat

from plaisante import oracle
from plaisante.grading.execute import is_test
from plaisante.grading.judge import judge_cell


def loopback(user_ns: dict[str, Any]):
    """Return a transport answering as ``plaisante.oracle.serve`` would over ``user_ns``."""
    registry = oracle.Registry()

    def transport(text: str) -> str:
        answer = oracle.respond(text, registry, user_ns)
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
