"""The course gradebook on a real PostgreSQL server (``c.CourseDirectory.db_url``): every
command reads and writes the database the course's nbgrader config names.

One real run by default: a course whose config points at a PostgreSQL database started here
(``postgres_server``), Tricks released into it (by nbgrader itself) and six of its samples
submitted (``STUDENTS``), then two ``plaisante grade`` runs at once (each gets its manifest
scores, every result
of both runs is recorded, one submission row per student), two processes recording the same
new students at once (every row whole). Under ``slow``: a server that goes away in the middle
of a run (a one-line error naming the database, nothing half-written, a rerun completes) and
every assignment's samples graded into PostgreSQL.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from course_cli import cli, new_course
from postgres_server import PostgresServer

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]
KIT = CourseLayout(ROOT)
ASSIGNMENT = "tricks"  # the fewest samples: the default run's
#: The default run's students: enough for two runs at once to meet on most of them, and each
#: kind of result (full and no marks, a wrong answer, steps not started, own tests weak and
#: failing on correct code); every sample goes into PostgreSQL under ``slow``
STUDENTS = ("full_marks", "untouched", "another_suit_can_win", "steps_1_to_3_only",
            "trick_winner_tests_weak", "trick_winner_tests_fail_on_correct_code")

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]


def manifest(assignment: str, students: tuple[str, ...] | None = None) -> dict[str, dict]:
    """{student: sample} of ``assignment``'s manifest, ``students`` alone when given."""
    samples = json.loads((KIT.samples(assignment) / "manifest.json").read_text(
        encoding="utf-8"))["samples"]
    assert students is None or set(students) <= set(samples)
    return {student: sample for student, sample in samples.items()
            if students is None or student in students}


def plaisante(*args: str, course: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    return cli(*args, cwd=course, course=course, check=check)


def popen(*args: str, course: Path) -> subprocess.Popen[str]:
    """``plaisante ARGS…`` started in the background (as ``course_cli.cli`` runs it)."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
               PLAISANTE_COURSE=str(course))
    return subprocess.Popen([sys.executable, "-m", "plaisante.cli", *args], cwd=course, env=env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def postgres_course(root: Path, url: str, assignments: tuple[str, ...],
                    students: tuple[str, ...] | None = None) -> Path:
    """A course at ``root`` whose gradebook is the database at ``url`` (one line in its
    nbgrader_config.py, as the README says): ``assignments`` released and each of their
    samples submitted, or those named in ``students`` (the sample's name as the student id;
    one ``plaisante submit`` of a folder per assignment)."""
    new_course(root, ("solutions", "notebooks"))
    config = root / "nbgrader_config.py"
    config.write_text(config.read_text(encoding="utf-8") +
                      f"\nc.CourseDirectory.db_url = {url!r}\n", encoding="utf-8")
    plaisante("release", *assignments, course=root)
    for assignment in assignments:
        drop = root.parent / "to_submit" / assignment
        drop.mkdir(parents=True)
        for student, sample in manifest(assignment, students).items():
            shutil.copy(KIT.samples(assignment) / sample["notebook"], drop / f"{student}.ipynb")
        plaisante("submit", str(drop), "--assignment", assignment, course=root)
    return root


def manifest_scores(course: Path, assignment: str,
                    students: tuple[str, ...] | None = None) -> tuple[dict, dict]:
    samples = manifest(assignment, students)
    return ({student: scores.step_scores(course, student, assignment) for student in samples},
            {student: sample["expected"] for student, sample in samples.items()})


def submission_rows(course: Path, assignment: str) -> dict[str, int]:
    """student → how many submission rows the gradebook holds of ``assignment`` for them."""
    from nbgrader.api import SubmittedAssignment

    counts: dict[str, int] = {}
    with CourseLayout(course).open_gradebook() as gradebook:
        for row in gradebook.find_assignment(assignment).submissions:
            counts[row.student_id] = counts.get(row.student_id, 0) + 1
        assert gradebook.db.query(SubmittedAssignment).count() == sum(counts.values())
    return counts


@pytest.fixture(scope="module")
def server():
    running = PostgresServer.start()
    yield running
    running.remove()


@pytest.fixture(scope="module")
def course(server: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return postgres_course(tmp_path_factory.mktemp("pg") / "course",
                           server.create_database("course"), (ASSIGNMENT,), STUDENTS)


@pytest.fixture
def ungraded(course: Path) -> Path:
    """``course`` with no grading of ``ASSIGNMENT`` recorded: its submissions removed from
    the gradebook (nbgrader's API), its reports and autograded notebooks deleted."""
    layout = CourseLayout(course)
    with layout.open_gradebook() as gradebook:
        for student in [row.student_id for row in
                        gradebook.find_assignment(ASSIGNMENT).submissions]:
            gradebook.remove_submission(ASSIGNMENT, student)
    shutil.rmtree(layout.report(ASSIGNMENT, "x").parent, ignore_errors=True)
    shutil.rmtree(layout.autograded_root, ignore_errors=True)
    assert submission_rows(course, ASSIGNMENT) == {}
    return course


def test_the_course_names_its_postgresql_gradebook_and_nbgrader_released_into_it(
        course: Path, server: PostgresServer) -> None:
    layout = CourseLayout(course)
    assert layout.gradebook_url == server.url("course")
    assert layout.gradebook_file is None and not layout.gradebook_missing()
    assert not (course / "assignments" / "gradebook.db").exists()  # no stray SQLite file
    with layout.open_gradebook() as gradebook:
        found = gradebook.find_assignment(ASSIGNMENT)
        assert [nb.name for nb in found.notebooks] == [ASSIGNMENT]
        assert found.max_score == 100


def test_two_grade_runs_at_once_record_every_result_once_with_the_manifest_scores(
        course: Path) -> None:
    runs = [popen("grade", ASSIGNMENT, "--workers", "1", course=course) for _ in range(2)]
    outputs = [run.communicate(timeout=900) for run in runs]
    for run, (out, err) in zip(runs, outputs):
        assert run.returncode == 0, err[-3000:]
        for student in STUDENTS:  # each run's table lists every student
            assert any(line.split()[:1] == [student] for line in out.splitlines()), student
    got, expected = manifest_scores(course, ASSIGNMENT, STUDENTS)
    assert got == expected
    assert submission_rows(course, ASSIGNMENT) == {student: 1 for student in expected}
    for student in expected:
        report = json.loads(CourseLayout(course).report(ASSIGNMENT, student).read_text())
        assert not any("could not be recorded" in reason for reason in report["reasons"])
    # nbgrader's own commands read the same database: its export and its feedback
    plaisante("export", ASSIGNMENT, "--to", str(course / "grades.csv"), course=course)
    with open(course / "grades.csv", newline="", encoding="utf-8") as rows:
        exported = {row["student_id"]: float(row["score"]) for row in csv.DictReader(rows)}
    assert exported == {student: points["total"] for student, points in expected.items()}
    best = max(expected, key=lambda student: expected[student]["total"])
    plaisante("feedback", ASSIGNMENT, "--student", best, course=course)
    page = CourseLayout(course).feedback(best, ASSIGNMENT).read_text(encoding="utf-8")
    assert f": {round(expected[best]['total'], 2):g} / 100 points</h4>" in page


RACE = """
import sys, time
from plaisante.grading import SubmissionResult, record
root, cells = sys.argv[1], sys.argv[2].split(",")
points, start = float(sys.argv[3]), float(sys.argv[4])
while time.time() < start:
    time.sleep(0.005)
for i in range(12):
    record(root, [SubmissionResult(student=f"race{i}", status="graded",
                                   cell_scores={cell: points for cell in cells})], "tricks")
"""


def test_two_processes_recording_the_same_new_students_at_once_leave_every_row_whole(
        course: Path) -> None:
    """Each process records twelve students never seen before, one result at a time, both
    starting at the same instant: every student ends with one submission whose every grade is
    one writer's (all 0 or all 1), never a mix, and nobody is missing."""
    with CourseLayout(course).open_gradebook() as gradebook:
        cells = [cell.name for cell in gradebook.find_notebook(ASSIGNMENT, ASSIGNMENT)
                 .grade_cells]
    start = time.time() + 3
    env = dict(os.environ, PLAISANTE_COURSE=str(course))
    writers = [subprocess.Popen([sys.executable, "-c", RACE, str(course), ",".join(cells),
                                 str(points), str(start)], env=env, text=True,
                                stderr=subprocess.PIPE) for points in (0.0, 1.0)]
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err[-3000:]
    rows = submission_rows(course, ASSIGNMENT)
    for i in range(12):
        assert rows[f"race{i}"] == 1
        got = set(scores.cell_scores(course, f"race{i}", ASSIGNMENT).values())
        assert got in ({0.0}, {1.0}), (f"race{i}", got)


@pytest.mark.slow  # make test keeps one real run on the server: the two grade runs above
def test_a_server_that_goes_away_mid_run_says_so_in_one_line_and_a_rerun_completes(
        ungraded: Path, server: PostgresServer) -> None:
    course = ungraded
    layout = CourseLayout(course)
    reports = layout.report(ASSIGNMENT, "x").parent
    run = popen("grade", ASSIGNMENT, "--workers", "1", course=course)
    deadline = time.monotonic() + 600
    while not (reports.is_dir() and any(reports.glob("*.json"))):  # a first result recorded
        assert run.poll() is None, run.communicate()[1][-3000:]
        assert time.monotonic() < deadline, "no result was recorded in 10 minutes"
        time.sleep(0.05)
    server.stop(immediate=True)
    try:
        out, err = run.communicate(timeout=900)
    finally:
        server.restart()
    assert run.returncode == 2, (out[-2000:], err[-2000:])
    said = [line for line in err.splitlines() if "cannot be used" in line]
    assert said and said[0].startswith(
        f"plaisante grade: the course gradebook {layout.gradebook_url} "
        "(c.CourseDirectory.db_url in nbgrader_config.py) cannot be used: "), err[-3000:]
    assert "Traceback" not in err
    # what was recorded is whole: each recorded student has every score of the manifest
    samples = manifest(ASSIGNMENT, STUDENTS)
    recorded = submission_rows(course, ASSIGNMENT)
    assert 1 <= len(recorded) < len(samples)
    assert {path.stem for path in reports.glob("*.json")} == set(recorded)
    for student in recorded:
        assert scores.step_scores(course, student, ASSIGNMENT) == samples[student]["expected"]
    plaisante("grade", ASSIGNMENT, "--workers", "1", course=course)
    got, expected = manifest_scores(course, ASSIGNMENT, STUDENTS)
    assert got == expected
    assert submission_rows(course, ASSIGNMENT) == {student: 1 for student in expected}


@pytest.mark.slow
def test_every_assignments_samples_get_their_manifest_scores_in_postgresql(
        tmp_path: Path, server: PostgresServer) -> None:
    assignments = tuple(COURSE)
    course = postgres_course(tmp_path / "course", server.create_database("every"), assignments)
    plaisante("grade", *assignments, course=course)
    for assignment in assignments:
        got, expected = manifest_scores(course, assignment)
        assert got == expected, assignment
