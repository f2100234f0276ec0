"""Grades reach the LMS by LTI 1.3 AGS, against a real platform process on loopback
(``tests/lti_platform.py``): ``plaisante grade`` sends each score as it records it, the
platform holds it and gives it back through AGS (``plaisante lms status``), a manual grade
replaces it, flagged work is held as waiting for a grade by hand (never 0), sending again
changes nothing, and a platform that goes down in the middle of a push is completed by the
next push, the gradebook untouched."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course
from lti_support import PlatformProcess, register

from plaisante.cli import main
from plaisante.course import CourseLayout
from plaisante.lti.ags import Platform
from plaisante.lti.identities import record
from plaisante.lti.registration import load

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "plaisante"
ASSIGNMENT = "plaisante"


@dataclass
class Done:
    """What ``plaisante lms …`` did, run in this process (no interpreter start: cheap)."""

    returncode: int
    stdout: str
    stderr: str


def lms(root: Path, *args: str, check: bool = True) -> Done:
    """Run ``plaisante --course ROOT lms ARGS…`` here; with ``check``, assert it exited 0."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["--course", str(root), "lms", *args])
    done = Done(status, out.getvalue(), err.getvalue())
    if check:
        assert status == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def deleted_test_cell(target: Path) -> Path:
    """full marks with one test cell deleted: work the grader flags as not all gradable."""
    notebook = nbformat.read(SAMPLES / "full_marks.ipynb", as_version=4)
    first = next(i for i, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade")
                 and not cell.metadata["nbgrader"].get("solution"))
    del notebook.cells[first]
    nbformat.write(notebook, target)
    return target


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory):
    """A course registered with a running platform, graded by ``plaisante grade``: ada full
    marks, bob 92 (a syntax error in count_values), cy flagged (a test cell deleted)."""
    folder = tmp_path_factory.mktemp("lti")
    root = new_course(folder / "course")
    platform = PlatformProcess(folder / "platform")
    register(root, platform, folder / "keys")
    platform.start()
    try:
        cli("release", ASSIGNMENT, cwd=root)
        drop = folder / "drop"
        drop.mkdir()
        shutil.copy(SAMPLES / "full_marks.ipynb", drop / "ada.ipynb")
        shutil.copy(SAMPLES / "syntax_error_in_count_values.ipynb", drop / "bob.ipynb")
        deleted_test_cell(drop / "cy.ipynb")
        cli("submit", str(drop), "--assignment", ASSIGNMENT, cwd=root)
        done = cli("grade", ASSIGNMENT, cwd=root)
        yield root, platform, folder, done
    finally:
        platform.stop()


def copy(graded, tmp_path: Path) -> tuple[Path, PlatformProcess]:
    """The graded course copied, registered with a new platform of its own (nothing sent
    to it yet)."""
    root = tmp_path / "course"
    shutil.copytree(graded[0], root)
    (root / "assignments" / "reports" / ASSIGNMENT / "lms.json").unlink(missing_ok=True)
    platform = PlatformProcess(tmp_path / "platform")
    register(root, platform, tmp_path / "keys")
    return root, platform


def give_manual_grade(root: Path, student: str, off: float = 0.0) -> str:
    """Give ``student`` a grade by hand, as the formgrader's score box does (nbgrader's
    ``manual_score``): in the first cell they lost points in, full points; else in their
    first cell, its points less ``off``. Return its grade id."""
    with CourseLayout(root).open_gradebook() as gradebook:
        submission = gradebook.find_submission(ASSIGNMENT, student)
        grades = [g for nb in submission.notebooks for g in nb.grades]
        lost = [g for g in grades if (g.score or 0) < g.max_score]
        grade = lost[0] if lost else grades[0]
        grade.manual_score = grade.max_score - (0 if lost else off)
        gradebook.db.commit()
        return str(grade.name)


def test_lti_grade_sends_each_score_and_the_platform_gives_it_back_through_ags(graded):
    root, platform, _, done = graded
    assert "plaisante lms: sent to 127.0.0.1:" in done.stderr
    assert "plaisante: 3 score(s) (1 waiting for a grade by hand)" in done.stderr
    held = platform.scores(ASSIGNMENT)
    assert {user: history[-1].get("scoreGiven") for user, history in held.items()} == \
        {"ada": 100.0, "bob": 92.0, "cy": None}
    ada = held["ada"][-1]
    assert (ada["scoreMaximum"], ada["gradingProgress"], ada["activityProgress"]) == \
        (100.0, "FullyGraded", "Completed")
    assert ada["comment"] == ("100 / 100 points, autograded. Feedback: "
                              "https://hub.example.edu/hub/user-redirect/tree/plaisante/feedback")
    # read back through AGS (the results service), by the tool with its own token
    registration = load(root)
    assert registration is not None
    lineitem = next(iter(platform.gradebook()["lineitems"].values()))["id"]
    results = Platform(registration).results(lineitem)
    assert {user: r.get("resultScore") for user, r in results.items()} == \
        {"ada": 100.0, "bob": 92.0, "cy": None}
    status = lms(root, "status")
    lines = {line.split()[1]: line.split()[2:] for line in status.stdout.splitlines()
             if line.strip().startswith(ASSIGNMENT)}
    assert lines == {"ada": ["100", "/", "100", "100", "/", "100", "same"],
                     "bob": ["92", "/", "100", "92", "/", "100", "same"],
                     "cy": ["needs", "grading", "no", "score", "pending"]}
    assert status.stdout.rstrip().endswith("1 pending, 2 same")


def test_lti_flagged_work_is_held_as_pending_manual_never_as_zero(graded):
    cy = graded[1].scores(ASSIGNMENT)["cy"]
    assert len(cy) == 1
    assert "scoreGiven" not in cy[0]
    assert (cy[0]["gradingProgress"], cy[0]["activityProgress"]) == ("PendingManual",
                                                                     "Submitted")
    assert "grades it by hand" in cy[0]["comment"]


def test_lti_push_again_sends_the_same_scores_with_the_same_timestamps(graded):
    root, platform, _, _ = graded
    before = platform.scores(ASSIGNMENT)
    done = lms(root, "push")
    assert done.stdout.strip().endswith(
        "plaisante: 3 score(s) (0 new or changed, 1 waiting for a grade by hand)")
    after = platform.scores(ASSIGNMENT)
    for user, history in after.items():
        assert history[-1] == before[user][-1], user  # the same score, the same timestamp


def test_lti_a_manual_grade_replaces_the_autograded_score(graded, tmp_path):
    root, platform = copy(graded, tmp_path)
    platform.start()
    try:
        lms(root, "push")
        first = platform.scores(ASSIGNMENT)["bob"][-1]
        assert first["scoreGiven"] == 92.0
        cell = give_manual_grade(root, "bob")
        assert cell.startswith("step2_")
        done = lms(root, "push", "--student", "bob")
        assert done.stdout.strip().endswith("plaisante: 1 score(s)")
        bob = platform.scores(ASSIGNMENT)["bob"]
        assert [s["scoreGiven"] for s in bob] == [92.0, 100.0]
        assert bob[-1]["timestamp"] > first["timestamp"]
        assert bob[-1]["comment"].startswith("100 / 100 points, graded by hand.")
        status = lms(root, "status").stdout
        assert [line.split()[-1] for line in status.splitlines()
                if line.split()[1:2] == ["bob"]] == ["same"]
        # flagged work given a grade by hand is final too
        give_manual_grade(root, "cy", off=1)
        lms(root, "push")
        cy = platform.scores(ASSIGNMENT)["cy"]
        assert [(s.get("scoreGiven"), s["gradingProgress"]) for s in cy] == \
            [(None, "PendingManual"), (99.0, "FullyGraded")]
    finally:
        platform.stop()


def test_lti_a_platform_down_mid_push_changes_nothing_and_the_next_push_completes(
        graded, tmp_path):
    root, platform = copy(graded, tmp_path)
    book = root / "assignments" / "gradebook.db"
    digest = hashlib.sha256(book.read_bytes()).hexdigest()
    platform.start(stop_after_scores=1)  # it dies when the second score arrives
    try:
        done = lms(root, "push", check=False)
        assert done.returncode == 2
        assert platform.wait_ended() != 0
        line, = done.stderr.strip().splitlines()
        assert line.startswith(f"plaisante lms: the platform 127.0.0.1:{platform.port} cannot "
                               "be reached")
        assert "1 score(s) sent before it (1 of 3 of plaisante)" in line
        assert line.endswith("run `plaisante lms push` again to send the rest")
        assert hashlib.sha256(book.read_bytes()).hexdigest() == digest
        assert {u: len(h) for u, h in platform_records(platform).items()} == {"ada": 1}

        platform.start()  # the same port, the same records
        down = lms(root, "status").stdout
        assert "2 not sent, 1 same" in down
        lms(root, "push")
        held = platform.scores(ASSIGNMENT)
        assert {u: h[-1].get("scoreGiven") for u, h in held.items()} == \
            {"ada": 100.0, "bob": 92.0, "cy": None}
        assert held["ada"][0]["timestamp"] == held["ada"][-1]["timestamp"]
        assert hashlib.sha256(book.read_bytes()).hexdigest() == digest
    finally:
        platform.stop()


def test_lti_scores_go_to_the_lms_user_id_a_launch_recorded(graded, tmp_path):
    root, platform = copy(graded, tmp_path)
    record(root, "bob", "7f3a9c-bob")  # as the hub does at bob's launch
    platform.start()
    try:
        lms(root, "push")
        assert set(platform.scores(ASSIGNMENT)) == {"ada", "7f3a9c-bob", "cy"}
        status = lms(root, "status").stdout
        assert [line.split()[-1] for line in status.splitlines()
                if line.split()[1:2] == ["bob"]] == ["same"]
    finally:
        platform.stop()


def platform_records(platform: PlatformProcess) -> dict[str, list]:
    """The scores a stopped platform left in its records file."""
    data = json.loads((platform.state / "platform.json").read_text())
    return next(iter(data["scores"].values()), {})


def test_lti_a_refused_token_is_one_line_and_sends_nothing(graded, tmp_path):
    root, platform = copy(graded, tmp_path)
    settings = json.loads((root / "lti.json").read_text())
    (root / "lti.json").write_text(json.dumps({**settings, "client_id": "not-registered"}))
    platform.start()
    try:
        done = lms(root, "push", check=False)
        assert done.returncode == 2
        line, = done.stderr.strip().splitlines()
        assert f"plaisante lms: the platform 127.0.0.1:{platform.port} refused the tool's " \
            "token (HTTP 401" in line
        assert "check client_id in lti.json" in line
        assert platform.gradebook()["scores"] == {}
    finally:
        platform.stop()


# ------------------------------------------------------------ the registration, without a platform

def test_lti_lms_without_a_registration_says_what_to_write(tmp_path):
    root = new_course(tmp_path / "course")
    done = lms(root, "push", check=False)
    assert done.returncode == 2
    assert done.stderr.startswith(f"plaisante: no LTI registration: write {root / 'lti.json'}")


@pytest.mark.parametrize("settings, said", [
    ({"issuer": "x"}, "client_id, auth_login_url, auth_token_url, key_set_url missing"),
    ({"issuer": "i", "client_id": "c", "auth_login_url": "ftp://x", "auth_token_url": "http://t",
      "key_set_url": "http://k", "deployment_id": "d"}, "auth_login_url 'ftp://x' is not an "
     "http(s) URL"),
    ({"issuer": "i", "client_id": "c", "auth_login_url": "http://x", "auth_token_url":
      "http://t", "key_set_url": "http://k"}, "deployment_id (a string) or deployment_ids"),
    ({"issuer": "i", "secret": 1}, "unknown key(s) secret; allowed: issuer, client_id"),
])
def test_lti_a_wrong_registration_is_one_line_naming_the_value(tmp_path, settings, said):
    root = new_course(tmp_path / "course")
    (root / "lti.json").write_text(json.dumps(settings))
    done = lms(root, "status", check=False)
    assert done.returncode == 2
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"plaisante: {root / 'lti.json'}") and said in line, line


def test_lti_the_tools_key_in_the_course_folder_must_be_ignored_by_git(tmp_path):
    root = new_course(tmp_path / "course")
    subprocess.run(["git", "-C", str(root), "init", "-q"], check=True)
    (root / "lti.json").write_text(json.dumps({
        "issuer": "https://lms.example.edu", "client_id": "c", "deployment_id": "d",
        "auth_login_url": "https://lms.example.edu/auth",
        "auth_token_url": "https://lms.example.edu/token",
        "key_set_url": "https://lms.example.edu/jwks", "private_key_file": "keys/tool.pem"}))
    done = lms(root, "key", check=False)
    assert done.returncode == 2
    assert "is inside the course folder and not ignored by git: add keys/tool.pem to" in \
        done.stderr
    (root / ".gitignore").write_text("keys/\n")
    done = lms(root, "key")
    assert (root / "keys" / "tool.pem").stat().st_mode & 0o777 == 0o600
    jwks = json.loads(done.stdout[done.stdout.index("{"):])
    assert [key["kty"] for key in jwks["keys"]] == ["RSA"] and jwks["keys"][0]["kid"]
    assert "PRIVATE" not in done.stdout


def test_lti_the_key_comes_before_the_registration(tmp_path, monkeypatch):
    """Canvas's developer key and Moodle's tool take the tool's public key first and give the
    client id after: ``lms key`` works before ``lti.json`` exists, at the default place."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = new_course(tmp_path / "course")
    done = lms(root, "key")
    key = tmp_path / "config" / "plaisante" / "lti" / f"{CourseLayout(root).course_id}.pem"
    assert key.stat().st_mode & 0o777 == 0o600 and str(key) in done.stdout
    assert json.loads(done.stdout[done.stdout.index("{"):])["keys"][0]["kty"] == "RSA"
    assert not (root / "lti.json").exists()
    assert "made now" not in lms(root, "key").stdout  # the same key, kept


def test_lti_nothing_graded_says_the_lms_was_not_asked(tmp_path, monkeypatch):
    """With nothing to send, push and status reach no platform: they say so, never "sent" or
    "nothing on the LMS" (the platform here does not even exist)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = new_course(tmp_path / "course")
    (root / "lti.json").write_text(json.dumps({
        "issuer": "http://127.0.0.1:9", "client_id": "c", "deployment_id": "d",
        "auth_login_url": "http://127.0.0.1:9/auth", "auth_token_url": "http://127.0.0.1:9/token",
        "key_set_url": "http://127.0.0.1:9/jwks"}))
    lms(root, "key")
    line = lms(root, "push").stdout.strip()
    assert line.startswith("plaisante lms: nothing sent to 127.0.0.1:9 (not asked): ") and \
        "plaisante: nothing graded" in line, line
    said = lms(root, "status").stdout.strip().splitlines()[-1]
    assert said == "nothing graded; the LMS was not asked (no line item known yet)", said
