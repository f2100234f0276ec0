"""Grading a class in parallel gives exactly the scores of serial grading.

Seven Plaisante samples (``assignments/samples/plaisante``; ``STUDENTS``: each way a
submission ends, own tests weak and one that attacks the grader), submitted in a copy of the
course the grading tests share (shared_course.py), are graded three ways, sandbox on: serially
(``grade(workers=1)``), by ``plaisante grade --workers 2`` (a local Dask cluster, progress
bar, one coordinator writing the gradebook) and on a separately started two-worker Dask
cluster reached by its scheduler address, as a real cluster would be. Each run's per-cell
scores, statuses and reasons must be the serial run's, the gradebook must hold them, and every
one must score what the manifest says. (Every sample is graded in parallel, by ``plaisante
grade`` on all cores, in the shared course: test_course_samples.py.)
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_course import copy_of, why_graded

import plaisante.grading
from plaisante.grading import SubmissionResult, grade
from plaisante.grading.parallel import grade_parallel
from plaisante.grading.worker import failed_result
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "plaisante"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
#: Enough to spread over two workers and to tell a mix-up apart: full and no marks, a cell that
#: does not run, a step not started, a wrong answer, own tests weak and one attacking the grader
STUDENTS = sorted(["full_marks", "untouched", "syntax_error_in_count_values", "steps_1_to_3_only",
                   "straight_before_flush", "own_tests_weak", "own_tests_fingerprint_code"])
assert set(STUDENTS) <= set(MANIFEST["samples"])

pytestmark = pytest.mark.nbgrader


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    return subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, timeout=900)


def forget_grading(root: Path, pristine: Path) -> None:
    """Put the course back as it was before any grading: released, submitted, nothing graded."""
    for folder in ("autograded", "feedback", "reports"):
        shutil.rmtree(root / "assignments" / folder, ignore_errors=True)
    shutil.copy2(pristine, root / "assignments" / "gradebook.db")


def outcome(results: list[SubmissionResult]) -> dict[str, tuple[str, list[str], dict[str, float]]]:
    """Return what must not depend on how the grading was spread: student → (status, reasons,
    cell scores)."""
    return {r.student: (r.status, r.reasons, r.cell_scores) for r in results}


@pytest.fixture(scope="module")
def course(shared_course, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the shared course as submitted (nothing graded: shared_course.py) holding
    ``STUDENTS``' submissions alone (the others' removed), and a copy of its gradebook
    as it was before any grading."""
    root = copy_of(shared_course.submitted, tmp_path_factory.mktemp("parallel"))
    for work in (root / "assignments" / "submitted").glob("*/plaisante"):
        if work.parent.name not in STUDENTS:
            shutil.rmtree(work)
    pristine = root.parent / f"{root.name}-pristine.db"
    shutil.copy2(root / "assignments" / "gradebook.db", pristine)
    return root, pristine


@pytest.fixture(scope="module")
def serial(course: tuple[Path, Path]) -> dict[str, tuple[str, list[str], dict[str, float]]]:
    """The samples graded one after another in this process, sandbox on."""
    root, pristine = course
    forget_grading(root, pristine)
    return outcome(grade(root, "plaisante", workers=1))


@pytest.mark.sandbox
def test_serial_grading_scores_each_sample_as_the_manifest_says(course, serial):
    root, _ = course
    assert sorted(serial) == STUDENTS
    for student in STUDENTS:
        assert scores.step_scores(root, student, "plaisante") == pytest.approx(
            MANIFEST["samples"][student]["expected"]), student


@pytest.mark.sandbox
def test_plaisante_grade_on_two_workers_gives_the_serial_scores(course, serial):
    root, pristine = course
    forget_grading(root, pristine)
    done = run_cli("grade", "plaisante", "--workers", "2", cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"{len(STUDENTS)}/{len(STUDENTS)}" in done.stderr  # the progress bar got to the end
    assert "flagged=" in done.stderr
    for student in STUDENTS:
        assert any(line.split()[:1] == [student] for line in done.stdout.splitlines()), student
        status, _, cells = serial[student]
        assert scores.cell_scores(root, student, "plaisante") == cells, \
            why_graded(root, "plaisante", student)
        assert scores.step_scores(root, student, "plaisante") == pytest.approx(
            MANIFEST["samples"][student]["expected"]), student
        report = json.loads((root / "assignments" / "reports" / "plaisante" /
                             f"{student}.json").read_text(encoding="utf-8"))
        assert (report["status"], report["reasons"], report["cell_scores"]) == serial[student]
        assert (root / "assignments" / "autograded" / student / "plaisante" /
                "plaisante.ipynb").is_file(), student


@pytest.mark.sandbox
def test_a_separate_two_worker_dask_cluster_gives_the_serial_scores(course, serial):
    from distributed import LocalCluster
    from distributed.security import Security

    root, pristine = course
    forget_grading(root, pristine)
    security = Security.temporary()  # the cluster's mutual TLS: a tcp:// one is refused
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=logging.CRITICAL,
                      security=security, protocol="tls://") as cluster:
        assert cluster.scheduler_address.startswith("tls://")
        results = grade_parallel(root, "plaisante", scheduler=cluster.scheduler_address,
                                 security=security)
    assert [r.student for r in results] == STUDENTS
    assert outcome(results) == serial
    for result in results:
        assert scores.cell_scores(root, result.student, "plaisante") == result.cell_scores
        assert result.total == MANIFEST["samples"][result.student]["expected"]["total"]
        assert result.max_total == 100


# --------------------------------------------------------------- the coordinator, on stand-ins

def stand_in_grader(root: Path, student: str, assignment: str, *, limits: object,
                    sandbox: bool) -> SubmissionResult:
    """Grade nothing: 'crash' kills its worker process, 'broken' raises, others score 1."""
    if student == "crash":
        os._exit(3)
    if student == "broken":
        raise KeyError("no such cell")
    return SubmissionResult(student=student, status="graded", cell_scores={"only": 1.0},
                            total=1.0, max_total=1.0)


@pytest.mark.parametrize("scheduler", [None, "local"], ids=["process-pool", "dask-localcluster"])
def test_a_dying_worker_or_a_broken_grader_flags_that_student_and_the_rest_are_graded(
        tmp_path, monkeypatch, scheduler):
    students = ["a", "broken", "b", "crash", "c"]
    for student in students:
        (tmp_path / "assignments" / "submitted" / student / "plaisante").mkdir(parents=True)
    recorded: list[list[SubmissionResult]] = []
    monkeypatch.setattr(plaisante.grading, "record",
                        lambda root, results, assignment: recorded.append(list(results)))
    results = grade_parallel(tmp_path, "plaisante", workers=2, grader=stand_in_grader,
                             scheduler=scheduler)
    assert [r.student for r in results] == sorted(students)
    by_id = {r.student: r for r in results}
    for student in ("a", "b", "c"):
        assert (by_id[student].status, by_id[student].total) == ("graded", 1.0)
    assert by_id["crash"].status == "flagged"
    assert by_id["crash"].reasons == [
        "the grading worker process died while grading it; regrade it alone with "
        "`plaisante grade --student crash`"]
    assert by_id["broken"].status == "flagged"
    assert by_id["broken"].reasons == [
        "grading failed with KeyError: 'no such cell'; regrade it alone with "
        "`plaisante grade --student broken`"]
    recorded_ids = [r.student for batch in recorded for r in batch]
    assert sorted(recorded_ids) == sorted(students)  # each result recorded once, by this process


def test_an_unknown_student_or_no_worker_is_refused_before_any_grading(tmp_path):
    (tmp_path / "assignments" / "submitted" / "a" / "plaisante").mkdir(parents=True)
    with pytest.raises(ValueError, match="no submission of 'plaisante' for student 'zed'"):
        grade_parallel(tmp_path, "plaisante", students=["zed"], grader=stand_in_grader)
    with pytest.raises(ValueError, match="workers must be a positive int, got 0"):
        grade_parallel(tmp_path, "plaisante", workers=0, grader=stand_in_grader)
    with pytest.raises(ValueError, match="student id '../a'"):
        grade_parallel(tmp_path, "plaisante", students=["../a"], grader=stand_in_grader)


def test_failed_result_keeps_only_the_first_line_of_a_long_error():
    result = failed_result("s1", RuntimeError("first line\n" + "x" * 500))
    assert result.status == "flagged"
    assert result.reasons == ["grading failed with RuntimeError: first line; regrade it alone "
                              "with `plaisante grade --student s1`"]
