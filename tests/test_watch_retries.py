"""``plaisante watch``'s loop meets errors that pass (no descriptor left, a full disk): the
submission is said in a line and graded on a later scan, never marked done without a grade."""

from __future__ import annotations

import errno
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

import plaisante.grading.run_results as run_results_module
import plaisante.live.watch as watch
from plaisante.course import CourseLayout
from plaisante.grading.result import SubmissionResult

ME = pwd.getpwuid(os.geteuid()).pw_name


class FakeRunResults:
    def __init__(self, root: Path, assignment: str, count: int, progress: bool) -> None:
        self.results: dict[str, SubmissionResult] = {}

    def close(self) -> None:
        pass


class FakePool:
    """Grades each student 7/10, after ``failures`` OSErrors (the disk full meanwhile)."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.graded: list[str] = []

    def grade(self, assignment: str, students: list[str], run_results: Any, **_: Any) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(errno.ENOSPC, "No space left on device")
        for student in students:
            self.graded.append(student)
            run_results.results[student] = SubmissionResult(student, "graded", total=7.0,
                                                          max_total=10.0)


class Quiet:
    def update(self, *args: Any, **kwargs: Any) -> None:
        pass

    def release(self, student: str, assignment: str) -> None:
        return None


@pytest.fixture
def exchange(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[CourseLayout, Path]:
    monkeypatch.setattr(run_results_module, "RunResults", FakeRunResults)
    inbound = tmp_path / "inbound"
    folder = inbound / f"{ME}+plaisante+2026-12-01 10:00:00.000000 UTC+aaa"
    folder.mkdir(parents=True)
    (folder / "plaisante.ipynb").write_text('{"cells": []}')
    folder.chmod(0o777)
    return CourseLayout(tmp_path / "course"), inbound


def scan(layout: CourseLayout, inbound: Path, pool: FakePool, state: dict, said: list[str],
         count: int) -> int:
    board: Any = Quiet()
    return watch._one_scan(layout, watch.FolderSource(inbound), "plaisante", pool, Quiet(),
                           board, None, False, state["results"], state["graded"],
                           state["collected"], count, said.append, said.append)


def test_a_collection_that_fails_is_said_and_graded_on_the_next_scan(
        exchange: tuple[CourseLayout, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    layout, inbound = exchange
    real, calls = watch.collect, []

    def collect(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OSError(errno.EMFILE, "Too many open files")
        return real(*args, **kwargs)

    monkeypatch.setattr(watch, "collect", collect)
    pool, said = FakePool(), list[str]()
    state: dict = {"results": {}, "graded": {}, "collected": {}}
    assert scan(layout, inbound, pool, state, said, 0) == 0
    assert said == [f"{ME}+plaisante+2026-12-01 10:00:00.000000 UTC+aaa: could not be "
                    "collected yet (EMFILE: Too many open files); "
                    f"{ME}'s submission is tried again on each scan"]
    assert state["graded"] == {} and pool.graded == []
    assert scan(layout, inbound, pool, state, said, 0) == 1
    assert pool.graded == [ME] and said[-1].startswith(f"{ME}: graded 7/10 in ")
    assert scan(layout, inbound, pool, state, said, 1) == 1  # graded once, not again
    assert pool.graded == [ME] and len(calls) == 2


def test_a_grading_that_fails_on_a_full_disk_is_retried_not_skipped(
        exchange: tuple[CourseLayout, Path]) -> None:
    layout, inbound = exchange
    pool, said = FakePool(failures=1), list[str]()
    state: dict = {"results": {}, "graded": {}, "collected": {}}
    with pytest.raises(OSError, match="No space left"):  # the loop says it and retries
        scan(layout, inbound, pool, state, said, 0)
    assert state["graded"] == {} and state["collected"] == {}
    assert scan(layout, inbound, pool, state, said, 0) == 1
    assert pool.graded == [ME]
    assert state["results"][ME].total == 7.0


def test_the_reason_of_an_oserror_is_its_errno_name_and_text() -> None:
    assert watch._why(OSError(errno.EMFILE, "Too many open files")) == \
        "EMFILE: Too many open files"
    assert watch._why(OSError("no errno")) == "no errno"
