"""The course folder and nbgrader, run the way our folder mapping needs (SPEC §4, §5).

nbgrader only finds ``nbgrader_config.py`` in the folder it is started from; started elsewhere
it quietly makes an empty gradebook where it stands. Everything here runs nbgrader with the
course root as its working folder, whatever folder the instructor is in.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def course_root(start: Path | None = None) -> Path:
    """Return the course folder: the nearest folder at or above ``start`` (default: the
    current folder, then this package's checkout) holding ``nbgrader_config.py``.

    The environment variable PLAISANTE_COURSE overrides the search. Raises FileNotFoundError
    naming where it looked.
    """
    if os.environ.get("PLAISANTE_COURSE"):
        return Path(os.environ["PLAISANTE_COURSE"]).resolve()
    starts = [start or Path.cwd(), Path(__file__).resolve().parent]
    for origin in starts:
        for folder in [origin.resolve(), *origin.resolve().parents]:
            if (folder / "nbgrader_config.py").is_file():
                return folder
    raise FileNotFoundError(
        "no nbgrader_config.py in " + " or ".join(str(s) for s in starts) +
        " or above: run from the kit's folder, or set PLAISANTE_COURSE to it")


def nbgrader_env() -> dict[str, str]:
    """Return an environment in which nbgrader finds its helpers (``alembic``) in this venv."""
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return env


def run_nbgrader(*args: str, root: Path | None = None, check: bool = True,
                 capture: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``nbgrader ARGS…`` from the course root. Raises CalledProcessError on failure if
    ``check``; the output goes to the terminal unless ``capture``."""
    root = root or course_root()
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root,
                          env=nbgrader_env(), check=check, text=True, capture_output=capture)


# nbgrader puts ids into regexes and paths; a leading '-' would read as a command-line option.
STUDENT_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def check_ids(student: str, assignment: str) -> None:
    """Raise ValueError unless both ids are ones ``STUDENT_ID`` allows."""
    for what, value in (("student id", student), ("assignment id", assignment)):
        if not isinstance(value, str) or not STUDENT_ID.fullmatch(value):
            raise ValueError(f"{what} {value!r}: use letters, digits, '_' and '-' only")


@dataclass(frozen=True)
class CourseLayout:
    """Where everything of a course lives: the one place a path under the course root is
    spelled (as ``nbgrader_config.py`` maps nbgrader's folders: source ``solutions/``, release
    ``starter/``, submitted, autograded and feedback under ``assignments/``, the gradebook
    ``assignments/gradebook.db``; plus the kit's own ``reports/``, ``replaced/`` and
    ``samples/``), like nbgrader's ``CourseDirectory``. Notebook paths assume one notebook per
    assignment, named after it, unless ``notebook`` is given."""

    root: Path

    @classmethod
    def of(cls, root: Path | None = None) -> CourseLayout:
        """The layout of ``root`` (default: the course found from here, ``course_root()``)."""
        return cls(Path(root) if root is not None else course_root())

    @property
    def gradebook(self) -> Path:
        return self.root / "assignments" / "gradebook.db"

    @property
    def gradebook_url(self) -> str:
        return f"sqlite:///{self.gradebook}"

    @property
    def submitted_root(self) -> Path:
        return self.root / "assignments" / "submitted"

    def assignments(self) -> list[str]:
        """Return the ids of the course's assignments: folders of ``solutions/`` holding a
        notebook named after them, sorted."""
        folder = self.root / "solutions"
        return sorted(p.name for p in folder.iterdir()
                      if (p / f"{p.name}.ipynb").is_file()) if folder.is_dir() else []

    def submitted_students(self, assignment: str) -> list[str]:
        """Return the ids of students with a ``submitted/<id>/<assignment>`` folder, sorted
        (folders whose name is not a valid student id are left out)."""
        if not self.submitted_root.is_dir():
            return []
        return sorted(p.name for p in self.submitted_root.iterdir()
                      if (p / assignment).is_dir() and STUDENT_ID.fullmatch(p.name))

    def source(self, assignment: str) -> Path:
        return self.root / "solutions" / assignment / f"{assignment}.ipynb"

    def release(self, assignment: str) -> Path:
        return self.root / "starter" / assignment / f"{assignment}.ipynb"

    def submitted(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return self.submitted_root / student / assignment / f"{notebook or assignment}.ipynb"

    def autograded(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return (self.root / "assignments" / "autograded" / student / assignment /
                f"{notebook or assignment}.ipynb")

    def feedback(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return (self.root / "assignments" / "feedback" / student / assignment /
                f"{notebook or assignment}.html")

    def report(self, assignment: str, student: str) -> Path:
        """``plaisante grade``'s report of one student (JSON: status, reasons, scores)."""
        return self.root / "assignments" / "reports" / assignment / f"{student}.json"

    def similarity_page(self, assignment: str) -> Path:
        """``plaisante similarity``'s page of ``assignment``, beside its class report."""
        return self.root / "assignments" / "reports" / assignment / "similarity.html"

    def samples(self, assignment: str) -> Path:
        """The folder of ``assignment``'s sample submissions, their ``manifest.json`` (expected
        per-step scores) and the ``make_samples.py`` that builds them."""
        return self.root / "assignments" / "samples" / assignment

    def replaced(self, student: str) -> Path:
        """Where ``submit --replace`` keeps a student's earlier submissions."""
        return self.root / "assignments" / "replaced" / student


def course_config(root: Path) -> Any:
    """Return the course's nbgrader configuration (``nbgrader_config.py`` at ``root``) as a
    traitlets ``Config``; empty when there is no such file."""
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    if not (Path(root) / "nbgrader_config.py").is_file():
        return Config()
    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()


def configured_cell_timeout(root: Path) -> float | None:
    """Return ``c.Execute.timeout`` from the course's nbgrader_config.py, or None if unset."""
    value = course_config(root).get("Execute", {}).get("timeout")
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


#: nbgrader's timestamp.txt format (UTC), as its exchange writes it
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"


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
        raise ValueError(f"student id {student!r}: use ASCII letters, digits, '_' and '-' "
                         "(not first) only")
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


def name_students(names: dict[str, str], root: Path | None = None) -> list[str]:
    """Give the students of ``names`` (student id -> the person's name, as an LMS download
    says it: ``"Erin Stone"``) that name in nbgrader's gradebook: first name, then last (its
    last word), each student added when absent. A student whose gradebook entry already has a
    first or last name (a roster's) keeps it. Returns the ids named, sorted."""
    from nbgrader.api import Gradebook, MissingEntry

    named = []
    with Gradebook(CourseLayout.of(root).gradebook_url) as gradebook:
        for student, name in sorted(names.items()):
            shown = " ".join("".join(ch for ch in name if ch.isprintable()).split())
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
