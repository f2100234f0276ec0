"""The video-poker samples through the real commands, in a temporary copy of the course:
``plaisante release video_poker`` reproduces the committed starter, and every sample gets exactly
its manifest's per-step scores from the judge (``plaisante grade video_poker``) and from plain
nbgrader (``plaisante autograde video_poker``)."""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plaisante import scores

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "video_poker"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.nbgrader


def plaisante(*args: str, course: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
               PLAISANTE_COURSE=str(course))
    return subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=course, env=env,
                          text=True, capture_output=True, check=True)


@pytest.fixture(scope="module")
def submitted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course copy with video_poker released and every sample submitted (not graded yet)."""
    root = tmp_path_factory.mktemp("video-poker-course")
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for folder in ("solutions", "notebooks"):
        shutil.copytree(ROOT / folder, root / folder)
    (root / "assignments").mkdir()
    plaisante("release", "video_poker", course=root)
    for student, sample in MANIFEST["samples"].items():
        plaisante("submit", str(SAMPLES / sample["notebook"]), "--student", student,
                  "--assignment", "video_poker", course=root)
    return root


def graded_copy(submitted: Path, target: Path, *command: str) -> Path:
    shutil.copytree(submitted, target)
    plaisante(*command, course=target)
    return target


def test_release_reproduces_the_committed_starter(submitted: Path) -> None:
    notebook = Path("starter") / "video_poker" / "video_poker.ipynb"
    generated = (submitted / notebook).read_text(encoding="utf-8")
    committed = (ROOT / notebook).read_text(encoding="utf-8")
    assert generated == committed, ("starter/video_poker is out of date: run "
                                    "`plaisante release video_poker`")


@pytest.mark.sandbox
def test_the_judge_gives_every_sample_its_manifest_scores(submitted: Path, tmp_path: Path
                                                          ) -> None:
    course = graded_copy(submitted, tmp_path / "judged", "grade", "video_poker")
    got = {student: scores.step_scores(course, student, "video_poker")
           for student in MANIFEST["samples"]}
    assert got == {student: sample["expected"] for student, sample in MANIFEST["samples"].items()}
    # Step 5's feedback says how many buggy versions the tests caught, never which, and shows
    # the line that failed on a correct machine.
    plaisante("feedback", "video_poker", course=course)
    page = {student: (course / "assignments" / "feedback" / student / "video_poker" /
                      "video_poker.html").read_text(encoding="utf-8")
            for student in ("port_tests_weak", "port_tests_fail_on_correct_code")}
    assert ("my_port_tests: passes on a correct hand_name, Machine and catches 2 of 5 hidden "
            "buggy versions (6 of 15 points).") in page["port_tests_weak"]
    assert "remembers a four of a kind" not in page["port_tests_weak"]
    assert "my_port_tests fails on a correct hand_name, Machine, so it cannot be graded: " \
           "machine.place_bet()  → ValueError: a bet of 15 needs 15 credits; you have 12" \
           in html.unescape(page["port_tests_fail_on_correct_code"])


def test_plain_nbgrader_gives_every_sample_its_manifest_scores(submitted: Path, tmp_path: Path
                                                               ) -> None:
    course = graded_copy(submitted, tmp_path / "autograded", "autograde", "video_poker")
    got = {student: scores.step_scores(course, student, "video_poker")
           for student in MANIFEST["samples"]}
    assert got == {student: sample["expected"] for student, sample in MANIFEST["samples"].items()}
