"""An answer that calls the kit's own working parts is flagged for the instructor
(plaisante/grading/kit_use.py): the kit's bots and stand-ins hold working versions of some
graded parts, which a student's kernel can import."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.grading.kit_use import kit_code_used

KIT = CourseLayout(Path(__file__).resolve().parents[1])
COPIED = ("from plaisante.games.tricks.rules import kit_trick_strength\n\n\n"
          "def trick_strength(card):\n    return kit_trick_strength(card)\n")


def with_answer(assignment: str, grade_id: str, source: str) -> nbformat.NotebookNode:
    notebook = nbformat.read(KIT.samples(assignment) / "full_marks.ipynb", as_version=4)
    (cell,) = [c for c in notebook.cells
               if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    cell.source = source
    return notebook


@pytest.mark.parametrize("assignment", COURSE)
def test_the_reference_answers_use_no_kit_code(assignment: str) -> None:
    notebook = nbformat.read(KIT.samples(assignment) / "full_marks.ipynb", as_version=4)
    assert kit_code_used(notebook) == []


@pytest.mark.parametrize(("source", "named"), [
    (COPIED, "kit_trick_strength, plaisante.games.tricks.rules"),
    ("import plaisante.games.tricks.rules as r\ntrick_strength = r.kit_trick_strength\n",
     "kit_trick_strength, plaisante.games.tricks.rules"),
    ("trick_strength = kit_trick_strength\n", "kit_trick_strength"),
    ("exec(bytes.fromhex('00').decode())\n", "exec"),
    ("m = __import__('plaisante.games.tricks.rules', fromlist=['x'])\n",
     "'plaisante.games.tricks.rules', __import__"),
])
def test_an_answer_reaching_the_kits_parts_is_named_with_its_cell(source: str,
                                                                   named: str) -> None:
    flags = kit_code_used(with_answer("tricks", "step1_trick_strength_code", source))
    assert flags == [f"step1_trick_strength_code uses the kit's own code ({named}): its "
                     "points may be the kit's work, not the student's; check the cell"]


@pytest.mark.nbgrader
@pytest.mark.sandbox
def test_grading_flags_the_submission_and_keeps_its_score(tmp_path: Path) -> None:
    from plaisante.grading import submission
    from plaisante.grading.result import Limits

    root = new_course(tmp_path / "course")
    cli("release", "tricks", cwd=root)
    folder = CourseLayout(root).submitted("copier", "tricks").parent
    folder.mkdir(parents=True)
    nbformat.write(with_answer("tricks", "step1_trick_strength_code", COPIED),
                   folder / "tricks.ipynb")
    result = submission.grade_one(root, "copier", "tricks", limits=Limits(), sandbox=True)
    assert result.status == "flagged", json.dumps(result.reasons)
    assert result.total == 100
    assert any(r.startswith("step1_trick_strength_code uses the kit's own code") for r in
               result.reasons)
