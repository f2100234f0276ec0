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
from grader_user import prepare_course, run_as_grader

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


#: Notes a kernel of the submission leaves for the next, in every place of the sandbox that
#: outlives a kernel: its connection file (a throw-away user owns it, as root), a file of its
#: own in its sockets folder and the staged copy of a data file (writable as an ordinary user).
NOTES = '''import json as _json
import os as _os
import sys as _sys


def _connection():
    return _sys.argv[_sys.argv.index("-f") + 1]


def _notes():
    """What an earlier kernel of this submission left for this one."""
    with open(_connection()) as file:
        found = ["connection file"] if "note" in _json.load(file) else []
    folder = _os.path.dirname(_connection())
    found += [name for name in _os.listdir(folder) if name == "note"]
    with open("notes.txt") as file:
        found += [] if file.read() == "as handed in" else ["notes.txt"]
    return found


def _leave_a_note():
    with open(_connection()) as file:
        kept = _json.load(file)
    with open(_connection(), "w") as file:
        _json.dump({**kept, "note": "seen"}, file)
    folder = _os.path.dirname(_connection())
    for path in (_os.path.join(folder, "note"),
                 _os.path.join(folder, "plaisante-data", "notes.txt")):
        try:
            _os.chmod(_os.path.dirname(path), 0o755)
            if _os.path.exists(path):
                _os.chmod(path, 0o644)
            with open(path, "w") as file:
                file.write("seen")
        except OSError:
            pass
'''


def noting(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Full marks, whose step 2 tests fail on a note an earlier kernel left and then leave
    one, and whose notebook kernel leaves one in a cell after them (never run again)."""
    cell = next(cell for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests_code")
    docstring = ('    """Assert what count_values must answer; a wrong count_values makes an '
                 'assert fail."""\n')
    cell.source = NOTES + cell.source.replace(
        docstring, docstring + '    assert not _notes(), _notes()\n    _leave_a_note()\n')
    assert "_leave_a_note()\n" in cell.source
    place = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    notebook.cells.insert(place + 1, nbformat.v4.new_code_cell("_leave_a_note()"))
    return notebook


@pytest.mark.parametrize("grader", ["this user", "the grading user"])
def test_no_kernel_of_a_submission_finds_a_note_an_earlier_one_left(tmp_path: Path,
                                                                  grader: str) -> None:
    """Each kernel of a submission (the notebook's, each run's) starts with its sockets folder
    as the grader made it: the connection file written afresh, the data files as handed in,
    nothing else. A note left there would let tests compare runs, or carry what the
    notebook's kernel heard of the hidden checks into a run."""
    root = new_course(tmp_path / "course", ("solutions",))
    cli("release", "plaisante", cwd=root, course=root)
    notebook = noting(nbformat.read(CourseLayout(ROOT).samples("plaisante")
                                    / "full_marks.ipynb", as_version=4))
    path = tmp_path / "noting.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    layout = CourseLayout(root)
    (layout.submitted("ada", "plaisante").parent / "notes.txt").write_text("as handed in")
    if grader == "this user":
        cli("grade", "plaisante", cwd=root, course=root)
    else:
        prepare_course(root)
        done = run_as_grader(["grade", "plaisante"], cwd=root, timeout=900)
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    graded = nbformat.read(layout.autograded("ada", "plaisante"), as_version=4)
    outputs = next(cell.outputs for cell in graded.cells
                   if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    said = "".join(str(output.get("text", "")) + str(output.get("evalue", ""))
                   for output in outputs)
    assert "passes on a correct count_values and catches 4 of 4" in said, said
    assert [output.data["text/plain"] for output in outputs
            if output.output_type == "execute_result"] == ["4.0"]


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


def test_a_slow_cell_before_a_students_tests_costs_them_nothing(tmp_path: Path) -> None:
    """Every run of a student's tests runs the cells before them again, in a kernel of its
    own: a cell that takes a few seconds (well within a cell's time) once cost that much a
    run, and with more runs than the test cell has seconds the honest tests lost every
    point, flagged as a timeout. A cell run again has its own time, as when it first ran."""
    root = new_course(tmp_path / "course", ("solutions",))
    cli("release", "plaisante", cwd=root, course=root)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    setup = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    notebook.cells.insert(setup + 1, nbformat.v4.new_code_cell(
        "import time\ntime.sleep(2)  # a pause to look at the cards (the student's own cell)"))
    path = tmp_path / "slow.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    # step 3's tests run 7 times (6 buggy versions): 7 × 2 s is past a 10 s cell
    done = cli("grade", "plaisante", "--cell-timeout", "10", cwd=root, course=root)
    assert "timeout" not in done.stdout, done.stdout
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    scored = {cell.metadata["nbgrader"]["grade_id"]: [
        output.data["text/plain"] for output in cell.outputs
        if output.output_type == "execute_result"] for cell in graded.cells
        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_my_tests")}
    assert scored == {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]}, scored
