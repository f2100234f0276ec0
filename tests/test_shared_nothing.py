"""A Dask cluster that shares nothing with the coordinator but the scheduler (docs/capacity.md).

A real scheduler (``dask scheduler``, loopback) and a real worker process (``dask worker``)
started here, speaking Dask's mutual TLS with certificates made by docs/capacity.md's
``openssl`` recipe; the worker runs as the grading user (as root: ``plaisante-grader``, with
its own venv and a copy of the kit, ``grader_user``; as an ordinary user: itself, with the
course's folders hidden under an empty tmpfs by bubblewrap), in a working folder of its own,
and cannot see the course: not its files, not its gradebook. ``plaisante grade --scheduler``
sends each task the submission's files and the assignment's facts; each sample (five of them:
``SAMPLES``) gets its manifest scores, the autograded notebooks land in the course, written by
the coordinator.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbformat
import pytest
from course_cli import cli, new_course
from grader_user import as_root, grader_command, grader_env, grader_python, grader_uid

from plaisante.course import CourseLayout
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]
KIT = CourseLayout(ROOT)
ASSIGNMENT = "tricks"
#: Full and no marks, a wrong answer, own tests weak and own tests failing on correct code: each
#: kind of task a worker is sent (every sample is graded in test_course_samples.py)
SAMPLES = {name: sample for name, sample in json.loads(
    (KIT.samples(ASSIGNMENT) / "manifest.json").read_text(encoding="utf-8"))["samples"].items()
    if name in {"full_marks", "untouched", "another_suit_can_win", "trick_winner_tests_weak",
                "trick_winner_tests_fail_on_correct_code"}}
assert len(SAMPLES) == 5

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox,
              # as root the worker's Python is Debian's (the grading user's venv), the
              # coordinator's root's own: the same 3.11, another patch release
              pytest.mark.filterwarnings("ignore::distributed.versions.VersionMismatchWarning")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = new_course(tmp_path_factory.mktemp("shared-nothing") / "course",
                      ("solutions", "notebooks"))
    cli("release", ASSIGNMENT, cwd=root, course=root)
    for student, sample in SAMPLES.items():
        cli("submit", str(KIT.samples(ASSIGNMENT) / sample["notebook"]), "--student", student,
            "--assignment", ASSIGNMENT, cwd=root, course=root)
    root.chmod(0o700)  # nobody else enters it, whatever other tests opened above it
    return root


def make_certificates(folder: Path) -> None:
    """docs/capacity.md's recipe, in ``folder``: a CA (``ca.pem``, ``ca.key``) and, signed by
    it, a certificate and key for the scheduler, the worker and the coordinator
    (``scheduler.pem``, ``scheduler.key``, ...)."""
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = {"cwd": folder, "check": True, "capture_output": True}
    subprocess.run(["openssl", "req", "-x509", *key, "-days", "1", "-subj",
                    "/CN=plaisante-dask-ca", "-keyout", "ca.key", "-out", "ca.pem"], **run)
    for who in ("scheduler", "worker", "coordinator"):
        subprocess.run(["openssl", "req", *key, "-subj", f"/CN={who}", "-keyout", f"{who}.key",
                        "-out", f"{who}.csr"], **run)
        subprocess.run(["openssl", "x509", "-req", "-in", f"{who}.csr", "-CA", "ca.pem",
                        "-CAkey", "ca.key", "-CAcreateserial", "-days", "1",
                        "-out", f"{who}.pem"], **run)


def tls_argv(certs: Path, who: str) -> list[str]:
    """The ``dask scheduler``/``dask worker`` options of ``who``'s certificate."""
    return ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / f"{who}.pem"),
            "--tls-key", str(certs / f"{who}.key")]


@contextmanager
def cluster(course: Path, workdir: Path, logs: Path, certs: Path) -> Iterator[str]:
    """A scheduler on a free loopback port and one single-threaded worker (as the grading
    user, in ``workdir``, blind to ``course``), speaking mutual TLS with the certificates in
    ``certs`` (``make_certificates``), their logs in ``logs``; yield the scheduler's
    address."""
    from distributed import Client

    address = f"tls://127.0.0.1:{free_port()}"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", address.rsplit(":", 1)[1], "--no-dashboard", *tls_argv(certs, "scheduler")],
        stdout=subprocess.DEVNULL, stderr=open(logs / "scheduler.log", "w"))
    worker_argv = [grader_python(), "-m", "distributed.cli.dask_worker", address,
                   "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                   "--local-directory", str(workdir), "--name", "elsewhere",
                   *tls_argv(certs, "worker")]
    if not as_root():  # the same user: the course's folders hidden by a tmpfs over them
        worker_argv = ["bwrap", "--dev-bind", "/", "/", "--tmpfs", str(course.parent), "--",
                       *worker_argv]
    worker = subprocess.Popen(grader_command(worker_argv), cwd=workdir, env=grader_env(),
                              stdout=subprocess.DEVNULL, stderr=open(logs / "worker.log", "w"))
    try:
        with Client(address, timeout="60s", security=coordinator(certs)) as client:
            try:
                client.wait_for_workers(1, timeout=180)
            except TimeoutError:
                pytest.fail("the Dask worker did not join: " +
                            (logs / "worker.log").read_text(errors="replace")[-3000:])
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
        for process in (worker, scheduler):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def coordinator(certs: Path) -> Any:
    """The coordinator's Dask ``Security``: the CA and its own certificate in ``certs``."""
    from distributed.security import Security

    return Security(tls_ca_file=str(certs / "ca.pem"),
                    tls_client_cert=str(certs / "coordinator.pem"),
                    tls_client_key=str(certs / "coordinator.key"), require_encryption=True)


def grade_on_cluster(course: Path, workdir: Path, logs: Path, certs: Path
                     ) -> tuple[Any, tuple]:
    """Run ``plaisante grade --scheduler tls://...`` (the coordinator's certificate given
    by ``--tls-*``) on a cluster whose worker works in ``workdir``; return its output and
    what the worker saw: (its uid, whether it sees the course's config, its working
    folder)."""
    from distributed import Client

    with cluster(course, workdir, logs, certs) as address:
        with Client(address, security=coordinator(certs)) as client:
            seen = client.run(lambda path: (os.geteuid(), os.path.exists(path), os.getcwd()),
                              str(course / "nbgrader_config.py"))
        done = cli("grade", ASSIGNMENT, "--scheduler", address,
                   *tls_argv(certs, "coordinator"), cwd=course, course=course)
    [looked] = seen.values()
    return done, looked


def test_a_worker_that_cannot_see_the_course_grades_each_sample_as_the_manifest_says(
        course: Path, tmp_path: Path) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="plaisante-worker-"))  # the worker's own folder
    certs = Path(tempfile.mkdtemp(prefix="plaisante-certs-"))  # the grading user enters it
    certs.chmod(0o755)
    make_certificates(certs)
    for private in certs.glob("*.key"):
        private.chmod(0o600)
    if as_root():
        os.chown(workdir, grader_uid(), -1)
        os.chown(certs / "worker.key", grader_uid(), -1)  # the worker's key: its own only
    try:
        graded = grade_on_cluster(course, workdir, tmp_path, certs)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(certs, ignore_errors=True)
    done, (uid, sees_course, cwd) = graded
    assert not sees_course  # the worker cannot see the course: nor its gradebook
    assert cwd == str(workdir)
    if as_root():
        assert uid == grader_uid() != os.geteuid()
    for student in SAMPLES:
        assert any(line.split()[:1] == [student] for line in done.stdout.splitlines()), student
    got = {student: scores.step_scores(course, student, ASSIGNMENT) for student in SAMPLES}
    assert got == {student: sample["expected"] for student, sample in SAMPLES.items()}
    layout = CourseLayout(course)
    for student in SAMPLES:
        report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
        autograded = layout.autograded(student, ASSIGNMENT)
        assert report["autograded"] == str(autograded), student  # the course's, not the worker's
        nbformat.validate(nbformat.read(autograded, as_version=4))
        assert autograded.stat().st_uid == os.geteuid()  # written by the coordinator
