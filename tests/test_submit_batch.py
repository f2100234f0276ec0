"""``plaisante submit FOLDER_OR_ZIP``: a notebook that breaks the reader in any way (one nested
200,000 levels deep raised RecursionError and stopped the batch) is refused in one line, and
every other notebook of the batch is submitted."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from plaisante import cli
from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb"
DEEP = b'{"cells": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    (root / "solutions").mkdir(parents=True)
    shutil.copytree(ROOT / "solutions" / "plaisante", root / "solutions" / "plaisante")
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    (root / "assignments").mkdir()
    return root


@pytest.mark.parametrize("packed", ["folder", "zip"])
def test_a_notebook_nested_too_deep_is_refused_and_the_rest_submitted(course, tmp_path, capsys,
                                                                       packed):
    batch = tmp_path / "batch"
    batch.mkdir()
    shutil.copy(GOOD, batch / "ada.ipynb")
    (batch / "ben.ipynb").write_bytes(DEEP)
    shutil.copy(GOOD, batch / "cy.ipynb")
    source = batch
    if packed == "zip":
        source = tmp_path / "batch.zip"
        with zipfile.ZipFile(source, "w") as archive:
            for name in ("ada.ipynb", "ben.ipynb", "cy.ipynb"):
                archive.write(batch / name, name)
    status = cli.main(["--course", str(course), "submit", str(source)])
    out = capsys.readouterr().out
    assert status == 1
    assert CourseLayout(course).submitted_students("plaisante") == ["ada", "cy"]
    refused = [line for line in out.splitlines() if line.startswith("ben: refused: ")]
    assert len(refused) == 1 and "\n" not in refused[0]
    assert out.splitlines()[-1] == "2 submitted, 1 refused"


def test_one_notebook_nested_too_deep_is_refused_in_one_line(course, tmp_path, capsys):
    deep = tmp_path / "ben.ipynb"
    deep.write_bytes(DEEP)
    status = cli.main(["--course", str(course), "submit", str(deep), "--student", "ben"])
    err = capsys.readouterr().err.strip()
    assert status != 0 and "\n" not in err
    assert err.endswith("nothing was collected: it is nested too deep to be a notebook "
                        "Jupyter saved")
    assert CourseLayout(course).submitted_students("plaisante") == []


def test_any_error_while_submitting_one_notebook_refuses_only_that_one(course, tmp_path,
                                                                        capsys, monkeypatch):
    batch = tmp_path / "batch"
    batch.mkdir()
    for name in ("ada", "ben", "cy"):
        shutil.copy(GOOD, batch / f"{name}.ipynb")
    submit = cli.course.submit

    def failing(notebook, student, *args, **kwargs):
        if student == "ben":
            raise RuntimeError("disk on fire\nsecond line")
        return submit(notebook, student, *args, **kwargs)
    monkeypatch.setattr(cli.course, "submit", failing)
    assert cli.main(["--course", str(course), "submit", str(batch)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "ben: refused: could not be submitted (RuntimeError: disk on fire)" in out
    assert CourseLayout(course).submitted_students("plaisante") == ["ada", "cy"]
    assert out[-1] == "2 submitted, 1 refused"
