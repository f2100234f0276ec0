"""Submissions as students really save them: a notebook re-downloaded as
``plaisante (1).ipynb``, and one saved by an editor that replaced every code cell's metadata
with its own (``{"vscode": {"languageId": "python"}}``), are graded as the work they are and
flagged by name for what was unusual.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout
from plaisante.grading.notebook_check import Unreadable, read_submission, sanitize

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
VSCODE = {"vscode": {"languageId": "python"}}


def samples_of(assignment: str) -> Path:
    base = ROOT / "assignments" / "samples"
    for folder in (base / assignment, base):
        manifest = folder / "manifest.json"
        if manifest.is_file() and json.loads(manifest.read_text())["assignment"] == assignment:
            return folder
    raise FileNotFoundError(f"no samples of {assignment} under {base}")


SAMPLES = samples_of(ASSIGNMENT)
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
SAMPLE = "syntax_error_in_count_values"  # a sample that loses points in one step only
NOTEBOOK = SAMPLES / MANIFEST["samples"][SAMPLE]["notebook"]
RELEASE = CourseLayout(ROOT).release(ASSIGNMENT)


def vscode_saved(source: Path, target: Path) -> Path:
    """Write ``source`` as VS Code may save it: every code cell's metadata replaced."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"] = VSCODE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


def grade_ids(notebook: nbformat.NotebookNode) -> list[str]:
    return [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells
            if "nbgrader" in c.metadata]


# ------------------------------------------------------------------ reading, no kernel needed

def test_a_vscode_save_is_matched_to_the_release_by_locked_source_and_position(tmp_path):
    release = nbformat.read(RELEASE, as_version=4)
    original = nbformat.read(NOTEBOOK, as_version=4)
    saved = vscode_saved(NOTEBOOK, tmp_path / "plaisante.ipynb")
    clean = sanitize(read_submission(saved), release, ASSIGNMENT)
    assert grade_ids(clean.notebook) == grade_ids(release)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in original.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    restored = {c.metadata["nbgrader"]["grade_id"]: c.source for c in clean.notebook.cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    assert restored == answers  # the student's own answers, each in its own cell
    assert any("lost their nbgrader metadata" in r and "VS Code" in r for r in clean.reasons)
    assert not any("deleted" in r for r in clean.reasons), clean.reasons


def test_a_notebook_with_no_locked_cell_in_place_is_still_refused(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    path = tmp_path / "plaisante.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(Unreadable, match="not a notebook of assignment 'plaisante'"):
        sanitize(read_submission(path), nbformat.read(RELEASE, as_version=4), ASSIGNMENT)


def test_the_only_notebook_under_another_name_is_read_and_named(tmp_path):
    shutil.copy(NOTEBOOK, tmp_path / "plaisante (1).ipynb")
    notebook = read_submission(tmp_path / "plaisante.ipynb")
    clean = sanitize(notebook, nbformat.read(RELEASE, as_version=4), ASSIGNMENT)
    assert clean.reasons[0] == ("graded plaisante (1).ipynb, the only notebook submitted "
                                "(expected plaisante.ipynb)")
    shutil.copy(NOTEBOOK, tmp_path / "other.ipynb")
    with pytest.raises(Unreadable, match=r"no plaisante.ipynb submitted, and 2 other notebooks "
                                         r"\(other.ipynb, plaisante \(1\).ipynb\)"):
        read_submission(tmp_path / "plaisante.ipynb")


# ----------------------------------------------------------------------------- graded, end to end

@pytest.mark.nbgrader
def test_both_are_graded_to_the_samples_score_and_flagged_by_name(tmp_path):
    root = new_course(tmp_path / "course")
    run("release", ASSIGNMENT, cwd=root)
    layout = CourseLayout(root)
    folder = layout.submitted("redownload", ASSIGNMENT).parent
    folder.mkdir(parents=True)
    shutil.copy(NOTEBOOK, folder / "plaisante (1).ipynb")
    vscode_saved(NOTEBOOK, layout.submitted("vscode", ASSIGNMENT))
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    expected = MANIFEST["samples"][SAMPLE]["expected"]["total"]
    for student, words in (("redownload", "graded plaisante (1).ipynb"),
                           ("vscode", "lost their nbgrader metadata")):
        report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
        assert report["total"] == expected, (student, report["reasons"])
        assert report["status"] == "flagged"
        assert any(words in reason for reason in report["reasons"]), report["reasons"]


def test_submit_tells_the_assignment_of_a_vscode_save_from_its_locked_cells(tmp_path):
    from plaisante.intake.hand_in import assignment_of

    saved = vscode_saved(NOTEBOOK, tmp_path / "mine.ipynb")
    assert assignment_of(CourseLayout(ROOT), saved, None) == ASSIGNMENT


@pytest.mark.parametrize("text, said", [
    ('{"cells": [{"source": "unterminated', "Unterminated string starting at line 1, column 23"),
    ('{"cells": ["a\x01"]}', "Invalid control character at line 1, column 14"),
    ('{"cells": [}', "Expecting value at line 1, column 12"),
])
def test_an_invalid_json_reason_says_at_once(tmp_path, text, said):
    path = tmp_path / "plaisante.ipynb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(Unreadable) as raised:
        read_submission(path)
    assert str(raised.value) == f"invalid notebook: not valid JSON ({said})"
