"""Every new assignment's test cells under the loopback judge (the kernel replaced by the
oracle's wire format in this process, tests/loopback_judge.py): each classic mistake of its
support module fails exactly the cells it should, with CheckFailed. What is particular to one
assignment (how many cells, what the reference prints, call budgets) stays in its own
tests/test_<id>_judge.py."""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

import nbformat
import pytest
from loopback_judge import kernel_namespace, verdicts

from plaisante.games import COURSE
from plaisante.grading.execute import is_test
from plaisante.grading.judge import setup_namespace
from plaisante.grading.submission import setup_sources, student_names

ASSIGNMENTS = tuple(a for a in COURSE if a != "plaisante")  # Plaisante's: tests/test_judge.py
SUPPORT = {a: importlib.import_module(f"{a}_support") for a in ASSIGNMENTS}


@lru_cache(maxsize=None)
def judged(assignment: str) -> tuple[Any, dict[str, str], dict[str, Any], set[str]]:
    """Return (source notebook, {grade_id: test cell}, the judge's setup namespace, the
    student's names) of ``assignment``."""
    support = SUPPORT[assignment]
    source = nbformat.read(support.SOURCE, as_version=4)
    release = nbformat.read(support.RELEASE, as_version=4)
    tests = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in source.cells
             if is_test(cell)}
    return source, tests, setup_namespace(setup_sources(release)), set(student_names(release))


@pytest.mark.parametrize(("assignment", "mistake"),
                         [(a, m) for a in ASSIGNMENTS for m in sorted(SUPPORT[a].MISTAKES)])
def test_each_mistake_fails_exactly_its_cells(assignment: str, mistake: str) -> None:
    source, tests, setup, names = judged(assignment)
    support = SUPPORT[assignment]
    results = verdicts(tests, setup, names, kernel_namespace(source, **support.mistaken(mistake)))
    failed = {k for k, v in results.items() if not v.passed}
    assert failed == support.MISTAKES[mistake][3], {k: results[k].error for k in failed}
    for grade_id in failed:
        assert results[grade_id].error[0] == "CheckFailed", results[grade_id].error
