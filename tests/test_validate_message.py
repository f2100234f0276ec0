"""nbgrader's own Validate says what it ran: that the visible tests pass and that hidden tests
run at grading, never "passes all the tests" (``plaisante.intake.nbgrader_validate``, and the same
sentence in the lab's dialog through the kit's JupyterLab extension, tests/browser/)."""

from __future__ import annotations

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
