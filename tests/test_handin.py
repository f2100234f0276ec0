"""Work graded as students really hand it in: copies and renames of the notebook beside the
original, Windows line endings inside cell sources, pasted images and saved outputs over the
size cap, an nbformat 3 notebook and a data file the student's code opens are each graded to
their real score by the real ``plaisante grade`` (and flagged only where the instructor must
check something, naming it)."""

from __future__ import annotations

import base64
import copy
import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout
from plaisante.grading.handed_in import chosen_notebook, data_files
from plaisante.grading.notebook_check import (
    MAX_NOTEBOOK_BYTES,
    Unreadable,
    read_submission,
    sanitize,
)
from plaisante.grading.result import submission_digest

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
FULL = SAMPLES / "full_marks.ipynb"
UNTOUCHED = SAMPLES / "untouched.ipynb"
PARTIAL = SAMPLES / "syntax_error_in_count_values.ipynb"
RELEASE = CourseLayout(ROOT).release(ASSIGNMENT)
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
PARTIAL_TOTAL = MANIFEST["samples"]["syntax_error_in_count_values"]["expected"]["total"]


def notebook_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def crlf(data: dict) -> dict:
    """``data`` as an editor on Windows saves it: each source one string, CRLF endings."""
    data = copy.deepcopy(data)
    for cell in data["cells"]:
        cell["source"] = "".join(cell["source"]).replace("\n", "\r\n")
    return data


def with_attachment(data: dict, mib: int) -> dict:
    """``data`` with an image of ``mib`` MiB pasted into its first markdown cell."""
    data = copy.deepcopy(data)
    image = base64.b64encode(b"\x89PNG" + b"\0" * (mib * 1024 * 1024)).decode()
    data["cells"][0]["attachments"] = {"pasted.png": {"image/png": image}}
    return data


def with_outputs(data: dict, mib_each: int = 1) -> dict:
    """``data`` with a saved output of ``mib_each`` MiB in every code cell."""
    data = copy.deepcopy(data)
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                                "text": "x" * (mib_each * 1024 * 1024)}]
    return data


def as_v3(data: dict) -> dict:
    return nbformat.convert(nbformat.reads(json.dumps(data), as_version=4), 3)


def opening_data_file(data: dict) -> dict:
    """``data`` whose Tableau cell first reads ``data.txt`` (step 5 fails without it)."""
    data = copy.deepcopy(data)
    for cell in data["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == "step5_tableau":
            cell["source"] = "HELD = int(open('data.txt').read())\n" + "".join(cell["source"])
    return data


def write(folder: Path, name: str, content: dict | Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(content, Path):
        shutil.copy(content, folder / name)
    else:
        (folder / name).write_text(json.dumps(content), encoding="utf-8")
    return folder / name


def release() -> nbformat.NotebookNode:
    return nbformat.read(RELEASE, as_version=4)


# ------------------------------------------------------------------ reading, no kernel needed

def test_crlf_line_endings_do_not_make_a_locked_cell_look_edited(tmp_path):
    path = write(tmp_path, "plaisante.ipynb", crlf(notebook_json(FULL)))
    clean = sanitize(read_submission(path), release(), ASSIGNMENT)
    assert clean.reasons == []
    assert not any("\r" in cell.source for cell in clean.notebook.cells)


def test_old_mac_line_endings_are_read_as_newlines_too(tmp_path):
    data = notebook_json(FULL)
    for cell in data["cells"]:
        cell["source"] = "".join(cell["source"]).replace("\n", "\r")
    clean = sanitize(read_submission(write(tmp_path, "plaisante.ipynb", data)), release(),
                     ASSIGNMENT)
    assert clean.reasons == []


def test_an_edited_locked_cell_saved_with_crlf_is_still_reported(tmp_path):
    data = crlf(notebook_json(FULL))
    test = next(c for c in data["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == "step2_count_values")
    test["source"] = "pass\r\n"
    clean = sanitize(read_submission(write(tmp_path, "plaisante.ipynb", data)), release(),
                     ASSIGNMENT)
    assert clean.reasons == ["locked cell step2_count_values was edited (restored from the "
                             "source)"]


@pytest.mark.parametrize("bloat", ["attachments", "outputs"])
def test_attachments_and_saved_outputs_do_not_count_against_the_cap(tmp_path, bloat):
    data = (with_attachment(notebook_json(FULL), 24) if bloat == "attachments"
            else with_outputs(notebook_json(FULL), 1))
    path = write(tmp_path, "plaisante.ipynb", data)
    assert path.stat().st_size > MAX_NOTEBOOK_BYTES
    notebook = read_submission(path)
    assert all(not cell.get("attachments") for cell in notebook.cells)
    assert all(cell.outputs == [] for cell in notebook.cells if cell.cell_type == "code")
    assert sanitize(notebook, release(), ASSIGNMENT).reasons == []


def test_sources_over_the_cap_are_refused_naming_what_takes_the_room(tmp_path):
    data = with_attachment(notebook_json(FULL), 3)
    data["cells"][0]["source"] = "x" * (MAX_NOTEBOOK_BYTES + 10)
    with pytest.raises(Unreadable, match=r"its cells' sources take 20 MiB .*pasted images "
                                         r"\(4 MiB\)\): remove the large text"):
        read_submission(write(tmp_path, "plaisante.ipynb", data))


def test_a_file_over_the_hard_limit_says_what_to_clear(tmp_path):
    path = tmp_path / "plaisante.ipynb"
    with path.open("wb") as file:
        file.truncate(101 * 1024 * 1024)
    with pytest.raises(Unreadable, match=r"too large \(101 MiB.*Clear Outputs of All Cells"):
        read_submission(path)


@pytest.mark.nbgrader
def test_a_notebook_of_gigabytes_is_flagged_too_large_not_read_whole(graded, tmp_path):
    """The digest that tells a resubmission apart is taken before the size check (and again
    by the coordinator, which has no memory bound): it read the notebook whole, and a sparse
    3 GiB one ended as "grading failed with MemoryError; regrade it alone", as every regrade
    would. A pipe or a link in its place is read neither (a pipe would never end)."""
    layout = CourseLayout(graded)
    folder = layout.submitted("huge", ASSIGNMENT).parent
    report = json.loads(layout.report(ASSIGNMENT, "huge").read_text("utf-8"))
    assert report["status"] == "flagged", report
    assert any("too large (3072 MiB" in reason for reason in report["reasons"]), report
    assert submission_digest(folder, ASSIGNMENT) is not None  # read in part, in chunks
    piped = tmp_path / "piped"
    piped.mkdir()
    os.mkfifo(piped / "plaisante.ipynb")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "plaisante.ipynb").symlink_to("/dev/zero")
    assert submission_digest(piped, ASSIGNMENT) is None
    assert submission_digest(tmp_path / "linked", ASSIGNMENT) is None


def test_an_nbformat_3_notebook_is_converted_and_matches_the_release(tmp_path):
    path = write(tmp_path, "plaisante.ipynb", as_v3(notebook_json(FULL)))
    notebook = read_submission(path)
    assert notebook.nbformat == 4
    assert sanitize(notebook, release(), ASSIGNMENT).reasons == []


def test_an_untouched_original_beside_a_copy_holding_the_work_grades_the_copy(tmp_path):
    write(tmp_path, "plaisante.ipynb", UNTOUCHED)
    write(tmp_path, "plaisante-Copy1.ipynb", FULL)
    choice = chosen_notebook(tmp_path, ASSIGNMENT, release().cells)
    assert choice.path.name == "plaisante-Copy1.ipynb"
    assert choice.reason is not None
    assert "plaisante-Copy1.ipynb (12), plaisante.ipynb (0)" in choice.reason


def test_of_two_notebooks_with_work_the_one_with_more_is_graded(tmp_path):
    write(tmp_path, "plaisante.ipynb", UNTOUCHED)
    write(tmp_path, "plaisante (1).ipynb", SAMPLES / "steps_1_to_3_only.ipynb")
    write(tmp_path, "plaisante-Copy2.ipynb", FULL)
    choice = chosen_notebook(tmp_path, ASSIGNMENT, release().cells)
    assert choice.path.name == "plaisante-Copy2.ipynb"
    assert "3 notebooks submitted" in (choice.reason or "")
    for name in ("plaisante.ipynb", "plaisante (1).ipynb", "plaisante-Copy2.ipynb"):
        assert name in (choice.reason or "")


def test_a_tie_grades_the_expected_name(tmp_path):
    write(tmp_path, "plaisante-Copy1.ipynb", FULL)
    write(tmp_path, "plaisante.ipynb", FULL)
    assert chosen_notebook(tmp_path, ASSIGNMENT, release().cells).path.name == \
        "plaisante.ipynb"


def test_a_notebook_of_no_assignment_beside_the_work_is_no_candidate(tmp_path):
    write(tmp_path, "plaisante.ipynb", FULL)
    scratch = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    write(tmp_path, "scratch.ipynb", json.loads(nbformat.writes(scratch)))
    choice = chosen_notebook(tmp_path, ASSIGNMENT, release().cells)
    assert (choice.path.name, choice.reason) == ("plaisante.ipynb", None)


def test_data_files_are_the_folders_other_files_within_limits(tmp_path):
    write(tmp_path, "plaisante.ipynb", FULL)
    (tmp_path / "timestamp.txt").write_text("2026-01-01 00:00:00 UTC")
    (tmp_path / "data.txt").write_text("8\n")
    (tmp_path / "huge.bin").write_bytes(b"\0" * (21 * 1024 * 1024))
    (tmp_path / "link.txt").symlink_to("/etc/passwd")
    (tmp_path / "sub").mkdir()
    found = data_files(tmp_path)
    assert list(found.files) == ["data.txt"]
    assert found.reason is not None
    assert "huge.bin (22020096 bytes)" in found.reason and "link.txt (a symbolic link)" in \
        found.reason


# ----------------------------------------------------------------------------- graded, end to end

@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with Plaisante released and nothing handed in (tests change copies of it)."""
    root = new_course(tmp_path_factory.mktemp("released") / "course")
    run("release", ASSIGNMENT, cwd=root)
    return root


def copied(course: Path, tmp_path: Path) -> Path:
    """Return a copy of ``course`` in ``tmp_path``, for a test that changes it."""
    return Path(shutil.copytree(course, tmp_path / "course"))


@pytest.fixture(scope="module")
def graded(released: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``released`` where each way of handing in below, one student each, and a
    sparse 3 GiB notebook (student ``huge``) are graded by one ``plaisante grade`` (each
    student's report is theirs alone). Tests only read it."""
    root = copied(released, tmp_path_factory.mktemp("graded"))
    layout = CourseLayout(root)
    full = notebook_json(FULL)

    def folder(student: str) -> Path:
        return layout.submitted(student, ASSIGNMENT).parent

    write(folder("copy1"), "plaisante.ipynb", UNTOUCHED)
    write(folder("copy1"), "plaisante-Copy1.ipynb", FULL)
    write(folder("renamed_partial"), "plaisante (1).ipynb", PARTIAL)
    write(folder("renamed_partial"), "notes.ipynb",
          json.loads(nbformat.writes(nbformat.v4.new_notebook())))
    write(folder("crlf"), "plaisante.ipynb", crlf(full))
    write(folder("attachments"), "plaisante.ipynb", with_attachment(full, 24))
    write(folder("outputs"), "plaisante.ipynb", with_outputs(full, 1))
    write(folder("v3"), "plaisante.ipynb", as_v3(full))
    write(folder("v3_crlf"), "plaisante.ipynb", as_v3(crlf(full)))
    write(folder("datafile"), "plaisante.ipynb", opening_data_file(full))
    (folder("datafile") / "data.txt").write_text("8\n")
    write(folder("no_datafile"), "plaisante.ipynb", opening_data_file(full))
    folder("huge").mkdir(parents=True)
    with (folder("huge") / "plaisante.ipynb").open("wb") as file:
        file.truncate(3 * 1024 ** 3)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    return root


@pytest.mark.nbgrader
def test_each_way_of_handing_in_is_graded_to_its_real_score(graded):
    layout = CourseLayout(graded)

    expected = {"copy1": (100, "flagged"), "renamed_partial": (PARTIAL_TOTAL, "flagged"),
                "crlf": (100, "graded"), "attachments": (100, "graded"),
                "outputs": (100, "graded"), "v3": (100, "graded"), "v3_crlf": (100, "graded"),
                "datafile": (100, "graded"), "no_datafile": (88, "graded")}
    reports = {student: json.loads(layout.report(ASSIGNMENT, student).read_text("utf-8"))
               for student in expected}
    got = {student: (r["total"], r["status"]) for student, r in reports.items()}
    assert got == expected, {s: r["reasons"] for s, r in reports.items()}
    assert any("plaisante-Copy1.ipynb (12), plaisante.ipynb (0)" in reason
               for reason in reports["copy1"]["reasons"])
    assert reports["renamed_partial"]["reasons"][0] == (
        "graded plaisante (1).ipynb, the only notebook of the assignment submitted (expected "
        "plaisante.ipynb)")


@pytest.mark.nbgrader
def test_a_copy_handed_in_through_nbgraders_exchange_is_graded(released, tmp_path):
    import os
    import subprocess
    import sys

    root = copied(released, tmp_path)
    exchange = f"--Exchange.root={root / 'assignments' / 'exchange'}"

    def nbgrader(*args: str, cwd: Path) -> None:
        done = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--course=cs1",
                               exchange, "--log-level=WARN"], cwd=cwd, text=True,
                              capture_output=True, timeout=300,
                              env=dict(os.environ, JUPYTER_CONFIG_PATH=str(root)))
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])

    nbgrader("release_assignment", ASSIGNMENT, cwd=root)
    home = tmp_path / "student"
    home.mkdir()
    nbgrader("fetch_assignment", ASSIGNMENT, cwd=home)
    shutil.copy(FULL, home / ASSIGNMENT / "plaisante-Copy1.ipynb")
    (home / ASSIGNMENT / "data.txt").write_text("8\n")
    nbgrader("submit", ASSIGNMENT, cwd=home)
    nbgrader("collect", ASSIGNMENT, cwd=root)
    layout = CourseLayout(root)
    (student,) = layout.submitted_students(ASSIGNMENT)
    assert (layout.submitted(student, ASSIGNMENT).parent / "submission_secret.txt").is_file()
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
    assert (report["total"], report["status"]) == (100, "flagged")
    assert report["reasons"] == [
        "graded plaisante-Copy1.ipynb, the notebook holding the most work, of 2 notebooks "
        "submitted (cells of work in each: plaisante-Copy1.ipynb (12), plaisante.ipynb (0)): "
        "check it is the one to grade; hand in only that one, named plaisante.ipynb"]

    # Handed in again with the copy alone: graded, and its feedback reaches the student under
    # the name they handed in (nbgrader finds a notebook's feedback by that name).
    (home / ASSIGNMENT / "plaisante.ipynb").unlink()
    nbgrader("submit", ASSIGNMENT, cwd=home)
    nbgrader("collect", "--update", ASSIGNMENT, cwd=root)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
    assert report["total"] == 100, report
    run("feedback", ASSIGNMENT, cwd=root)
    nbgrader("release_feedback", ASSIGNMENT, cwd=root)
    nbgrader("fetch_feedback", ASSIGNMENT, cwd=home)
    fetched = sorted(p.name for p in (home / ASSIGNMENT / "feedback").glob("*/*.html"))
    assert fetched == ["plaisante-Copy1.html"], fetched
    page = next((home / ASSIGNMENT / "feedback").glob("*/plaisante-Copy1.html"))
    assert "100" in page.read_text(encoding="utf-8")


@pytest.mark.nbgrader
def test_data_files_reach_a_kernel_started_without_the_zygote(released, tmp_path, monkeypatch):
    from plaisante.grading import submission
    from plaisante.grading.result import Limits

    root = copied(released, tmp_path)
    folder = CourseLayout(root).submitted("datafile", ASSIGNMENT).parent
    write(folder, "plaisante.ipynb", opening_data_file(notebook_json(FULL)))
    monkeypatch.setattr(submission, "USE_ZYGOTE", False)
    without = submission.grade_one(root, "datafile", ASSIGNMENT, limits=Limits(), sandbox=True)
    (folder / "data.txt").write_text("8\n")
    with_file = submission.grade_one(root, "datafile", ASSIGNMENT, limits=Limits(),
                                     sandbox=True)
    assert (without.total, with_file.total) == (88, 100), (without.reasons, with_file.reasons)


def test_another_assignments_notebook_beside_the_work_is_no_candidate(tmp_path):
    write(tmp_path, "plaisante.ipynb", UNTOUCHED)
    write(tmp_path, "deck.ipynb", ROOT / "assignments" / "samples" / "deck" / "full_marks.ipynb")
    choice = chosen_notebook(tmp_path, ASSIGNMENT, release().cells)
    assert (choice.path.name, choice.reason) == ("plaisante.ipynb", None)
