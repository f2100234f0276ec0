"""Every assignment's visible test cells end with the one message of
``plaisante.student_side.checking.visible_checks_pass``: the visible checks pass, hidden tests run
at grading."""

from pathlib import Path

import nbformat

from plaisante.games import COURSE
from plaisante.student_side.checking import visible_checks_pass

ROOT = Path(__file__).resolve().parents[1]


def test_the_message_says_visible_checks_pass_and_hidden_tests_run_at_grading(capsys):
    visible_checks_pass("Step 1")
    assert capsys.readouterr().out == (
        "Step 1: the visible checks pass (hidden tests run when your work is graded).\n")


def test_every_visible_test_cell_of_every_assignment_uses_the_helper():
    for assignment in COURSE:
        assignment = getattr(assignment, "id", assignment)
        for folder in ("solutions", "starter"):
            notebook = nbformat.read(ROOT / folder / assignment / f"{assignment}.ipynb",
                                     as_version=4)
            tests = [c.source for c in notebook.cells
                     if c.metadata.get("nbgrader", {}).get("grade")
                     and not c.metadata["nbgrader"].get("solution")]
            text = "\n".join(tests)
            assert "passes." not in text and "visible tests pass;" not in text, assignment
            # a visible test cell: its cases as expect_* calls, or an opaque check_X(part)
            visible = [t for t in tests if ("check_" in t or "expect_" in t)
                       and "check_shape" not in t
                       and "try_my_tests" not in t and "graded later" not in t]
            assert visible and all("visible_checks_pass(" in t.splitlines()[-1]
                                   for t in visible), (assignment, folder)
