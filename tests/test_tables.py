"""The instructor's terminal tables print what students and rosters wrote as it is written:
never read as rich markup (a MarkupError stopped `plaisante grade A B` after A and `plaisante
scores` for good), never sending a control sequence to the terminal."""

from __future__ import annotations

import argparse

from plaisante.commands import grade as grade_verb
from plaisante.grading.result import SubmissionResult
from plaisante.grading.run_table import table
from plaisante.results.scores import Row
from plaisante.results.tables import scores_table

OSC8 = "\x1b]8;;http://x\x1b\\"
REASON = f"cell [/]step1_[bold red]x{OSC8} deleted (restored from the source)"


def row(**changes) -> Row:
    values = dict(assignment="plaisante", student="ada", first_name="[bold red]Ada",
                  last_name=f"[/]Lovelace{OSC8}", email="ada@example.edu", timestamp="",
                  steps={"step1": 10.0}, step_max={"step1": 15.0}, cells={}, cell_max={},
                  raw=10.0, late_penalty=0.0, total=10.0, max_total=15.0, flagged=True,
                  reasons=[REASON])
    return Row(**dict(values, **changes))


def test_scores_shows_names_and_reasons_as_written_without_control_characters():
    text = scores_table([row(), row(student="ben", flagged=False, reasons=[])],
                        {"step1": "Card"}, title="plaisante")
    assert "[bold red]Ada [/]Lovelace]8;;http://x" in text
    assert "FLAGGED: cell [/]step1_[bold red]x]8;;http://x" in text.replace("\n", "")
    assert "\x1b" not in text and "\t" not in text


def test_grades_table_shows_reasons_as_written_without_control_characters():
    result = SubmissionResult(student="ada", status="flagged", reasons=[REASON, "\ttab"],
                              total=3.0, max_total=100.0)
    text = table([result])
    assert "cell [/]step1_[bold red]x]8;;http://x\\ deleted" in text and " tab" in text
    assert "\x1b" not in text and "\t" not in text
    assert text.endswith("1 submission(s): 0 graded, 1 flagged")


def test_a_table_that_cannot_be_drawn_never_stops_grading_the_next_assignment(
        tmp_path, monkeypatch, capsys):
    graded = []

    def grade(root, assignment, args):
        graded.append(assignment)
        if assignment == "a":
            raise RuntimeError("the table could not be drawn")
        return 0
    monkeypatch.setattr(grade_verb, "grade_assignment", grade)
    monkeypatch.setattr(grade_verb, "chosen", lambda layout, asked: ["a", "b"])
    (tmp_path / "nbgrader_config.py").write_text("")  # a course, as --course must name
    args = argparse.Namespace(command="grade", assignments=["a", "b"], student=None,
                              course=tmp_path)
    status = grade_verb.run(args)
    assert graded == ["a", "b"] and status == 2
    assert "plaisante grade: a: RuntimeError: the table could not be drawn" in \
        capsys.readouterr().err


def test_grade_says_the_work_is_graded_when_only_its_table_fails(tmp_path, monkeypatch, capsys):
    from plaisante.grading import parallel, run, run_table
    from plaisante.results import scores

    submitted = tmp_path / "assignments" / "submitted"
    submitted.mkdir(parents=True)
    monkeypatch.setattr(run, "submitted_students", lambda root, assignment: ["ada"])
    monkeypatch.setattr(parallel, "grade_parallel", lambda *a, **k: [
        SubmissionResult(student="ada", status="graded", total=1.0, max_total=1.0)])
    monkeypatch.setattr(scores, "cell_maxima", lambda root, assignment: {})
    monkeypatch.setattr(scores, "step_titles", lambda assignment: {})

    def broken(*args, **kwargs):
        raise ValueError("no table")
    monkeypatch.setattr(run_table, "table", broken)
    args = argparse.Namespace(student=None, cell_timeout=1.0, timeout=60.0, no_sandbox=True,
                              workers=1, scheduler=None)
    assert grade_verb.grade_assignment(tmp_path, "plaisante", args) == 0
    assert "plaisante is graded (see `plaisante scores plaisante`), but its table could not " \
        "be drawn: ValueError: no table" in capsys.readouterr().err


def test_scores_at_80_columns_cuts_no_number_and_names_the_steps_below():
    steps = {f"step{n}": float(n) for n in range(1, 6)}
    rows = [row(student=f"student{n}", steps=steps, step_max=steps, total=15.0, flagged=n == 0,
                reasons=["invalid notebook: not valid JSON (line 1, column 2)"] if n == 0
                else [])
            for n in range(3)]
    titles = {"step1": "Card", "step2": "count_values", "step3": "the has-checks",
              "step4": "scoring", "step5": "Tableau"}
    text = scores_table(rows, titles, title="plaisante", width=80)
    lines = text.splitlines()
    assert max(map(len, lines[:-2])) <= 80 and "…" not in text
    student1 = next(line for line in lines if line.startswith("student1"))
    assert student1.split()[-6:] == ["1", "2", "3", "4", "5", "15"]
    assert lines[1].split()[:3] == ["student", "name", "1"]
    assert lines[-1].startswith("steps: 1 Card · 2 count_values · 3 the has-checks")
