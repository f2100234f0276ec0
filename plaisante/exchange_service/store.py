"""The exchange service's store: one folder, readable by the service's account only (mode
0700), holding one course's releases, submissions, feedback and lab boards.

Layout under ``root/<course>/``::

    released/<assignment>/<files>                        what students fetch
    submissions/<assignment>/<student>/<id>/files/...    one folder a submission
    submissions/<assignment>/<student>/<id>/record.json  {"id", "student", "timestamp", "ns"}
    feedback/<assignment>/<student>/<id>/<notebook>.html
    boards/<assignment>.json                             the lab board's board.json

A submission's student, id and time are the service's own (the hub's name for the caller, a
random id, the service's clock), never the caller's. Everything is written into a hidden
temporary folder and renamed into place: a reader never sees half a submission. At most
``KEPT_SUBMISSIONS`` of a student's submissions of one assignment are kept (the oldest go,
with their feedback): a student who submits in a loop fills no disk.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import shutil
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

#: A course, assignment or student id the store takes (hub user names outside it are refused).
ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.@-]{0,99}")
#: Files in one release or submission, at most; bytes of one submission or release's files.
MOST_FILES = 200
MOST_BYTES = 100 * 1024 * 1024
#: Bytes of one part of a file's path (the file system's own limit).
MOST_NAME_BYTES = 255
#: Submissions of one student for one assignment kept (the newest).
KEPT_SUBMISSIONS = 20
#: nbgrader's timestamp format (``timestamp.txt``), in UTC.
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f %Z"


class StoreError(ValueError):
    """A request the store refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Submission:
    """One stored submission: its ``id`` (sortable: its time first), ``student``,
    ``timestamp`` (nbgrader's format, UTC, the service's clock) and ``ns`` (the same time,
    nanoseconds since the epoch)."""

    id: str
    student: str
    timestamp: str
    ns: int


def check_id(what: str, value: str) -> str:
    """Return ``value`` when ``ID`` allows it; raise StoreError (404) naming ``what``."""
    if not isinstance(value, str) or not ID.fullmatch(value) or ".." in value:
        raise StoreError(404, f"{what} {value!r}: not an id this exchange holds (letters, "
                         "digits, '_', '-', '.', '@')")
    return value


def relative_path(name: str) -> PurePosixPath:
    """Return ``name`` (a file's path inside an assignment, ``/``-separated) as a relative
    path; raise StoreError (400) for an absolute path, an empty part, ``.``, ``..`` or a
    control character."""
    path = PurePosixPath(name)
    if not name or path.is_absolute() or any(p in ("", ".", "..") for p in name.split("/")) \
            or any(not c.isprintable() for c in name) or len(name) > 1000:
        raise StoreError(400, f"file name {name[:80]!r}: a relative path without '..' or "
                         "control characters is allowed")
    if any(len(p.encode("utf-8", "surrogatepass")) > MOST_NAME_BYTES for p in path.parts):
        raise StoreError(400, f"file name {name[:80]!r}: each part of a path is at most "
                         f"{MOST_NAME_BYTES} bytes")
    return path


def decode_files(files: object) -> dict[str, bytes]:
    """Return ``files`` (``{relative path: base64 text}``, as the client sends them) decoded;
    raise StoreError (400) for anything else, more than ``MOST_FILES`` files or
    ``MOST_BYTES`` bytes."""
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise StoreError(400, "'files' must be an object of relative path: base64 text")
    if len(files) > MOST_FILES:
        raise StoreError(413, f"{len(files)} files: at most {MOST_FILES} may be sent at once")
    decoded, total = {}, 0
    for name, text in files.items():
        relative_path(name)
        try:
            data = base64.b64decode(text, validate=True)
        except ValueError:
            raise StoreError(400, f"{name[:80]!r}: its content is not base64") from None
        total += len(data)
        if total > MOST_BYTES:
            raise StoreError(413, f"the files hold more than {MOST_BYTES // 2**20} MiB, the "
                             "most one release or submission may")
        decoded[name] = data
    # a name that is also another's folder ("a" and "a/b") cannot both be written
    folders = {str(parent) for name in decoded for parent in PurePosixPath(name).parents}
    clash = sorted(set(decoded) & folders)
    if clash:
        raise StoreError(400, f"file name {clash[0][:80]!r} is also a folder of another file: "
                         "a name may be a file or a folder, not both")
    return decoded


def encode_folder(folder: Path) -> dict[str, str]:
    """Return the regular files under ``folder`` as ``{relative path: base64 text}`` (links
    and other kinds of file left out)."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[path.relative_to(folder).as_posix()] = \
                base64.b64encode(path.read_bytes()).decode("ascii")
    return files


def checksum(data: bytes) -> str:
    """Return ``data``'s MD5 hex digest (as nbgrader's list compares feedback files)."""
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


class Store:
    """The store of the course ``course`` under ``root`` (made, mode 0700, if missing)."""

    def __init__(self, root: Path, course: str) -> None:
        self.course = check_id("course", course)
        self.root = Path(root)
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.root.chmod(0o700)
        self.base = self.root / course
        for part in ("released", "submissions", "feedback", "boards"):
            (self.base / part).mkdir(mode=0o700, parents=True, exist_ok=True)
        # each assignment's newest submission by student, read from the folder once and kept
        # up to date by submit: watch asks for it five times a second
        self._newest: dict[str, dict[str, Submission]] = {}

    def _check_course(self, course: str) -> None:
        if course != self.course:
            raise StoreError(404, f"course {course!r}: this exchange holds {self.course!r} "
                             "only")

    def _write_folder(self, target: Path, files: dict[str, bytes],
                      extra: dict[str, str] | None = None) -> None:
        """Write ``files`` (and ``extra`` text files) as ``target``, replacing it whole."""
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = target.parent / f".{target.name}.{secrets.token_hex(4)}.part"
        fresh.mkdir(mode=0o700)
        try:
            for name, data in files.items():
                path = fresh / relative_path(name)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            for name, text in (extra or {}).items():
                (fresh / name).write_text(text, encoding="utf-8")
            old = None
            if target.exists():
                old = target.parent / f".{target.name}.{secrets.token_hex(4)}.old"
                target.rename(old)
            fresh.rename(target)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise

    # releases ---------------------------------------------------------------------------

    def release(self, course: str, assignment: str, files: dict[str, bytes]) -> None:
        """Store ``files`` as the release of ``assignment``, replacing an earlier one."""
        self._check_course(course)
        check_id("assignment", assignment)
        if not any(name.endswith(".ipynb") for name in files):
            raise StoreError(400, f"the release of {assignment!r} holds no notebook")
        self._write_folder(self.base / "released" / assignment, files)

    def remove(self, course: str, assignment: str) -> None:
        """Remove the release of ``assignment`` (its submissions stay); 404 if none."""
        self._check_course(course)
        folder = self.base / "released" / check_id("assignment", assignment)
        if not folder.is_dir():
            raise StoreError(404, f"{assignment!r} is not released")
        shutil.rmtree(folder)

    def released(self, course: str) -> list[dict[str, object]]:
        """Return ``[{"assignment_id", "notebooks"}]`` of each released assignment, sorted;
        ``notebooks`` are the top-level notebooks' ids."""
        self._check_course(course)
        return [{"assignment_id": folder.name,
                 "notebooks": sorted(p.stem for p in folder.glob("*.ipynb"))}
                for folder in sorted((self.base / "released").iterdir())
                if folder.is_dir() and not folder.name.startswith(".")]

    def release_files(self, course: str, assignment: str) -> Path:
        """Return the folder of ``assignment``'s release; 404 if it is not released."""
        self._check_course(course)
        folder = self.base / "released" / check_id("assignment", assignment)
        if not folder.is_dir():
            raise StoreError(404, f"{assignment!r} is not released in {course!r}")
        return folder

    # submissions ------------------------------------------------------------------------

    def submit(self, course: str, assignment: str, student: str,
               files: dict[str, bytes]) -> Submission:
        """Store ``files`` as a new submission of ``student`` (the hub's name for the caller);
        return it. 404 unless ``assignment`` is released; 400 without a notebook."""
        self.release_files(course, assignment)
        check_id("student", student)
        if not any(name.endswith(".ipynb") for name in files):
            raise StoreError(400, "the submission holds no notebook (.ipynb)")
        ns = time.time_ns()
        folder = self.base / "submissions" / assignment / student
        taken = {p.name.split("-", 1)[0] for p in folder.iterdir()} if folder.is_dir() else set()
        while f"{ns:020d}" in taken:  # two submissions in one nanosecond of the clock
            ns += 1000
        when = datetime.fromtimestamp(ns / 1e9, timezone.utc)
        submission = Submission(f"{ns:020d}-{secrets.token_hex(4)}", student,
                                when.strftime(TIMESTAMP_FORMAT), ns)
        record = {"id": submission.id, "student": student, "timestamp": submission.timestamp,
                  "ns": ns, "secret": secrets.token_hex(32)}
        # record and files land in one rename: a failed write leaves no record behind
        self._write_folder(folder / submission.id,
                           {f"files/{name}": data for name, data in files.items()},
                           {"record.json": json.dumps(record)})
        self._prune(assignment, student)
        if assignment in self._newest:
            self._newest[assignment][student] = submission
        return submission

    def _prune(self, assignment: str, student: str) -> None:
        folder = self.base / "submissions" / assignment / student
        ids = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
        for old in ids[:-KEPT_SUBMISSIONS]:
            shutil.rmtree(folder / old, ignore_errors=True)
            shutil.rmtree(self.base / "feedback" / assignment / student / old,
                          ignore_errors=True)

    def _record(self, folder: Path) -> Submission | None:
        try:
            data = json.loads((folder / "record.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # being written (its files come next) or pruned meanwhile
        if not (folder / "files").is_dir():
            return None
        return Submission(data["id"], data["student"], data["timestamp"], data["ns"])

    def submissions(self, course: str, assignment: str | None,
                    student: str | None) -> list[tuple[str, Submission]]:
        """Return ``(assignment, submission)`` of every complete submission, oldest first;
        ``assignment`` and ``student`` (None: all) narrow it."""
        self._check_course(course)
        found = []
        root = self.base / "submissions"
        for a_folder in sorted(root.iterdir()) if root.is_dir() else []:
            if assignment is not None and a_folder.name != assignment:
                continue
            for s_folder in sorted(a_folder.iterdir()):
                if student is not None and s_folder.name != student:
                    continue
                for folder in sorted(s_folder.iterdir()):
                    record = None if folder.name.startswith(".") else self._record(folder)
                    if record is not None:
                        found.append((a_folder.name, record))
        return sorted(found, key=lambda item: item[1].ns)

    def newest(self, course: str, assignment: str) -> list[Submission]:
        """Return each student's newest submission of ``assignment``, by student."""
        self._check_course(course)
        if check_id("assignment", assignment) not in self._newest:
            latest: dict[str, Submission] = {}
            for _, submission in self.submissions(course, assignment, None):
                latest[submission.student] = submission
            self._newest[assignment] = latest
        latest = self._newest[assignment]
        return [latest[s] for s in sorted(latest)]

    def _submission_folder(self, course: str, assignment: str, student: str,
                           submission_id: str) -> Path:
        self._check_course(course)
        folder = (self.base / "submissions" / check_id("assignment", assignment)
                  / check_id("student", student) / check_id("submission", submission_id))
        if self._record(folder) is None:
            raise StoreError(404, f"no submission {submission_id!r} of {student!r}")
        return folder

    def submission_files(self, course: str, assignment: str, student: str,
                         submission_id: str) -> tuple[Submission, Path, str]:
        """Return the submission, the folder of its files and its secret (nbgrader's
        ``submission_secret.txt``, made by the service)."""
        folder = self._submission_folder(course, assignment, student, submission_id)
        record = json.loads((folder / "record.json").read_text(encoding="utf-8"))
        submission = self._record(folder)
        assert submission is not None
        return submission, folder / "files", record["secret"]

    # feedback ---------------------------------------------------------------------------

    def add_feedback(self, course: str, assignment: str, student: str, timestamp: str,
                     files: dict[str, bytes]) -> Submission:
        """Store ``files`` (``<notebook>.html``) as the feedback of ``student``'s submission
        made at ``timestamp`` (nbgrader's ``timestamp.txt`` of the graded copy); return that
        submission. 404 when ``student`` has no submission at that time."""
        check_id("student", student)
        for name in files:
            if "/" in name or not name.endswith(".html"):
                raise StoreError(400, f"feedback file {name[:80]!r}: NOTEBOOK.html only")
        match = [s for _, s in self.submissions(course, check_id("assignment", assignment),
                                                 student) if s.timestamp == timestamp]
        if not match:
            raise StoreError(404, f"{student!r} has no submission of {assignment!r} made at "
                             f"{timestamp[:40]!r}")
        self._write_folder(self.base / "feedback" / assignment / student / match[0].id, files)
        return match[0]

    def feedback(self, course: str, assignment: str, student: str,
                 submission_id: str) -> Path | None:
        """Return the folder of the feedback of one submission, None when there is none."""
        self._submission_folder(course, assignment, student, submission_id)
        folder = self.base / "feedback" / assignment / student / submission_id
        return folder if folder.is_dir() else None

    # the lab board ----------------------------------------------------------------------

    def put_board(self, course: str, assignment: str, text: bytes) -> None:
        """Store ``text`` (the board's JSON object, at most 1 MiB) as ``assignment``'s
        board."""
        self._check_course(course)
        check_id("assignment", assignment)
        if len(text) > 2**20:
            raise StoreError(413, "a board is at most 1 MiB")
        try:
            if not isinstance(json.loads(text), dict):
                raise ValueError
        except ValueError:
            raise StoreError(400, "the board must be a JSON object") from None
        part = self.base / "boards" / f".{assignment}.{secrets.token_hex(4)}.part"
        part.write_bytes(text)
        part.replace(self.base / "boards" / f"{assignment}.json")

    def board(self, course: str, assignment: str) -> bytes:
        """Return ``assignment``'s board.json; 404 before ``plaisante watch`` wrote one."""
        self._check_course(course)
        path = self.base / "boards" / f"{check_id('assignment', assignment)}.json"
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise StoreError(404, f"no board for {assignment!r} yet: is `plaisante watch "
                             f"{assignment}` running?") from None
