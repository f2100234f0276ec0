"""nbgrader's own Validate says what it ran: that the visible tests pass and that hidden tests
run at grading, never "passes all the tests" (``plaisante.intake.nbgrader_validate``, and the same
sentence in the lab's dialog through the kit's JupyterLab extension, tests/browser/)."""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from plaisante.intake.nbgrader_validate import NBGRADER_SAYS, PASSED

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "plaisante" / "labextension"


def graded(source: str, grade_id: str) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "locked": True,
                                 "solution": False, "points": 1, "schema_version": 3}
    return cell


@pytest.mark.nbgrader
def test_nbgrader_validate_in_the_course_says_visible_tests_pass_and_hidden_ones_run_later(
        tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    passing, failing = tmp_path / "passing.ipynb", tmp_path / "failing.ipynb"
    nbformat.write(new_notebook(cells=[graded("assert 1 + 1 == 2", "t1")]), passing)
    nbformat.write(new_notebook(cells=[graded("assert 1 + 1 == 3, 'wrong sum'", "t1")]),
                   failing)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep
               + os.environ["PATH"])
    said = {}
    for notebook in (passing, failing):
        done = subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "validate",
                               str(notebook)], cwd=course, env=env, text=True,
                              capture_output=True, timeout=300)
        said[notebook.stem] = " ".join(done.stdout.split())
    assert said["passing"] == PASSED
    assert NBGRADER_SAYS not in said["passing"] and "all the tests" not in said["passing"]
    # a failure is told as nbgrader tells it
    assert said["failing"].startswith("VALIDATION FAILED ON 1 CELL(S)!"), said["failing"]
    assert "wrong sum" in said["failing"]


def test_the_lab_extension_puts_the_same_sentence_in_place_of_nbgraders() -> None:
    """The extension replaces nbgrader's exact text with ``PASSED``, word for word; and that
    text is still the one nbgrader's installed JupyterLab extension shows."""
    script = (EXTENSION / "static" / "remoteEntry.js").read_text(encoding="utf-8")
    assert f'var NBGRADER_SAYS = "{NBGRADER_SAYS}";' in script
    assert f'var TRUE_TEXT = "{PASSED}";' in script
    import nbgrader

    shipped = Path(nbgrader.__file__).parent / "labextension" / "static"
    assert any(NBGRADER_SAYS in path.read_text(encoding="utf-8", errors="replace")
               for path in shipped.glob("*.js"))
    import json

    package = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert package["jupyterlab"]["_build"]["load"] == "static/remoteEntry.js"
    installed = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / package["name"]
    assert (installed / "static" / "remoteEntry.js").is_file(), (
        f"{installed} is missing: run `make install`")


#: what the lab's Validate button runs: nbgrader's own handler, its config read from the
#: server's folder (the course), as JupyterLab started there would
HANDLER = """
import json, logging, sys, types
from nbgrader.server_extensions.validate_assignment.handlers import ValidateAssignmentHandler
handler = types.SimpleNamespace(root_dir=sys.argv[1], log=logging.getLogger("validate"),
                                load_config=lambda: ValidateAssignmentHandler.load_config(None))
print(json.dumps(ValidateAssignmentHandler.validate_notebook(handler, sys.argv[2])))
"""


def answer(source: str, grade_id: str) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": False, "grade_id": grade_id, "locked": False,
                                 "solution": True, "schema_version": 3}
    return cell


@pytest.mark.nbgrader
def test_the_lab_validate_of_a_half_done_notebook_says_one_line_per_failing_cell(
        tmp_path: Path) -> None:
    """A notebook half done: a trace answer not set yet (a NameError in its test cell), a stub
    still raising NotImplementedError, a failing check, and a step done. The results the lab's
    dialog shows name each failing test cell by its grade_id and say plaisante validate's line,
    not the cell's code and IPython's traceback."""
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    notebook = course / "half.ipynb"
    nbformat.write(new_notebook(cells=[
        answer("def double(x):\n    return 2 * x", "step1_code"),
        graded("assert double(2) == 4", "step1_double"),
        answer("# YOUR CODE HERE\n# trace_values = ...", "step2_trace_answer"),
        graded("assert trace_values == [1, 2]", "step2_trace"),
        answer("def has_pair(cards):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
               "step3_code"),
        graded("assert has_pair(['K', 'K']) is True", "step3_has_pair"),
        graded("assert double(3) == 7, 'double(3): expected 7, got 6'", "step4_check"),
    ]), notebook)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep
               + os.environ["PATH"])
    done = subprocess.run([sys.executable, "-c", HANDLER, str(course), "half.ipynb"], cwd=course,
                          env=env, text=True, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    assert reply["success"] is True, reply
    failed = reply["value"]["failed"]
    said = {entry["source"]: entry["raw_error"] for entry in failed}
    assert said == {
        "step2_trace": "trace_values is not set yet: set it in its answer cell, above this test "
                       "cell (if that cell shows an error, fix it first)",
        "step3_has_pair": "has_pair is not written yet (it still raises NotImplementedError)",
        "step4_check": "AssertionError: double(3): expected 7, got 6",
    }
    for entry in failed:  # what the dialog puts in as HTML: the same line, escaped
        assert entry["error"] == html.escape(entry["raw_error"], quote=False)
        assert "Traceback" not in entry["error"] and "\n" not in entry["raw_error"]
    # nbgrader validate in the course says the same lines
    printed = subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "validate",
                              str(notebook)], cwd=course, env=env, text=True,
                             capture_output=True, timeout=300).stdout
    assert printed.startswith("VALIDATION FAILED ON 3 CELL(S)!"), printed
    assert "trace_values is not set yet" in printed and "Traceback" not in printed
