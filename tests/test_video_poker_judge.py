"""The video-poker test cells under the judge: each cell's source runs here, the student's
parts answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The
reference passes every cell, the untouched starter fails every cell, and each classic mistake
fails exactly the cells it should — the Machine's cells included, where the machine lives in
the "kernel" and the checks only call its methods and read its attributes."""

from __future__ import annotations

import os

import nbformat
import pytest
from loopback_judge import kernel_namespace, verdicts
from video_poker_support import (  # noqa: F401  SOURCE, RELEASE: conftest
    MISTAKES,
    RELEASE,
    SOURCE,
    mistaken,
)

from plaisante.grading.execute import is_test


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    """The saved-credits check writes in the current folder, as a kernel's would."""
    monkeypatch.chdir(tmp_path)
    yield
    assert os.listdir(tmp_path) == []  # the check removed its file


def test_every_test_cell_is_graded_and_the_points_make_100(source) -> None:
    points = {c.metadata.nbgrader["grade_id"]: c.metadata.nbgrader["points"]
              for c in source.cells if is_test(c)}
    assert sum(points.values()) == 100
    assert {grade_id.split("_")[0] for grade_id in points} == {"step1", "step2", "step3",
                                                               "step4"}
    assert all("raises-exception" in c.metadata.get("tags", []) for c in source.cells
               if is_test(c) or c.metadata.get("nbgrader", {}).get("solution"))


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 14
    assert results["step4_machine"].printed == "Step 4 Machine passes.\n"


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step4_machine"].error[0] == "NotImplementedError"


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_mistake_fails_exactly_its_cells(mistake, source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source, **mistaken(mistake)))
    failed = {k for k, v in results.items() if not v.passed}
    assert failed == MISTAKES[mistake][3], {k: results[k].error for k in failed}
    for grade_id in failed:
        assert results[grade_id].error[0] == "CheckFailed", results[grade_id].error


def test_a_failing_machine_check_names_the_call_expected_and_actual(source, tests, setup,
                                                                    names) -> None:
    results = verdicts(tests, setup, names,
                       kernel_namespace(source, **mistaken("held_cards_moved")))
    message = results["step4_machine"].error[1]
    assert "draw()" in message and "expected machine.cards = [Q♣ K♦ K♥ K♣ A♣]" in message
    assert "got [K♦ K♥ K♣ Q♣ A♣]" in message
