"""The resident grader: with ``plaisante grader`` running, ``plaisante grade ID
--student S`` hands the submission to it; the scores, the gradebook and the table are those of
grading without it, a bad request gets ``grade``'s own error and the grader goes on, a command
from other kit code is refused (it then grades by itself), and no other user reaches it.

How fast it answers is measured by ``bench/grading.py`` (its part (d)), not here."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from course_cli import KIT, cli, new_course

from plaisante.grading import service
from plaisante.results import scores

SAMPLES = KIT / "assignments" / "samples" / "plaisante"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
CHOSEN = ("has_pair_at_least_two", "untouched", "straight_before_flush")

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = new_course(tmp_path_factory.mktemp("resident") / "course")
    cli("release", "plaisante", cwd=root)
    for student in CHOSEN:
        notebook = SAMPLES / MANIFEST["samples"][student]["notebook"]
        cli("submit", str(notebook), "--student", student, cwd=root)
    return root


def command_env() -> dict[str, str]:
    """The environment the kit's command runs in here: this venv first on PATH, the course
    found from the folder it runs in."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    return env


def start_grader(course: Path) -> tuple[subprocess.Popen[str], str]:
    """Start ``plaisante grader`` on ``course``; return it and what it said until it served."""
    process = subprocess.Popen([sys.executable, "-m", "plaisante.cli", "grader"], cwd=course,
                               env=command_env(), text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    return process, until_serving(process)


@pytest.fixture(scope="module")
def grader(course: Path) -> Iterator[subprocess.Popen[str]]:
    """``plaisante grader`` running on the course, ready (its 'serving' line printed)."""
    process, said = start_grader(course)
    assert "ready for 'plaisante'" in said and "could not get ready" not in said
    yield process
    if process.poll() is None:
        process.terminate()
        process.wait(30)


def grader_lines(process: subprocess.Popen[str], count: int) -> list[str]:
    """Read the next ``count`` lines the grader says (one per graded submission), passing over
    what its workers print (without the zygote, a new worker says so once)."""
    assert process.stdout is not None
    said: list[str] = []
    while len(said) < count:
        line = process.stdout.readline()
        assert line, said
        if line.startswith("plaisante grader: "):
            said.append(line)
    return said


def test_grade_student_is_graded_by_the_resident_grader_with_the_usual_scores(course, grader):
    done = cli("grade", "plaisante", "--student", "has_pair_at_least_two", "--student",
               "untouched", cwd=course, check=False)
    assert done.returncode == 0, done.stderr
    said = grader_lines(grader, 2)
    assert said[0].startswith("plaisante grader: plaisante has_pair_at_least_two: graded 97/100")
    assert said[1].startswith("plaisante grader: plaisante untouched: graded 0/100")
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["has_pair_at_least_two"][1:5] == ["graded", "97", "/", "100"]
    assert "lost in step 3 (the has-checks): has_pair -3" in done.stdout
    assert rows["untouched"][1:5] == ["graded", "0", "/", "100"]
    assert done.stdout.rstrip().endswith("2 submission(s): 2 graded, 0 flagged")
    for student in ("has_pair_at_least_two", "untouched"):  # recorded in the gradebook
        assert scores.step_scores(course, student, "plaisante") == pytest.approx(
            MANIFEST["samples"][student]["expected"]), student
        assert (course / "assignments" / "autograded" / student / "plaisante" /
                "plaisante.ipynb").is_file()


def test_an_unknown_student_gets_grades_own_error_and_the_grader_goes_on(course, grader):
    done = cli("grade", "plaisante", "--student", "nobody", cwd=course, check=False)
    assert done.returncode == 2
    assert "no submission of 'plaisante' for student 'nobody'" in done.stderr
    assert "nobody" in grader_lines(grader, 1)[0]
    done = cli("grade", "plaisante", "--student", "straight_before_flush", cwd=course)
    assert "graded 92/100" in grader_lines(grader, 1)[0]
    assert "92 / 100" in done.stdout


def test_a_request_from_another_copy_of_the_kit_is_refused_and_junk_is_not_answered(
        course, grader):
    conn = service._connect(course)
    assert conn is not None
    with conn:
        assert service._receive(conn) == {"ready": True}
        service._send(conn, {"op": "grade", "kit": "0" * 16, "assignment": "plaisante",
                             "students": ["untouched"]})
        assert service._receive(conn) == {"stale": True}
    assert "refused a request from other kit code" in grader_lines(grader, 1)[0]
    nested = b"[" * 200_000 + b"\n"  # deeper than Python's stack: json raises RecursionError
    for junk in (b"[1, 2]\n", b"not json\n", nested, b'{"op": "grade"'):  # then it closes
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
            raw.connect(str(service.socket_path(course)))
            raw.sendall(junk)
            raw.shutdown(socket.SHUT_WR)
            greeting = b""
            while not greeting.endswith(b"\n"):
                greeting += raw.recv(100)
            assert raw.recv(100) == b""  # no answer, and the grader is still there:
        assert "could not be read" in grader_lines(grader, 1)[0]
    assert grader.poll() is None


def test_a_request_dripped_slowly_is_dropped_after_5_s_whole(course, grader):
    def drip(raw: socket.socket) -> None:
        try:
            for byte in b'{"op": "grade", "x": 1':  # a byte a second, for 20 s
                raw.sendall(bytes([byte]))
                time.sleep(1)
        except OSError:  # the grader has dropped it
            pass

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
        raw.connect(str(service.socket_path(course)))
        started = time.monotonic()
        dripping = threading.Thread(target=drip, args=(raw,), daemon=True)
        dripping.start()
        said = grader_lines(grader, 1)[0]
        waited = time.monotonic() - started
    assert "could not be read (timed out)" in said
    assert 4 < waited < 8  # the whole request within 5 s, however it trickles in


def test_a_second_grader_for_the_course_is_refused_in_one_line(course, grader):
    done = cli("grader", cwd=course, check=False)
    assert done.returncode == 2
    assert done.stderr == (f"plaisante: a resident grader already serves {course}; to start a "
                           "new one, stop it first: plaisante grader --stop\n")
    done = cli("grade", "plaisante", "--student", "untouched", cwd=course)
    assert "graded 0/100" in grader_lines(grader, 1)[0]  # the first one still serves


def test_a_paused_grader_is_not_waited_for(course, grader):
    grader.send_signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        done = cli("grade", "plaisante", "--student", "untouched", cwd=course)
        waited = time.monotonic() - started
    finally:
        grader.send_signal(signal.SIGCONT)
    assert "did not take the request within 5 s (busy with another, or paused); grading " \
           "here instead" in done.stderr
    assert "0 / 100" in done.stdout and waited < 60
    done = cli("grade", "plaisante", "--student", "untouched", cwd=course)  # served again
    assert "graded 0/100" in grader_lines(grader, 1)[0]
    assert "graded by the resident grader" in done.stderr


def test_only_the_assignments_a_student_submitted_are_graded_when_none_is_named(course, grader):
    done = cli("grade", "--student", "untouched", cwd=course)
    assert "graded 0/100" in grader_lines(grader, 1)[0]
    assert "== " not in done.stdout and "deck" not in done.stdout + done.stderr
    done = cli("grade", "--student", "nobody", cwd=course, check=False)
    assert done.returncode == 2
    assert done.stderr == ("plaisante: student 'nobody' has no submission of any assignment "
                           "(plaisante submit NOTEBOOK --student nobody)\n")


def test_the_grader_restarts_itself_when_the_kits_code_changes(course, grader):
    changed = KIT / "plaisante" / "student_side" / "hand_names.py"
    before = changed.stat()
    os.utime(changed, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    try:
        done = cli("grade", "plaisante", "--student", "untouched", cwd=course)
        assert "grading here instead while it restarts itself" in done.stderr
        assert "0 / 100" in done.stdout
        assert "the kit's code changed since I started: restarting" in until_serving(grader)
        done = cli("grade", "plaisante", "--student", "untouched", cwd=course)
        assert "graded 0/100" in grader_lines(grader, 1)[0]
    finally:  # the code as it was: the grader restarts once more, at the next request (one
        # naming other kit code, which it answers without grading anything)
        os.utime(changed, ns=(before.st_atime_ns, before.st_mtime_ns))
        conn = service._connect(course)
        if conn is not None:
            with conn:
                service._receive(conn)  # {"ready": True}
                service._send(conn, {"op": "grade", "kit": "0" * 16,
                                     "assignment": "plaisante", "students": ["untouched"]})
                service._receive(conn)  # {"stale": True}, then it restarts
        until_serving(grader)


def until_serving(process: subprocess.Popen[str]) -> str:
    """Read what the grader says until it serves (again, after a restart); return it."""
    assert process.stdout is not None
    said = ""
    while "serving" not in said:
        line = process.stdout.readline()
        assert line, said
        said += line
    return said


def test_a_worker_killed_while_idle_is_replaced_before_the_next_request(course, grader):
    children = Path(f"/proc/{grader.pid}/task/{grader.pid}/children").read_text().split()
    assert children
    for pid in children:
        os.kill(int(pid), signal.SIGKILL)
    done = cli("grade", "plaisante", "--student", "untouched", cwd=course)
    assert "graded 0/100" in grader_lines(grader, 1)[0]
    assert "0 / 100" in done.stdout


def test_a_due_date_set_while_the_grader_runs_counts_at_the_next_request(course, grader):
    config = course / "nbgrader_config.py"
    kept = config.read_text(encoding="utf-8")
    try:
        config.write_text(kept + '\nc.LateSubmissionPlugin.penalty_method = "zero"\n',
                          encoding="utf-8")
        cli("nbgrader", "db", "assignment", "add", "plaisante",
            "--duedate=2026-01-01 00:00:00 UTC", cwd=course)
        done = cli("grade", "plaisante", "--student", "straight_before_flush", cwd=course)
        assert "graded 0/100" in grader_lines(grader, 1)[0]  # 92, all of it late
        assert "late: 92 point(s) off" in done.stdout
    finally:
        config.write_text(kept, encoding="utf-8")  # late work is then only marked late


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")
def test_another_user_cannot_reach_the_resident_grader(course, grader):
    path = service.socket_path(course)
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    probe = ("import socket, sys\n"
             "s = socket.socket(socket.AF_UNIX)\n"
             "try:\n    s.connect(sys.argv[1])\nexcept PermissionError:\n    print('refused')\n"
             "else:\n    print('connected')\n")
    done = subprocess.run(["/usr/bin/python3", "-c", probe, str(path)], user=65534, group=65534,
                          capture_output=True, text=True, timeout=30, cwd="/")
    assert done.stdout.strip() == "refused", done.stderr


def test_after_stop_the_command_grades_by_itself_with_the_same_scores(course, grader):
    done = cli("grader", "--stop", cwd=course)
    assert done.stdout == (f"plaisante grader: stopped the grader of {course} "
                           f"(pid {grader.pid})\n")
    assert grader.wait(30) == 0
    assert grader.stdout is not None and "stopped" in grader.stdout.read()
    assert not service.socket_path(course).exists()
    done = cli("grade", "plaisante", "--student", "has_pair_at_least_two", cwd=course)
    assert "97 / 100" in done.stdout
    assert scores.step_scores(course, "has_pair_at_least_two", "plaisante") == pytest.approx(
        MANIFEST["samples"]["has_pair_at_least_two"]["expected"])
    assert cli("grader", "--stop", cwd=course, check=False).returncode == 1


def test_a_killed_grader_takes_its_grading_process_and_sandbox_with_it(course):
    process, _ = start_grader(course)
    try:
        workers = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        assert workers
        # the worker's sandbox (bubblewrap, holding the zygote), when kernels use a zygote
        below = [pid for w in workers
                 for pid in Path(f"/proc/{w}/task/{w}/children").read_text().split()]
    finally:
        process.kill()
        process.wait(30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists()
                                              for p in workers + below):
        time.sleep(0.1)
    assert not [p for p in workers + below if Path(f"/proc/{p}").exists()]
    service.socket_path(course).unlink(missing_ok=True)  # what a killed grader leaves


def test_stop_during_a_request_stops_the_grader_and_the_command_grades_itself(course):
    process, _ = start_grader(course)
    slow = nbformat.read(SAMPLES / MANIFEST["samples"]["untouched"]["notebook"], as_version=4)
    answer = next(cell for cell in slow.cells if cell.cell_type == "code"
                  and cell.metadata.get("nbgrader", {}).get("solution"))
    # a cell of the student's that lasts until 12 s from now (the sandbox's clock is the
    # host's): the grader is still in it when --stop comes (5 s from now, 8 s on a busy
    # machine), and the command's own grading (and each run of the tests, which runs the cell
    # again) waits only for what is left of the 12 s, not for a whole sleep each time
    until = time.time() + 12
    answer.source = f"import time\ntime.sleep(max(0.0, {until!r} - time.time()))\n" + \
        answer.source
    nbformat.write(slow, course / "slow.ipynb")
    cli("submit", str(course / "slow.ipynb"), "--student", "slowpoke", cwd=course)
    command = subprocess.Popen([sys.executable, "-m", "plaisante.cli", "grade", "plaisante",
                                "--student", "slowpoke"], cwd=course, env=command_env(), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3)  # the grader is in the sleeping cell: --stop does not wait for it
    stopped = cli("grader", "--stop", cwd=course)
    assert stopped.stdout == (f"plaisante grader: stopped the grader of {course} "
                              f"(pid {process.pid})\n")
    assert process.wait(30) == 0
    assert process.stdout is not None and "plaisante grader: stopped" in process.stdout.read()
    out, err = command.communicate(timeout=120)
    assert "the resident grader stopped before answering" in err
    assert command.returncode == 0 and "slowpoke" in out and "0 / 100" in out


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a folder to another user")
def test_a_socket_folder_someone_else_made_or_opened_is_passed_over(tmp_path):
    mine = tmp_path / "mine"
    assert service._private_folder(mine, create=True) and mine.stat().st_mode & 0o777 == 0o700
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)  # made first by another user, as anyone can in /var/tmp
    opened = tmp_path / "opened"
    opened.mkdir(mode=0o755)
    opened.chmod(0o755)
    linked = tmp_path / "linked"
    linked.symlink_to(mine)
    for folder in (theirs, opened, linked, tmp_path / "missing"):
        assert not service._private_folder(folder, create=False), folder
    assert not (tmp_path / "missing").exists()  # a command only looks


def test_limits_refuse_nan_and_infinity():
    from plaisante.grading import Limits

    for bad in (float("nan"), float("inf"), -1.0, 0):
        with pytest.raises(ValueError, match="must be a positive, finite number"):
            Limits(cell_seconds=bad)


def test_grading_without_the_sandbox_gives_the_usual_scores(course):
    """Found by the attack review: --no-sandbox flagged every notebook (the kernel manager
    took its unnamed connection file, "", for the folder '.')."""
    done = cli("grade", "plaisante", "--student", "has_pair_at_least_two", "--no-sandbox",
               cwd=course)
    assert "97 / 100" in done.stdout and "flagged" not in done.stdout.splitlines()[1]
    assert scores.step_scores(course, "has_pair_at_least_two", "plaisante") == pytest.approx(
        MANIFEST["samples"]["has_pair_at_least_two"]["expected"])


def test_a_grading_of_a_submission_replaced_meanwhile_is_neither_published_nor_recorded(course):
    """Found by the attack review: a grader still busy with a submission the student has
    since replaced recorded the old one's score over the new one's."""
    from plaisante.grading import grade_submission, record
    from plaisante.grading.result import REPLACED

    old = SAMPLES / MANIFEST["samples"]["has_pair_at_least_two"]["notebook"]
    new = SAMPLES / MANIFEST["samples"]["untouched"]["notebook"]
    cli("submit", str(old), "--student", "resubmits", cwd=course)
    stale = grade_submission(course, "resubmits", "plaisante")
    assert stale.total == 97 and stale.status == "graded"
    cli("submit", str(new), "--student", "resubmits", "--replace", cwd=course)
    fresh = grade_submission(course, "resubmits", "plaisante")
    record(course, [fresh], "plaisante")
    record(course, [stale], "plaisante")  # the slow grading of the old one, done last
    assert stale.status == "flagged" and stale.reasons[-1] == REPLACED
    assert scores.step_scores(course, "resubmits", "plaisante") == pytest.approx(
        MANIFEST["samples"]["untouched"]["expected"])
    report = json.loads((course / "assignments" / "reports" / "plaisante" /
                         "resubmits.json").read_text(encoding="utf-8"))
    assert report["total"] == 0 and report["status"] == "graded"
