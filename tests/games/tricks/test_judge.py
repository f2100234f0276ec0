"""Tricks's test cells under the judge: each cell's source runs here, the student's parts
answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The reference
passes every cell, the untouched starter fails every cell.
Each classic mistake failing exactly its cells: tests/test_course_judge.py."""

from __future__ import annotations

import nbformat
from assignment_support import notebooks
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.judge import judge_cell

SOURCE, RELEASE = notebooks("tricks")  # the conftest fixtures read them


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 16
    assert results["step6_my_tests"].score == 10
    assert results["step5_trick"].printed == (
        "Step 5: the visible checks pass"
        " (hidden tests run when your work is graded).\n")


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step3_legal_plays"].error[0] == "NotImplementedError"
    assert results["step5_trick"].error[0] == "NotImplementedError"




def test_the_whole_deal_stays_within_400_calls(source, tests, setup, names) -> None:
    calls = []
    transport = loopback(kernel_namespace(source))

    def counting(text: str) -> str:
        calls.append(text)
        return transport(text)
    assert judge_cell(tests["step5_trick_hidden"], setup, names, counting).passed
    assert len(calls) <= 400, len(calls)  # 274 seen: one call per play or read
