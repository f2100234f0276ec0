"""A student's work into the course: ``assignments/submitted/<student>/<ID>/``, as nbgrader's
exchange would put it (``submit``, ``submit_files``, with ``timestamp.txt``), an earlier
submission kept aside in ``assignments/replaced/`` (``set_aside``), and the names an LMS download
gives written into nbgrader's gradebook (``name_students``). A student id the kit cannot use is
refused in one line that says how to map it (``id_refused``).
"""

from __future__ import annotations

import datetime
import re
import shutil
import time
from pathlib import Path

from ..course import STUDENT_ID, CourseLayout, mapped_id

#: nbgrader's timestamp.txt format (UTC), as its exchange writes it
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"


def id_refused(student: str, lms_user: str | None = None) -> str:
    """Return why ``student`` cannot be a student id and how to map it, in one line: the id
    ``STUDENT_ID`` allows that it maps to most plainly (``mapped_id``: ``kim.lee`` ->
    ``kim_lee``), to give with ``--student`` and in the roster; or any id, with the LMS's
    user (``lms_user``: the download's own, default ``student``) in the roster CSV's
    ``lms_user_id`` column, so that downloads file that user's work under it.

    >>> id_refused("kim.lee")[:60]
    "student id 'kim.lee': use ASCII letters, digits, '_' and '-'"
    >>> "--student eleve " in id_refused("élève")
    True
    """
    mapped = mapped_id(student)
    how = (f"map it to one: submit that notebook with --student {mapped} (unzip a download "
           f"first) and write {mapped} as their id in the roster CSV (plaisante roster "
           "import)") if mapped else \
        ("map it to one: submit that notebook with --student ID and that ID in the roster "
         "CSV (plaisante roster import)")
    user = lms_user or student
    return (f"student id {student!r}: use ASCII letters, digits, '_' and '-' (not first) "
            f"only, as nbgrader's folders and patterns need; {how}; or give them any id (their "
            f"SIS id, say) in that CSV with {user}, their user in the LMS, in its lms_user_id "
            "column: downloads then file their work under that id")


def submit(notebook: Path, student: str, root: Path | None = None, *,
           replace: bool = False, assignment: str) -> Path:
    """Copy a student's notebook into the submitted folder, as nbgrader's exchange would.

    ``student`` may hold ASCII letters, digits, '_' and '-', not first (nbgrader puts ids into
    regexes, and a leading '-' reads as an option). An earlier submission is kept: without
    ``replace`` it raises FileExistsError; with it, the earlier notebook moves to
    ``assignments/replaced/<student>/<UTC time>.ipynb``. Writes ``timestamp.txt`` beside it
    (now, UTC, nbgrader's format), so late work shows. Returns the new path. Raises
    ValueError for a bad id, FileNotFoundError for no notebook.
    """
    if not Path(notebook).is_file():
        raise FileNotFoundError(f"no notebook at {notebook}")
    return submit_files({f"{assignment}.ipynb": Path(notebook)}, student, root,
                        replace=replace, assignment=assignment)


def submit_files(files: dict[str, Path], student: str, root: Path | None = None, *,
                 replace: bool = False, assignment: str,
                 timestamp: datetime.datetime | None | bool = True) -> Path:
    """Copy a student's submission, ``files`` (name in the submission folder -> file: the
    notebooks and the data files beside them), into the submitted folder; see ``submit``.
    With ``replace``, the earlier notebook moves to ``replaced/<student>/<UTC time>.ipynb``
    and the earlier folder's other files to ``replaced/<student>/<UTC time>/``.
    ``timestamp``: True writes now, a datetime (aware) writes that time, None writes none
    (the time the student handed it in is not known). Returns the submitted folder's
    ``{assignment}.ipynb`` path (which may not exist when no notebook has that name)."""
    if not STUDENT_ID.fullmatch(student or ""):
        raise ValueError(id_refused(student))
    layout = CourseLayout.of(root)
    target = layout.submitted(student, assignment)
    folder = target.parent
    if folder.is_dir() and any(folder.iterdir()):
        if not replace:
            raise FileExistsError(f"{student} already has a submission at {target}; pass "
                                  "--replace to submit again (the earlier one is kept aside)")
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        kept = layout.replaced(student) / f"{stamp}.ipynb"
        kept.parent.mkdir(parents=True, exist_ok=True)
        if target.is_file():
            shutil.move(target, kept)
        for other in sorted(folder.iterdir()):
            if other.name != "timestamp.txt":
                (kept.parent / stamp).mkdir(exist_ok=True)
                shutil.move(other, kept.parent / stamp / other.name)
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        shutil.copyfile(path, folder / name)
    when = (datetime.datetime.now(datetime.timezone.utc) if timestamp is True
            else timestamp or None)
    if isinstance(when, datetime.datetime):
        (folder / "timestamp.txt").write_text(
            when.astimezone(datetime.timezone.utc).strftime(TIMESTAMP_FORMAT) + "\n",
            encoding="utf-8")
    return target


def set_aside(files: dict[str, Path], student: str, label: str,
              root: Path | None = None) -> Path:
    """Keep an attempt that is not graded (an older one of an LMS download), ``files`` (name
    -> file), in ``replaced/<student>/<label>/``, as ``replace`` keeps earlier submissions;
    return that folder. ``label`` is made a safe folder name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", label).strip("-.") or "attempt"
    folder = CourseLayout.of(root).replaced(student) / safe
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        shutil.copyfile(path, folder / name)
    return folder


#: the most characters of a person's name an LMS download gives that the gradebook keeps
#: (every table and page shows it; a download's folder name can be long)
MOST_NAME_CHARS = 100


def name_students(names: dict[str, str], root: Path | None = None) -> list[str]:
    """Give the students of ``names`` (student id -> the person's name, as an LMS download
    says it: ``"Erin Stone"``) that name in nbgrader's gradebook (its first
    ``MOST_NAME_CHARS`` characters): first name, then last (its last word), each student
    added when absent. A student whose gradebook entry already has a
    first or last name (a roster's) keeps it. Returns the ids named, sorted."""
    from nbgrader.api import MissingEntry

    named = []
    with CourseLayout.of(root).open_gradebook() as gradebook:
        for student, name in sorted(names.items()):
            shown = " ".join("".join(ch for ch in name if ch.isprintable()).split())
            shown = shown[:MOST_NAME_CHARS].rstrip()
            if not shown:
                continue
            try:
                known = gradebook.find_student(student)
                if known.first_name or known.last_name:
                    continue
            except MissingEntry:
                pass
            first, _, last = shown.rpartition(" ")
            gradebook.update_or_create_student(student, first_name=first or last,
                                               last_name=last if first else None)
            named.append(student)
    return named
