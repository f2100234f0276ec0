"""``plaisante export`` never writes a cell a spreadsheet would run as a formula: a roster's
names and emails, the grader's reasons, in both layouts (steps and lms)."""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from plaisante.results.export import LmsCsvExport, StepsCsvExport
from plaisante.results.scores import Row

FIRST, LAST = "=HYPERLINK(\"http://x\",\"click\")", "+cmd|' /C calc'!A0"
EMAIL, REASON = "@SUM(1+1)", "-2+3 cell deleted"


@pytest.fixture(autouse=True)
def alembic_on_path(monkeypatch):
    """nbgrader makes a new gradebook with the alembic command, beside this Python."""
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])


def gradebook(tmp_path) -> Gradebook:
    book = Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}")
    book.add_assignment("plaisante")
    book.add_student("ada", first_name=FIRST, last_name=LAST, email=EMAIL)
    book.add_student("ben", first_name="\tBen", last_name="\rBit", email="ben@example.edu")
    return book


def read(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_the_lms_layout_quotes_roster_cells_that_start_like_a_formula(tmp_path):
    target = tmp_path / "lms.csv"
    with gradebook(tmp_path) as book:
        LmsCsvExport(to=str(target)).export(book)
    rows = read(target)
    assert rows[0] == ["student_id", "last_name", "first_name", "email", "plaisante"]
    assert rows[1] == ["ada", "'" + LAST, "'" + FIRST, "'" + EMAIL, ""]
    assert rows[2] == ["ben", "'\rBit", "'\tBen", "ben@example.edu", ""]


def test_the_steps_layout_quotes_names_emails_and_reasons_but_not_numbers(tmp_path, monkeypatch):
    row = Row(assignment="plaisante", student="ada", first_name=FIRST, last_name=LAST,
              email=EMAIL, timestamp="", steps={"step1": 7.5}, step_max={"step1": 15.0},
              cells={}, cell_max={}, raw=7.5, late_penalty=0.0, total=7.5, max_total=15.0,
              flagged=True, reasons=[REASON])
    monkeypatch.setattr(StepsCsvExport, "_rows", lambda self, book, assignment: [row])
    target = tmp_path / "steps.csv"
    with gradebook(tmp_path) as book:
        StepsCsvExport(to=str(target)).export(book)
    header, line = read(target)
    got = dict(zip(header, line))
    assert (got["first_name"], got["last_name"], got["email"], got["reason"]) == (
        "'" + FIRST, "'" + LAST, "'" + EMAIL, "'" + REASON)
    assert (got["step1"], got["score"], got["student_id"]) == ("7.5", "7.5", "ada")
