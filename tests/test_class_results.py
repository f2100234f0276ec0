"""What an instructor reads about a class: ``scores``, ``export`` (per-step and LMS
layouts), ``roster import`` and the class report, on a class of samples plus a broken file that
reached the submitted folder as nbgrader's collect would put it there; and ``submit``, which
refuses that file before it is collected.

Every expected number is computed here from the manifest or read from nbgrader's gradebook
through nbgrader's own API, never through the kit's ``scores`` module that the outputs use.
"""

from __future__ import annotations

import csv
import html
import itertools
import json
import os
import re
import statistics
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course
from nbgrader.api import Gradebook

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
BROKEN = "broken_download"  # a truncated, non-JSON notebook file

pytestmark = pytest.mark.nbgrader


def samples_of(assignment: str) -> Path:
    """The folder holding ``assignment``'s samples and their manifest (the samples move into a
    folder per assignment)."""
    base = CourseLayout(ROOT).root / "assignments" / "samples"
    for folder in (base / assignment, base):
        manifest = folder / "manifest.json"
        if manifest.is_file() and json.loads(manifest.read_text())["assignment"] == assignment:
            return folder
    raise FileNotFoundError(f"no samples of {assignment} under {base}")


SAMPLES = samples_of(ASSIGNMENT)
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
#: The class: a sample of each kind of result these outputs show (every sample's own scores are
#: test_pipeline's and test_parallel's): full marks, nothing done (every step "all N points",
#: every cell failed visibly), steps 4 and 5 left undone, a hidden-tests cell failed in its
#: visible part, a syntax error (whose feedback index is read below), own tests not written and
#: weak (own-tests cells failed in the hidden region, partly); step2_my_tests is the cell most
#: of them fail (3), ahead of every other (2 at most).
CLASS = ("full_marks", "untouched", "steps_1_to_3_only", "has_pair_at_least_two",
         "syntax_error_in_count_values", "own_tests_not_written", "own_tests_weak")
EXPECTED = {student: MANIFEST["samples"][student]["expected"] for student in CLASS}


def broken_bytes() -> bytes:
    return (SAMPLES / MANIFEST["samples"]["full_marks"]["notebook"]).read_bytes()[:3000]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A course copy: the class's samples submitted, the broken file collected into submitted/, a
    roster of three (one without any submission), graded, fed back, reported, exported."""
    root = new_course(tmp_path_factory.mktemp("course"))
    run("release", ASSIGNMENT, cwd=root)
    for student in CLASS:
        run("submit", str(SAMPLES / MANIFEST["samples"][student]["notebook"]), "--student",
            student, cwd=root)
    layout = CourseLayout(root)
    inbox = layout.submitted(BROKEN, ASSIGNMENT)
    inbox.parent.mkdir(parents=True)
    inbox.write_bytes(broken_bytes())
    roster = root / "roster.csv"
    roster.write_text("student_id,first_name,last_name,email\n"
                      "full_marks,Ada,Lovelace,ada@example.edu\n"
                      f"{BROKEN},Ben,Bitdiddle,ben@example.edu\n"
                      "no_show,Zoé,Martin,zoe@example.edu\n", encoding="utf-8")
    run("roster", "import", str(roster), cwd=root)
    graded = run("grade", ASSIGNMENT, "--workers", "2", cwd=root, check=False)
    assert graded.returncode == 0, graded.stderr[-3000:]
    run("feedback", ASSIGNMENT, cwd=root)
    steps_csv, lms_csv = root / "grades.csv", root / "lms.csv"
    run("export", "--to", str(steps_csv), cwd=root)
    run("export", ASSIGNMENT, "--layout", "lms", "--to", str(lms_csv), cwd=root)
    report = run("report", ASSIGNMENT, cwd=root)
    return {"root": root, "grade": graded.stdout, "scores": run("scores", cwd=root).stdout,
            "steps": list(csv.DictReader(steps_csv.open(encoding="utf-8"))),
            "lms": list(csv.DictReader(lms_csv.open(encoding="utf-8"))),
            "report": report.stdout}


def gradebook_totals(root: Path) -> dict[str, tuple[float, bool]]:
    """{student: (score after late penalty, flagged)} read with nbgrader's API alone."""
    with Gradebook(CourseLayout(root).gradebook_url) as gradebook:
        return {s.student.id: (max(0.0, s.score - s.late_submission_penalty),
                               any(nb.flagged for nb in s.notebooks))
                for s in gradebook.find_assignment(ASSIGNMENT).submissions}


def fair_average() -> float:
    """The class average the outputs must show: the manifest's totals, the broken file left
    out."""
    return statistics.fmean(expected["total"] for expected in EXPECTED.values())


# ------------------------------------------------------------------------------------- submit

def test_submit_refuses_a_file_that_is_not_a_notebook_in_one_line(course, tmp_path):
    bad = tmp_path / "alice.ipynb"
    bad.write_bytes(broken_bytes())
    done = run("submit", str(bad), "--student", "alice", "--assignment", ASSIGNMENT,
               cwd=course["root"], check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "refused" in done.stderr and "nothing was collected" in done.stderr
    assert "not valid JSON" in done.stderr
    assert not (course["root"] / "assignments" / "submitted" / "alice").exists()


# -------------------------------------------------------------------------- grade and scores

def test_the_broken_file_is_graded_as_flagged(course):
    totals = gradebook_totals(course["root"])
    assert totals[BROKEN] == (0.0, True)
    assert [s for s, (_, flagged) in totals.items() if flagged] == [BROKEN], course["grade"]


def test_grade_names_the_steps_that_lost_points_and_their_test_cells(course):
    """Each student's "lost in step N (title): cell -p, …" lines name exactly the steps the
    manifest says lost points, and the points listed add up to what was lost there."""
    lines = course["grade"].splitlines()
    for student, expected in EXPECTED.items():
        start = next(i for i, line in enumerate(lines) if line.split()[:1] == [student])
        block = [lines[start]] + [line for line in itertools.takewhile(
            lambda line: line.startswith(" "), lines[start + 1:])]
        lost = dict(re.findall(r"lost in step (\d+) \([^)]*\): (.*)$", "\n".join(block), re.M))
        short = {n for n in range(1, 6) if expected[f"step{n}"] < MANIFEST["max"][f"step{n}"]}
        assert {int(n) for n in lost} == short, (student, block)
        for n, cells in lost.items():
            gone = MANIFEST["max"][f"step{n}"] - expected[f"step{n}"]
            listed = (float(re.match(r"all (\S+) points", cells).group(1))
                      if cells.startswith("all ")
                      else sum(float(x) for x in re.findall(r" -(\d+(?:\.\d+)?)", cells)))
            assert listed == pytest.approx(gone), (student, n, cells)


def test_scores_marks_flagged_work_and_leaves_it_out_of_the_average(course):
    out = course["scores"]
    broken = next(line for line in out.splitlines() if line.startswith(BROKEN))
    assert "FLAGGED: invalid notebook: not valid JSON" in broken
    full = next(line for line in out.splitlines() if line.startswith("full_marks"))
    assert full.split()[:3] == ["full_marks", "Ada", "Lovelace"]
    maximum = next(line for line in out.splitlines() if line.startswith("maximum"))
    assert maximum.split()[1:] == [f"{MANIFEST['max'][key]:g}" for key in
                                   ("step1", "step2", "step3", "step4", "step5", "total")]
    average = next(line for line in out.splitlines() if line.startswith("average"))
    step_means = [statistics.fmean(e[f"step{n}"] for e in EXPECTED.values()) for n in range(1, 6)]
    assert average.split()[1:7] == [f"{round(m, 1):g}" for m in step_means] + \
        [f"{round(fair_average(), 1):g}"]
    assert f"of {len(EXPECTED)} counted" in average
    assert f"{len(EXPECTED) + 1} submission(s), 1 flagged" in out


# -------------------------------------------------------------------------------------- export

def test_the_steps_export_has_each_step_flagged_and_reason(course):
    rows = {row["student_id"]: row for row in course["steps"]}
    assert sorted(rows) == sorted([*EXPECTED, BROKEN])  # no_show has nothing: not listed
    for student, expected in EXPECTED.items():
        row = rows[student]
        assert {f"step{n}": float(row[f"step{n}"]) for n in range(1, 6)} == \
            {k: v for k, v in expected.items() if k != "total"}, student
        assert (float(row["score"]), float(row["max_score"]), row["flagged"], row["reason"]) \
            == (expected["total"], 100.0, "no", ""), student
        assert row["timestamp"] and float(row["late_submission_penalty"]) == 0
    broken = rows[BROKEN]
    assert (broken["flagged"], float(broken["score"])) == ("yes", 0.0)
    assert broken["reason"].startswith("invalid notebook: not valid JSON")
    assert (rows["full_marks"]["first_name"], rows["full_marks"]["last_name"],
            rows["full_marks"]["email"]) == ("Ada", "Lovelace", "ada@example.edu")


def test_the_lms_export_has_an_id_column_and_one_per_assignment(course):
    rows = {row["student_id"]: row for row in course["lms"]}
    assert list(course["lms"][0]) == ["student_id", "last_name", "first_name", "email",
                                      ASSIGNMENT]
    for student, expected in EXPECTED.items():
        assert float(rows[student][ASSIGNMENT]) == expected["total"], student
    assert rows[BROKEN][ASSIGNMENT] == ""  # flagged: no score a grade book would take as real
    assert rows["no_show"][ASSIGNMENT] == "" and rows["no_show"]["first_name"] == "Zoé"


def test_a_roster_without_an_id_column_is_refused_in_one_line(course, tmp_path):
    bad = tmp_path / "names.csv"
    bad.write_text("name,email\nAda,ada@example.edu\n", encoding="utf-8")
    done = run("roster", "import", str(bad), cwd=course["root"], check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no id column" in done.stderr and "'id' (or 'student_id')" in done.stderr


def test_a_roster_saved_with_semicolons_or_tabs_reads_as_with_commas(tmp_path):
    """Spreadsheets where the comma is the decimal mark save CSV with semicolons."""
    from plaisante.results.roster import read_roster

    saved = ["student_id,last_name,first_name,email\n"
             'ada,"Lovelace, Countess",Ada,ada@example.edu\n',
             "student_id;last_name;first_name;email\nada;Lovelace, Countess;Ada;ada@example.edu\n",
             "student_id\tlast_name\tfirst_name\temail\nada\tLovelace, Countess\tAda\t"
             "ada@example.edu\n"]
    rows = []
    for text in saved:
        (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
        rows.append(read_roster(tmp_path / "roster.csv"))
    assert rows[0] == rows[1] == rows[2] == [{"id": "ada", "first_name": "Ada",
                                              "last_name": "Lovelace, Countess",
                                              "email": "ada@example.edu",
                                              "lms_user_id": ""}]


def test_a_roster_row_short_of_fields_is_refused_not_imported_with_names_blanked(tmp_path):
    """Found by a tryout: 'good;Ana' under a four-column header imported, and nbgrader then
    blanked the student's last name and email."""
    from plaisante.results.roster import read_roster

    (tmp_path / "roster.csv").write_text("id;first_name;last_name;email\nada;Ada;Lovelace;a@x\n"
                                         "good;Ana\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"roster.csv line 3: not as many fields as the header "
                                         r"row has \(4: id, first_name, last_name, email\)"):
        read_roster(tmp_path / "roster.csv")


# -------------------------------------------------------------------------------------- report

def report_page(course: dict) -> str:
    return (course["root"] / "assignments" / "reports" / ASSIGNMENT / "index.html").read_text(
        encoding="utf-8")


def test_the_report_writes_a_page_and_three_figures(course):
    folder = course["root"] / "assignments" / "reports" / ASSIGNMENT
    assert f"wrote {folder / 'index.html'}" in course["report"]
    page = report_page(course)
    images = re.findall(r"<img src='([^']+)'", page)
    assert len(images) >= 3
    for name in images:
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert (folder / name).stat().st_size > 5000, name


def test_the_reports_numbers_are_the_gradebooks(course):
    page = report_page(course)
    totals = gradebook_totals(course["root"])
    shown = {m[0]: (float(m[1]), m[2] == "yes") for m in re.findall(
        r"data-student='([^']+)' data-total='([^']+)' data-flagged-row='(yes|no)'", page)}
    assert {s: flagged for s, (_, flagged) in shown.items()} == \
        {s: flagged for s, (_, flagged) in totals.items()}
    assert {s: total for s, (total, _) in shown.items()} == \
        pytest.approx({s: total for s, (total, _) in totals.items()})
    kept = [total for total, flagged in totals.values() if not flagged]
    average = re.search(r"data-key='average'>average <b>([^<]+) / 100</b>", page).group(1)
    assert float(average) == pytest.approx(statistics.fmean(kept), abs=0.05)
    assert float(average) == pytest.approx(fair_average(), abs=0.05)
    assert re.search(r"data-key='flagged'>flagged <b>1</b>", page)
    for n in range(1, 6):
        mean = float(re.search(rf"data-step='step{n}' data-mean='([^']+)'", page).group(1))
        assert mean == pytest.approx(statistics.fmean(e[f"step{n}"] for e in EXPECTED.values()))
    # the cell most students lost points in, counted from the gradebook's grades
    with Gradebook(CourseLayout(course["root"]).gradebook_url) as gradebook:
        failed: dict[str, int] = {}
        for submission in gradebook.find_assignment(ASSIGNMENT).submissions:
            if any(nb.flagged for nb in submission.notebooks):
                continue
            for nb in submission.notebooks:
                for grade in nb.grades:
                    if grade.score < grade.max_score:
                        failed[grade.name] = failed.get(grade.name, 0) + 1
    listed = dict((cell, int(n)) for cell, n in
                  re.findall(r"data-cell='([^']+)' data-failed='(\d+)'", page))
    assert listed and all(failed[cell] == n for cell, n in listed.items())
    assert max(listed.values()) == max(failed.values())
    assert f"data-flagged='{BROKEN}'" in page and "not valid JSON" in page


def test_the_report_names_hidden_tests_but_never_shows_their_code(course):
    page = report_page(course)
    text = html.unescape(page)
    source = nbformat.read(CourseLayout(course["root"]).source(ASSIGNMENT), as_version=4)
    hidden_lines = []
    for cell in source.cells:
        inside = False
        for line in cell.source.splitlines():
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) >= 10:
                hidden_lines.append(line.strip())
    assert len(hidden_lines) > 10
    leaked = [line for line in hidden_lines if line in text or line in page]
    assert leaked == []
    assert "BEGIN HIDDEN" not in text  # named by a tag (test_a_cell_is_tagged_by_…), not shown


def test_the_report_tags_a_cell_by_where_its_students_failed_it(course):
    """A cell holding hidden tests whose visible checks failed is not tagged "hidden": the tag
    counts those who passed the visible checks and failed the hidden ones, read here from the
    grader's reports. A cell grading the student's own tests is never tagged "hidden"."""
    page = report_page(course)
    reports = CourseLayout(course["root"]).report(ASSIGNMENT, "-").parent
    where: dict[str, list[str]] = {}
    for student in EXPECTED:  # every sample but the broken file, which is flagged
        failed_in = json.loads((reports / f"{student}.json").read_text())["failed_in"]
        for cell, place in failed_in.items():
            where.setdefault(cell, []).append(place)
    rows = re.findall(r"<tr data-cell='([^']+)' data-failed='(\d+)' data-in-hidden='(\d+)' "
                      r"data-manual='0'>(.*?)</tr>", page, re.S)
    assert rows
    for cell, failed, in_hidden, row in rows:
        own_tests = cell.endswith("_my_tests")  # graded in the hidden region, not hidden tests
        assert int(in_hidden) == (0 if own_tests else where.get(cell, []).count("hidden")), cell
        tags = re.findall(r"<span class='plaisante-tag'[^>]*>([^<]+)</span>", row)
        if int(in_hidden) == 0:
            assert tags == [], (cell, tags)
        elif in_hidden == failed:
            assert tags == ["in hidden tests"], (cell, tags)
        else:
            assert tags == [f"{in_hidden} of {failed} in hidden tests"], (cell, tags)
    source = nbformat.read(CourseLayout(course["root"]).source(ASSIGNMENT), as_version=4)
    holds_hidden = {c.metadata["nbgrader"]["grade_id"] for c in source.cells
                    if "BEGIN HIDDEN TESTS" in c.source}
    # the case that was tagged "hidden" by content: a cell with hidden tests failed visibly
    assert any(cell in holds_hidden and in_hidden == "0" for cell, _, in_hidden, _ in rows)
    # in this course only own-tests cells are failed after their visible part (the student
    # wrote no tests): graded in the hidden region, they are no hidden test, and are untagged
    assert any(cell.endswith("_my_tests") and "hidden" in where.get(cell, [])
               and in_hidden == "0" for cell, _, in_hidden, _ in rows)


def test_a_cell_is_tagged_by_those_who_failed_only_its_hidden_tests():
    """``cell_summaries`` and ``tag_words`` on rows made here: a cell three students failed,
    two in its hidden tests only, reads "2 of 3 in hidden tests"; all of them, "in hidden
    tests"; a student's own-tests cell failed in the hidden region, no tag."""
    from plaisante.results.class_report import cell_summaries, tag_words
    from plaisante.results.scores import Row, TestCell

    def row(name: str, cells: dict[str, float], failed_in: dict[str, str]) -> Row:
        return Row(ASSIGNMENT, name, "", "", "", "", {}, {}, cells, {}, 0.0, 0.0, 0.0, 10.0,
                   False, failed_in=failed_in)

    cells = [TestCell("step3_has_pair", "step3", "has_pair", True, 3.0),
             TestCell("step3_has_flush", "step3", "has_flush", True, 3.0),
             TestCell("step3_my_tests", "step3", "your tests", False, 4.0)]
    rows = [row("a", {"step3_has_pair": 0.0, "step3_has_flush": 0.0, "step3_my_tests": 0.0},
                {"step3_has_pair": "hidden", "step3_has_flush": "hidden",
                 "step3_my_tests": "hidden"}),
            row("b", {"step3_has_pair": 0.0, "step3_has_flush": 0.0, "step3_my_tests": 4.0},
                {"step3_has_pair": "hidden", "step3_has_flush": "hidden"}),
            row("c", {"step3_has_pair": 0.0, "step3_has_flush": 3.0, "step3_my_tests": 4.0},
                {"step3_has_pair": "visible"})]
    tagged = {summary.cell.grade_id: (summary.failed, tag_words(summary))
              for summary in cell_summaries(rows, cells)}
    assert tagged == {"step3_has_pair": (3, ["2 of 3 in hidden tests"]),
                      "step3_has_flush": (2, ["in hidden tests"]),
                      "step3_my_tests": (1, [])}


def test_the_report_links_each_student_to_their_feedback(course):
    page = report_page(course)
    folder = course["root"] / "assignments" / "reports" / ASSIGNMENT
    links = re.findall(r"<a href='([^']+)' aria-label='feedback of ([^']+)'>feedback</a>", page)
    assert len(links) == len(EXPECTED) + 1
    for link, student in links:  # each named for its student, the visible word first
        assert (folder / link).resolve().is_file(), link
        assert link.split("/")[-3:-1] == [student, ASSIGNMENT], (link, student)


def test_report_show_returns_the_page_with_its_figures_inlined(course, monkeypatch):
    from plaisante.results import class_report as report

    monkeypatch.chdir(course["root"])
    shown = report.show(ASSIGNMENT, root=course["root"])
    assert shown.data.count("src='data:image/png;base64,") == 3
    assert "class report" in shown.data


# ------------------------------------------------------------------------------ feedback page

def test_the_feedback_index_is_named_by_step_with_subtotals(course):
    page = CourseLayout(course["root"]).feedback("syntax_error_in_count_values", ASSIGNMENT)
    text = page.read_text(encoding="utf-8")
    index = text[text.index("<div id=\"toc\">"):text.index("<div class=\"panel-body\">")]
    steps = re.findall(r"<span[^>]*>(Step \d+: [^<]+)</span>", index)
    expected = EXPECTED["syntax_error_in_count_values"]
    maxima = MANIFEST["max"]
    from plaisante.games import load

    assert steps == [f"Step {s.number}: {s.title} ({round(expected[f'step{s.number}'], 2):g} / "
                     f"{round(maxima[f'step{s.number}'], 2):g})" for s in load(ASSIGNMENT).steps]
    release = nbformat.read(CourseLayout(course["root"]).release(ASSIGNMENT), as_version=4)
    tests = [c.metadata["nbgrader"]["grade_id"] for c in release.cells
             if c.metadata.get("nbgrader", {}).get("grade")
             and not c.metadata["nbgrader"].get("solution")]
    links = re.findall(r"<a href=\"#(step\d_\w+)\">([^<]+)</a>", index)
    assert [grade_id for grade_id, _ in links] == tests and "Test cell" not in index
    assert dict(links)["step3_has_flush"].startswith("has_flush")
    assert "In&nbsp;[" not in text and "BEGIN HIDDEN" not in text


# ------------------------------------------------------------------------- the other commands

def test_help_shows_no_raw_double_backticks(course):
    commands = ["list", "release", "submit", "grade", "regrade", "scores", "feedback", "report",
                "export", "roster", "nbgrader"]
    for args in [["--help"], *([command, "--help"] for command in commands)]:
        done = run(*args, cwd=course["root"])
        assert "``" not in done.stdout, args
    assert "grade is the way to autograde" in run("--help", cwd=course["root"]).stdout


def test_feedback_for_one_student_prints_no_config_warning(course):
    page = CourseLayout(course["root"]).feedback("full_marks", ASSIGNMENT)
    page.unlink()
    done = run("feedback", ASSIGNMENT, "--student", "full_marks", cwd=course["root"])
    assert page.is_file()
    assert "not recognized" not in done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr
    assert f"1 page(s) of '{ASSIGNMENT}'" in done.stdout
    other = run("feedback", ASSIGNMENT, "--student", "nobody", cwd=course["root"], check=False)
    assert other.returncode == 2 and "no submission of 'plaisante' for student 'nobody'" in \
        other.stderr


def test_release_makes_the_course_exchange_for_release_and_collect(course):
    exchange = course["root"] / "assignments" / "exchange"
    assert exchange.is_dir() and os.access(exchange, os.W_OK)
    # released there too, as nbgrader's release_assignment does: students fetch it from it
    released = exchange / "plaisante-kit" / "outbound" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    assert released.read_bytes() == (course["root"] / "starter" / ASSIGNMENT /
                                     f"{ASSIGNMENT}.ipynb").read_bytes()

def test_regrade_after_a_test_is_fixed_says_whose_score_changed(course):
    """Runs last: it changes the course's source. A test cell was worth too little: its
    points go up by 2 in solutions/; regrade releases again, grades everyone and names exactly
    the students who passed that cell (their total +2), no one else."""
    layout = CourseLayout(course["root"])
    source = nbformat.read(layout.source(ASSIGNMENT), as_version=4)
    cell = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")
                and not c.metadata["nbgrader"].get("solution")
                and c.metadata["nbgrader"]["grade_id"].startswith("step3_"))
    grade_id = cell.metadata["nbgrader"]["grade_id"]
    with Gradebook(layout.gradebook_url) as gradebook:
        passed = sorted(
            s.student.id for s in gradebook.find_assignment(ASSIGNMENT).submissions
            if not any(nb.flagged for nb in s.notebooks)
            and any(g.name == grade_id and g.score == g.max_score
                    for nb in s.notebooks for g in nb.grades))
    before = gradebook_totals(course["root"])
    assert passed and len(passed) < len(before)
    cell.metadata["nbgrader"]["points"] += 2
    nbformat.write(source, layout.source(ASSIGNMENT))
    done = run("regrade", ASSIGNMENT, "--workers", "2", cwd=course["root"])
    said = f"plaisante regrade: {len(passed)} score(s) of '{ASSIGNMENT}' changed:"
    assert said in done.stdout, done.stdout[-2000:]
    tail = done.stdout[done.stdout.index(said):].splitlines()
    changes = {line.split(":")[0].strip(): line.split(":")[1].split() for line in tail[1:-1]}
    assert sorted(changes) == passed
    for student in passed:
        old = before[student][0]
        assert changes[student] == [f"{old:g}", "->", f"{old + 2:g}", "(+2)"], student
        assert gradebook_totals(course["root"])[student] == (old + 2, False)



def test_after_a_regrade_the_report_says_which_feedback_pages_are_older(course):
    """Runs after the regrade above, which graded everyone again: every feedback page now shows
    the earlier grade, and the report says so, in its output and beside each link, until
    ``feedback`` makes that student's page again."""
    layout = CourseLayout(course["root"])
    fed = sorted(s for s in layout.submitted_students(ASSIGNMENT)
                 if layout.feedback(s, ASSIGNMENT).is_file())
    assert "full_marks" in fed and len(fed) == len(EXPECTED) + 1
    said = run("report", ASSIGNMENT, cwd=course["root"]).stdout
    assert (f"plaisante report: the feedback page of {', '.join(fed)} is older than their grade "
            f"(it shows an earlier score): run `plaisante feedback {ASSIGNMENT}`, then "
            f"`plaisante report {ASSIGNMENT}` again") in said, said
    note = f"older than the grade: run <code>plaisante feedback {ASSIGNMENT}</code>"
    assert report_page(course).count(note) == len(fed)
    run("feedback", ASSIGNMENT, "--student", "full_marks", cwd=course["root"])
    said = run("report", ASSIGNMENT, cwd=course["root"]).stdout
    others = [s for s in fed if s != "full_marks"]
    assert f"the feedback page of {', '.join(others)} is older" in said, said
    page = report_page(course)
    assert page.count(note) == len(others)
    row = page[page.index("<tr data-student='full_marks'"):]
    assert note not in row[:row.index("</tr>")]
