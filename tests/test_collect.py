"""``plaisante submit FOLDER_OR_ZIP``: notebooks mapped to student ids by a pattern (collect)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from plaisante.intake.downloads import DEFAULT_PATTERN, read_download

LMS = r"(?P<student_id>[a-z]+)_attempt_[0-9-]+_.*\.ipynb"


def notebooks(folder: Path, *names: str) -> Path:
    for name in names:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"cells": []}', encoding="utf-8")
    return folder


def test_a_folder_maps_each_file_name_to_its_student(tmp_path: Path) -> None:
    folder = notebooks(tmp_path / "in", "alice.ipynb", "sub/bob.ipynb", "notes.txt")
    found = read_download(folder, DEFAULT_PATTERN)
    assert [(student, path.name) for student, path in found.found] == [
        ("alice", "alice.ipynb"), ("bob", "bob.ipynb")]
    assert found.skipped == ["notes.txt"]


def test_a_zip_as_an_lms_names_it_is_unpacked_under_names_of_its_own(tmp_path: Path) -> None:
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("Week 3/alice_attempt_2026-11-30_plaisante.ipynb", '{"cells": []}')
        out.writestr("../../evil/bob_attempt_2026-11-30_plaisante.ipynb", '{"cells": []}')
        out.writestr("__MACOSX/._alice_attempt_2026-11-30_plaisante.ipynb", "junk")
    found = read_download(archive, LMS, tmp_path / "unpacked")
    assert [student for student, _ in found.found] == ["alice", "bob"]
    for _, path in found.found:  # a member's own path is never used
        assert path.parent.parent == tmp_path / "unpacked"
    assert not (tmp_path.parent / "evil").exists()


@pytest.mark.parametrize("pattern, says", [
    ("(", "not a regular expression"),
    (r".*\.ipynb", "no (?P<student_id>...) group"),
])
def test_a_bad_pattern_is_refused_in_one_line(tmp_path: Path, pattern: str, says: str) -> None:
    folder = notebooks(tmp_path, "alice.ipynb")
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")
                       .replace("?", r"\?").replace(".", r"\.")):
        read_download(folder, pattern)


def test_two_notebooks_of_one_student_are_one_submission_and_nobody_refuses(tmp_path: Path
                                                                           ) -> None:
    folder = notebooks(tmp_path / "two", "alice_attempt_1_a.ipynb", "alice_attempt_2_b.ipynb")
    found = read_download(folder, LMS)
    assert [s.student for s in found.submissions] == ["alice"]
    assert found.submissions[0].kept.notebooks == ["alice_attempt_1_a.ipynb",
                                                   "alice_attempt_2_b.ipynb"]
    with pytest.raises(ValueError, match="no notebook .* matches"):
        read_download(notebooks(tmp_path / "none", "readme.md"), LMS)
    with pytest.raises(FileNotFoundError):
        read_download(tmp_path / "missing", LMS)


def test_blackboard_names_are_read_only_in_the_downloads_own_folder(tmp_path: Path) -> None:
    """The title is what all the LMS's heads share (``ada_smith``, ``ada_jones``, ``bob`` stay
    whole), and a file in a folder of its own (a ``/`` in a crafted member name) is no LMS
    name: it changes neither the title nor anyone's id."""
    from plaisante.intake.downloads import blackboard_title

    names = ["Week 3_ada_smith_attempt_2026-12-01-10-00-00_p.ipynb",
             "Week 3_ada_jones_attempt_2026-12-01-10-00-00_p.ipynb",
             "Week 3_bob_attempt_2026-12-01-10-00-00_p.ipynb"]
    assert blackboard_title(names) == "Week 3"
    archive = tmp_path / "bb.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for name in names:
            out.writestr(name, '{"cells": []}')
        for n in range(5):
            out.writestr(f"Week 3_bob_attempt_2026-12-01-10-00-00_http:/x/evil_u{n}_attempt_"
                         "2026-12-01-10-00-00_p.ipynb", '{"cells": []}')
    found = read_download(archive, None, tmp_path / "unpacked")
    assert found.layout == "Blackboard"
    assert [s.student for s in found.submissions] == ["ada_jones", "ada_smith", "bob"]
    assert len(found.skipped) == 5
