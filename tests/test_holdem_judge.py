"""Heads-up Hold'em's test cells under the judge: each cell's source runs here, the student's
parts answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The
reference passes every cell, the untouched starter fails every cell, each classic mistake fails
exactly the cells it should, and no cell asks the kernel too many calls."""

from __future__ import annotations

import nbformat
import pytest
from holdem_support import MISTAKES, RELEASE, SOURCE, mistaken  # noqa: F401  SOURCE, RELEASE: conftest
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.execute import is_test
from plaisante.grading.judge import judge_cell


def test_every_test_cell_is_graded_and_the_points_make_100(source) -> None:
    points = {c.metadata.nbgrader["grade_id"]: c.metadata.nbgrader["points"]
              for c in source.cells if is_test(c)}
    assert sum(points.values()) == 100
    assert all(grade_id.startswith(("step1_", "step2_", "step3_", "step4_", "step5_"))
               for grade_id in points)
    assert all("raises-exception" in c.metadata.get("tags", []) for c in source.cells
               if is_test(c) or c.metadata.get("nbgrader", {}).get("solution"))


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 17
    assert results["step4_apply"].printed == (
        "Step 4 apply: the visible checks pass"
        " (hidden tests run when your work is graded).\n")


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step2_best_five"].error[0] == "NotImplementedError"


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_mistake_fails_exactly_its_cells(mistake, source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source, **mistaken(mistake)))
    failed = {k for k, v in results.items() if not v.passed}
    assert failed == MISTAKES[mistake][3], {k: results[k].error for k in failed}
    for grade_id in failed:
        assert results[grade_id].error[0] == "CheckFailed", results[grade_id].error


def test_no_test_cell_asks_the_kernel_more_than_200_calls(source, tests, setup, names) -> None:
    namespace = kernel_namespace(source)
    for grade_id, code in tests.items():
        calls: list[str] = []
        transport = loopback(namespace)

        def counting(text: str, calls=calls, transport=transport) -> str:
            calls.append(text)
            return transport(text)
        assert judge_cell(code, setup, names, counting).passed, grade_id
        assert len(calls) <= 200, (grade_id, len(calls))
