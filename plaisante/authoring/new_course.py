"""``plaisante new-course FOLDER``: a course of one's own, made from the kit's, as nbgrader's
``nbgrader quickstart COURSE`` makes one from its example (a folder with a config and the
source notebooks; the course id is the folder's name unless another is given; a folder that
already holds anything is refused, never written over).

The new course holds:

* ``nbgrader_config.py``: the kit's own, its ``c.CourseDirectory.course_id`` the new course's
  id. Its folders are found from where the file is, so everything of the course is under the
  new folder: sources in ``solutions/``, the release in ``starter/``, student work, the
  gradebook (``assignments/gradebook.db``) and nbgrader's exchange (``assignments/exchange``)
  in ``assignments/``. It imports the ``plaisante`` package (the folders, Validate's message,
  the feedback page), so the Python that runs the course must have the kit installed.
* ``solutions/ID/``: the kit's source notebook of each assignment chosen (every one by default).
* ``assignments/``, empty: where the gradebook goes, so nbgrader (the formgrader) can open it
  from the start.

Nothing else: ``plaisante release`` then makes ``starter/`` and puts each assignment in the
exchange (until then nbgrader's formgrader lists them as "draft").
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..course import STUDENT_ID, CourseLayout, kit_course

#: the course id line of the kit's nbgrader_config.py, the one line the new course's changes
COURSE_ID_LINE = re.compile(r"^c\.CourseDirectory\.course_id = .*$", re.M)


@dataclass(frozen=True)
class NewCourse:
    """What ``make_course`` made: the course's root, its course id and its assignments' ids
    (in the kit's teaching order)."""

    root: Path
    course_id: str
    assignments: tuple[str, ...]


def kit() -> CourseLayout:
    """Return the layout of the kit's own course, the one a new course is made from. Raises
    FileNotFoundError, in one line, when this ``plaisante`` is an installed package with no
    kit clone beside it (no ``nbgrader_config.py`` and ``solutions/`` to start from)."""
    root = kit_course()
    if root is None:
        raise FileNotFoundError(
            "new-course starts from the kit's own course (its nbgrader_config.py and "
            "solutions/), which is not beside this installed plaisante: run it from the kit's "
            "clone (its .venv/bin/plaisante new-course FOLDER)")
    return CourseLayout(root)


def make_course(folder: Path, assignments: Sequence[str] = (),
                course_id: str | None = None) -> NewCourse:
    """Make a new course at ``folder`` (made, with any missing parent, or an empty folder):
    the kit's ``nbgrader_config.py`` with the course id ``course_id`` (default: the folder's
    name), the kit's ``solutions/ID/`` of each of ``assignments`` (default: every one) and an
    empty ``assignments/``.
    Raises ValueError, in one line, for an id the kit has no assignment of, a course id
    nbgrader's paths cannot take (letters, digits, ``_`` and ``-``) or a folder inside the
    kit's ``solutions/``; FileExistsError for a
    folder that exists and holds anything, or a file; FileNotFoundError when there is no kit
    clone to start from (``kit``); RuntimeError, in one line with the system's reason, when
    writing fails (a full or read-only disk, a file where a folder goes). Nothing is written
    before every check passes, and what it wrote, with any parent folder it made, is taken
    away again if writing fails half-way."""
    from ..commands import known_assignments

    source = kit()
    root = Path(folder).expanduser().resolve()
    given = "the folder's name" if course_id is None else "--course-id"
    course_id = root.name if course_id is None else course_id
    if not STUDENT_ID.fullmatch(course_id):
        raise ValueError(f"course id {course_id!r} ({given}): use letters, digits, '_' and '-' "
                         "only (nbgrader puts it in the exchange's paths); give another with "
                         "--course-id ID")
    offered = known_assignments(source)
    for assignment in assignments:
        if assignment not in offered:
            raise ValueError(f"unknown assignment {assignment!r}; the kit has: "
                             f"{', '.join(offered)}")
    chosen = tuple(a for a in offered if a in assignments) if assignments else tuple(offered)
    if root.is_relative_to(source.source_root):  # a copy into what it copies never ends
        raise ValueError(f"{root} is inside the kit's {source.source_root}, which new-course "
                         "copies: name a folder outside it")
    if root.exists() and not root.is_dir():
        raise FileExistsError(f"{root} is a file: name a new folder for the course")
    if root.is_dir() and any(root.iterdir()):
        raise FileExistsError(f"{root} already exists and is not empty: new-course never writes "
                              "over anything; name a new folder (or an empty one)")
    config = (source.root / "nbgrader_config.py").read_text(encoding="utf-8")
    if len(COURSE_ID_LINE.findall(config)) != 1:
        raise RuntimeError(f"{source.root / 'nbgrader_config.py'} has no one "
                           "c.CourseDirectory.course_id line for the new course to set")
    made = [folder for folder in (root, *root.parents) if not folder.exists()]
    try:
        root.mkdir(parents=True, exist_ok=True)
        (root / "nbgrader_config.py").write_text(COURSE_ID_LINE.sub(
            lambda _: f'c.CourseDirectory.course_id = "{course_id}"', config), encoding="utf-8")
        (root / "assignments").mkdir()
        for assignment in chosen:
            shutil.copytree(source.source_root / assignment,
                            root / source.source_root.relative_to(source.root) / assignment,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    except BaseException as error:
        take_away(root, made)
        if isinstance(error, OSError):  # a full disk, a read-only one, a file on the way
            raise RuntimeError(f"new-course could not write the course in {root} "
                               f"({why(error)}); nothing of it is left") from error
        raise
    return NewCourse(root, course_id, chosen)


def take_away(root: Path, made: Sequence[Path]) -> None:
    """Remove what ``make_course`` wrote in ``root`` (an empty folder when it began) and the
    folders of ``made`` (``root`` and its parents it made, deepest first) that are empty."""
    if root.is_dir():
        for entry in root.iterdir():  # the folder was empty: all of it is what this wrote
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            break


def why(error: OSError) -> str:
    """Return the reason an OSError gives, in a few words ("No space left on device"); for
    shutil.copytree's Error, which gathers one per file, the first file's."""
    if isinstance(error, shutil.Error) and error.args and error.args[0]:
        said = str(error.args[0][0][-1])  # "[Errno 28] No space left on device: 'a' -> 'b'"
        return re.sub(r"^\[Errno \d+\] ", "", said).split(":", 1)[0]
    return error.strerror or str(error)
