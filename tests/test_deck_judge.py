"""Deck and deal's test cells under the judge: each cell's source runs here, the student's parts
answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The reference
passes every cell, the untouched starter fails every cell.
Each classic mistake failing exactly its cells: tests/test_course_judge.py."""

from __future__ import annotations

import nbformat
from deck_support import RELEASE, SOURCE  # noqa: F401  SOURCE, RELEASE: conftest
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.judge import judge_cell


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




def test_the_bias_test_stays_within_600_calls(source, tests, setup, names) -> None:
    calls = []
    transport = loopback(kernel_namespace(source))

    def counting(text: str) -> str:
        calls.append(text)
        return transport(text)
    assert judge_cell(tests["step2_shuffle_hidden"], setup, names, counting).passed
    assert len(calls) <= 600
