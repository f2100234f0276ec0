"""Deck and deal's test cells under the judge: each cell's source runs here, the student's parts
answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The reference
passes every cell, the untouched starter fails every cell, and each classic mistake fails
exactly the cells it should."""

from __future__ import annotations

import nbformat
import pytest
from deck_support import MISTAKES, RELEASE, SOURCE, mistaken  # noqa: F401  SOURCE, RELEASE: conftest
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
    assert len(results) == 19
    assert results["step2_shuffle"].printed == (
        "Step 2: the visible checks pass"
        " (hidden tests run when your work is graded).\n")


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step3_deal"].error[0] == "NotImplementedError"


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_mistake_fails_exactly_its_cells(mistake, source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source, **mistaken(mistake)))
    failed = {k for k, v in results.items() if not v.passed}
    assert failed == MISTAKES[mistake][3], {k: results[k].error for k in failed}
    for grade_id in failed:
        assert results[grade_id].error[0] == "CheckFailed", results[grade_id].error


def test_the_bias_test_stays_within_600_calls(source, tests, setup, names) -> None:
    calls = []
    transport = loopback(kernel_namespace(source))

    def counting(text: str) -> str:
        calls.append(text)
        return transport(text)
    assert judge_cell(tests["step2_shuffle_hidden"], setup, names, counting).passed
    assert len(calls) <= 600
