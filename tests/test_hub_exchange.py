"""``plaisante watch`` on nbgrader's exchange shared between Unix accounts (no hub, no
browser: ``tests/hub_class.py`` with ``hub=False``), the variants the hub test leaves out: a
flood of submissions from three students, a broken notebook, a folder forged in another
student's name. Slow (``make test-slow``); root only, as it makes Unix accounts."""

from __future__ import annotations

import json
import os
import pwd
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="LOUD SKIP: makes Unix accounts "
                                 "(useradd): run as root, as `make test-slow` in CI")]

KIT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def made() -> Iterator[Any]:
    import hub_class

    with hub_class.HubClass(hub=False) as made:
        made.start_watch()
        yield made


def wait_for(check: Any, seconds: float, said: Any) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(said())
        time.sleep(0.1)


def with_steps(steps: int) -> str:
    import hub_class

    return hub_class.versions(steps + 1)[steps]


def test_flood_queues_and_grades_each_students_newest(made: Any) -> None:
    import hub_class

    submitters = [made.submitter(s) for s in hub_class.STUDENTS]
    last = {}
    for round_ in range(4):  # 12 submissions within a second or two, no waiting
        for n, submitter in enumerate(submitters):
            steps = (round_ + n) % 6
            last[submitter.student] = (submitter.submit(with_steps(steps)), steps)
    for student, (folder, _) in last.items():
        page = next(s for s in submitters if s.student == student).feedback_page(folder)
        wait_for(page.is_file, 180, made.watch_said)
    board = made.board()
    assert board["submitted"] == 3 and board["not_started_count"] == 0
    totals = {s["student"]: s["total"] for s in board["students"]}
    by_steps = {}
    for student, (_, steps) in last.items():
        by_steps.setdefault(steps, set()).add(totals[student])
    assert all(len(v) == 1 for v in by_steps.values()), by_steps  # same work, same score
    if 0 in by_steps:
        assert by_steps[0] == {0}
    # a flood coalesces: fewer gradings than submissions, never more
    assert 3 <= board["graded_count"] <= 12, made.watch_said()


def test_broken_notebook_is_flagged_with_feedback(made: Any) -> None:
    import hub_class

    submitter = made.submitter(hub_class.STUDENTS[1])
    folder = submitter.submit('{"cells": [ this is not json')
    page = submitter.feedback_page(folder)
    wait_for(page.is_file, 120, made.watch_said)
    entry = next(s for s in made.board()["students"] if s["student"] == submitter.student)
    assert entry["status"] == "flagged" and entry["total"] == 0
    assert "could not be graded" in page.read_text(encoding="utf-8")


def test_a_folder_in_another_students_name_is_refused(made: Any) -> None:
    import hub_class

    mallory, victim = hub_class.STUDENTS[2], hub_class.STUDENTS[0]
    inbound = made.exchange / hub_class.COURSE_ID / "inbound"
    name = f"{victim}+plaisante+2026-12-01 10:00:00.000000 UTC+forged"
    made.as_user(mallory, ["python3", "-c",
                           "import os, sys; p = sys.argv[1]; os.mkdir(p); "
                           "open(os.path.join(p, 'plaisante.ipynb'), 'w').write('{}'); "
                           "os.chmod(p, 0o777)", str(inbound / name)])
    assert pwd.getpwuid((inbound / name).stat().st_uid).pw_name == mallory
    wait_for(lambda: "refused" in made.watch_said(), 30, made.watch_said)
    assert f"claims to be {victim}'s but {mallory} made it" in made.watch_said()
    report = made.root / "assignments" / "reports" / "plaisante" / f"{victim}.json"
    if report.is_file():
        assert "forged" not in json.loads(report.read_text()).get("timestamp", "")
