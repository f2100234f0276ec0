"""Every new assignment's samples through the real commands, on the course graded once a
session (shared_course.py; Plaisante's own, with more checks: test_pipeline.py and
test_parallel.py): ``plaisante release`` reproduces each committed starter, and every sample
gets exactly its manifest's per-step scores from the judge (``plaisante grade``); plain
nbgrader (``plaisante autograde``) gives a fixed seeded choice of them (``PLAIN_CASES``) the same
scores, cell by cell. Each is run once for all the assignments; ``make test-slow`` compares
every sample (test_differential.py)."""

from __future__ import annotations

import html
import json
import subprocess
from pathlib import Path

import pytest
from course_cli import cli
from differential import Verdicts, explain, sample_cases
from shared_course import plain_students, why_graded

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = CourseLayout(ROOT)
ASSIGNMENTS = tuple(a for a in COURSE if a != "plaisante")
MANIFESTS = {a: json.loads((LAYOUT.samples(a) / "manifest.json").read_text(encoding="utf-8"))
             for a in ASSIGNMENTS}

pytestmark = pytest.mark.nbgrader


def plaisante(*args: str, course: Path) -> subprocess.CompletedProcess[str]:
    return cli(*args, cwd=course, course=course)


@pytest.fixture(scope="module")
def submitted(shared_course) -> Path:
    """The shared course with every assignment released and each sample submitted (the
    sample's name as the student id; not graded)."""
    return shared_course.submitted


@pytest.fixture(scope="module")
def judged(shared_course) -> Path:
    return shared_course.judged


@pytest.fixture(scope="module")
def autograded(shared_course) -> Path:
    return shared_course.autograded


def manifest_scores(course: Path, assignment: str,
                    students: list[str] | None = None) -> tuple[dict, dict]:
    """The per-step scores of ``students`` (default: every sample) in ``course``, and their
    manifest's."""
    samples = {student: sample for student, sample in MANIFESTS[assignment]["samples"].items()
               if students is None or student in students}
    got = {student: scores.step_scores(course, student, assignment) for student in samples}
    return got, {student: sample["expected"] for student, sample in samples.items()}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_reproduces_the_committed_starter(submitted: Path, assignment: str) -> None:
    notebook = LAYOUT.release(assignment).relative_to(ROOT)
    generated = (submitted / notebook).read_text(encoding="utf-8")
    assert generated == (ROOT / notebook).read_text(encoding="utf-8"), (
        f"{notebook} is out of date: run `plaisante release {assignment}`")


@pytest.mark.sandbox
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_judge_gives_every_sample_its_manifest_scores(judged: Path, assignment: str) -> None:
    got, expected = manifest_scores(judged, assignment)
    assert got == expected


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_plain_nbgrader_gives_each_sample_it_grades_its_manifest_scores(
        autograded: Path, assignment: str) -> None:
    got, expected = manifest_scores(autograded, assignment, plain_students(assignment))
    assert len(got) == 6 and got == expected


@pytest.mark.sandbox
def test_video_pokers_find_the_bugs_feedback_says_how_many_were_caught_never_which(
        judged: Path) -> None:
    """Step 5's feedback says how many buggy versions the tests caught, never which, and that
    the tests failed on a correct machine, never with the kernel's words (they could carry the
    correct machine's answers)."""
    plaisante("feedback", "video_poker", course=judged)
    page = {student: CourseLayout(judged).feedback(student, "video_poker")
            .read_text(encoding="utf-8")
            for student in ("port_tests_weak", "port_tests_fail_on_correct_code")}
    assert ("my_port_tests: passes on a correct hand_name, Machine and catches 2 of 5 hidden "
            "buggy versions (6 of 15 points).") in page["port_tests_weak"]
    assert "remembers a four of a kind" not in page["port_tests_weak"]
    failing = html.unescape(page["port_tests_fail_on_correct_code"])
    assert "my_port_tests fails on a correct hand_name, Machine, so it cannot be graded: " \
           "the correct hand_name, Machine raised a ValueError at one of its calls" in failing
    # The correct machine's ValueError reads as the teaching text's example does, so the
    # words may appear only as often as the notebook itself has them.
    words = "a bet of 15 needs 15 credits; you have 12"
    notebook = (LAYOUT.samples("video_poker") / "port_tests_fail_on_correct_code.ipynb"
                ).read_text(encoding="utf-8")
    assert notebook.count(words) == 1
    assert failing.count(words) == 1


@pytest.mark.sandbox
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_both_modes_give_each_sample_the_same_points_in_every_cell(
        judged: Path, autograded: Path, assignment: str) -> None:
    """The differential test (test_differential.py) of these samples, on the two courses
    graded above: every sample plain nbgrader grades but those that attack the grader."""
    disagreements = []
    for case in [case for case in sample_cases(assignment)
                 if case.student in plain_students(assignment)]:
        verdicts = Verdicts(scores.cell_scores(judged, case.student, assignment),
                            scores.cell_scores(autograded, case.student, assignment))
        assert verdicts.judge, case.name
        disagreements += ([explain(case, verdicts) + "\n"
                           + why_graded(judged, assignment, case.student)]
                          if verdicts.disagreements() else [])
    assert disagreements == []
