"""``plaisante list`` says what students can have: an assignment generated in ``starter/`` is
not released until ``plaisante release`` puts it in nbgrader's exchange."""

from __future__ import annotations

from course_cli import cli as run
from course_cli import new_course

from plaisante.games import COURSE


def states(listing: str) -> dict[str, str]:
    return {line.split()[0]: line for line in listing.splitlines()}


def test_a_fresh_clone_lists_starters_as_not_released_until_release(tmp_path):
    root = new_course(tmp_path / "course", ("solutions", "starter"))
    before = states(run("list", cwd=root).stdout)
    assert sorted(before) == sorted(COURSE)
    for assignment in COURSE:
        assert "in starter/, not released (plaisante release)" in before[assignment]
        assert "0 submission(s)" in before[assignment]

    run("release", "deck", cwd=root)
    after = states(run("list", cwd=root).stdout)
    assert "released (students can fetch it)" in after["deck"]
    for assignment in set(COURSE) - {"deck"}:
        assert "not released" in after[assignment], after[assignment]


def test_an_assignment_without_its_starter_is_not_generated(tmp_path):
    root = new_course(tmp_path / "course")
    listing = states(run("list", cwd=root).stdout)
    assert all("not generated (plaisante release)" in listing[a] for a in COURSE)


def test_a_reader_that_stops_reading_ends_the_listing_without_a_traceback(tmp_path):
    """`plaisante list | head -1`: the reader goes away before the table is written; the
    command ends with status 1 and says nothing on stderr (Python's default is a traceback)."""
    import subprocess
    import sys

    root = new_course(tmp_path / "course")
    child = subprocess.Popen([sys.executable, "-m", "plaisante.cli", "list"], cwd=root,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # before the child has imported anything: its first write fails
    said = child.stderr.read().decode()
    assert child.wait(timeout=120) == 1, said
    assert said == ""
