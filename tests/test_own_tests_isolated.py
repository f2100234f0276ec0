"""Each run of a student's own tests has a kernel of its own when graded (SPEC §5).

Tests that remember what an earlier run was answered and fail a run answered otherwise would
catch every buggy version without knowing a right answer, if runs shared a kernel. Graded for
real (sandbox, zygote, judge), each run starts from the notebook's own cells run again in a
new kernel, so such tests catch nothing and the correct version's answers never reach the
student's feedback."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

#: Step 2's own tests, replaced: the first run's answer is the one to match, and a failing run
#: says what it was answered (which would be the correct count_values' answer on a hand the
#: student chose, if it reached feedback).
REMEMBERING = '''SEEN = []


def my_count_values_tests(count_values):
    """Pass on the first answer seen; fail on any other, saying it."""
    answer = count_values(hand("A♠ 2♣ 3♦ 3♣ K♥"))
    SEEN.append(answer)
    assert answer == SEEN[0], "ANSWERED " + repr(answer) + " FIRST " + repr(SEEN[0])
'''


def test_tests_that_remember_earlier_runs_catch_nothing_when_graded(tmp_path: Path) -> None:
    root = new_course(tmp_path / "course", ("solutions",))
    cli("release", "plaisante", cwd=root, course=root)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    cell = next(cell for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests_code")
    cell.source = REMEMBERING
    path = tmp_path / "remembering.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    cli("grade", "plaisante", cwd=root, course=root)
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    outputs = next(cell.outputs for cell in graded.cells
                   if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    said = "".join(str(output.get("text", "")) for output in outputs)
    assert "passes on a correct count_values and catches 0 of 4 hidden buggy versions" in said
    assert [output.data["text/plain"] for output in outputs
            if output.output_type == "execute_result"] == ["0.0"]
    # the other own-tests cell (step 3) still earns everything: the notebook's kernel was
    # restarted for the runs, and every run found the cells before it run again
    step3 = next(cell.outputs for cell in graded.cells
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "step3_my_tests")
    assert [output.data["text/plain"] for output in step3
            if output.output_type == "execute_result"] == ["6.0"]
    cli("feedback", "plaisante", "--student", "ada", cwd=root, course=root)
    page = html.unescape(CourseLayout(root).feedback("ada", "plaisante").read_text("utf-8"))
    assert not re.search(r"ANSWERED \[|FIRST \[", page)


def test_a_test_function_gone_by_the_end_of_the_notebook_is_graded_as_its_cell_saw_it(
        tmp_path: Path) -> None:
    """A student's tests are graded as the cells before their test cell left them: a later
    cell that deletes the function (or names something else so) changes nothing."""
    root = new_course(tmp_path / "course", ("solutions",))
    cli("release", "plaisante", cwd=root, course=root)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    notebook.cells.insert(len(notebook.cells) - 1, nbformat.v4.new_code_cell(
        "del my_has_check_tests  # done with them\nmy_count_values_tests = 'done'"))
    path = tmp_path / "tidied.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    cli("grade", "plaisante", cwd=root, course=root)
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    scored = {cell.metadata["nbgrader"]["grade_id"]: [
        output.data["text/plain"] for output in cell.outputs
        if output.output_type == "execute_result"] for cell in graded.cells
        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_my_tests")}
    assert scored == {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]}, scored
