"""The real nbgrader CLI on the samples, in a temporary copy of the course (SPEC §5).

release (generate_assignment) → submit → autograde (on the course every grading test shares,
shared_course.py) → generate_feedback → export, then every sample's per-step scores are read
from the gradebook and compared with the manifest.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_course import SAMPLED_MUTANT_CASES, copy_of

from plaisante.results import scores
from plaisante.student_side.cards import RANKS

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "plaisante"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.nbgrader


def plaisante(*args: str, cwd: Path, check: bool = True,
              course: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    if course is not None:
        env["PLAISANTE_COURSE"] = str(course)
    return subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, check=check)


@pytest.fixture(scope="module")
def course(shared_course, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shared course (every sample released, submitted and autograded by plain
    nbgrader from the course's notebooks/ subfolder: shared_course.py), Plaisante's feedback
    generated and its grades exported."""
    root = copy_of(shared_course.autograded, tmp_path_factory.mktemp("pipeline"))
    plaisante("feedback", "plaisante", cwd=root)
    plaisante("export", "plaisante", "--to", str(root / "grades.csv"), cwd=root)
    return root


@pytest.mark.parametrize("student", sorted(MANIFEST["samples"]))
def test_each_sample_scores_exactly_as_the_manifest_says(course, student):
    assert scores.step_scores(course, student, "plaisante") == pytest.approx(
        MANIFEST["samples"][student]["expected"])


@pytest.mark.parametrize("student", sorted(name for name, sample in MANIFEST["samples"].items()
                                            if "cells" in sample))
def test_students_own_tests_cells_score_as_the_manifest_says(course, student):
    """The *_my_tests cells: 0 when not written or failing on correct code, a share of the
    points per hidden buggy version caught (nbgrader's partial credit)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'assignments' / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission("plaisante", student)
        got = {grade.name: grade.score for notebook in submission.notebooks
               for grade in notebook.grades}
    assert {cell: got[cell] for cell in MANIFEST["samples"][student]["cells"]} == (
        pytest.approx(MANIFEST["samples"][student]["cells"]))


def test_generated_starter_is_the_committed_starter(course):
    generated = course / "starter" / "plaisante" / "plaisante.ipynb"
    committed = ROOT / "starter" / "plaisante" / "plaisante.ipynb"
    assert generated.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8"), (
        "starter/ is out of date: run `make release` and commit starter/")


def test_feedback_is_written_for_every_student(course):
    for student in MANIFEST["samples"]:
        page = course / "assignments" / "feedback" / student / "plaisante" / "plaisante.html"
        assert page.is_file(), student
    full = (course / "assignments/feedback/full_marks/plaisante/plaisante.html").read_text()
    assert ": 100 / 100 points</h4>" in full


def test_export_lists_every_student_with_the_gradebook_score(course):
    with open(course / "grades.csv", newline="", encoding="utf-8") as rows:
        exported = {row["student_id"]: float(row["score"]) for row in csv.DictReader(rows)}
    samples = {s: v["expected"]["total"] for s, v in MANIFEST["samples"].items()}
    assert {s: exported[s] for s in samples} == samples
    # and the mutants of the reference the course holds too (shared_course.py)
    assert set(exported) - set(samples) == {case.student for case in SAMPLED_MUTANT_CASES
                                            if case.assignment == "plaisante"}


def test_commands_from_a_subfolder_use_the_course_gradebook(course):
    out = plaisante("scores", "--student", "full_marks", cwd=course / "notebooks").stdout
    row = next(line for line in out.splitlines() if line.startswith("full_marks"))
    assert row.split() == ["full_marks", "15", "15", "30", "25", "15", "100"]
    assert not (course / "notebooks" / "gradebook.db").exists()


def test_reference_card_rejects_rank_1_naming_the_allowed_ranks(ref):
    with pytest.raises(ValueError) as error:
        ref.Card("1", "hearts")
    assert all(rank in str(error.value) for rank in RANKS)


def test_plaisante_outside_the_course_folder_never_makes_a_stray_gradebook(course, tmp_path):
    result = plaisante("nbgrader", "db", "student", "list", cwd=tmp_path, course=course)
    assert "full_marks" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_second_submission_needs_replace_and_keeps_the_first(course, tmp_path):
    first = SAMPLES / "full_marks.ipynb"
    done = plaisante("submit", str(first), "--student", "twice", cwd=course)
    # whose, where, and which assignment it was read as: as a folder's submission says it
    target = course / "assignments" / "submitted" / "twice" / "plaisante" / "plaisante.ipynb"
    assert done.stdout == f"twice: {target} (plaisante)\n"
    again = plaisante("submit", str(SAMPLES / "untouched.ipynb"), "--student", "twice",
                      cwd=course, check=False)
    assert again.returncode == 2 and "already has a submission" in again.stderr
    assert "Traceback" not in again.stderr
    plaisante("submit", str(SAMPLES / "untouched.ipynb"), "--student", "twice", "--replace",
              cwd=course)
    (kept,) = (course / "assignments" / "replaced" / "twice").iterdir()
    assert kept.read_bytes() == first.read_bytes()
    shutil.rmtree(course / "assignments" / "submitted" / "twice")


@pytest.mark.parametrize("student", ["élève", "a b", "-rf", "x/y"])
def test_a_student_id_nbgrader_cannot_use_is_refused_at_submit(course, student):
    result = plaisante("submit", str(SAMPLES / "full_marks.ipynb"), f"--student={student}",
                       cwd=course, check=False)
    assert result.returncode == 2 and "use ASCII letters, digits" in result.stderr
    assert "Traceback" not in result.stderr


def test_clear_messages_for_a_typo_and_an_ungraded_student(course):
    typo = plaisante("grade", "plaisant", cwd=course, check=False)
    assert typo.returncode == 2
    assert "unknown assignment 'plaisant'; the course has: " in typo.stderr
    assert "plaisante" in typo.stderr.split("the course has:")[1]
    missing = plaisante("scores", "plaisante", "--student", "nobody", cwd=course)
    assert missing.stdout.strip() == "nobody not graded yet"


def test_course_root_without_a_config_anywhere_says_what_to_do(tmp_path, monkeypatch):
    from plaisante import course

    monkeypatch.delenv("PLAISANTE_COURSE", raising=False)
    monkeypatch.setattr(course, "__file__", str(tmp_path / "pkg" / "course.py"))
    with pytest.raises(FileNotFoundError, match="no nbgrader_config.py in .* set PLAISANTE_COURSE"):
        course.course_root(tmp_path)


def test_export_to_a_missing_folder_and_scores_for_a_bad_id_are_one_line_errors(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    export = plaisante("export", "--to", str(tmp_path / "nowhere" / "g.csv"), cwd=root,
                       check=False)
    assert export.returncode == 2 and "Traceback" not in export.stderr
    assert f"folder {tmp_path / 'nowhere'} does not exist" in export.stderr
    bad = plaisante("scores", "--student", "élodie", cwd=root, check=False)
    assert bad.returncode == 2 and "use ASCII letters, digits" in bad.stderr
