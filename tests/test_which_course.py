"""Which course a command acts on is never a guess: ``--course``, PLAISANTE_COURSE or the course
the current folder is in. A folder that is not a course is said so in one line (``list`` once
printed nothing and exited 0), and a command run outside any course no longer falls back to
the kit's own clone (``release`` from an empty folder once rewrote the kit's starter/)."""

from __future__ import annotations

from pathlib import Path

from course_cli import KIT, cli, new_course

HINT = (f" (the kit's own course: --course {KIT}; a new course of your own: plaisante "
        "new-course FOLDER)")


def test_a_course_folder_that_is_no_course_is_said_in_one_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = cli("--course", str(empty), "list", cwd=tmp_path, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"plaisante: --course {empty}: not a course (no nbgrader_config.py "
                           f"there); give the course's folder{HINT}\n")
    named = cli("list", cwd=tmp_path, course=empty, check=False)
    assert (named.returncode, named.stderr) == (2, f"plaisante: PLAISANTE_COURSE {empty}: not "
                                                 "a course (no nbgrader_config.py there); give "
                                                 f"the course's folder{HINT}\n")


def test_a_real_course_with_no_assignments_yet_says_so(tmp_path):
    root = new_course(tmp_path / "course", folders=())
    done = cli("--course", str(root), "list", cwd=tmp_path)
    assert done.stdout == (f"{root}: a course with no assignments yet (none in solutions/: an "
                           "assignment is solutions/ID/ID.ipynb, an nbgrader source notebook)\n")


def test_outside_any_course_a_command_names_the_course_to_use_and_writes_nothing(tmp_path):
    starter = KIT / "starter" / "plaisante" / "plaisante.ipynb"
    before = starter.stat().st_mtime_ns
    outside = tmp_path / "new-class"
    outside.mkdir()
    for verb in (["release", "plaisante"], ["grade", "plaisante"], ["feedback"], ["list"]):
        done = cli(*verb, cwd=outside, check=False)
        assert (done.returncode, done.stdout) == (2, ""), verb
        assert done.stderr == (
            f"plaisante: {outside} is in no course (no nbgrader_config.py here or above) and "
            "neither --course nor PLAISANTE_COURSE names one; run plaisante from your course's "
            f"folder or give it with --course FOLDER{HINT}\n"), verb
    assert starter.stat().st_mtime_ns == before
    assert list(outside.iterdir()) == []


def test_the_course_is_found_from_a_folder_inside_it_or_named_from_anywhere(tmp_path):
    root = new_course(tmp_path / "course")
    inside = cli("list", cwd=root / "solutions" / "deck")
    named = cli("--course", str(KIT), "list", cwd=tmp_path)
    assert inside.stdout.split()[0] == "plaisante"
    assert [line.split()[0] for line in named.stdout.splitlines()][:2] == ["plaisante", "deck"]
    assert Path(root / "solutions").is_dir()


def test_course_may_follow_the_verb_as_the_hint_reads(tmp_path):
    """"give it with --course FOLDER" is typed after the verb as often as before it; argparse
    once refused that with "unrecognized arguments". nbgrader's own arguments (it has a
    --course of its own) still pass through."""
    root = new_course(tmp_path / "course")
    after = cli("list", "--course", str(root), cwd=tmp_path)
    assert after.stdout == cli("--course", str(root), "list", cwd=tmp_path).stdout
    assert after.stdout.split()[0] == "plaisante"
    empty = tmp_path / "empty"
    empty.mkdir()
    done = cli("grade", "plaisante", "--course", str(empty), cwd=tmp_path, check=False)
    assert (done.returncode, done.stderr) == (2, f"plaisante: --course {empty}: not a course "
                                                 f"(no nbgrader_config.py there); give the "
                                                 f"course's folder{HINT}\n")
    from plaisante.cli import build_parser

    for nested in (["lms", "status"], ["roster", "import", "class.csv"]):
        assert build_parser().parse_args([*nested, "--course", str(root)]).course == root
    passed = build_parser().parse_args(["--course", str(root), "nbgrader", "db", "student",
                                        "list", "--course", "other"])
    assert (passed.course, passed.args) == (root, ["db", "student", "list", "--course", "other"])
