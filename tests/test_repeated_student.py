"""``--student A --student B`` on every command that takes it acts on A and B, both, and on no
one else. nbgrader's own ``--student`` is a single glob (a repeated one keeps only the last),
so ``feedback`` wrote "could not be graded" pages for students who scored 100."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.commands.feedback import only_students
from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
WORK = {"ada": "full_marks.ipynb", "ben": "syntax_error_in_count_values.ipynb",
        "cy": "untouched.ipynb"}


def test_several_students_exclude_the_others_for_nbgrader():
    present = ["ada", "ben", "cy", "dee"]
    assert only_students(None, present) == []
    assert only_students(["ben"], present) == ["--student=ben"]
    assert only_students(["ada", "ben", "ada"], present) == [
        "--CourseDirectory.student_id_exclude=cy,dee"]
    assert only_students(["ada", "ben", "cy", "dee"], present) == []


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = new_course(tmp_path_factory.mktemp("repeated") / "course")
    run("release", ASSIGNMENT, cwd=root)
    folder = tmp_path_factory.mktemp("class")  # one submit of the class's <student>.ipynb
    for student, sample in WORK.items():
        shutil.copy(SAMPLES / sample, folder / f"{student}.ipynb")
    run("submit", str(folder), "--assignment", ASSIGNMENT, cwd=root)
    return root


def totals(root: Path) -> dict[str, float]:
    layout = CourseLayout(root)
    found = {}
    for student in WORK:
        path = layout.report(ASSIGNMENT, student)
        if path.is_file():
            found[student] = json.loads(path.read_text(encoding="utf-8"))["total"]
    return found


@pytest.mark.nbgrader
def test_grade_feedback_scores_and_export_each_take_both_students(course, tmp_path):
    layout = CourseLayout(course)
    run("grade", ASSIGNMENT, "--student", "ada", "--student", "ben", "--workers", "1",
        cwd=course)
    graded = totals(course)
    assert set(graded) == {"ada", "ben"} and graded["ada"] == 100 and graded["ben"] < 100

    done = run("feedback", ASSIGNMENT, "--student", "ada", "--student", "ben", cwd=course)
    assert "no notebook to show" not in done.stdout
    assert "2 page(s)" in done.stdout
    for student in ("ada", "ben"):
        page = layout.feedback(student, ASSIGNMENT).read_text(encoding="utf-8")
        assert "could not be graded" not in page
        assert f"{graded[student]:g}" in page
    assert not layout.feedback("cy", ASSIGNMENT).exists()

    shown = run("scores", ASSIGNMENT, "--student", "ada", "--student", "ben", cwd=course).stdout
    assert "ada" in shown and "ben" in shown and "cy" not in shown

    target = tmp_path / "grades.csv"
    run("export", ASSIGNMENT, "--to", str(target), "--student", "ada", "--student", "ben",
        cwd=course)
    with target.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert sorted(row["student_id"] for row in rows) == ["ada", "ben"]


@pytest.mark.nbgrader
def test_plain_autograde_takes_both_students(course):
    shutil.rmtree(CourseLayout(course).autograded("x", ASSIGNMENT).parents[2], ignore_errors=True)
    run("autograde", ASSIGNMENT, "--student", "ben", "--student", "cy", cwd=course)
    layout = CourseLayout(course)
    made = {s for s in WORK if layout.autograded(s, ASSIGNMENT).is_file()}
    assert made == {"ben", "cy"}
