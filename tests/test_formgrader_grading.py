"""The formgrader's Autograde route hands only ids to ``plaisante grade``: a student or
assignment "id" that is an option (``--no-sandbox``) or a path is refused before anything runs."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from plaisante.formgrader.sandboxed_autograde import grade_command, grade_in_sandbox


def run_on_its_own_loop(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine in a thread of its own: Playwright's sync API keeps an event loop running
    in the main thread for the rest of the session once a browser test has run."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize(("assignment", "student", "named"), [
    ("plaisante", "--no-sandbox", "student '--no-sandbox'"),
    ("plaisante", "../ada", "student '../ada'"),
    ("-x", "ada", "assignment '-x'"),
    ("plaisante", "", "student ''"),
])
def test_an_id_that_is_not_an_id_is_refused_before_grading(
        tmp_path: Path, assignment: str, student: str, named: str) -> None:
    with pytest.raises(ValueError, match="is not an id") as refused:
        run_on_its_own_loop(grade_in_sandbox(tmp_path, assignment, student))
    assert named in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_the_command_is_plaisante_grade_of_one_student_in_the_sandbox(tmp_path: Path) -> None:
    command = grade_command(tmp_path, "plaisante", "ada")
    assert command[1:] == ["-m", "plaisante.cli", "--course", str(tmp_path), "grade",
                           "plaisante", "--student", "ada"]
    assert "--no-sandbox" not in command
