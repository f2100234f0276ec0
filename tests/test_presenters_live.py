"""The four new presenter views on a student's submission (``plaisante demo ID --student S``):
the parts answer from the grading sandbox, the x-ray is theirs; a failing sample shows the
projector's checklist naming its step. Tricks runs by default (the most calls a click makes:
the bots ask the student's ``legal_plays`` and ``trick_strength``); the others are slow."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from plaisante.course import CourseLayout
from plaisante.live import demo
from plaisante.student_side.presenting import Presenter

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[1]


def course_with(tmp_path: Path, game: str, student: str, name: str) -> Path:
    root = tmp_path / "course"
    for folder in ("solutions", "starter"):
        shutil.copytree(ROOT / folder / game, root / folder / game)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    target = CourseLayout(root).submitted(student, game)
    target.parent.mkdir(parents=True)
    shutil.copy(CourseLayout(ROOT).samples(game) / f"{name}.ipynb", target)
    return root


def test_tricks_on_a_students_submission(tmp_path: Path) -> None:
    root = course_with(tmp_path, "tricks", "ada", "full_marks")
    view = demo.show("tricks", student="ada", root=root, seed=5)
    assert isinstance(view, Presenter)
    view.deal_notation("7h 8h Ah 10s Kc | Kh 10h")
    assert view.current.legal == {1, 2, 3}
    view.play(3)
    assert view.current.winner == 0 and view.current.strengths[-2:] != ()
    assert "You win with A♥" in view.xray_panel.value


def test_tricks_failing_sample_shows_the_projectors_checklist(tmp_path: Path) -> None:
    root = course_with(tmp_path, "tricks", "bo", "another_suit_can_win")
    shown = demo.show("tricks", student="bo", root=root)
    assert not isinstance(shown, Presenter)
    assert "cannot start: step 4 (trick_winner) fails" in shown.value
    assert "Expected" in shown.value and "Got" in shown.value


@pytest.mark.slow
@pytest.mark.parametrize(("game", "written", "said"), [
    ("deck", "Kh 3c 10s", "turn 1"),
    ("video_poker", "Ah Kh Qh Jh 10h", "Royal Flush"),
    ("holdem", "Ah Kd 7c 7d 2c 3c 4c 5h 9s", "You win"),
])
def test_the_other_presenters_on_a_students_submission(tmp_path: Path, game: str,
                                                      written: str, said: str) -> None:
    root = course_with(tmp_path, game, "ada", "full_marks")
    view = demo.show(game, student="ada", root=root)
    assert isinstance(view, Presenter)
    view.deal_notation(written)
    assert said in view.xray_panel.value
