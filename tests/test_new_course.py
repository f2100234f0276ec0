"""``plaisante new-course``: a course of one's own from the kit's, in one command (a newcomer
once copied nbgrader_config.py and solutions/ by hand, learned from an error's hint). The
course it makes is one every other command takes: released, then listed, from its folder; a
folder holding anything is refused, and bad input is said in one line, with nothing written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from course_cli import KIT, cli

from plaisante.course import CourseLayout, nbgrader_env

FIVE = ["plaisante", "deck", "video_poker", "holdem", "tricks"]

#: what nbgrader's formgrader lists of each assignment (its API, the course's config read from
#: the course's folder, as the formgrader started there reads it)
FORMGRADER = """
import json
from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from traitlets.config.loader import PyFileConfigLoader
config = PyFileConfigLoader("nbgrader_config.py", path=".").load_config()
api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
print(json.dumps({a["name"]: a["status"] for a in api.get_assignments()}))
"""


def formgrader_statuses(root: Path) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", FORMGRADER], cwd=root, env=nbgrader_env(),
                          text=True, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.nbgrader
def test_a_new_course_is_made_released_and_listed_from_its_own_folder(tmp_path: Path) -> None:
    kit_starter = KIT / "starter" / "deck" / "deck.ipynb"
    before = kit_starter.stat().st_mtime_ns
    made = cli("new-course", "fall-class", "tricks", "deck", cwd=tmp_path)
    root = tmp_path / "fall-class"
    assert made.stdout.splitlines() == [
        f"plaisante new-course: made {root} (course id fall-class): nbgrader_config.py, "
        "assignments/, and solutions/ with deck, tricks",
        "Next: cd fall-class && plaisante release    # starter/ and the exchange: until then the "
        "formgrader lists them as draft"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "assignments", "nbgrader_config.py", "solutions", "solutions/deck",
        "solutions/deck/deck.ipynb", "solutions/tricks", "solutions/tricks/tricks.ipynb"]
    assert (root / "solutions/deck/deck.ipynb").read_bytes() == \
        (KIT / "solutions/deck/deck.ipynb").read_bytes()
    # the kit's config, but for its course id; every folder of it under the new course
    kit_config = (KIT / "nbgrader_config.py").read_text(encoding="utf-8").splitlines()
    config = (root / "nbgrader_config.py").read_text(encoding="utf-8").splitlines()
    assert [(a, b) for a, b in zip(kit_config, config) if a != b] == [
        ('c.CourseDirectory.course_id = "plaisante-kit"',
         'c.CourseDirectory.course_id = "fall-class"')]
    layout = CourseLayout(root)
    assert (layout.course_id, layout.gradebook_file) == ("fall-class",
                                                         root / "assignments" / "gradebook.db")
    assert layout.source_root == root / "solutions" and layout.release_root == root / "starter"

    unlisted = cli("list", cwd=root)
    assert [" ".join(line.split()) for line in unlisted.stdout.splitlines()] == [
        "deck Deck and deal not generated (plaisante release) 0 submission(s)",
        "tricks Tricks: follow suit not generated (plaisante release) 0 submission(s)"]
    assert formgrader_statuses(root) == {"deck": "draft", "tricks": "draft"}
    released = cli("release", "deck", cwd=root)
    assert "plaisante release: deck -> starter/deck/deck.ipynb (" in released.stdout
    assert (root / "starter" / "deck" / "deck.ipynb").is_file()
    assert (root / "assignments" / "exchange" / "fall-class" / "outbound" / "deck").is_dir()
    assert layout.gradebook_file is not None and layout.gradebook_file.is_file()
    listed = cli("list", cwd=root / "solutions")  # from a folder inside it too
    assert [" ".join(line.split()) for line in listed.stdout.splitlines()] == [
        "deck Deck and deal released (students can fetch it) 0 submission(s)",
        "tricks Tricks: follow suit not generated (plaisante release) 0 submission(s)"]
    assert formgrader_statuses(root) == {"deck": "released", "tricks": "draft"}
    assert kit_starter.stat().st_mtime_ns == before  # the kit's own course untouched


def test_every_assignment_by_default_into_an_empty_folder_and_another_course_id(
        tmp_path: Path) -> None:
    root = tmp_path / "my class"
    root.mkdir()
    made = cli("new-course", "my class", "--course-id", "cs101", cwd=tmp_path)
    assert made.stdout.startswith(f"plaisante new-course: made {root} (course id cs101): "
                                  "nbgrader_config.py, assignments/, and solutions/ with "
                                  "plaisante, deck, video_poker, holdem, tricks\n")
    assert sorted(p.name for p in (root / "solutions").iterdir()) == sorted(FIVE)
    assert CourseLayout(root).course_id == "cs101"
    listed = cli("--course", str(root), "list", cwd=tmp_path)
    assert [line.split()[0] for line in listed.stdout.splitlines()] == FIVE
    assert all("not generated (plaisante release)" in line
               for line in listed.stdout.splitlines())


@pytest.mark.parametrize(("args", "said"), [
    (["new-course", "taken"], "plaisante: {tmp}/taken already exists and is not empty: "
     "new-course never writes over anything; name a new folder (or an empty one)"),
    (["new-course", "a-file"], "plaisante: {tmp}/a-file is a file: name a new folder for the "
     "course"),
    (["new-course", "new", "poker"], "plaisante: unknown assignment 'poker'; the kit has: "
     "plaisante, deck, video_poker, holdem, tricks"),
    (["new-course", "fall 2026"], "plaisante: course id 'fall 2026' (the folder's name): use "
     "letters, digits, '_' and '-' only (nbgrader puts it in the exchange's paths); give "
     "another with --course-id ID"),
    (["new-course", "new", "--course-id", "cs.101"], "plaisante: course id 'cs.101' "
     "(--course-id): use letters, digits, '_' and '-' only (nbgrader puts it in the exchange's "
     "paths); give another with --course-id ID"),
    (["new-course", "new", "--course", "taken"], "plaisante: new-course makes the course FOLDER "
     "names; --course names one that exists already: leave it out (plaisante new-course "
     "FOLDER)"),
])
def test_bad_input_is_one_line_and_nothing_is_written_or_overwritten(
        tmp_path: Path, args: list[str], said: str) -> None:
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "nbgrader_config.py").write_text("# mine\n", encoding="utf-8")
    (tmp_path / "a-file").write_text("notes\n", encoding="utf-8")
    before = sorted((p.relative_to(tmp_path).as_posix(), p.is_file() and p.read_bytes())
                    for p in tmp_path.rglob("*"))
    done = cli(*args, cwd=tmp_path, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", said.format(tmp=tmp_path) + "\n")
    assert sorted((p.relative_to(tmp_path).as_posix(), p.is_file() and p.read_bytes())
                  for p in tmp_path.rglob("*")) == before


def test_the_help_and_the_no_course_hint_name_the_command(tmp_path: Path) -> None:
    helped = cli("--help", cwd=tmp_path).stdout
    assert "plaisante new-course FOLDER [ID …]" in helped
    assert "new-course          make a new course folder from the kit's course" in helped
    outside = cli("list", cwd=tmp_path, check=False)
    assert outside.returncode == 2
    assert outside.stderr.endswith(f"(the kit's own course: --course {KIT}; a new course of "
                                   "your own: plaisante new-course FOLDER)\n")
    assert "copy" not in outside.stderr


@pytest.mark.parametrize("where", ["a-file/course", "too-long"])
def test_a_write_that_fails_is_one_line_and_takes_away_the_folders_it_made(
        tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file").write_text("notes\n", encoding="utf-8")
    if where == "too-long":  # as root nothing is read-only; a path past PATH_MAX fails half-way
        depth = (4070 - len(str(tmp_path))) // 250
        parts = ["d" * 249] * depth + ["c" * (4070 - len(str(tmp_path)) - 250 * depth - 1)]
        where = "/".join(parts)
        assert len(str(tmp_path / where)) == 4070  # its config fits; solutions/…ipynb do not
    done = cli("new-course", where, cwd=tmp_path, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"plaisante: new-course could not write the course in "
                                  f"{tmp_path / where} (")
    assert done.stderr.endswith("); nothing of it is left\n") and done.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_folder_inside_the_kits_sources_is_refused_before_anything_is_copied() -> None:
    # copying solutions/deck/ into solutions/deck/x/solutions/deck/ copied its own copy on
    # and on, until Python's recursion limit ("maximum recursion depth exceeded")
    folder = KIT / "solutions" / "deck" / "mine"
    done = cli("new-course", str(folder), cwd=KIT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"plaisante: {folder} is inside the kit's {KIT / 'solutions'}, which new-course "
        "copies: name a folder outside it\n")
    assert not folder.exists()
