"""A notebook whose cells lost their nbgrader metadata (Colab keeps only its own ``id``) is
matched to the release; when every locked cell is found as released, the match is sure and
the work is *noted*, not flagged: it counts in averages and exports like any grade. When the
match is not sure, it stays flagged, with what to do."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout
from plaisante.grading.notebook_check import read_submission, sanitize

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
SAMPLE = "syntax_error_in_count_values"
NOTEBOOK = SAMPLES / MANIFEST["samples"][SAMPLE]["notebook"]
RELEASE = CourseLayout(ROOT).release(ASSIGNMENT)


def colab_saved(source: Path, target: Path, *, edit_locked: bool = False) -> Path:
    """Write ``source`` as Colab saves it: every cell's metadata only Colab's ``id``, the
    notebook's metadata Colab's; with ``edit_locked``, one locked cell's text changed."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    edited = False
    for index, cell in enumerate(notebook["cells"]):
        locked = cell.get("metadata", {}).get("nbgrader", {}).get("locked")
        if edit_locked and locked and not edited:
            cell["source"] = "print('I replaced the setup with my own line')"
            edited = True
        cell["metadata"] = {"id": f"colab{index:04d}"}
    notebook["metadata"] = {"colab": {"provenance": []}, "kernelspec": {
        "name": "python3", "display_name": "Python 3"}}
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


def test_a_colab_save_with_every_locked_cell_found_is_noted(tmp_path: Path) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    clean = sanitize(read_submission(colab_saved(NOTEBOOK, tmp_path / "a.ipynb")), release,
                     ASSIGNMENT)
    assert len(clean.reasons) == 1 and clean.notes == clean.reasons, clean.reasons
    assert "every locked cell was found as released" in clean.notes[0]
    assert clean.notes[0].endswith("nothing to do")


def test_a_colab_save_missing_a_locked_cell_stays_flagged_with_what_to_do(
        tmp_path: Path) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    clean = sanitize(read_submission(colab_saved(NOTEBOOK, tmp_path / "b.ipynb",
                                                 edit_locked=True)), release, ASSIGNMENT)
    assert clean.notes == []
    lost = [r for r in clean.reasons if "lost their nbgrader metadata" in r]
    assert len(lost) == 1 and "not found" in lost[0]
    assert lost[0].endswith("check the answers in the formgrader and grade by hand what is "
                            "misplaced")


@pytest.mark.nbgrader
def test_noted_colab_work_counts_and_exports_like_any_grade(tmp_path: Path) -> None:
    from plaisante.results.scores import class_rows, counted

    root = new_course(tmp_path / "course")
    run("release", ASSIGNMENT, cwd=root)
    layout = CourseLayout(root)
    colab_saved(NOTEBOOK, layout.submitted("colab", ASSIGNMENT))
    folder = layout.submitted("plain", ASSIGNMENT).parent
    folder.mkdir(parents=True)
    shutil.copy(NOTEBOOK, folder / f"{ASSIGNMENT}.ipynb")
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    expected = MANIFEST["samples"][SAMPLE]["expected"]["total"]
    report = json.loads(layout.report(ASSIGNMENT, "colab").read_text(encoding="utf-8"))
    assert report["total"] == expected
    assert report["reasons"] and report["notes"] == report["reasons"]
    rows = {row.student: row for row in class_rows(root, ASSIGNMENT)}
    assert rows["colab"].noted and not rows["colab"].ungraded
    assert sorted(row.student for row in counted(list(rows.values()))) == ["colab", "plain"]
    run("export", "--layout", "lms", "--to", "lms.csv", cwd=root)
    with open(root / "lms.csv", encoding="utf-8") as handle:
        exported = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert float(exported["colab"][ASSIGNMENT]) == expected
    assert exported["colab"][ASSIGNMENT] == exported["plain"][ASSIGNMENT]
