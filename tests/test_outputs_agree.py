"""The instructor's commands agree with each other on one course: ``grade`` and ``regrade``
show the total the gradebook holds (a manual grade from the formgrader included, and said
so), and lateness is computed and written one way in ``grade``, ``scores``, ``report`` and
``export``."""

from __future__ import annotations

import csv
import doctest
import html
import re
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course
from nbgrader.api import Gradebook

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.results import export, lateness, scores
from plaisante.results.class_report import MANUAL_MEANS
from plaisante.results.lateness import LMS_LATE

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
DUE = "2026-01-01 00:00:00 UTC"
MANUAL_CELL = "step2_count_values"


def line_of(text: str, student: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(student + " "))


@pytest.fixture(scope="module")
def first_grading(tmp_path_factory) -> tuple[Path, str]:
    """A course graded once: bob full marks on time, carol full marks 0.016 s late, frank an
    invalid JSON file 12.9 s late, dave full marks marked late by Canvas (no time), erin full
    marks in a -Copy1 duplicate beside the untouched original."""
    root = new_course(tmp_path_factory.mktemp("agree") / "course")
    run("release", ASSIGNMENT, cwd=root)
    run("nbgrader", "db", "assignment", "add", ASSIGNMENT, f"--duedate={DUE}", cwd=root)
    layout = CourseLayout(root)
    broken = root / "broken.ipynb"
    broken.write_text('{"cells": [{"source": "unterminated', encoding="utf-8")
    for student, notebook, stamp in (
            ("bob", SAMPLES / "full_marks.ipynb", "2025-12-31 23:00:00.000000 UTC"),
            ("carol", SAMPLES / "full_marks.ipynb", "2026-01-01 00:00:00.015665 UTC"),
            ("frank", broken, "2026-01-01 00:00:12.900000 UTC"),
            ("dave", SAMPLES / "full_marks.ipynb", None),
            ("erin", SAMPLES / "untouched.ipynb", "2025-12-31 22:00:00.000000 UTC")):
        folder = layout.submitted_root / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{ASSIGNMENT}.ipynb").write_bytes(notebook.read_bytes())
        if stamp:
            (folder / "timestamp.txt").write_text(stamp + "\n", encoding="utf-8")
    # what `submit` keeps of a Canvas download marked _LATE_, which gives no time
    (layout.submitted_root / "dave" / ASSIGNMENT / LMS_LATE).write_text(
        "Canvas marked it LATE\n", encoding="utf-8")
    # JupyterLab's Duplicate beside the untouched original: the copy holds the work
    (layout.submitted_root / "erin" / ASSIGNMENT / f"{ASSIGNMENT}-Copy1.ipynb").write_bytes(
        (SAMPLES / "full_marks.ipynb").read_bytes())
    return root, run("grade", ASSIGNMENT, "--workers", "1", cwd=root, check=False).stdout


@pytest.fixture(scope="module")
def graded(first_grading) -> Path:
    return first_grading[0]


@pytest.mark.nbgrader
def test_lateness_is_computed_and_written_one_way_in_every_output(first_grading, tmp_path):
    root, shown = first_grading
    assert ("late: <1s late, no late penalty method (submitted "
            "2026-01-01 00:00:00.015665+00:00)") in shown, shown
    assert ("late: 12s late, no late penalty method (submitted "
            "2026-01-01 00:00:12.900000+00:00)") in shown, shown
    assert "starting at line 1" in shown and "at at" not in shown

    listing = run("scores", ASSIGNMENT, cwd=root).stdout
    assert "<1s late" in line_of(listing, "carol") and "12s late" in line_of(listing, "frank")
    assert "late" not in line_of(listing, "bob")

    target = tmp_path / "grades.csv"
    run("export", ASSIGNMENT, "--to", str(target), cwd=root)
    with target.open(encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert [rows["carol"][k] for k in ("late", "seconds_late", "timestamp")] == [
        "yes", "0.015665", "2026-01-01T00:00:00.015665+00:00"]
    assert [rows["frank"][k] for k in ("late", "seconds_late", "timestamp")] == [
        "yes", "12.9", "2026-01-01T00:00:12.900000+00:00"]
    assert (rows["bob"]["late"], rows["bob"]["seconds_late"]) == ("no", "0")
    assert (rows["dave"]["late"], rows["dave"]["seconds_late"]) == ("yes", "")
    assert "late (Canvas marked it LATE, time not known)" in line_of(listing, "dave")

    run("report", ASSIGNMENT, cwd=root)
    page = (CourseLayout(root).root / "assignments" / "reports" / ASSIGNMENT
            / "index.html").read_text(encoding="utf-8")
    assert "data-key='late'>late <b>3</b>" in page
    for student, late in (("carol", "&lt;1s late"), ("frank", "12s late"),
                          ("dave", "late (Canvas marked it LATE, time not known)")):
        listed = re.search(rf"<tr data-late='{student}'>(.*?)</tr>", page, re.S)
        assert listed and late in listed.group(1), page
        if student != "dave":
            assert "00:00:" in listed.group(1) and "+00:00" in listed.group(1)
        row = re.search(rf"<tr data-student='{student}'[^>]*>(.*?)</tr>", page, re.S)
        assert row and late in row.group(1), page
    bob = re.search(r"<tr data-student='bob'[^>]*>(.*?)</tr>", page, re.S)
    assert bob and "late" not in bob.group(1)


@pytest.mark.nbgrader
def test_a_sound_grade_with_a_note_counts_and_work_not_graded_does_not(first_grading, tmp_path):
    root, shown = first_grading
    assert line_of(shown, "erin").split()[1:4] == ["noted", "100", "/"]
    assert line_of(shown, "dave").split()[1:4] == ["noted", "100", "/"]
    assert line_of(shown, "frank").split()[1] == "flagged"
    assert "5 submission(s): 4 graded (2 noted: sound, with a note to check), 1 flagged" in shown
    with Gradebook(CourseLayout(root).gradebook_url) as gradebook:  # nbgrader's flag for both
        flags = {s.student.id: any(nb.flagged for nb in s.notebooks)
                 for s in gradebook.find_assignment(ASSIGNMENT).submissions}
    assert flags == {"bob": False, "carol": False, "dave": True, "erin": True, "frank": True}

    listing = run("scores", ASSIGNMENT, cwd=root).stdout
    flat = " ".join(listing.split())  # the reasons are listed under the table when too wide
    for student, word, reason in (("erin", "NOTED", "graded plaisante-Copy1.ipynb"),
                                  ("dave", "NOTED", "late: Canvas marked it LATE"),
                                  ("frank", "FLAGGED", "invalid notebook")):
        marked = line_of(listing, student).split()[-2:]
        assert marked[0] == word, line_of(listing, student)
        assert f"{marked[1]} {student}: {reason}" in flat, listing
    average = line_of(listing, "average")
    assert average.split()[-4:] == ["100", "of", "4", "counted"], average
    assert ("5 submission(s), 2 noted (graded soundly and counted in the average; the note is "
            "for you to check), 1 flagged (could not be graded in full") in flat

    steps, lms = tmp_path / "steps.csv", tmp_path / "lms.csv"
    run("export", ASSIGNMENT, "--to", str(steps), cwd=root)
    run("export", ASSIGNMENT, "--layout", "lms", "--to", str(lms), cwd=root)
    with steps.open(encoding="utf-8") as file:
        flagged = {row["student_id"]: row["flagged"] for row in csv.DictReader(file)}
    assert flagged == {"bob": "no", "carol": "no", "dave": "noted", "erin": "noted",
                       "frank": "yes"}
    with lms.open(encoding="utf-8") as file:
        exported = {row["student_id"]: row[ASSIGNMENT] for row in csv.DictReader(file)}
    assert exported == {"bob": "100", "carol": "100", "dave": "100", "erin": "100", "frank": ""}

    run("report", ASSIGNMENT, cwd=root)
    page = (root / "assignments" / "reports" / ASSIGNMENT / "index.html").read_text("utf-8")
    assert "data-key='flagged'>flagged <b>1</b>" in page
    assert "data-key='noted'>noted <b>2</b>" in page
    assert "data-key='average'>average <b>100 / 100</b>" in page
    assert "data-flagged='frank'" in page and "data-flagged='erin'" not in page
    assert "data-noted='erin'" in page and "data-noted='dave'" in page
    counted = dict(re.findall(r"data-student='([^']+)'[^>]*data-counted='(yes|no)'", page))
    assert counted == {"bob": "yes", "carol": "yes", "dave": "yes", "erin": "yes", "frank": "no"}


@pytest.mark.nbgrader
def test_grade_and_regrade_show_the_gradebooks_total_with_a_manual_grade(graded):
    with Gradebook(CourseLayout(graded).gradebook_url) as gradebook:
        grade = gradebook.find_grade(MANUAL_CELL, ASSIGNMENT, ASSIGNMENT, "bob")
        top = float(grade.max_score)
        grade.manual_score = top - 3
        gradebook.db.commit()
    expected = f"{100 - 3:g} / 100 (manual grade: {MANUAL_CELL})"

    shown = run("grade", ASSIGNMENT, "--student", "bob", "--workers", "1", cwd=graded).stdout
    assert expected in line_of(shown, "bob"), shown
    assert "count_values -3" in shown
    again = run("regrade", ASSIGNMENT, cwd=graded, check=False).stdout
    assert expected in line_of(again, "bob"), again
    assert "(manual grade" not in line_of(again, "carol")
    with Gradebook(CourseLayout(graded).gradebook_url) as gradebook:
        kept = gradebook.find_grade(MANUAL_CELL, ASSIGNMENT, ASSIGNMENT, "bob")
        assert (kept.manual_score, kept.auto_score) == (top - 3, top)
    listing = run("scores", ASSIGNMENT, "--student", "bob", cwd=graded).stdout
    assert re.search(r"bob\b.*\b97\b", listing), listing
    assert (f"manual grade: bob ({MANUAL_CELL}), counted in the total instead of the "
            "autograded score") in listing.splitlines(), listing
    assert "manual grade: carol" not in run("scores", ASSIGNMENT, cwd=graded).stdout

    # the class report names the cell bob lost points in and how: by a manual grade (the
    # cell holds hidden tests, but bob passed them: no "hidden" tag)
    run("report", ASSIGNMENT, cwd=graded)
    page = (graded / "assignments" / "reports" / ASSIGNMENT / "index.html").read_text("utf-8")
    failing = page.split("<h2 id='failing'>")[1].split("<h2")[0]
    assert ("<p class='plaisante-note'><span class='plaisante-tag'>manual grade</span> "
            f"{html.escape(MANUAL_MEANS.split(': ', 1)[1])}.</p>") in failing
    assert "in hidden tests" not in failing
    listed = re.search(rf"<tr data-cell='{MANUAL_CELL}' data-failed='1' data-in-hidden='0' "
                       r"data-manual='1'>(.*?)</tr>", failing, re.S)
    assert listed, failing
    assert re.findall(r"<span class='plaisante-tag'[^>]*>([^<]+)</span>", listed.group(1)) == \
        ["manual grade"]
    assert f"title='{html.escape(MANUAL_MEANS)}'" in listed.group(1)


def test_the_lateness_rule_and_its_neighbours_hold_their_doctests():
    for module in (lateness, export, scores):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_test_cell_titles_are_whole_and_a_long_one_is_cut_at_a_word():
    for assignment in COURSE:
        for found in scores.test_cells(ROOT, assignment):
            assert not found.title.endswith("…"), (assignment, found.title)
    long = "# Step 5: move_selected_to_play_area keeps the selection order and leaves the " \
           "last card where it was, whatever the order of the clicks was.\ncheck()"
    title = scores.cell_title(long, "step5", {}, width=90)
    assert title == ("move_selected_to_play_area keeps the selection order and leaves the "
                     "last card where it…")
