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
from plaisante.intake import submitted

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
    shown = batch / "ben.ipynb" if packed == "folder" else "ben.ipynb"
    refused = [line for line in out.splitlines() if line.startswith("ben: refused")]
    assert refused == [f"ben: refused ({shown}): it is nested too deep to be a notebook "
                       "Jupyter saved"]
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
    submit = submitted.submit_files

    def failing(files, student, *args, **kwargs):
        if student == "ben":
            raise RuntimeError("disk on fire\nsecond line")
        return submit(files, student, *args, **kwargs)
    monkeypatch.setattr(submitted, "submit_files", failing)
    assert cli.main(["--course", str(course), "submit", str(batch)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert (f"ben: refused ({batch / 'ben.ipynb'}): could not be submitted "
            "(RuntimeError: disk on fire)") in out
    assert CourseLayout(course).submitted_students("plaisante") == ["ada", "cy"]
    assert out[-1] == "2 submitted, 1 refused"


def test_a_refused_notebook_says_refused_once_and_why(course, tmp_path, capsys):
    """Not "jill: refused: refused batch/jill.ipynb, nothing was collected: …" while the others
    were collected."""
    batch = tmp_path / "batch"
    batch.mkdir()
    shutil.copy(GOOD, batch / "ada.ipynb")
    (batch / "jill.ipynb").write_bytes(b"")
    assert cli.main(["--course", str(course), "submit", str(batch)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"jill: refused ({batch / 'jill.ipynb'}): empty file: the submitted notebook has 0 " \
           "bytes. Submit the .ipynb file as Jupyter saved it (File > Download)" in out
    assert not any("nothing was collected" in line for line in out)
    assert out[-1] == "1 submitted, 1 refused"
    assert CourseLayout(course).submitted_students("plaisante") == ["ada"]


@pytest.mark.parametrize("packed", ["folder", "zip"])
def test_a_canvas_pattern_matches_the_name_without_its_extension(course, tmp_path, capsys,
                                                                   packed):
    batch = tmp_path / "batch"
    batch.mkdir()
    names = ["smithkara_1234_5678_deck.ipynb", "leeben_99_100_deck.ipynb", "notes_1_2_deck.txt"]
    for name in names:
        shutil.copy(GOOD, batch / name)
    source = batch
    if packed == "zip":
        source = tmp_path / "canvas.zip"
        with zipfile.ZipFile(source, "w") as archive:
            for name in names:
                archive.write(batch / name, name)
    status = cli.main(["--course", str(course), "submit", str(source), "--assignment",
                       "plaisante", "--pattern", r"(?P<student_id>[a-z]+)_\d+_\d+_deck"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0, out
    assert CourseLayout(course).submitted_students("plaisante") == ["leeben", "smithkara"]
    assert out[-2:] == ["skipped 1 file(s) that name no student (the pattern does not match "
                        "them): notes_1_2_deck.txt",
                        "2 submitted, 0 refused"]


def test_a_pattern_with_the_extension_still_matches():
    from plaisante.intake.downloads import read_download

    found = read_download(GOOD.parent, r"(?P<student_id>full_marks)\.ipynb")
    assert found.found == [("full_marks", GOOD)]
    assert found.names == {"full_marks": "full_marks.ipynb"}


def test_submit_help_says_the_pattern_matches_the_whole_name_with_or_without_ipynb(capsys):
    with pytest.raises(SystemExit):
        cli.main(["submit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "must match a whole file name, with or without its .ipynb" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--pattern must match a whole file name, with or without its .ipynb" in readme


def test_one_students_bytes_refuse_that_student_only_before_anything_is_written(
        course, tmp_path, capsys, monkeypatch):
    """Told from the zip's directory: with a 1 MiB cap, eve's 3 MiB of data files (deflated
    to a few KiB) are refused unread and ada's work is collected."""
    from plaisante.intake import downloads as collect

    monkeypatch.setattr(collect, "MAX_STUDENT_BYTES", 1 << 20)
    source = tmp_path / "download.zip"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(GOOD, "Ada Smith_501_assignsubmission_file_/plaisante.ipynb")
        archive.write(GOOD, "Eve Kay_666_assignsubmission_file_/plaisante.ipynb")
        for n in range(3):
            archive.writestr(f"Eve Kay_666_assignsubmission_file_/data{n}.txt", " " * (1 << 20))
    written: list[str] = []
    write = Path.write_bytes
    monkeypatch.setattr(Path, "write_bytes", lambda self, data: (written.append(self.name),
                                                                 write(self, data))[1])
    found = collect.read_download(source, None, tmp_path / "unpacked")
    assert [s.student for s in found.submissions] == ["ada_smith"]
    assert found.refused == [("eve_kay", "Eve Kay_666_assignsubmission_file_/plaisante.ipynb",
                              "3 MiB of files, over the 1 MiB one student may hand in")]
    assert written == ["plaisante.ipynb"]


def test_a_download_over_the_whole_cap_is_refused_naming_the_student_with_the_most(
        tmp_path, monkeypatch):
    from plaisante.intake import downloads as collect

    monkeypatch.setattr(collect, "MAX_ZIP_BYTES", 2 << 20)
    source = tmp_path / "download.zip"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, extra in (("Ada Smith_501", 1), ("Eve Kay_666", 2)):
            archive.write(GOOD, f"{name}_assignsubmission_file_/plaisante.ipynb")
            for n in range(extra):
                archive.writestr(f"{name}_assignsubmission_file_/data{n}.txt", " " * (1 << 20))
    with pytest.raises(ValueError, match=r"download.zip holds 5 files, 3 MiB \(at most 100000 "
                                         r"files, 2 MiB in one download\): the most are "
                                         r"eve_kay's \(3 files, 2 MiB\)$"):
        collect.read_download(source, None, tmp_path / "unpacked")
    assert not (tmp_path / "unpacked").exists()
