"""``release`` and ``regrade`` say nothing an instructor cannot act on: a first release of a
fresh clone (whose ``starter/`` is already there) is not "replacing the earlier release" (that
is said once the exchange holds it, when students may have fetched the earlier one), and
``regrade`` does not pass on nbgrader's "Removing existing assignment", which it always is."""

from __future__ import annotations

from pathlib import Path

import pytest
from course_cli import KIT, cli, new_course

pytestmark = pytest.mark.nbgrader

SAMPLES = KIT / "assignments" / "samples" / "plaisante"


def test_a_first_release_and_a_regrade_print_no_warning(tmp_path: Path) -> None:
    root = new_course(tmp_path / "course", ("solutions", "starter"))  # as a fresh clone
    first = cli("release", "plaisante", cwd=root)
    assert first.stdout == ("plaisante release: plaisante -> starter/plaisante/plaisante.ipynb "
                            "(24 test cells, 100 points)\n"
                            "plaisante release: students can fetch plaisante now (the exchange: "
                            f"{root / 'assignments' / 'exchange'})\n")
    assert first.stderr == ""
    again = cli("release", "plaisante", cwd=root)
    assert again.stdout.splitlines()[0].endswith(", replacing the earlier release")
    assert again.stderr == ""

    cli("submit", str(SAMPLES / "full_marks.ipynb"), "--student", "ada", cwd=root)
    cli("grade", "plaisante", "--workers", "1", cwd=root)
    regraded = cli("regrade", "plaisante", "--workers", "1", cwd=root)
    assert "Removing existing assignment" not in regraded.stdout + regraded.stderr
    assert "WARNING" not in regraded.stderr and "Warning" not in regraded.stderr, regraded.stderr
    assert "plaisante regrade: no score of 'plaisante' changed" in regraded.stdout


def test_a_first_release_makes_the_gradebooks_folder(tmp_path: Path) -> None:
    """A course folder holding only solutions/ and nbgrader_config.py (no assignments/, where
    the gradebook lives): the first release makes the folder, where nbgrader failed with
    "unable to open database file … run nbgrader db upgrade"."""
    root = new_course(tmp_path / "course", ("solutions",))
    (root / "assignments").rmdir()
    done = cli("release", "plaisante", cwd=root)
    assert done.stdout.startswith("plaisante release: plaisante -> starter/plaisante/")
    assert (root / "assignments" / "gradebook.db").is_file()
