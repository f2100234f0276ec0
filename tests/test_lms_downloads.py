"""LMS downloads as Canvas, Moodle, Blackboard and Brightspace make them: every student of the
class is collected, a resubmitting student's newest attempt is graded and the older ones are
set aside (kept in ``replaced/`` and named), late markers and submission times are kept, and
one student's folder is never read as a class of students named after its notebooks."""

from __future__ import annotations

import csv
import datetime
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.intake.downloads import read_download, student_id

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
FULL = SAMPLES / "full_marks.ipynb"
UNTOUCHED = SAMPLES / "untouched.ipynb"
PARTIAL = SAMPLES / "syntax_error_in_count_values.ipynb"
#: the course's assignments, as ``plaisante submit`` passes them to ``read_download``
ASSIGNMENTS = CourseLayout(ROOT).assignments()
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
PARTIAL_TOTAL = MANIFEST["samples"]["syntax_error_in_count_values"]["expected"]["total"]


def packed(tmp_path: Path, members: dict[str, Path | str]) -> Path:
    """A zip of ``members`` (path in the zip -> a file to copy, or text)."""
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for name, content in members.items():
            if isinstance(content, Path):
                out.write(content, name)
            else:
                out.writestr(name, content)
    return archive


def kept(found, student: str) -> list[str]:
    return next(s for s in found.submissions if s.student == student).kept.notebooks


def test_canvas_names_resubmissions_and_late_markers(tmp_path):
    archive = packed(tmp_path, {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.ipynb": UNTOUCHED,
        "leeben_102_9107_plaisante-1.ipynb": FULL,
        "leeben_102_9108_data.txt": "8\n",
        "wucy_LATE_103_9050_plaisante.ipynb": PARTIAL,
    })
    found = read_download(archive, None, tmp_path / "unpacked", assignments=ASSIGNMENTS)
    assert found.layout == "Canvas"
    assert [s.student for s in found.submissions] == ["leeben", "smithada", "wucy"]
    ben = found.submissions[0]
    assert ben.kept.shown == "leeben_102_9107_plaisante-1.ipynb"
    assert sorted(ben.kept.files) == ["data.txt", "plaisante.ipynb"]
    assert [a.shown for a in ben.set_aside] == ["leeben_102_9002_plaisante.ipynb"]
    assert found.submissions[2].kept.late == "Canvas marked it LATE"
    assert found.submissions[2].kept.timestamp is None


def test_blackboard_attempts_by_date_and_their_receipts(tmp_path):
    folder = tmp_path / "download"
    folder.mkdir()
    for name, source in (
            ("Week 3_smithada_attempt_2026-11-30-09-15-00_plaisante.ipynb", UNTOUCHED),
            ("Week 3_smithada_attempt_2026-12-01-22-05-10_plaisante.ipynb", FULL),
            ("Week 3_leeben_attempt_2026-11-29-08-00-00_plaisante.ipynb", PARTIAL)):
        shutil.copy(source, folder / name)
    (folder / "Week 3_smithada_attempt_2026-12-01-22-05-10.txt").write_text("Name: Ada\n")
    (folder / "Week 3_leeben_attempt_2026-11-29-08-00-00_data.txt").write_text("8\n")
    found = read_download(folder, None, zone=datetime.timezone(datetime.timedelta(hours=-5)),
                          assignments=ASSIGNMENTS)
    assert [s.student for s in found.submissions] == ["leeben", "smithada"]
    ada = found.submissions[1]
    assert ada.kept.timestamp == datetime.datetime(2026, 12, 2, 3, 5, 10,
                                                   tzinfo=datetime.timezone.utc)
    assert [a.label for a in ada.set_aside] == ["attempt-2026-11-30-09-15-00"]
    assert sorted(found.submissions[0].kept.files) == ["data.txt", "plaisante.ipynb"]
    assert found.skipped == []  # the receipt is the LMS's own


def test_moodle_folders_per_student_nested_in_the_download(tmp_path):
    top = "CS1-Plaisante-123/"
    archive = packed(tmp_path, {
        top + "Ada Smith_501_assignsubmission_file_/plaisante.ipynb": FULL,
        top + "Ben Lee_502_assignsubmission_file_/plaisante.ipynb": UNTOUCHED,
        top + "Ben Lee_502_assignsubmission_file_/plaisante-Copy1.ipynb": FULL,
        top + "Ben Lee_502_assignsubmission_file_/data/data.txt": "8\n",
        top + "Zoë Ó Brien_503_assignsubmission_file_/work.ipynb": PARTIAL,
        top + "Ada Smith_777_assignsubmission_file_/plaisante.ipynb": PARTIAL,
        top + "Ben Lee_502_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>",
    })
    found = read_download(archive, None, tmp_path / "unpacked", assignments=ASSIGNMENTS)
    assert found.layout == "Moodle"
    assert [s.student for s in found.submissions] == [
        "ada_smith_501", "ada_smith_777", "ben_lee", "zoe_o_brien"]
    assert kept(found, "ben_lee") == ["plaisante-Copy1.ipynb", "plaisante.ipynb"]
    assert "data.txt" in next(s for s in found.submissions if s.student == "ben_lee").kept.files


def test_brightspace_files_and_folders_with_their_dates(tmp_path):
    archive = packed(tmp_path, {
        "index.html": "<html></html>",
        "9001-501 - Ada Smith - Dec 1, 2026 1030 AM - plaisante.ipynb": UNTOUCHED,
        "9044-501 - Ada Smith - Dec 1, 2026 1145 PM - plaisante.ipynb": FULL,
        "9002-502 - Ben Lee - Nov 30, 2026 905 AM/plaisante.ipynb": PARTIAL,
        "9002-502 - Ben Lee - Nov 30, 2026 905 AM/data.txt": "8\n",
    })
    found = read_download(archive, None, tmp_path / "unpacked", assignments=ASSIGNMENTS)
    assert found.layout == "Brightspace"
    assert [s.student for s in found.submissions] == ["ada_smith", "ben_lee"]
    ada, ben = found.submissions
    assert ada.kept.timestamp == datetime.datetime(2026, 12, 1, 23, 45,
                                                   tzinfo=datetime.timezone.utc)
    assert len(ada.set_aside) == 1 and "1030 AM" in ada.set_aside[0].shown
    assert sorted(ben.kept.files) == ["data.txt", "plaisante.ipynb"]
    assert found.skipped == []


def test_a_notebook_over_the_limit_in_a_zip_leaves_out_that_file_only(tmp_path):
    archive = packed(tmp_path, {"ada.ipynb": FULL, "ben.ipynb": "{" + " " * (101 << 20) + "}"})
    found = read_download(archive, None, tmp_path / "unpacked", assignments=ASSIGNMENTS)
    assert [s.student for s in found.submissions] == ["ada"]
    assert found.refused == [("ben", "ben.ipynb", "nothing of it could be read: ben.ipynb "
                                                  "(over 100 MiB)")]


def test_a_students_own_folder_is_not_a_class(tmp_path):
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(UNTOUCHED, folder / "plaisante.ipynb")
    shutil.copy(FULL, folder / "plaisante-Copy1.ipynb")
    with pytest.raises(ValueError, match=r"looks like one student's submission .* submit it "
                                         r"with --student ID"):
        read_download(folder, None, assignments=ASSIGNMENTS)


def test_names_become_student_ids():
    assert student_id("Zoë  O'Brien") == "zoe_o_brien"
    assert student_id("李") == ""


# ----------------------------------------------------------------------------- submitted, graded

@pytest.mark.nbgrader
def test_a_canvas_class_with_a_resubmission_is_collected_whole_and_graded(course_root, tmp_path):
    root = course_root
    archive = packed(tmp_path, {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.ipynb": UNTOUCHED,
        "leeben_102_9107_plaisante-1.ipynb": FULL,
        "wucy_LATE_103_9050_plaisante.ipynb": PARTIAL,
    })
    done = run("submit", str(archive), cwd=root)
    layout = CourseLayout(root)
    assert layout.submitted_students(ASSIGNMENT) == ["leeben", "smithada", "wucy"]
    set_aside = [line for line in done.stdout.splitlines() if "set aside" in line]
    assert len(set_aside) == 1 and set_aside[0].startswith("leeben: set aside an older "
                                                           "attempt (leeben_102_9002_")
    kept_aside = layout.replaced("leeben") / "file-9002" / "plaisante.ipynb"
    assert kept_aside.is_file()
    assert not (layout.submitted("smithada", ASSIGNMENT).parent / "timestamp.txt").exists()
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    reports = {s: json.loads(layout.report(ASSIGNMENT, s).read_text(encoding="utf-8"))
               for s in ("leeben", "smithada", "wucy")}
    assert {s: r["total"] for s, r in reports.items()} == {
        "leeben": 100, "smithada": 100, "wucy": PARTIAL_TOTAL}
    assert reports["leeben"]["status"] == "graded"
    assert reports["wucy"]["reasons"] == [
        "late: Canvas marked it LATE, and its download gives no submission time, so no late "
        "penalty was computed: check the time in the LMS"]

    # late in every output, with no time where the LMS gave none
    late = "late (Canvas marked it LATE, time not known)"
    scores = run("scores", ASSIGNMENT, cwd=root).stdout
    assert late in next(line for line in scores.splitlines() if line.startswith("wucy "))
    assert "late" not in next(line for line in scores.splitlines()
                              if line.startswith("smithada "))
    target = tmp_path / "grades.csv"
    run("export", ASSIGNMENT, "--to", str(target), cwd=root)
    with target.open(encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert (rows["wucy"]["late"], rows["wucy"]["seconds_late"]) == ("yes", "")
    assert (rows["smithada"]["late"], rows["smithada"]["seconds_late"]) == ("no", "0")
    run("report", ASSIGNMENT, cwd=root)
    page = (root / "assignments" / "reports" / ASSIGNMENT / "index.html").read_text("utf-8")
    assert "data-key='late'>late <b>1</b>" in page
    listed = re.search(r"<tr data-late='wucy'>(.*?)</tr>", page, re.S)
    assert listed and late in listed.group(1), page
    row = re.search(r"<tr data-student='wucy'[^>]*>(.*?)</tr>", page, re.S)
    assert row and late in row.group(1), page


@pytest.mark.nbgrader
def test_a_students_folder_with_a_data_file_is_submitted_and_graded(course_root, tmp_path):
    root = course_root
    folder = tmp_path / "ada"
    folder.mkdir()
    shutil.copy(UNTOUCHED, folder / "plaisante.ipynb")
    shutil.copy(FULL, folder / "plaisante-Copy1.ipynb")
    (folder / "data.txt").write_text("8\n")
    refused = run("submit", str(folder), cwd=root, check=False)
    assert refused.returncode != 0 and "submit it with --student ID" in refused.stderr
    assert CourseLayout(root).submitted_students(ASSIGNMENT) == []
    run("submit", str(folder), "--student", "ada", cwd=root)
    submitted = CourseLayout(root).submitted("ada", ASSIGNMENT).parent
    assert sorted(p.name for p in submitted.iterdir()) == [
        "data.txt", "plaisante-Copy1.ipynb", "plaisante.ipynb", "timestamp.txt"]
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    report = json.loads(CourseLayout(root).report(ASSIGNMENT, "ada").read_text("utf-8"))
    assert report["total"] == 100
    assert "plaisante-Copy1.ipynb (12), plaisante.ipynb (0)" in report["reasons"][0]


# ------------------------------------------------- what a student names a file never decides whose

@pytest.fixture(scope="module")
def released_course(tmp_path_factory) -> Path:
    root = new_course(tmp_path_factory.mktemp("released") / "course")
    run("release", ASSIGNMENT, cwd=root)
    return root


@pytest.fixture
def course_root(released_course: Path, tmp_path: Path) -> Path:
    root = tmp_path / "course"
    shutil.copytree(released_course, root)
    return root


def submitted_bytes(root: Path, student: str) -> bytes:
    return CourseLayout(root).submitted(student, ASSIGNMENT).read_bytes()


def submitted_files(root: Path, student: str) -> list[str]:
    return sorted(p.name for p in CourseLayout(root).submitted(student, ASSIGNMENT)
                  .parent.iterdir())


@pytest.mark.nbgrader
def test_a_blackboard_file_named_after_a_classmate_stays_its_uploaders(course_root, tmp_path):
    mallory = "Week 3_mallory_attempt_2026-12-01-10-00-00_"
    forged = "x_alice_attempt_2026-12-01-23-59-00_"
    members: dict[str, Path | str] = {
        "Week 3_alice_attempt_2026-12-01-09-00-00_plaisante.ipynb": FULL,
        "Week 3_alice_attempt_2026-12-01-09-00-00_data.txt": "8\n",
        mallory + "plaisante.ipynb": UNTOUCHED,
        mallory + forged + "plaisante.ipynb": PARTIAL,
        "Week 3_ada_smith_attempt_2026-12-01-08-00-00_plaisante.ipynb": FULL,
        "Week 3_bob_smith_attempt_2026-12-01-08-30-00_plaisante.ipynb": UNTOUCHED,
    }
    for n in range(51):  # would push alice's data.txt out of the 50 copied beside her work
        members[f"{mallory}x_alice_attempt_2000-01-01-00-00-00_f{n}.txt"] = ""
    done = run("submit", str(packed(tmp_path, members)), cwd=course_root, check=False)
    assert "read as a download of Blackboard" in done.stdout
    assert CourseLayout(course_root).submitted_students(ASSIGNMENT) == [
        "ada_smith", "alice", "bob_smith", "mallory"]
    assert submitted_bytes(course_root, "alice") == FULL.read_bytes()
    assert submitted_bytes(course_root, "ada_smith") == FULL.read_bytes()
    assert submitted_files(course_root, "alice") == ["data.txt", "plaisante.ipynb",
                                                     "timestamp.txt"]
    assert "set aside" not in done.stdout
    assert len(submitted_files(course_root, "mallory")) == 2 + 51 + 1


@pytest.mark.nbgrader
def test_a_blackboard_file_name_cannot_say_when_it_was_handed_in(course_root, tmp_path):
    late = "Week 3_mallory_attempt_2026-12-05-10-00-00_"
    archive = packed(tmp_path, {
        late + "x_mallory_attempt_2026-11-30-00-00-00_plaisante.ipynb": FULL,
        "Week 3_alice_attempt_2026-12-01-09-00-00_plaisante.ipynb": FULL})
    run("submit", str(archive), cwd=course_root)
    stamp = CourseLayout(course_root).submitted("mallory", ASSIGNMENT).parent / "timestamp.txt"
    assert stamp.read_text(encoding="utf-8") == "2026-12-05 10:00:00.000000 UTC\n"


@pytest.mark.nbgrader
def test_a_canvas_file_named_as_blackboard_names_is_read_as_canvas(course_root, tmp_path):
    archive = packed(tmp_path, {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.ipynb": FULL,
        "mallory_LATE_333_9003_x_smithada_attempt_2026-11-30-00-00-00_plaisante.ipynb": PARTIAL,
    })
    done = run("submit", str(archive), cwd=course_root)
    assert "read as a download of Canvas" in done.stdout
    layout = CourseLayout(course_root)
    assert layout.submitted_students(ASSIGNMENT) == ["leeben", "mallory", "smithada"]
    assert submitted_bytes(course_root, "smithada") == FULL.read_bytes()
    assert submitted_bytes(course_root, "mallory") == PARTIAL.read_bytes()
    assert submitted_files(course_root, "mallory") == ["lms-late.txt", "plaisante.ipynb"]


@pytest.mark.nbgrader
@pytest.mark.parametrize("lms", ["Moodle", "Brightspace"])
def test_a_download_of_folders_each_holding_the_assignments_notebook_is_a_class(
        course_root, tmp_path, lms):
    folders = {"Moodle": ["Ada Smith_501_assignsubmission_file_",
                          "Ben Lee_502_assignsubmission_file_"],
               "Brightspace": ["1-501 - Ada Smith - Dec 1, 2026 1030 AM",
                               "2-502 - Ben Lee - Dec 1, 2026 1045 AM"]}[lms]
    download = tmp_path / "download"
    for folder, notebook in zip(folders, (FULL, UNTOUCHED)):
        (download / folder).mkdir(parents=True)
        shutil.copy(notebook, download / folder / "plaisante.ipynb")
    done = run("submit", str(download), cwd=course_root)
    assert f"read as a download of {lms}" in done.stdout
    assert done.stdout.splitlines()[-1] == "2 submitted, 0 refused"
    assert submitted_bytes(course_root, "ada_smith") == FULL.read_bytes()
    assert submitted_bytes(course_root, "ben_lee") == UNTOUCHED.read_bytes()
    found = read_download(download, None, assignments=CourseLayout(course_root).assignments())
    assert [s.student for s in found.submissions] == ["ada_smith", "ben_lee"]


@pytest.mark.nbgrader
def test_moodle_flat_names_are_read_and_name_students_in_the_gradebook(course_root, tmp_path):
    from nbgrader.api import Gradebook

    layout = CourseLayout(course_root)
    with Gradebook(layout.gradebook_url) as gradebook:  # a roster: its names are kept
        gradebook.update_or_create_student("erin_stone", first_name="Erin",
                                           last_name="Stone-Ray")
        gradebook.update_or_create_student("zoe_o_brien")
    archive = packed(tmp_path, {
        "Liam Ng_601_assignsubmission_file_plaisante.ipynb": FULL,
        "Liam Ng_601_assignsubmission_file_data.txt": "8\n",
        "Erin Stone_602_assignsubmission_file_plaisante.ipynb": UNTOUCHED,
        "Zoë Ó Brien_603_assignsubmission_file_plaisante.ipynb": UNTOUCHED,
        "Ada Smith_501_assignsubmission_file_plaisante.ipynb": FULL,
        "Ada Smith_999_assignsubmission_file_plaisante.ipynb": PARTIAL})
    done = run("submit", str(archive), cwd=course_root)
    assert "read as a download of Moodle" in done.stdout
    assert layout.submitted_students(ASSIGNMENT) == [
        "ada_smith_501", "ada_smith_999", "erin_stone", "liam_ng", "zoe_o_brien"]
    assert submitted_files(course_root, "liam_ng") == ["data.txt", "plaisante.ipynb"]
    assert ("ada_smith: 2 people of this name in the download, submitted as ada_smith_501, "
            "ada_smith_999 (their LMS numbers): tell which is the roster's ada_smith and "
            "resubmit that one with --student ada_smith") in done.stdout.splitlines()
    assert "named 4 student(s) in the gradebook" in done.stdout
    with Gradebook(layout.gradebook_url) as gradebook:
        names = {s.id: (s.first_name, s.last_name) for s in gradebook.students}
    assert names == {"erin_stone": ("Erin", "Stone-Ray"), "liam_ng": ("Liam", "Ng"),
                     "ada_smith_501": ("Ada", "Smith"), "ada_smith_999": ("Ada", "Smith"),
                     "zoe_o_brien": ("Zoë Ó", "Brien")}


@pytest.mark.nbgrader
def test_a_refused_id_reaches_the_terminal_without_its_escapes(course_root, tmp_path):
    archive = packed(tmp_path, {
        "Week 3_mal\x1b[1A\x1b[2Kory\x07_attempt_2026-12-01-10-00-00_plaisante.ipynb": FULL,
        "Week 3_alice_attempt_2026-12-01-09-00-00_plaisante.ipynb": FULL})
    done = run("submit", str(archive), cwd=course_root, check=False)
    assert done.returncode == 1
    refused = [line for line in done.stdout.splitlines() if ": refused (" in line]
    assert len(refused) == 1 and refused[0].startswith("mal[1A[2Kory: refused (")
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert CourseLayout(course_root).submitted_students(ASSIGNMENT) == ["alice"]


@pytest.mark.nbgrader
def test_one_students_many_files_refuse_that_student_only(course_root, tmp_path):
    members: dict[str, Path | str] = {
        "Ada Smith_501_assignsubmission_file_/plaisante.ipynb": FULL,
        "Eve Kay_666_assignsubmission_file_/plaisante.ipynb": FULL}
    for n in range(1001):
        members[f"Eve Kay_666_assignsubmission_file_/f{n}.txt"] = ""
    done = run("submit", str(packed(tmp_path, members)), cwd=course_root, check=False)
    assert done.returncode == 1
    assert ("eve_kay: refused (Eve Kay_666_assignsubmission_file_/plaisante.ipynb): 1002 "
            "files, over the 1000 one student may hand in") in done.stdout.splitlines()
    assert CourseLayout(course_root).submitted_students(ASSIGNMENT) == ["ada_smith"]


@pytest.mark.nbgrader
def test_submit_tells_the_assignment_of_notebooks_as_grading_reads_them(course_root, tmp_path):
    """An nbformat 3 notebook (its cells under ``worksheets``) and one of 38 MB (a pasted
    image): ``submit`` finds their assignment among the course's, and grading agrees."""
    import nbformat

    batch = tmp_path / "batch"
    batch.mkdir()
    notebook = nbformat.read(FULL, as_version=4)
    nbformat.write(nbformat.convert(notebook, 3), batch / "ada.ipynb", version=3)
    notebook = nbformat.read(FULL, as_version=4)  # convert changed it in place
    assert "worksheets" in json.loads((batch / "ada.ipynb").read_text(encoding="utf-8"))
    image = nbformat.v4.new_output("display_data", data={"image/png": "A" * 38_000_000})
    code = next(cell for cell in notebook.cells if cell.cell_type == "code")
    code.outputs.append(image)
    nbformat.write(notebook, batch / "ben.ipynb")
    assert (batch / "ben.ipynb").stat().st_size > 38_000_000
    assert CourseLayout(course_root).assignments() == sorted(COURSE)
    done = run("submit", str(batch), cwd=course_root)
    assert done.stdout.splitlines()[-1] == "2 submitted, 0 refused"
    assert CourseLayout(course_root).submitted_students(ASSIGNMENT) == ["ada", "ben"]
    run("grade", ASSIGNMENT, "--workers", "1", cwd=course_root)
    totals = {s: json.loads(CourseLayout(course_root).report(ASSIGNMENT, s)
                            .read_text(encoding="utf-8"))["total"] for s in ("ada", "ben")}
    assert totals == {"ada": 100, "ben": 100}
