"""The grading user of tests/grader_user.py: as root the kit runs as an ordinary user, with its
own Python and a readable copy of the kit; as an ordinary user it runs as that user."""

from __future__ import annotations

import os
import pwd

from grader_user import grader_name, prepare_course, run_as_grader, run_python_as_grader


def test_plaisante_runs_as_the_grading_user(tmp_path):
    done = run_as_grader(["--help"], cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: plaisante" in done.stdout
    assert "grade" in done.stdout


def test_the_grading_user_is_not_root_when_the_suite_is(tmp_path):
    done = run_python_as_grader("import os, plaisante; print(os.geteuid(), os.getegid()); "
                                "print(plaisante.__file__)", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    ids, package = done.stdout.splitlines()
    uid, gid = map(int, ids.split())
    user = pwd.getpwnam(grader_name())
    assert (uid, gid) == (user.pw_uid, user.pw_gid)
    if os.geteuid() == 0:
        assert uid != 0 and gid != 0
        assert "/plaisante-grader-" in package  # the session's readable copy of the kit


def test_a_prepared_course_is_the_grading_users_to_write(tmp_path):
    course = tmp_path / "course"
    (course / "assignments").mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    prepare_course(course)
    done = run_python_as_grader(
        "from pathlib import Path; Path('assignments/written').write_text('yes'); "
        "print(Path('nbgrader_config.py').read_text())", cwd=course, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "get_config" in done.stdout
    assert (course / "assignments" / "written").read_text() == "yes"
