"""Every student an LMS download names ends as a submission or as a line naming them and what
to do: files that are not notebooks (Moodle's online text, a zip of the notebook, an HTML
export), a login nbgrader cannot take as an id (Blackboard's ``kim.lee``), a class download
zipped once more; and ``scores`` lists those with nothing graded."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout
from plaisante.intake.downloads import read_download
from plaisante.intake.submitted import id_refused

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
FULL = ROOT / "assignments" / "samples" / ASSIGNMENT / "full_marks.ipynb"


def packed(path: Path, members: dict[str, Path | str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as out:
        for name, content in members.items():
            if isinstance(content, Path):
                out.write(content, name)
            else:
                out.writestr(name, content)
    return path


def zipped_notebook(tmp_path: Path) -> bytes:
    return packed(tmp_path / "theirs.zip", {"plaisante.ipynb": FULL}).read_bytes()


def refused_lines(stdout: str) -> dict[str, str]:
    return {line.split(":", 1)[0]: line for line in stdout.splitlines() if ": refused (" in line}


@pytest.fixture(scope="module")
def released_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = new_course(tmp_path_factory.mktemp("released") / "course")
    run("release", ASSIGNMENT, cwd=root)
    return root


@pytest.fixture
def course_root(released_course: Path, tmp_path: Path) -> Path:
    root = tmp_path / "course"
    shutil.copytree(released_course, root)
    return root


def test_moodle_flat_online_text_zip_and_export_each_name_their_student(tmp_path: Path) -> None:
    archive = packed(tmp_path / "moodle.zip", {
        "Ada Smith_501_assignsubmission_file_plaisante.ipynb": FULL,
        "Ben Lee_502_assignsubmission_onlinetext_onlinetext.html": "<p>my code is in</p>",
        "Cy Wu_503_assignsubmission_file_plaisante.zip": zipped_notebook(tmp_path),
        "Di Ho_504_assignsubmission_file_plaisante.html": "<html>export</html>",
        "李雷_505_assignsubmission_file_plaisante.ipynb": FULL,
    })
    found = read_download(archive, None, tmp_path / "out")
    assert [s.student for s in found.submissions] == ["ada_smith"]
    refused = {student: (shown, why) for student, shown, why in found.refused}
    assert sorted(refused) == ["ben_lee", "cy_wu", "di_ho", "李雷"]
    assert refused["李雷"] == ("李雷_505_assignsubmission_file_plaisante.ipynb",
                              "the LMS's name gives no student id in ASCII letters or digits: "
                              "submit their notebook with --student ID, or give them an id in "
                              "the roster CSV with 505 in its lms_user_id column (plaisante "
                              "roster import) and submit the download again")
    assert found.users["李雷"] == "505" and found.users["ben_lee"] == "502"
    assert refused["ben_lee"] == (
        "Ben Lee_502_assignsubmission_onlinetext_onlinetext.html",  # whole: whose it is
        "Moodle online text only, no file handed in: ask them for the .ipynb and submit it "
        "with --student ben_lee")
    assert refused["cy_wu"][1] == ("handed in plaisante.zip, not a notebook: unzip it and "
                                   "submit it with --student cy_wu")
    assert refused["di_ho"][1].startswith("handed in plaisante.html, an export, not a notebook")
    assert found.skipped == []


def test_moodle_folders_with_online_text_only_name_the_student(tmp_path: Path) -> None:
    folder = tmp_path / "download"
    (folder / "Ada Smith_501_assignsubmission_file_").mkdir(parents=True)
    shutil.copy(FULL, folder / "Ada Smith_501_assignsubmission_file_" / "plaisante.ipynb")
    (folder / "Ben Lee_502_assignsubmission_onlinetext_").mkdir()
    (folder / "Ben Lee_502_assignsubmission_onlinetext_" / "onlinetext.html").write_text("hi")
    found = read_download(folder, None)
    assert [s.student for s in found.submissions] == ["ada_smith"]
    assert [(s, why.split(":")[0]) for s, _, why in found.refused] == [
        ("ben_lee", "Moodle online text only, no file handed in")]


def test_canvas_and_brightspace_non_notebooks_name_the_student(tmp_path: Path) -> None:
    canvas = read_download(packed(tmp_path / "canvas.zip", {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.zip": zipped_notebook(tmp_path),
    }), None, tmp_path / "c")
    assert [(s, why) for s, _, why in canvas.refused] == [
        ("leeben", "handed in plaisante.zip, not a notebook: unzip it and submit it with "
                   "--student leeben")]
    space = read_download(packed(tmp_path / "space.zip", {
        "1-77 - Ada Smith - Dec 1, 2026 1030 AM - plaisante.ipynb": FULL,
        "2-78 - Ben Lee - Dec 1, 2026 1031 AM - plaisante.html": "<html></html>",
        "index.html": "<html>the LMS's own</html>",
    }), None, tmp_path / "b")
    assert [s.student for s in space.submissions] == ["ada_smith"]
    assert [s for s, _, _ in space.refused] == ["ben_lee"]
    assert space.skipped == []


def test_a_class_download_zipped_once_more_is_opened_one_level(tmp_path: Path) -> None:
    inner = packed(tmp_path / "submissions.zip", {
        "smithada_101_9001_plaisante.ipynb": FULL, "leeben_102_9002_plaisante.ipynb": FULL})
    outer = packed(tmp_path / "outer.zip", {"submissions.zip": inner})
    found = read_download(outer, None, tmp_path / "o")
    assert [s.student for s in found.submissions] == ["leeben", "smithada"]
    thrice = packed(tmp_path / "thrice.zip", {"outer.zip": outer})
    with pytest.raises(ValueError, match="a zip inside a zip inside a zip: unzip"):
        read_download(thrice, None, tmp_path / "t")


def test_a_refused_id_says_how_to_map_it() -> None:
    said = id_refused("kim.lee")
    assert said.startswith("student id 'kim.lee': use ASCII letters, digits, '_' and '-' (not "
                           "first) only, as nbgrader's folders and patterns need; map it to "
                           "one: submit that notebook with --student kim_lee")
    assert "kim_lee as their id in the roster CSV" in said
    assert said.endswith("in that CSV with kim.lee, their user in the LMS, in its lms_user_id "
                         "column: downloads then file their work under that id")
    assert "with 1234, their user in the LMS," in id_refused("kim.lee", "1234")
    assert "--student ID" in id_refused("..")
    assert "--student eleve " in id_refused("élève")  # accents dropped, as names are


@pytest.mark.nbgrader
def test_blackboard_login_refused_then_mapped_with_student_and_listed_by_scores(
        course_root: Path, tmp_path: Path) -> None:
    title = "Week 3_"
    archive = packed(tmp_path / "bb.zip", {
        f"{title}ada_attempt_2026-12-01-09-00-00_plaisante.ipynb": FULL,
        f"{title}kim.lee_attempt_2026-12-01-09-30-00_plaisante.ipynb": FULL,
        f"{title}bo_attempt_2026-12-01-09-40-00_plaisante.html": "<html></html>",
    })
    done = run("submit", str(archive), cwd=course_root, check=False)
    assert done.returncode == 1
    refused = refused_lines(done.stdout)
    assert sorted(refused) == ["bo", "kim.lee"], done.stdout
    assert "--student kim_lee" in refused["kim.lee"]
    assert "an export, not a notebook" in refused["bo"]
    layout = CourseLayout(course_root)
    assert layout.submitted_students(ASSIGNMENT) == ["ada"]
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout
    assert "kim.lee: nothing graded: the download named them" in scores
    assert "bo: nothing graded: the download named them" in scores
    # the way out the line gives works: their notebook, submitted under the mapped id
    with zipfile.ZipFile(archive) as opened:
        notebook = tmp_path / "kim.ipynb"
        notebook.write_bytes(opened.read(f"{title}kim.lee_attempt_2026-12-01-09-30-00_"
                                         "plaisante.ipynb"))
    run("submit", str(notebook), "--student", "kim_lee", cwd=course_root)
    assert layout.submitted_students(ASSIGNMENT) == ["ada", "kim_lee"]
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    # kim_lee's submission answers the refused kim.lee: listed once, as waiting for grading
    assert [line for line in scores if "kim" in line] == ["kim_lee not graded yet"], scores
    assert any(line.startswith("bo: nothing graded: the download named them") for line in scores)
    # the same download again: kim.lee is refused again, and still answered by kim_lee
    again = run("submit", str(archive), cwd=course_root, check=False)
    assert sorted(refused_lines(again.stdout)) == ["ada", "bo", "kim.lee"], again.stdout
    saved = json.loads((layout.report(ASSIGNMENT, "-").parent / "not-submitted.json")
                       .read_text(encoding="utf-8"))
    assert saved == {"bo": {"line": refused["bo"], "lms_user": "bo"}}


#: per LMS: a download's members (path -> a notebook to copy, or text) and the ids of every
#: student it names, those handed in nothing gradable marked with the words their line says
DOWNLOADS: dict[str, tuple[dict[str, Path | str], dict[str, str]]] = {
    "Canvas": ({
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.html": "<html></html>",
        "wucy_LATE_103_9050_notes.txt": "my notes",
    }, {"smithada": "", "leeben": "an export, not a notebook",
        "wucy": "no notebook (.ipynb)"}),
    "Moodle folders": ({
        "Ada Smith_501_assignsubmission_file_/plaisante.ipynb": FULL,
        "Ben Lee_502_assignsubmission_onlinetext_/onlinetext.html": "<p>see my code</p>",
        "Cy Wu_503_assignsubmission_file_/plaisante.zip": "PK",
    }, {"ada_smith": "", "ben_lee": "Moodle online text only",
        "cy_wu": "unzip it and submit it with --student cy_wu"}),
    "Moodle flat": ({
        "Ada Smith_501_assignsubmission_file_plaisante.ipynb": FULL,
        "Ben Lee_502_assignsubmission_onlinetext_onlinetext.html": "<p>see my code</p>",
    }, {"ada_smith": "", "ben_lee": "Moodle online text only"}),
    "Blackboard": ({
        "Week 3_ada_attempt_2026-12-01-09-00-00_plaisante.ipynb": FULL,
        "Week 3_ben_attempt_2026-12-01-09-10-00_plaisante.zip": "PK",
        "Week 3_ben_attempt_2026-12-01-09-10-00.txt": "receipt",
    }, {"ada": "", "ben": "not a notebook: unzip it"}),
    "Brightspace": ({
        "1-77 - Ada Smith - Dec 1, 2026 1030 AM - plaisante.ipynb": FULL,
        "2-78 - Ben Lee - Dec 1, 2026 1031 AM - plaisante.pdf": "%PDF",
        "index.html": "<html>the LMS's own</html>",
    }, {"ada_smith": "", "ben_lee": "an export, not a notebook"}),
}


@pytest.mark.nbgrader
@pytest.mark.parametrize("lms", list(DOWNLOADS))
def test_every_student_a_download_names_is_in_submit_s_output_and_in_scores(
        lms: str, course_root: Path, tmp_path: Path) -> None:
    members, students = DOWNLOADS[lms]
    archive = packed(tmp_path / "download.zip", dict(members))
    done = run("submit", str(archive), cwd=course_root, check=False)
    assert done.returncode == 1  # some work was refused
    lines = done.stdout.splitlines()
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    for student, words in students.items():
        said = [line for line in lines if line.startswith(f"{student}: ")]
        listed = [line for line in scores if line.startswith(f"{student}")]
        assert len(said) == 1, (student, done.stdout)
        assert len(listed) == 1, (student, scores)
        if words:
            assert ": refused (" in said[0] and words in said[0], said[0]
            assert listed[0].startswith(f"{student}: nothing graded: the download named "
                                        "them") and words in listed[0], listed[0]
        else:
            assert listed[0] == f"{student} not graded yet", listed[0]
    assert not any(line.startswith("skipped") for line in lines), done.stdout


@pytest.mark.nbgrader
def test_scores_lists_roster_students_with_nothing_handed_in(course_root: Path) -> None:
    roster = course_root / "roster.csv"
    roster.write_text("id,first_name,last_name\nada,Ada,Smith\nzed,Zed,Jones\n")
    run("roster", "import", str(roster), cwd=course_root)
    shutil.copy(FULL, course_root / "ada.ipynb")
    run("submit", "ada.ipynb", "--student", "ada", cwd=course_root)
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout
    assert "zed: nothing graded: on the roster, no submission" in scores
    assert "ada: nothing graded" not in scores
    run("grade", ASSIGNMENT, "--workers", "1", cwd=course_root)
    run("report", ASSIGNMENT, cwd=course_root)
    page = (CourseLayout(course_root).report(ASSIGNMENT, "-").parent / "index.html") \
        .read_text(encoding="utf-8")
    assert ("<tr data-nothing='zed'><td>zed</td><td>on the roster, no submission</td></tr>"
            in page)
    assert "data-nothing='ada'" not in page



@pytest.mark.nbgrader
def test_a_student_only_in_the_gradebook_is_not_said_to_be_on_a_roster(
        course_root: Path) -> None:
    """No roster imported: a student nbgrader's student table holds (autograding, or nbgrader
    itself, added them) is "in the gradebook", not "on the roster"; once a roster is
    imported, its students are on it and the other one still only in the gradebook."""
    from plaisante.course import run_nbgrader

    run_nbgrader("db", "student", "add", "alice", "--log-level=WARN", root=course_root)
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout
    assert "alice: nothing graded: in the gradebook, no submission" in scores, scores
    assert "on the roster" not in scores
    shutil.copy(FULL, course_root / "ada.ipynb")
    run("submit", "ada.ipynb", "--student", "ada", cwd=course_root)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=course_root)
    run("report", ASSIGNMENT, cwd=course_root)
    page = (CourseLayout(course_root).report(ASSIGNMENT, "-").parent / "index.html") \
        .read_text(encoding="utf-8")
    assert "<tr data-nothing='alice'><td>alice</td><td>in the gradebook, no submission</td>" in page
    # the section's note names where such a student comes from, the gradebook among them
    assert "named by the LMS download or in the gradebook, with no submission graded" in page
    roster = course_root / "roster.csv"
    roster.write_text("id,first_name,last_name\nzed,Zed,Jones\n")
    run("roster", "import", str(roster), cwd=course_root)
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout
    assert "zed: nothing graded: on the roster, no submission" in scores, scores
    assert "alice: nothing graded: in the gradebook, no submission" in scores, scores

@pytest.mark.nbgrader
def test_a_long_name_from_a_download_is_kept_to_its_first_100_characters(
        course_root: Path) -> None:
    from nbgrader.api import Gradebook

    from plaisante.intake.submitted import MOST_NAME_CHARS, name_students

    long = "Ada " + "Lovelace" * 5000
    assert name_students({"ada": long, "bo": "Bo Li"}, course_root) == ["ada", "bo"]
    with Gradebook(CourseLayout(course_root).gradebook_url) as gradebook:
        ada, bo = gradebook.find_student("ada"), gradebook.find_student("bo")
        assert (ada.first_name + " " + ada.last_name) == long[:MOST_NAME_CHARS]
        assert (bo.first_name, bo.last_name) == ("Bo", "Li")


def test_a_canvas_login_nbgrader_cannot_take_is_read_and_the_roster_maps_its_user(
        tmp_path: Path) -> None:
    archive = packed(tmp_path / "canvas.zip", {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "kim.lee_1234_5678_plaisante.ipynb": FULL,
    })
    found = read_download(archive, None, tmp_path / "a")
    assert [(s.student, s.kept.who) for s in found.submissions] == [
        ("kim.lee", ("canvas", "1234")), ("smithada", ("canvas", "101"))]
    assert found.skipped == []
    mapped = read_download(archive, None, tmp_path / "b", users={"1234": "12345"})
    assert [(s.student, s.kept.roster_of) for s in mapped.submissions] == [
        ("12345", "1234"), ("smithada", "")]


@pytest.mark.nbgrader
def test_refused_students_are_kept_across_downloads_until_their_work_is_submitted(
        course_root: Path, tmp_path: Path) -> None:
    first = packed(tmp_path / "section1.zip", {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "leeben_102_9002_plaisante.html": "<html></html>",
    })
    second = packed(tmp_path / "section2.zip", {
        "wuzed_111_9101_plaisante.ipynb": FULL,
        "wucy_112_9102_plaisante.zip": "PK",
    })
    run("submit", str(first), cwd=course_root, check=False)
    run("submit", str(second), cwd=course_root, check=False)
    layout = CourseLayout(course_root)
    saved = layout.report(ASSIGNMENT, "-").parent / "not-submitted.json"
    assert sorted(json.loads(saved.read_text(encoding="utf-8"))) == ["leeben", "wucy"]
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    assert [line.split(":")[0] for line in scores if ": nothing graded: " in line] == [
        "leeben", "wucy"], scores
    # leeben hands in the notebook; it is graded; the first section is downloaded again
    shutil.copy(FULL, tmp_path / "ben.ipynb")
    run("submit", str(tmp_path / "ben.ipynb"), "--student", "leeben", cwd=course_root)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=course_root)
    again = run("submit", str(first), cwd=course_root, check=False)
    assert "leeben: refused (leeben_102_9002_plaisante.html)" in again.stdout
    assert json.loads(saved.read_text(encoding="utf-8")) == {"wucy": {
        "line": "wucy: refused (wucy_112_9102_plaisante.zip): handed in plaisante.zip, not a "
                "notebook: unzip it and submit it with --student wucy", "lms_user": "112"}}
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    assert [line.split(":")[0] for line in scores if ": nothing graded: " in line] == ["wucy"]
    assert not any(line.startswith("leeben ") and "not graded" in line for line in scores)
    assert "leeben     15   15   30   25   15            100" in scores, scores


@pytest.mark.nbgrader
def test_a_canvas_login_is_refused_saying_how_to_map_it_and_the_roster_s_lms_user_maps_it(
        course_root: Path, tmp_path: Path) -> None:
    archive = packed(tmp_path / "canvas.zip", {
        "smithada_101_9001_plaisante.ipynb": FULL,
        "kim.lee_1234_5678_plaisante.ipynb": FULL,
    })
    done = run("submit", str(archive), cwd=course_root, check=False)
    assert refused_lines(done.stdout) == {"kim.lee": (
        "kim.lee: refused (kim.lee_1234_5678_plaisante.ipynb): student id 'kim.lee': use ASCII "
        "letters, digits, '_' and '-' (not first) only, as nbgrader's folders and patterns "
        "need; map it to one: submit that notebook with --student kim_lee (unzip a download "
        "first) and write kim_lee as their id in the roster CSV (plaisante roster import); or "
        "give them any id (their SIS id, say) in that CSV with 1234, their user in the LMS, in "
        "its lms_user_id column: downloads then file their work under that id")}, done.stdout
    assert "skipped" not in done.stdout
    roster = tmp_path / "roster.csv"
    roster.write_text("id,first_name,last_name,lms_user_id\n12345,Kim,Lee,1234\n"
                      "smithada,Ada,Smith,\n")
    run("roster", "import", str(roster), cwd=course_root)
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    # the roster's 12345 is the refused kim.lee: one line for them, not two
    assert [line.split(":")[0] for line in scores if ": nothing graded" in line] == ["kim.lee"]
    again = run("submit", str(archive), cwd=course_root, check=False)
    assert (f"12345: {course_root}/assignments/submitted/12345/plaisante "
            "(kim.lee_1234_5678_plaisante.ipynb, the roster's id of LMS user 1234, Canvas "
            "gives no time: no timestamp.txt)") in again.stdout.splitlines(), again.stdout
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout.splitlines()
    assert not [line for line in scores if "kim" in line or "nothing graded" in line], scores
    assert "12345 not graded yet" in scores
    saved = CourseLayout(course_root).report(ASSIGNMENT, "-").parent / "not-submitted.json"
    assert json.loads(saved.read_text(encoding="utf-8")) == {}


@pytest.mark.nbgrader
def test_the_roster_s_lms_user_id_is_checked_and_kept_by_a_roster_without_it(
        course_root: Path, tmp_path: Path) -> None:
    from plaisante.results.roster import lms_users, read_roster

    twice = tmp_path / "twice.csv"
    twice.write_text("id,lms_user_id\nkim_lee,kim.lee\nkim_l,kim.lee\n")
    with pytest.raises(ValueError, match=r"twice.csv line 3: lms_user_id 'kim.lee' appears "
                                         "twice: one LMS user is one student"):
        read_roster(twice)
    roster = tmp_path / "roster.csv"
    roster.write_text("id;first_name;lms_user_id\nkim_lee;Kim;kim.lee\nada;Ada;\n")
    run("roster", "import", str(roster), cwd=course_root)
    assert lms_users(course_root) == {"kim.lee": "kim_lee"}
    names = tmp_path / "names.csv"
    names.write_text("id,first_name,last_name\nkim_lee,Kim,Lee\n")
    run("roster", "import", str(names), cwd=course_root)
    assert lms_users(course_root) == {"kim.lee": "kim_lee"}


@pytest.mark.nbgrader
def test_refusals_of_a_download_whose_assignment_cannot_be_told_say_how_to_keep_them(
        course_root: Path, tmp_path: Path) -> None:
    run("release", "deck", cwd=course_root)
    archive = packed(tmp_path / "canvas.zip", {"leeben_102_9002_plaisante.html": "<html/>"})
    done = run("submit", str(archive), cwd=course_root, check=False)
    assert done.stdout.splitlines()[-2] == (
        "the 1 refused student(s) above are not kept for scores and the class report: nothing "
        "was submitted to tell which of the course's assignments this download is; run it "
        "again with --assignment ID"), done.stdout
    run("submit", str(archive), "--assignment", ASSIGNMENT, cwd=course_root, check=False)
    scores = run("scores", ASSIGNMENT, cwd=course_root).stdout
    assert "leeben: nothing graded: the download named them, refused (" in scores
