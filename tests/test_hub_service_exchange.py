"""``plaisante watch`` on the exchange service of a real hub (``tests/hub_service_class.py``:
every server one Unix user, no shared folder), the variants ``make test``'s hub test leaves
out: a flood of submissions from three students (each student's newest graded, a flood
coalesced), a broken notebook flagged with its feedback, and the watcher's token refused
when it cannot grade. Slow (``make test-slow``); root only, as it makes Unix accounts."""

from __future__ import annotations

import base64
import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from plaisante.course import KIT_LAYOUT

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="LOUD SKIP: makes Unix accounts "
                                 "(useradd): run as root, as `make test-slow` in CI")]


@pytest.fixture(scope="module")
def made() -> Iterator[Any]:
    import hub_service_class

    with hub_service_class.ServiceHubClass() as made:
        made.start_watch()
        yield made


def wait_for(check: Any, seconds: float, said: Any) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(said())
        time.sleep(0.2)


def submit(made: Any, student: str, text: str) -> dict[str, Any]:
    import hub_class

    status, answer = made.call(made.tokens[student], "POST",
                               f"submissions/{hub_class.COURSE_ID}/plaisante",
                               {"files": {"plaisante.ipynb":
                                          base64.b64encode(text.encode()).decode()}})
    assert status == 200, answer
    return answer


def feedback_times(made: Any, student: str) -> set[str]:
    import hub_class

    status, found = made.call(made.tokens[student], "GET",
                              f"feedback/{hub_class.COURSE_ID}/plaisante")
    assert status == 200, found
    return {f["timestamp"] for f in found}


def test_flood_grades_each_students_newest(made: Any) -> None:
    import hub_class

    texts = hub_class.versions(6)
    last = {}
    for round_ in range(4):  # 12 submissions in a second or two, no waiting
        for n, student in enumerate(hub_class.STUDENTS):
            steps = (round_ + n) % 6
            last[student] = (submit(made, student, texts[steps]), steps)
    for student, (answer, _) in last.items():
        wait_for(lambda s=student, a=answer: a["timestamp"] in feedback_times(made, s), 180,
                 made.watch_said)
    board = made.board()
    assert board["submitted"] == 3 and board["not_started_count"] == 0
    totals = {s["student"]: s["total"] for s in board["students"]}
    by_steps: dict[int, set[float]] = {}
    for student, (_, steps) in last.items():
        by_steps.setdefault(steps, set()).add(totals[student])
    assert all(len(v) == 1 for v in by_steps.values()), by_steps
    assert 3 <= board["graded_count"] <= 12, made.watch_said()


def test_broken_notebook_is_flagged_with_feedback(made: Any) -> None:
    import hub_class

    student = hub_class.STUDENTS[1]
    answer = submit(made, student, '{"cells": [ this is not json')
    wait_for(lambda: answer["timestamp"] in feedback_times(made, student), 120,
             made.watch_said)
    entry = next(s for s in made.board()["students"] if s["student"] == student)
    assert entry["status"] == "flagged" and entry["total"] == 0
    made.nbgrader(student, "fetch_feedback", "plaisante")
    pages = list((made.home(student) / "plaisante" / "feedback" / answer["timestamp"]
                  ).glob("*.html"))
    assert pages and "could not be graded" in pages[0].read_text(encoding="utf-8")


def test_watch_with_a_students_token_stops_saying_why(made: Any) -> None:
    import hub_class

    student = hub_class.STUDENTS[2]
    done = subprocess.run(
        ["setpriv", f"--reuid={made.instructor_uid}", f"--regid={made.instructor_gid}",
         "--init-groups", "--", made.python, "-m", "plaisante.cli", "watch", "plaisante"],
        cwd=made.root, env=dict(made.env(hub_class.INSTRUCTOR),
                                JUPYTERHUB_API_TOKEN=made.tokens[student]),
        capture_output=True, text=True, timeout=120)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and f"{student} may not list the class's submissions" in said
    assert "grader's hub token" in said


def test_nbgraders_own_list_and_collect_go_through_the_service(made: Any) -> None:
    import hub_class

    folder = made.home(hub_class.INSTRUCTOR) / "collected"
    made.as_user(hub_class.INSTRUCTOR, ["mkdir", str(folder)])
    listed = made.as_user(hub_class.INSTRUCTOR, [made.python, "-m", "nbgrader", "list",
                                                 "--inbound"], cwd=made.root).stderr
    newest = {}  # student: the time of their newest, as nbgrader's list says it
    for line in listed.splitlines():
        parts = line.split("] ", 1)[-1].split(" ", 3)
        if len(parts) == 4 and parts[0] == hub_class.COURSE_ID:
            newest[parts[1]] = parts[3].removesuffix(" (feedback ready to be fetched)")
    assert set(newest) == set(hub_class.STUDENTS), listed
    made.as_user(hub_class.INSTRUCTOR, [made.python, "-m", "nbgrader", "collect", "plaisante",
                                        f"--CourseDirectory.root={folder}"], cwd=made.root)
    for student, when in newest.items():
        got = folder / KIT_LAYOUT["submitted_directory"] / student / "plaisante"
        assert (got / "timestamp.txt").read_text(encoding="utf-8") == when
        assert (got / "plaisante.ipynb").is_file() and (got / "submission_secret.txt").is_file()
    # a student's own nbgrader cannot: the service says why
    student = hub_class.STUDENTS[0]
    failed = made.as_server(student, [made.python, "-m", "nbgrader", "collect", "plaisante"],
                            check=False)
    assert failed.returncode != 0 and f"{student} may not list the class" in failed.stderr
