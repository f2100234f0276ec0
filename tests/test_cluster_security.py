"""Only the instructor's workers join a grading cluster (``plaisante.grading.cluster``).

A worker is handed submissions and returns results the coordinator unpickles: one that joins
uninvited forges any score and runs code as the coordinator. ``--scheduler local`` speaks
Dask's mutual TLS with credentials made for the run: a real ``dask worker`` started here
without them, at the cluster's own address, never joins and grades nothing. A plain
``tcp://`` scheduler is refused, in one line, before anything is graded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed
import pytest
from course_cli import cli, new_course
from distributed.security import Security

import plaisante.grading
from plaisante.grading.parallel import grade_parallel
from plaisante.grading.result import SubmissionResult

FORGED = 666.0


def slow_stand_in(root: Path, student: str, assignment: str, *, limits: object,
                  sandbox: bool) -> SubmissionResult:
    """Grade nothing, slowly (the run stays open for the intruder): 1 point, or the forged
    total when graded in the intruder's process."""
    time.sleep(0.5)
    total = FORGED if os.environ.get("PLAISANTE_INTRUDER") else 1.0
    return SubmissionResult(student=student, status="graded", cell_scores={"only": total},
                            total=total, max_total=1.0)


def course_of(root: Path, students: list[str]) -> None:
    for student in students:
        (root / "assignments" / "submitted" / student / "plaisante").mkdir(parents=True)


def test_a_worker_without_the_runs_credentials_cannot_join_the_local_cluster(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    students = [f"s{n:02}" for n in range(16)]
    course_of(tmp_path, students)
    monkeypatch.setattr(plaisante.grading, "record", lambda root, results, assignment: None)
    addresses: list[str] = []

    class Watched(distributed.LocalCluster):  # the real cluster; its address told to the test
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            addresses.append(self.scheduler_address)

    monkeypatch.setattr(distributed, "LocalCluster", Watched)
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["results"] = grade_parallel(tmp_path, "plaisante", workers=1,
                                                grader=slow_stand_in, scheduler="local")
        except BaseException as error:  # noqa: BLE001  the test reports it
            outcome["error"] = error

    grading = threading.Thread(target=run)
    grading.start()
    deadline = time.monotonic() + 120
    while not addresses and grading.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert addresses, outcome.get("error", "the local cluster never started")
    [address] = addresses
    assert address.startswith("tls://127.0.0.1:")
    port = address.rsplit(":", 1)[1]
    # intruders at the scheduler's own port, without the run's key: one speaking TLS with a
    # certificate of its own (Dask's temporary one, which the run's CA did not sign), one
    # speaking plain TCP
    own = Security.temporary()
    pem = {}
    for name in ("tls_ca_file", "tls_worker_cert", "tls_worker_key"):
        pem[name] = tmp_path / f"{name}.pem"
        pem[name].write_text(getattr(own, name), encoding="utf-8")
    logs, intruders = [], []
    for n, (target, tls) in enumerate([
            (address, ["--tls-ca-file", str(pem["tls_ca_file"]),
                       "--tls-cert", str(pem["tls_worker_cert"]),
                       "--tls-key", str(pem["tls_worker_key"])]),
            (f"tcp://127.0.0.1:{port}", [])]):
        logs.append(tmp_path / f"intruder{n}.log")
        intruders.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", target, *tls,
             "--nthreads", "1", "--no-dashboard", "--no-nanny",
             "--local-directory", str(tmp_path), "--death-timeout", "30"],
            cwd=Path(__file__).parent, stdout=subprocess.DEVNULL,
            stderr=open(logs[-1], "w"),  # noqa: SIM115  closed with the process
            env={**os.environ, "PLAISANTE_INTRUDER": "1",
                 "PYTHONPATH": str(Path(__file__).parent)}))
    try:
        grading.join(timeout=180)
        assert not grading.is_alive(), "the grading run did not end"
    finally:
        for intruder in intruders:
            intruder.kill()
            intruder.wait()
    assert "error" not in outcome, outcome.get("error")
    results = outcome["results"]
    assert isinstance(results, list)
    assert [(r.student, r.status, r.total) for r in results] == [
        (student, "graded", 1.0) for student in students]  # nothing graded by an intruder
    for log in logs:
        said = log.read_text(errors="replace")
        assert "Waiting to connect to:" in said  # it was up, and tried while the run went on
        assert "Registered to" not in said, said[-2000:]
        assert "Starting established connection" not in said, said[-2000:]


def test_a_plain_tcp_scheduler_is_refused_in_one_line_before_anything_is_graded(
        tmp_path: Path) -> None:
    course_of(tmp_path, ["a"])
    with pytest.raises(ValueError) as raised:
        grade_parallel(tmp_path, "plaisante", grader=slow_stand_in,
                       scheduler="tcp://127.0.0.1:8786")
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("refusing the tcp:// scheduler tcp://127.0.0.1:8786: any machine "
                              "that reaches it can join as a worker")
    assert "use a tls:// scheduler" in message and "--insecure-scheduler" in message
    assert not (tmp_path / "assignments" / "reports").exists()  # nothing graded or written


def test_grade_refuses_a_tcp_scheduler_and_tls_without_certificates_in_one_line(
        tmp_path: Path) -> None:
    root = new_course(tmp_path / "course")
    submitted = root / "assignments" / "submitted" / "ada" / "deck"
    submitted.mkdir(parents=True)
    shutil.copy(root / "solutions" / "deck" / "deck.ipynb", submitted / "deck.ipynb")
    for address, said in [
            ("tcp://127.0.0.1:8786", "plaisante grade: refusing the tcp:// scheduler "
                                     "tcp://127.0.0.1:8786: any machine that reaches it"),
            ("tls://127.0.0.1:8786", "plaisante grade: the tls:// scheduler "
                                     "tls://127.0.0.1:8786 needs the cluster's CA file")]:
        done = cli("grade", "deck", "--scheduler", address, cwd=root, course=root, check=False,
                   timeout=120)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr
        assert done.stdout == ""
    assert not (root / "assignments" / "autograded").exists()  # nothing was graded
