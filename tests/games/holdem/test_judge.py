"""Heads-up Hold'em's test cells under the judge: each cell's source runs here, the student's
parts answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The
reference passes every cell, the untouched starter fails every cell, each classic mistake fails
exactly the cells it should, and no cell asks the kernel too many calls."""

from __future__ import annotations

import nbformat
from assignment_support import notebooks
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.judge import judge_cell

SOURCE, RELEASE = notebooks("holdem")  # the conftest fixtures read them


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 18
    assert results["step4_apply"].printed == (
        "Step 4 apply: the visible checks pass"
        " (hidden tests run when your work is graded).\n")


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step2_best_five"].error[0] == "NotImplementedError"




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
