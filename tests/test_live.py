"""A student's submission live for the demo (``plaisante demo ID --student S``): its
cells run in the grading sandbox and its parts answer the judge's requests, so the gate and the
presenter run here on the student's code without it running here."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import nbformat
import pytest

from plaisante.course import CourseLayout
from plaisante.games import load
from plaisante.games.plaisante.presenter import PresenterView
from plaisante.grading.judge import KernelLost
from plaisante.grading.live import LiveSubmission, cell_sources
from plaisante.live import demo

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = CourseLayout(ROOT)
RELEASE = LAYOUT.release("plaisante")
PARTS = load("plaisante").parts


def sample(name: str) -> Path:
    return LAYOUT.samples("plaisante") / f"{name}.ipynb"


def with_cell(tmp_path: Path, code: str) -> Path:
    """The full-marks sample with ``code`` appended to its step 2 answer cell."""
    nb = nbformat.read(sample("full_marks"), as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_count_values_code":
            cell.source += "\n\n" + code
    path = tmp_path / "submission.ipynb"
    nbformat.write(nb, path)
    return path


def course_with(tmp_path: Path, student: str, name: str) -> Path:
    root = tmp_path / "course"
    for folder in ("solutions", "starter"):
        shutil.copytree(ROOT / folder / "plaisante", root / folder / "plaisante")
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    target = CourseLayout(root).submitted(student, "plaisante")
    target.parent.mkdir(parents=True)
    shutil.copy(sample(name), target)
    return root


def test_the_demo_runs_the_tests_cells_never_and_the_release_setup_always() -> None:
    nb = nbformat.read(sample("full_marks"), as_version=4)
    nb.cells[1].source = "import os; os.system('echo tampered setup')"  # the locked setup cell
    sources = cell_sources(nb, nbformat.read(RELEASE, as_version=4))
    assert sources[0] == nbformat.read(RELEASE, as_version=4).cells[1].source
    assert not any("check_card(" in source or "play(Card=" in source for source in sources)


def test_full_marks_passes_the_gate_and_scores_in_the_presenter(tmp_path) -> None:
    root = course_with(tmp_path, "ada", "full_marks")
    view = demo.show("plaisante", student="ada", root=root)
    assert isinstance(view, PresenterView)
    view.deal_notation("Kh Kd 3c 7s 9h")
    assert view.current.formula == "45 × 2 = 90" and view.current.name == "Pair"
    assert type(view.cards[0]).__name__ == "Remote"  # the student's Card, living in the sandbox


def test_a_sample_failing_step_3_shows_the_checklist_naming_it(tmp_path) -> None:
    root = course_with(tmp_path, "bo", "straight_ignores_duplicates")
    shown = demo.show("plaisante", student="bo", root=root)
    assert not isinstance(shown, PresenterView)
    assert "Plaisante cannot start: step 3 (the has-checks) fails" in shown.value
    assert "has_straight(" in shown.value and "run its cells" not in shown.value


def test_a_missing_submission_is_one_line_naming_who_submitted(tmp_path) -> None:
    root = course_with(tmp_path, "ada", "full_marks")
    with pytest.raises(FileNotFoundError, match="no submission of 'plaisante' by 'zed'.*ada"):
        demo.show("plaisante", student="zed", root=root)


def test_a_part_that_never_answers_is_stopped_at_the_limit(tmp_path) -> None:
    path = with_cell(tmp_path, "def count_values(cards):\n    while True:\n        pass\n")
    with LiveSubmission(path, RELEASE, answer_seconds=2) as live:
        count_values = live.parts(["count_values"])["count_values"]
        started = time.monotonic()
        with pytest.raises(KernelLost, match="did not answer within 2 s"):
            count_values([])
        assert time.monotonic() - started < 6


def test_prints_and_input_cannot_reach_the_protocol_and_the_course_is_out_of_reach(
        tmp_path) -> None:
    code = ("_real = count_values\n"
            "def count_values(cards):\n"
            "    print('{\"q\": 99, \"v\": [1]}')\n"
            "    try:\n"
            "        stolen = input()\n"
            "    except EOFError:\n"
            "        stolen = ''\n"
            "    return _real(cards) if not stolen else [len(stolen)]\n"
            f"def peek():\n    return open({str(LAYOUT.source('plaisante'))!r}).read()[:10]\n")
    with LiveSubmission(with_cell(tmp_path, code), RELEASE) as live:
        parts = live.parts(["count_values", "peek"])
        assert parts["count_values"]([]) == [0] * 15
        with pytest.raises(Exception, match="FileNotFoundError|PermissionError"):
            parts["peek"]()


def test_a_submission_that_stalls_the_demo_gets_a_notice_within_the_budgets(tmp_path) -> None:
    code = ("import sys, time\n"
            "if 'ipykernel' not in sys.modules:  # only in the live demo, never in grading\n"
            "    _real = count_values\n"
            "    def count_values(cards):\n"
            "        time.sleep(2.5)\n"
            "        return _real(cards)\n")
    root = course_with(tmp_path, "slow", "full_marks")
    target = CourseLayout(root).submitted("slow", "plaisante")
    shutil.copy(with_cell(tmp_path, code), target)
    started = time.monotonic()
    shown = demo.show("plaisante", student="slow", root=root)  # the gate: a few slow calls
    if isinstance(shown, PresenterView):  # the budget was not used up by the gate: clicks
        for button in shown.card_buttons[:5]:
            button.click()
        text = shown.xray_panel.value + shown.message.value
    else:
        text = shown.value
    assert time.monotonic() - started < 40
    assert "did not answer within 3 s" in text or "used the demo&#x27;s time for calls" in text


def test_cells_that_take_too_long_to_start_stop_at_the_start_budget(tmp_path) -> None:
    path = with_cell(tmp_path, "import time\ntime.sleep(30)\n")
    started = time.monotonic()
    with pytest.raises(KernelLost, match="did not answer within 3 s"):
        LiveSubmission(path, RELEASE, start_seconds=3)
    assert time.monotonic() - started < 10
