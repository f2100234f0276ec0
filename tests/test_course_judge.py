"""Every assignment's test cells under the loopback judge (the kernel replaced by the oracle's
wire format in this process, tests/loopback_judge.py): each classic mistake of its
``mistakes.py`` fails exactly the cells it says, with the error it says. What is particular to
one assignment (how many cells, what the reference prints, call budgets) stays in its own
tests/test_<id>_judge.py."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import nbformat
import pytest
from assignment_support import ROOT, unit
from loopback_judge import kernel_namespace, verdicts

from plaisante.games import COURSE
from plaisante.grading.execute import is_test
from plaisante.grading.judge import setup_namespace
from plaisante.grading.submission import setup_sources, student_names


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


@pytest.mark.parametrize(("assignment", "mistake"),
                         [(a, m) for a in COURSE for m in unit(a).mistakes])
def test_each_mistake_fails_exactly_its_cells(assignment: str, mistake: str) -> None:
    check_mistake(assignment, mistake)
