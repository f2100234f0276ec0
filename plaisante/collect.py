"""Many submissions in one go: a folder or a zip file (an LMS download), each file given to a
student, as nbgrader's ``zip_collect`` does.

    plaisante submit downloads.zip                    # Canvas, Moodle, Blackboard, Brightspace
    plaisante submit downloads.zip --pattern '(?P<student_id>[a-z]+)_\\d+_\\d+_deck'

Without ``--pattern`` each file's path is read the way each LMS names what it downloads
(``LAYOUTS``; else ``ID.ipynb``, the file named after the student):

* Canvas: ``smithada_1234_5678_plaisante.ipynb`` (``_LATE_`` after the name when late; a
  resubmitted file gets ``-1``, ``-2`` before its extension and a new file number);
* Blackboard: ``Week 3_smithada_attempt_2026-12-01-10-30-15_plaisante.ipynb`` (and a receipt
  ``…_attempt_2026-12-01-10-30-15.txt``, the LMS's own);
* Brightspace: ``12345-67890 - Ada Smith - Dec 1, 2026 1030 AM - plaisante.ipynb``, as files or
  as folders of that name (and an ``index.html``, the LMS's own);
* Moodle: one folder per student, ``Ada Smith_12345_assignsubmission_file_/``, holding what
  the student uploaded (any notebooks, data files, subfolders).

With ``--pattern``, a regex with a ``(?P<student_id>…)`` group that must match a whole file
name, with its ``.ipynb`` or without it; a ``(?P<timestamp>…)`` group, as nbgrader's
``FileNameCollector`` has, orders a student's attempts.

What one student handed in at once is one *attempt*: its notebooks (the grader grades the
one holding the work, ``plaisante.grading.handed_in``) and its data files. Of several
attempts of a student the newest is submitted, by the LMS's time (or file number, or
resubmission number), as nbgrader's collector keeps the newest; the others are *set aside*,
kept under ``assignments/replaced/`` and named in the output. Nothing of one student stops
the others being collected: ``collected`` refuses the batch only when it can tell no one.
A person's name (Moodle, Brightspace) becomes the student id ``ada_smith`` (accents
dropped); two students of one name keep their LMS number (``ada_smith_12345``). Files an LMS
or an operating system adds (``index.html``, receipts, ``__MACOSX/``) are no one's.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

#: The default pattern: the file is named after the student, ``alice.ipynb``.
DEFAULT_PATTERN = r"(?P<student_id>[A-Za-z0-9][A-Za-z0-9_-]*)\.ipynb"
MAX_NOTEBOOK_BYTES = 100 * 1024 * 1024  # as notebook_check.MAX_FILE_BYTES
MAX_DATA_BYTES = 20 * 1024 * 1024  # as handed_in.MAX_DATA_BYTES
MAX_ZIP_BYTES = 2 * 1024 * 1024 * 1024
MAX_MEMBERS = 10_000
#: files an LMS or an operating system adds, never a student's: not collected, not listed
NOISE = re.compile(r"(index\.html?|\.DS_Store|Thumbs\.db|desktop\.ini|\._.*)", re.I)
#: names the course gives files of a submission folder: never taken from a download
RESERVED = {"timestamp.txt", "submission_secret.txt", "lms-late.txt"}  # handed_in.NOT_DATA
#: a copy or re-download of a notebook: ``plaisante-Copy1``, ``plaisante (1)``, ``plaisante-1``
COPY_SUFFIX = r"(?:-Copy\d*| ?\(\d+\)|-\d+)?"

CANVAS = re.compile(r"(?P<name>[a-z0-9]+)(?P<late>_late)?_(?P<user>\d+)_(?P<number>\d+)_"
                    r"(?P<file>.+?)(?:-(?P<again>\d+))?(?P<ext>\.[A-Za-z0-9]+)?", re.I)
BLACKBOARD = re.compile(r"(?P<title>.+)_(?P<user>[^_/]+)_attempt_"
                        r"(?P<when>\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})(?:_(?P<file>.+)|\.txt)?")
BRIGHTSPACE = re.compile(r"(?P<number>\d+)-(?P<user>\d+) - (?P<name>.+?) ?- "
                         r"(?P<when>[A-Z][a-z]{2} \d{1,2}, \d{4} \d{3,4} [AP]M)"
                         r"(?: - (?P<file>.+))?")
MOODLE = re.compile(r"(?P<name>.+)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?")


@dataclass
class Attempt:
    """What one student handed in at once: ``files`` (name in the submission folder -> the
    file read or unpacked), ``shown`` (how the download names its first notebook), the LMS's
    ``timestamp`` (aware, or None when the download does not say), ``late`` (the LMS's late
    marker, said in words, or None), ``order`` (sorts attempts, newest last) and ``label``
    (names the attempt in messages and in ``replaced/``)."""

    student: str
    who: tuple[str, str]
    files: dict[str, Path] = field(default_factory=dict)
    shown: str = ""
    timestamp: datetime.datetime | None = None
    late: str | None = None
    order: tuple = ()
    label: str = ""
    lms: str = ""
    left_out: list[str] = field(default_factory=list)

    @property
    def notebooks(self) -> list[str]:
        return sorted(name for name in self.files if name.endswith(".ipynb"))


@dataclass
class Submission:
    """A student's newest attempt (``kept``) and the older ones set aside (``set_aside``,
    oldest first)."""

    kept: Attempt
    set_aside: list[Attempt] = field(default_factory=list)

    @property
    def student(self) -> str:
        return self.kept.student


@dataclass
class Collected:
    """What a folder or zip holds: ``submissions`` in student order; ``found`` (student id,
    first notebook) and ``names`` (student id -> how the download names it) of each, and
    ``skipped`` (file names that are no student's: no notebook, or no name the layout or the
    pattern reads) and ``refused`` (student, as the download names it, why) of students none
    of whose notebooks could be unpacked."""

    submissions: list[Submission] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[tuple[str, str, str]] = field(default_factory=list)
    layout: str = ""

    @property
    def found(self) -> list[tuple[str, Path]]:
        return [(s.student, s.kept.files[s.kept.notebooks[0]]) for s in self.submissions]

    @property
    def names(self) -> dict[str, str]:
        return {s.student: s.kept.shown for s in self.submissions}


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Return ``pattern`` compiled. Raises ValueError when it is not a regular expression or
    has no ``(?P<student_id>…)`` group."""
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise ValueError(f"--pattern {pattern!r} is not a regular expression: {error}") from None
    if "student_id" not in compiled.groupindex:
        raise ValueError(f"--pattern {pattern!r} has no (?P<student_id>...) group: it must say "
                         "which part of a file name is the student id")
    return compiled


def student_id(name: str) -> str:
    """Return a person's name as a student id: ASCII letters and digits, words joined by
    ``_``, lower case (``"Zoë  O'Brien"`` -> ``"zoe_o_brien"``); empty when nothing is left.

    >>> student_id("Zoë  O'Brien")
    'zoe_o_brien'
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "_".join(re.findall(r"[a-z0-9]+", ascii_name.lower()))


def safe_name(name: str) -> str:
    """Return a file name from a download as a submission folder may hold it: its last path
    part, without control characters, at most 120 characters, never hidden."""
    base = PurePosixPath(name.replace("\\", "/")).name
    base = "".join(ch for ch in base if ch.isprintable()).strip().lstrip(".")
    if len(base) > 120:
        stem, dot, ext = base.rpartition(".")
        base = (stem[:110] + dot + ext) if dot and len(ext) < 9 else base[:120]
    return base or "file"


def _lms_time(text: str, form: str, zone: datetime.tzinfo) -> datetime.datetime | None:
    try:
        return datetime.datetime.strptime(text, form).replace(tzinfo=zone)
    except ValueError:
        return None


def read_path(relative: str, zone: datetime.tzinfo) -> Attempt | None:
    """Return the attempt an LMS's name for a file (``relative``: its path in the download,
    ``/``-separated) says it belongs to, its ``files`` still empty and the file's own name
    in ``label``'s stead in ``shown``; None when no LMS layout reads it. ``zone``: the time
    zone of the LMS's times, which carry none."""
    parts = [p for p in relative.split("/") if p]
    name = parts[-1]
    for depth, part in enumerate(parts[:-1]):
        moodle = MOODLE.fullmatch(part)
        if moodle:
            return Attempt(student_id(moodle["name"]), ("moodle", moodle["user"]),
                           shown="/".join(parts[depth:]), order=(0,), label="moodle",
                           lms="Moodle")
        space = BRIGHTSPACE.fullmatch(part)
        if space:
            when = _lms_time(space["when"], "%b %d, %Y %I%M %p", zone)
            return Attempt(student_id(space["name"]), ("brightspace", space["user"]),
                           shown="/".join(parts[depth:]), timestamp=when,
                           order=(when or datetime.datetime.min.replace(tzinfo=zone),
                                  int(space["number"])),
                           label=f"attempt-{when:%Y%m%dT%H%M}" if when else "attempt",
                           lms="Brightspace")
    space = BRIGHTSPACE.fullmatch(name)
    if space and space["file"]:
        when = _lms_time(space["when"], "%b %d, %Y %I%M %p", zone)
        return Attempt(student_id(space["name"]), ("brightspace", space["user"]), shown=name,
                       timestamp=when,
                       order=(when or datetime.datetime.min.replace(tzinfo=zone),
                              int(space["number"])),
                       label=f"attempt-{when:%Y%m%dT%H%M}" if when else "attempt",
                       lms="Brightspace")
    board = BLACKBOARD.fullmatch(name)
    if board:
        when = _lms_time(board["when"], "%Y-%m-%d-%H-%M-%S", zone)
        return Attempt(board["user"], ("blackboard", board["user"]), shown=name,
                       timestamp=when, order=(board["when"],),
                       label=f"attempt-{board['when']}", lms="Blackboard")
    canvas = CANVAS.fullmatch(name)
    if canvas:
        again = int(canvas["again"] or 0)
        return Attempt(canvas["name"].lower(), ("canvas", canvas["user"]), shown=name,
                       late="Canvas marked it LATE" if canvas["late"] else None,
                       order=(int(canvas["number"]), again),
                       label=f"file-{canvas['number']}" + (f"-{again}" if again else ""),
                       lms="Canvas")
    return None


def _own_name(attempt: Attempt, relative: str) -> str:
    """Return the name a file of ``attempt`` takes in the submission folder: the student's
    own file name, without what the LMS added around it."""
    name = PurePosixPath(relative).name
    if attempt.lms == "Canvas":
        canvas = CANVAS.fullmatch(name)
        if canvas:  # a resubmitted file's -N is dropped from notebooks only (not data.txt-2)
            name = name[canvas.start("file"):]
            if name.endswith(".ipynb"):
                name = canvas["file"] + (canvas["ext"] or "")
    elif attempt.lms in ("Blackboard", "Brightspace"):
        found = (BLACKBOARD if attempt.lms == "Blackboard" else BRIGHTSPACE).fullmatch(name)
        if found and found["file"]:
            name = found["file"]
    return safe_name(name)


def collected(source: Path, pattern: str | None = None, into: Path | None = None, *,
              zone: datetime.tzinfo = datetime.timezone.utc,
              assignments: list[str] | None = None) -> Collected:
    """Return the submissions in ``source`` (a folder, searched recursively, or a ``.zip``),
    read as the module doc says: by ``pattern`` when given, else by the LMS layouts and, for
    the rest, ``ID.ipynb``. Zip members are written to ``into`` under made-up folders (a
    member's own path is never used as one). ``zone``: the time zone of the LMS's times.
    ``assignments``: the course's ids; a folder whose notebooks are named after one of them
    (``plaisante.ipynb``, ``plaisante-Copy1.ipynb``) is one student's, not a class's.

    Raises FileNotFoundError for a missing source, ValueError for a bad pattern, an unreadable
    or oversized zip, one student's folder (say whose with ``--student``) or no notebook that
    names a student."""
    regex = compile_pattern(pattern) if pattern else None
    source = Path(source)
    if source.is_dir():
        files = sorted((p for p in source.rglob("*") if p.is_file() and not p.is_symlink()),
                       key=lambda p: str(p.relative_to(source)))
        entries: list[tuple[str, Path | None]] = [(p.relative_to(source).as_posix(), p)
                                                  for p in files]
    elif source.is_file() and zipfile.is_zipfile(source):
        if into is None:
            raise ValueError("a zip file needs a folder to unpack its notebooks into")
        entries = _unzip(source, into)
    elif source.exists():
        raise ValueError(f"{source} is neither a folder, a .zip file nor a notebook")
    else:
        raise FileNotFoundError(f"no folder or zip file at {source}")
    entries = [(rel, path) for rel, path in entries
               if not NOISE.fullmatch(PurePosixPath(rel).name)
               and not rel.startswith("__MACOSX/")]
    if regex is None and assignments:
        _refuse_one_students_folder(source, entries, assignments)
    result = Collected()
    attempts: dict[tuple, Attempt] = {}
    for relative, path in entries:
        name = PurePosixPath(relative).name
        attempt = _by_pattern(regex, name, zone) if regex else read_path(relative, zone)
        if attempt is None and regex is None:
            plain = re.fullmatch(DEFAULT_PATTERN, name)
            attempt = (Attempt(plain["student_id"], ("file", plain["student_id"]), shown=name,
                               order=(0,), label="file") if plain else None)
        if attempt is None or not attempt.student:
            result.skipped.append(name)
            continue
        receipt = BLACKBOARD.fullmatch(name) if attempt.lms == "Blackboard" else None
        if receipt is not None and not receipt["file"]:
            continue  # the attempt's receipt, the LMS's own
        key = (attempt.who, attempt.label)
        attempt = attempts.setdefault(key, attempt)
        own = _own_name(attempt, relative) if regex is None else safe_name(name)
        if own in RESERVED:
            attempt.left_out.append(f"{name} (a name the course uses)")
            continue
        if own.endswith(".ipynb") and not attempt.notebooks:
            attempt.shown = relative
        if path is None:
            limit = "100 MiB" if own.endswith(".ipynb") else "20 MiB"
            attempt.left_out.append(f"{name} (over {limit})")
            continue
        while own in attempt.files:  # two files of one name in one attempt: keep both
            stem, dot, ext = own.rpartition(".")
            own = f"{stem or own}_{len(attempt.files)}{dot}{ext}" if dot else f"{own}_"
        attempt.files[own] = path
    by_student: dict[str, list[Attempt]] = {}
    for attempt in attempts.values():
        if attempt.notebooks:
            by_student.setdefault(attempt.student, []).append(attempt)
    for attempt in attempts.values():
        if attempt.notebooks:
            continue
        # files the LMS names apart from any notebook (Canvas names each file apart): they
        # go with the same person's newest attempt
        theirs = sorted((a for a in by_student.get(attempt.student, [])
                         if a.who == attempt.who), key=lambda a: a.order)
        if theirs:
            for own, path in attempt.files.items():
                theirs[-1].files.setdefault(own, path)
            theirs[-1].left_out.extend(attempt.left_out)
        elif attempt.left_out:
            result.refused.append((attempt.student, attempt.shown or attempt.label,
                                   f"nothing of it could be read: {', '.join(attempt.left_out)}"))
        else:
            result.skipped.extend(PurePosixPath(n).name for n in attempt.files)
    for student, found in list(by_student.items()):  # two people, one name: add their number
        people = {a.who for a in found}
        if len(people) > 1:
            del by_student[student]
            for attempt in found:
                attempt.student = f"{student}_{attempt.who[1]}"
                by_student.setdefault(attempt.student, []).append(attempt)
    for student in sorted(by_student):
        found = sorted(by_student[student], key=lambda a: a.order)
        result.submissions.append(Submission(found[-1], found[:-1]))
    result.layout = ", ".join(sorted({a.lms for a in attempts.values() if a.lms}))
    if not result.submissions and not result.refused:
        said = f"--pattern {pattern!r} matches" if pattern else \
            "is named as an LMS names it, or ID.ipynb"
        raise ValueError(f"no notebook in {source} {said}"
                         + (f" (found: {', '.join(result.skipped[:5])}"
                            f"{'…' if len(result.skipped) > 5 else ''})"
                            if result.skipped else " (it holds no files)"))
    return result


def _by_pattern(regex: re.Pattern[str], name: str, zone: datetime.tzinfo) -> Attempt | None:
    """Return the attempt the instructor's ``regex`` reads in the file ``name`` (notebooks
    only, matched with or without ``.ipynb``); None when it does not match."""
    if not name.endswith(".ipynb"):
        return None
    match = regex.fullmatch(name) or regex.fullmatch(name[:-len(".ipynb")])
    if match is None or not match["student_id"]:
        return None
    when = None
    stamp = match.groupdict().get("timestamp")
    if stamp:
        from nbgrader.utils import parse_utc

        try:
            when = parse_utc(stamp).replace(tzinfo=datetime.timezone.utc)
        except Exception:  # noqa: BLE001  dateutil raises several kinds
            when = None
    return Attempt(match["student_id"], ("pattern", match["student_id"]), shown=name,
                   timestamp=when, order=(when.isoformat() if when else "", name),
                   label=f"attempt-{when:%Y%m%dT%H%M%S}" if when else "pattern", lms="")


def _refuse_one_students_folder(source: Path, entries: list[tuple[str, Path | None]],
                                assignments: list[str]) -> None:
    """Raise ValueError when ``source`` holds notebooks named after an assignment (or copies
    of one) and no other: one student's folder, whose notebooks would each become a student
    named after the notebook."""
    names = sorted({PurePosixPath(rel).name for rel, _ in entries if rel.endswith(".ipynb")})
    own = re.compile("(" + "|".join(map(re.escape, assignments)) + ")" + COPY_SUFFIX
                     + r"\.ipynb")
    if names and all(own.fullmatch(name) for name in names):
        raise ValueError(f"{source} looks like one student's submission (it holds "
                         f"{', '.join(names[:4])}{'…' if len(names) > 4 else ''}, named after "
                         f"the assignment): submit it with --student ID; for a class, each "
                         "notebook is named after its student or as the LMS named it")


def _unzip(source: Path, into: Path) -> list[tuple[str, Path | None]]:
    """Write the members of the zip ``source`` to ``into``, each as ``N/its name`` (N its
    place in the zip); return (member's path, written path) of each, with None for a path
    when the member is over its size limit (a notebook over 100 MiB, another file over
    20 MiB). Raises ValueError for an unreadable zip, over 10,000 members or 2 GiB."""
    into.mkdir(parents=True, exist_ok=True)
    entries: list[tuple[str, Path | None]] = []
    total = 0
    try:
        with zipfile.ZipFile(source) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) > MAX_MEMBERS:
                raise ValueError(f"{source} holds over {MAX_MEMBERS} files")
            for index, member in enumerate(members):
                relative = member.filename.replace("\\", "/")
                name = PurePosixPath(relative).name
                if relative.startswith("__MACOSX/") or NOISE.fullmatch(name):
                    continue
                limit = MAX_NOTEBOOK_BYTES if name.endswith(".ipynb") else MAX_DATA_BYTES
                if member.file_size > limit:
                    entries.append((relative, None))
                    continue
                with archive.open(member) as stream:
                    data = stream.read(limit + 1)
                if len(data) > limit:
                    entries.append((relative, None))
                    continue
                total += len(data)
                if total > MAX_ZIP_BYTES:
                    raise ValueError(f"{source} unpacks to over 2 GiB")
                target = into / str(index) / safe_name(name)
                target.parent.mkdir()
                target.write_bytes(data)
                entries.append((relative, target))
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{source} cannot be read as a zip file: {error}") from None
    entries.sort(key=lambda entry: entry[0])
    return entries
