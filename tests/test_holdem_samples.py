"""Heads-up Hold'em's samples through the real commands, in a temporary copy of the course:
``plaisante release holdem`` reproduces the committed starter, and every sample gets exactly its
manifest's per-step scores from the judge (``plaisante grade holdem``) and from plain nbgrader
(``plaisante autograde holdem``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plaisante import scores

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "holdem"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.nbgrader


def plaisante(*args: str, course: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
               PLAISANTE_COURSE=str(course))
    return subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=course, env=env,
                          text=True, capture_output=True, check=True)


@pytest.fixture(scope="module")
def submitted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course copy with holdem released and every sample submitted (not graded yet)."""
    root = tmp_path_factory.mktemp("holdem-course")
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for folder in ("solutions", "notebooks"):
        shutil.copytree(ROOT / folder, root / folder)
    (root / "assignments").mkdir()
    plaisante("release", "holdem", course=root)
    for student, sample in MANIFEST["samples"].items():
        plaisante("submit", str(SAMPLES / sample["notebook"]), "--student", student,
                  "--assignment", "holdem", course=root)
    return root


def graded_copy(submitted: Path, target: Path, *command: str) -> Path:
    shutil.copytree(submitted, target)
    plaisante(*command, course=target)
    return target


def test_release_reproduces_the_committed_starter(submitted: Path) -> None:
    generated = (submitted / "starter" / "holdem" / "holdem.ipynb").read_text(encoding="utf-8")
    committed = (ROOT / "starter" / "holdem" / "holdem.ipynb").read_text(encoding="utf-8")
    assert generated == committed, "starter/holdem is out of date: run `plaisante release holdem`"


@pytest.mark.sandbox
def test_the_judge_gives_every_sample_its_manifest_scores(submitted: Path, tmp_path: Path
                                                          ) -> None:
    course = graded_copy(submitted, tmp_path / "judged", "grade", "holdem")
    got = {student: scores.step_scores(course, student, "holdem")
           for student in MANIFEST["samples"]}
    assert got == {student: sample["expected"] for student, sample in MANIFEST["samples"].items()}


def test_plain_nbgrader_gives_every_sample_its_manifest_scores(submitted: Path, tmp_path: Path
                                                               ) -> None:
    course = graded_copy(submitted, tmp_path / "autograded", "autograde", "holdem")
    got = {student: scores.step_scores(course, student, "holdem")
           for student in MANIFEST["samples"]}
    assert got == {student: sample["expected"] for student, sample in MANIFEST["samples"].items()}
