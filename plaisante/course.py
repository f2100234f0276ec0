"""The course folder and nbgrader, run the way our folder mapping needs (SPEC §4, §5).

nbgrader only finds ``nbgrader_config.py`` in the folder it is started from; started elsewhere
it quietly makes an empty gradebook where it stands. Everything here runs nbgrader with the
course root as its working folder, whatever folder the instructor is in.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
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
        found = find_course(origin)
        if found is not None:
            return found
    raise FileNotFoundError(
        "no nbgrader_config.py in " + " or ".join(str(s) for s in starts) +
        " or above: run from the kit's folder, or set PLAISANTE_COURSE to it")


def find_course(start: Path) -> Path | None:
    """Return the nearest folder at or above ``start`` holding ``nbgrader_config.py`` (a
    course's root), or None. Nothing else is searched: no PLAISANTE_COURSE, no kit."""
    for folder in [start.resolve(), *start.resolve().parents]:
        if (folder / "nbgrader_config.py").is_file():
            return folder
    return None


def kit_course() -> Path | None:
    """Return the course of the kit's own clone (the folder holding this package, when it
    holds ``nbgrader_config.py``: an editable install), or None (an installed package)."""
    return find_course(Path(__file__).resolve().parent)


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


#: The kit's layout of a course, for every ``CourseDirectory`` setting its nbgrader config
#: leaves unset (the kit's ``nbgrader_config.py`` sets each from here): folder names relative
#: to the course root, and the gradebook, a file under ``assignments/`` unless
#: ``c.CourseDirectory.db_url`` names another database (any SQLAlchemy URL nbgrader takes,
#: such as ``postgresql+psycopg://grader@db.example.org/course``; see the README).
KIT_LAYOUT = {
    "source_directory": "solutions",
    "release_directory": "starter",
    "submitted_directory": "assignments/submitted",
    "autograded_directory": "assignments/autograded",
    "feedback_directory": "assignments/feedback",
}

#: The one default gradebook: ``{root}`` is the course root.
DEFAULT_DB_URL = "sqlite:///{root}/assignments/gradebook.db"

#: nbgrader's ``Gradebook`` course id when the config names none
DEFAULT_COURSE_ID = "default_course"


class GradebookUnreachable(RuntimeError):
    """The course gradebook's database refused or dropped the connection (a server down, a
    wrong URL, a locked file): the message names the database, password hidden, and what to
    do."""


@dataclass(frozen=True)
class CourseSettings:
    """What the course's nbgrader config says of the course: its ``CourseDirectory``'s
    folders (as given: relative to the root, or absolute), gradebook URL and course id."""

    source_directory: str
    release_directory: str
    submitted_directory: str
    autograded_directory: str
    feedback_directory: str
    db_url: str
    course_id: str


_settings: dict[tuple[str, int, int], CourseSettings] = {}


def course_settings(root: Path) -> CourseSettings:
    """Return the ``CourseDirectory`` settings of the course at ``root``, loaded from its
    ``nbgrader_config.py`` by traitlets' own loader into nbgrader's own ``CourseDirectory``;
    a setting the config leaves unset is the kit's (``KIT_LAYOUT``, ``DEFAULT_DB_URL``).
    Read once per process while the config file stays the same. Raises what loading the
    config raises (a config with a syntax error: traitlets' ConfigFileNotFound or the
    error itself)."""
    config_file = Path(root) / "nbgrader_config.py"
    try:
        stat = config_file.stat()
        key = (str(root), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = (str(root), 0, -1)
    if key not in _settings:
        from nbgrader.coursedir import CourseDirectory

        config = course_config(Path(root))
        given = config.get("CourseDirectory", {})
        coursedir = CourseDirectory(config=config)
        values = {name: getattr(coursedir, name) if name in given else default
                  for name, default in KIT_LAYOUT.items()}
        db_url = coursedir.db_url if "db_url" in given else DEFAULT_DB_URL.format(
            root=Path(root).resolve())
        course_id = coursedir.course_id if coursedir.course_id else DEFAULT_COURSE_ID
        if len(_settings) > 16:
            _settings.clear()
        _settings[key] = CourseSettings(**values, db_url=db_url, course_id=course_id)
    return _settings[key]


SECRET_QUERY = frozenset({"password", "passwd", "pwd"})


def shown_url(url: str) -> str:
    """Return the database URL ``url`` as it may be shown, holding nothing that could be its
    password: SQLAlchemy's rendering with the password as ``***``, a query parameter named
    password, passwd or pwd as ``***``, and a host holding an ``@`` (a password's unescaped
    ``@`` read as the host's) cut after its last ``@``. A URL SQLAlchemy cannot read shows
    only its scheme (``postgresql+psycopg://…``) when what comes before ``://`` is a plain
    scheme word, else ``(the URL in nbgrader_config.py)``."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
        if parsed.host and "@" in parsed.host:
            parsed = parsed.set(host=parsed.host.rsplit("@", 1)[1], password="***")
        if any(name.lower() in SECRET_QUERY for name in parsed.query):
            parsed = parsed.set(query={name: "***" if name.lower() in SECRET_QUERY else value
                                       for name, value in parsed.query.items()})
        return parsed.render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001  not a URL SQLAlchemy reads: its scheme at most
        scheme = url.split("://", 1)[0] if "://" in url else ""
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]{0,40}", scheme):
            return scheme + "://…"
        return "(the URL in nbgrader_config.py)"


def scrubbed(text: str, url: str) -> str:
    """Return ``text`` (a driver's or SQLAlchemy's message about the database at ``url``)
    with whatever of ``url`` could be its password replaced by ``***``: the password, the
    values of query parameters named password, passwd or pwd, and the part of a host before
    its last ``@``."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001  nothing parsed: nothing of it is said but the scheme
        return text
    secrets = [parsed.password or ""]
    if parsed.host and "@" in parsed.host:
        secrets.append(parsed.host.rsplit("@", 1)[0])
    for name, value in parsed.query.items():
        if name.lower() in SECRET_QUERY:
            secrets.extend([value] if isinstance(value, str) else value)
    for secret in sorted((str(s) for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


@dataclass(frozen=True)
class CourseLayout:
    """Where everything of a course lives: the one place a path under the course root is
    worked out, from the course's nbgrader config (``course_settings``: its
    ``CourseDirectory``'s source, release, submitted, autograded and feedback folders and its
    gradebook's ``db_url``; the kit's ``KIT_LAYOUT`` where it says nothing), plus the kit's
    own ``reports/``, ``replaced/`` and ``samples/`` under ``assignments/``, like nbgrader's
    ``CourseDirectory``. Notebook paths assume one notebook per assignment, named after it,
    unless ``notebook`` is given."""

    root: Path

    @classmethod
    def of(cls, root: Path | None = None) -> CourseLayout:
        """The layout of ``root`` (default: the course found from here, ``course_root()``)."""
        return cls(Path(root) if root is not None else course_root())

    @property
    def settings(self) -> CourseSettings:
        return course_settings(self.root)

    def _folder(self, name: str) -> Path:
        return self.root / name  # an absolute folder in the config stays itself

    @property
    def gradebook_url(self) -> str:
        """The SQLAlchemy URL of the course gradebook (``c.CourseDirectory.db_url``)."""
        return self.settings.db_url

    @property
    def course_id(self) -> str:
        """The course id the gradebook is opened with (``c.CourseDirectory.course_id``)."""
        return self.settings.course_id

    def _parsed_url(self) -> Any:
        """The gradebook URL as SQLAlchemy reads it; ValueError, in one line, when it is not
        a database URL SQLAlchemy knows."""
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        try:
            url = make_url(self.gradebook_url)
            url.get_dialect()
        except (ArgumentError, NoSuchModuleError, ValueError) as error:
            # int()'s own message would quote the port, which may be a misplaced password
            detail = (scrubbed(str(error), self.gradebook_url).splitlines()[0][:200]
                      if isinstance(error, (ArgumentError, NoSuchModuleError))
                      else "its port is not a number")
            raise ValueError(
                f"c.CourseDirectory.db_url {shown_url(self.gradebook_url)!r} in "
                f"{self.root / 'nbgrader_config.py'} is not a database URL SQLAlchemy knows "
                f"({detail}); use one such as "
                f"{DEFAULT_DB_URL.format(root=self.root)!r} or "
                "'postgresql+psycopg://USER@HOST/DATABASE'") from None
        return url

    @property
    def gradebook_file(self) -> Path | None:
        """The gradebook's file when it is a database in one file (the default's kind), else
        None (a database server). Raises ValueError for a URL SQLAlchemy does not know."""
        from sqlalchemy.engine import make_url

        url = self._parsed_url()
        if url.get_backend_name() != make_url(DEFAULT_DB_URL).get_backend_name():
            return None
        return Path(url.database) if url.database and url.database != ":memory:" else None

    def gradebook_missing(self) -> bool:
        """True when the gradebook is a file that does not exist yet (nothing released);
        a database server's gradebook is never said missing here (opening it tells)."""
        path = self.gradebook_file
        return path is not None and not path.is_file()

    @contextmanager
    def open_gradebook(self) -> Iterator[Any]:
        """Open the course gradebook with nbgrader's ``Gradebook`` (its URL and course id
        from the config); yield it and close it. A database that cannot be reached or used,
        then or while the block runs, raises GradebookUnreachable naming it; a URL
        SQLAlchemy does not know, or whose driver is not installed, ValueError."""
        from nbgrader.api import Gradebook
        from sqlalchemy.exc import InterfaceError, OperationalError

        url = self._parsed_url()
        try:
            url.get_dialect().import_dbapi()
        except ImportError as error:
            raise ValueError(f"the course gradebook {shown_url(self.gradebook_url)} needs the "
                             f"database driver {error.name or url.get_driver_name()!r}, not "
                             "installed here: pip install it (PostgreSQL: psycopg, pinned in "
                             "requirements.txt)") from None
        try:
            with Gradebook(self.gradebook_url, self.course_id) as gradebook:
                yield gradebook
        except (OperationalError, InterfaceError) as error:
            raise GradebookUnreachable(unreachable(self.gradebook_url, error)) from error

    @property
    def submitted_root(self) -> Path:
        return self._folder(self.settings.submitted_directory)

    def assignments(self) -> list[str]:
        """Return the ids of the course's assignments: folders of the source folder holding a
        notebook named after them, sorted."""
        folder = self.source_root
        return sorted(p.name for p in folder.iterdir()
                      if (p / f"{p.name}.ipynb").is_file()) if folder.is_dir() else []

    def submitted_students(self, assignment: str) -> list[str]:
        """Return the ids of students with a ``submitted/<id>/<assignment>`` folder, sorted
        (folders whose name is not a valid student id are left out)."""
        if not self.submitted_root.is_dir():
            return []
        return sorted(p.name for p in self.submitted_root.iterdir()
                      if (p / assignment).is_dir() and STUDENT_ID.fullmatch(p.name))

    @property
    def source_root(self) -> Path:
        return self._folder(self.settings.source_directory)

    @property
    def release_root(self) -> Path:
        return self._folder(self.settings.release_directory)

    @property
    def autograded_root(self) -> Path:
        return self._folder(self.settings.autograded_directory)

    @property
    def feedback_root(self) -> Path:
        return self._folder(self.settings.feedback_directory)

    def source(self, assignment: str) -> Path:
        return self.source_root / assignment / f"{assignment}.ipynb"

    def release(self, assignment: str) -> Path:
        return self.release_root / assignment / f"{assignment}.ipynb"

    def submitted(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return self.submitted_root / student / assignment / f"{notebook or assignment}.ipynb"

    def autograded(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return self.autograded_root / student / assignment / f"{notebook or assignment}.ipynb"

    def feedback(self, student: str, assignment: str, notebook: str | None = None) -> Path:
        return self.feedback_root / student / assignment / f"{notebook or assignment}.html"

    def report(self, assignment: str, student: str) -> Path:
        """``plaisante grade``'s report of one student (JSON: status, reasons, scores)."""
        return self.root / "assignments" / "reports" / assignment / f"{student}.json"

    def similarity_page(self, assignment: str) -> Path:
        """``plaisante similarity``'s page of ``assignment``, beside its class report."""
        return self.root / "assignments" / "reports" / assignment / "similarity.html"

    def samples(self, assignment: str) -> Path:
        """The folder of ``assignment``'s classic mistakes (``mistakes.py``), and the sample
        submissions and ``manifest.json`` (expected per-step scores) ``plaisante.authoring.samples``
        makes of them."""
        return self.root / "assignments" / "samples" / assignment

    def replaced(self, student: str) -> Path:
        """Where ``submit --replace`` keeps a student's earlier submissions."""
        return self.root / "assignments" / "replaced" / student


def unreachable(url: str, error: BaseException) -> str:
    """Return the one-line message of GradebookUnreachable for the database at ``url``."""
    cause = getattr(error, "orig", None) or error
    first = (scrubbed(str(cause), url).strip().splitlines() or [type(cause).__name__])[0][:300]
    todo = "start the database or fix the URL"
    if "password" in first.lower() and "postgres" in url.split(":", 1)[0]:
        # keep the password out of nbgrader_config.py (and so out of git): libpq reads these
        todo = ("give the password in ~/.pgpass (host:port:database:user:password, mode 600) "
                "or the PGPASSWORD variable, not in the URL")
    return (f"the course gradebook {shown_url(url)} (c.CourseDirectory.db_url in "
            f"nbgrader_config.py) cannot be used: {first}; {todo}, "
            "then run the command again (what was recorded before stays)")


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


def mapped_id(student: str) -> str:
    """Return the id ``STUDENT_ID`` allows that ``student`` (a login it refuses) maps to most
    plainly: its ASCII letters and digits, words joined by ``_``, lower case; ``""`` when
    nothing is left. ``id_refused`` tells the instructor to submit under it, and a listing
    of refused students takes a submission under it as that student's.

    >>> mapped_id("Kim.Lee"), mapped_id("élève"), mapped_id("..")
    ('kim_lee', 'eleve', '')
    """
    plain = unicodedata.normalize("NFKD", student or "").encode("ascii", "ignore").decode()
    return "_".join(re.findall(r"[A-Za-z0-9]+", plain)).lower()
