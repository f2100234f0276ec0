"""The formgrader's Autograde route hands only ids to ``plaisante grade``: a student or
assignment "id" that is an option (``--no-sandbox``) or a path is refused before anything runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from plaisante.formgrader_grading import grade_command, grade_in_sandbox


@pytest.mark.parametrize(("assignment", "student", "named"), [
    ("plaisante", "--no-sandbox", "student '--no-sandbox'"),
    ("plaisante", "../ada", "student '../ada'"),
    ("-x", "ada", "assignment '-x'"),
    ("plaisante", "", "student ''"),
])
def test_an_id_that_is_not_an_id_is_refused_before_grading(
        tmp_path: Path, assignment: str, student: str, named: str) -> None:
    with pytest.raises(ValueError, match="is not an id") as refused:
        asyncio.run(grade_in_sandbox(tmp_path, assignment, student))
    assert named in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_the_command_is_plaisante_grade_of_one_student_in_the_sandbox(tmp_path: Path) -> None:
    command = grade_command(tmp_path, "plaisante", "ada")
    assert command[1:] == ["-m", "plaisante.cli", "--course", str(tmp_path), "grade",
                           "plaisante", "--student", "ada"]
    assert "--no-sandbox" not in command
