"""``plaisante feedback`` when nbgrader makes no page for one student: that student gets the
page with the grader's reasons, the others their own, and the command exits 1 with one line
naming the student. Cell metadata that nbconvert's templates read (``transient``, a
``magics_language`` that is not text) neither hides a student's answers nor breaks the page."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
FULL_MARKS = ROOT / "assignments" / "samples" / ASSIGNMENT / "full_marks.ipynb"

pytestmark = pytest.mark.nbgrader


def with_metadata(dest: Path) -> tuple[Path, list[str]]:
    """Write the full-marks sample with every answer cell's metadata set to what broke the
    pages; return it and the first line of each answer."""
    notebook = nbformat.read(FULL_MARKS, as_version=4)
    answers = [cell for cell in notebook.cells
               if cell.get("metadata", {}).get("nbgrader", {}).get("solution")]
    assert len(answers) > 5
    for n, cell in enumerate(answers):
        cell.metadata["transient"] = {"remove_source": True} if n % 2 else "x"
        cell.metadata["magics_language"] = 5
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, dest)
    return dest, [cell.source.strip().splitlines()[0] for cell in answers]


def test_a_page_nbgrader_cannot_make_falls_back_and_the_command_says_so(tmp_path) -> None:
    root = new_course(tmp_path / "course")
    layout = CourseLayout(root)
    run("release", ASSIGNMENT, cwd=root)
    run("submit", str(FULL_MARKS), "--student", "ada", cwd=root)
    odd, first_lines = with_metadata(tmp_path / "mal" / f"{ASSIGNMENT}.ipynb")
    run("submit", str(odd), "--student", "mal", cwd=root)
    run("submit", str(FULL_MARKS), "--student", "eve", cwd=root)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    for student in ("ada", "mal", "eve"):
        report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
        assert report["total"] == 100, (student, report)
    layout.autograded("eve", ASSIGNMENT).write_text("{not json", encoding="utf-8")

    done = run("feedback", ASSIGNMENT, cwd=root, check=False)
    assert done.returncode == 1, (done.stdout, done.stderr)
    said = done.stderr.strip().splitlines()
    assert len(said) == 1, done.stderr
    assert said[0].startswith(
        "plaisante feedback: nbgrader made no feedback page of 'plaisante' for eve (a page "
        "with the grader's reasons instead); nbgrader said: "), said
    eve = layout.feedback("eve", ASSIGNMENT).read_text(encoding="utf-8")
    assert "The page of your graded notebook could not be made" in eve
    for student in ("ada", "mal"):
        page = layout.feedback(student, ASSIGNMENT).read_text(encoding="utf-8")
        assert "could not be made" not in page and "could not be graded" not in page
    mal = layout.feedback("mal", ASSIGNMENT).read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", mal))
    missing = [line for line in first_lines if line not in text]
    assert missing == []
