"""Late work is shown as late in ``grade``, ``scores`` and the CSV even when the course has no
late penalty method (nbgrader's default: no points off), and the CSV's due dates and
timestamps carry their time zone."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
FULL = ROOT / "assignments" / "samples" / ASSIGNMENT / "full_marks.ipynb"


@pytest.mark.nbgrader
def test_late_work_without_a_penalty_method_is_shown_late_everywhere(tmp_path):
    root = new_course(tmp_path / "course")
    run("release", ASSIGNMENT, cwd=root)
    run("nbgrader", "db", "assignment", "add", ASSIGNMENT,
        "--duedate=2026-01-01 00:00:00 UTC", cwd=root)
    layout = CourseLayout(root)
    for student, stamp in (("late", "2026-01-01 03:02:05.000000 UTC"),
                           ("punctual", "2025-12-31 23:00:00.000000 UTC")):
        run("submit", str(FULL), "--student", student, cwd=root)
        (layout.submitted(student, ASSIGNMENT).parent / "timestamp.txt").write_text(
            stamp + "\n", encoding="utf-8")
    graded = run("grade", ASSIGNMENT, "--workers", "1", cwd=root).stdout
    late_line = next(line for line in graded.splitlines() if line.startswith("late "))
    assert "100 / 100" in late_line
    assert "late: 3h 2m late, no late penalty method" in late_line
    assert "late:" not in next(line for line in graded.splitlines()
                               if line.startswith("punctual "))

    shown = run("scores", ASSIGNMENT, cwd=root).stdout
    assert "3h 2m late" in next(line for line in shown.splitlines() if "late " in line
                                and line.lstrip().startswith("late"))
    assert "late" not in next(line for line in shown.splitlines()
                              if line.lstrip().startswith("punctual"))

    target = tmp_path / "grades.csv"
    run("export", ASSIGNMENT, "--to", str(target), cwd=root)
    with target.open(encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert (rows["late"]["late"], rows["late"]["seconds_late"]) == ("yes", "10925")
    assert (rows["punctual"]["late"], rows["punctual"]["seconds_late"]) == ("no", "0")
    assert rows["late"]["score"] == "100" and rows["late"]["late_submission_penalty"] == "0"
    assert rows["late"]["duedate"] == "2026-01-01T00:00:00+00:00"
    assert rows["late"]["timestamp"] == "2026-01-01T03:02:05+00:00"
