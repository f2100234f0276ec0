"""Many submissions in one go: a folder or a zip file (an LMS download), each file given to a
student, as nbgrader's ``zip_collect`` does.

    plaisante submit downloads.zip                    # Canvas, Moodle, Blackboard, Brightspace
    plaisante submit downloads.zip --pattern '(?P<student_id>[a-z]+)_\\d+_\\d+_deck'

Without ``--pattern`` each file's path is read the way the LMS of the download names what it
downloads (files it does not name are skipped; without an LMS, ``ID.ipynb``, the file named
after the student):

* Canvas: ``smithada_1234_5678_plaisante.ipynb`` (``_LATE_`` after the name when late; a
  resubmitted file gets ``-1``, ``-2`` before its extension and a new file number);
* Blackboard: ``Week 3_smithada_attempt_2026-12-01-10-30-15_plaisante.ipynb`` (and a receipt
  ``…_attempt_2026-12-01-10-30-15.txt``, the LMS's own);
* Brightspace: ``12345-67890 - Ada Smith - Dec 1, 2026 1030 AM - plaisante.ipynb``, as files or
  as folders of that name (and an ``index.html``, the LMS's own);
* Moodle: one folder per student, ``Ada Smith_12345_assignsubmission_file_/``, holding what
  the student uploaded (any notebooks, data files, subfolders), or flat,
  ``Ada Smith_12345_assignsubmission_file_plaisante.ipynb``.

The LMS is told from the whole download (``layout_of``: the one whose names read the most
files), and of each path only the LMS's part is read, never the name the student gave a file:
a file named ``x_alice_attempt_…`` or ``…_LATE_…`` by its uploader picks no one's id and no
time.

With ``--pattern``, a regex with a ``(?P<student_id>…)`` group that must match a whole file
name, with its ``.ipynb`` or without it; a ``(?P<timestamp>…)`` group, as nbgrader's
``FileNameCollector`` has, orders a student's attempts.

What one student handed in at once is one *attempt*: its notebooks (the grader grades the
one holding the work, ``plaisante.grading.handed_in``) and its data files. Of several
attempts of a student the newest is submitted, by the LMS's time (or file number, or
resubmission number), as nbgrader's collector keeps the newest; the others are *set aside*,
kept under ``assignments/replaced/`` and named in the output. Nothing of one student stops
the others being collected: ``read_download`` refuses the batch only when it can tell no one.
A person's name (Moodle, Brightspace) becomes the student id ``ada_smith`` (accents
dropped); two students of one name get their LMS user number (``ada_smith_12345``), which the
LMS keeps whatever name a student shows, and ``renamed`` says so. One student over
``MAX_STUDENT_FILES`` or ``MAX_STUDENT_BYTES`` is refused alone. Files an LMS
or an operating system adds (``index.html``, receipts, ``__MACOSX/``) are no one's.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

#: The default pattern: the file is named after the student, ``alice.ipynb``.
DEFAULT_PATTERN = r"(?P<student_id>[A-Za-z0-9][A-Za-z0-9_-]*)\.ipynb"
MAX_NOTEBOOK_BYTES = 100 * 1024 * 1024  # as notebook_check.MAX_FILE_BYTES
MAX_DATA_BYTES = 20 * 1024 * 1024  # as handed_in.MAX_DATA_BYTES
MiB = 1024 * 1024
#: what one student may hand in: over it, that student alone is refused
MAX_STUDENT_BYTES = 1024 * MiB
MAX_STUDENT_FILES = 1_000
#: a whole download, a last resort once students over their own caps are left out
MAX_ZIP_BYTES = 16 * 1024 * MiB
MAX_MEMBERS = 100_000
#: files an LMS or an operating system adds, never a student's: not collected, not listed
NOISE = re.compile(r"(index\.html?|\.DS_Store|Thumbs\.db|desktop\.ini|\._.*)", re.I)
#: names the course gives files of a submission folder: never taken from a download
RESERVED = {"timestamp.txt", "submission_secret.txt", "lms-late.txt"}  # handed_in.NOT_DATA
#: a copy or re-download of a notebook: ``plaisante-Copy1``, ``plaisante (1)``, ``plaisante-1``
COPY_SUFFIX = r"(?:-Copy\d*| ?\(\d+\)|-\d+)?"

#: Canvas writes the login as letters and digits; any other login without "_" or spaces is
#: read too (``kim.lee``), so that one nbgrader cannot take is refused saying how to map it
CANVAS = re.compile(r"(?P<name>[^_\s]+)(?P<late>_late)?_(?P<user>\d+)_(?P<number>\d+)_"
                    r"(?P<file>.+?)(?:-(?P<again>\d+))?(?P<ext>\.[A-Za-z0-9]+)?", re.I)
#: ``head`` is the LMS's ``TITLE_USER``: the first ``_attempt_DATE`` (lazy), so that a file
#: the student named ``x_alice_attempt_…`` is still read as its uploader's
BLACKBOARD = re.compile(r"(?P<head>[^/]+?)_attempt_"
                        r"(?P<when>\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})(?:_(?P<file>.+)|\.txt)?")
BRIGHTSPACE = re.compile(r"(?P<number>\d+)-(?P<user>\d+) - (?P<name>.+?) ?- "
                         r"(?P<when>[A-Z][a-z]{2} \d{1,2}, \d{4} \d{3,4} [AP]M)"
                         r"(?: - (?P<file>.+))?")
MOODLE = re.compile(r"(?P<name>.+?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?")
#: Moodle's download without "download submissions in folders"
MOODLE_FILE = re.compile(r"(?P<name>.+?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_"
                         r"(?P<file>.+)")
#: the LMSs, in the order that breaks a tie between two that read as many files
LMS_NAMES = ("Moodle", "Brightspace", "Canvas", "Blackboard")


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
    #: the person's name as the LMS gives it (Moodle, Brightspace), else ""
    person: str = ""
    #: the LMS user whose roster id ``student`` is (``read_download``'s ``users``), else ""
    roster_of: str = ""

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
class Download:
    """What a folder or zip holds: ``submissions`` in student order; ``found`` (student id,
    first notebook) and ``names`` (student id -> how the download names it) of each, and
    ``skipped`` (file names that are no student's: no notebook, or no name the layout or the
    pattern reads) and ``refused`` (student, as the download names it, why) of students none
    of whose notebooks could be unpacked or who are over a student's caps."""

    submissions: list[Submission] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[tuple[str, str, str]] = field(default_factory=list)
    layout: str = ""
    #: the LMS's user (login or user number) of each refused student, as ``refused`` names
    #: them: the roster's ``lms_user_id`` maps it (``plaisante.results.roster``)
    users: dict[str, str] = field(default_factory=dict)
    #: two or more people of one name: (that name's id, the ids given, with their LMS numbers)
    renamed: list[tuple[str, list[str]]] = field(default_factory=list)

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


def _brightspace(found: re.Match[str], shown: str, zone: datetime.tzinfo) -> Attempt:
    when = _lms_time(found["when"], "%b %d, %Y %I%M %p", zone)
    return Attempt(student_id(found["name"]), ("brightspace", found["user"]), shown=shown,
                   timestamp=when,
                   order=(when or datetime.datetime.min.replace(tzinfo=zone),
                          int(found["number"])),
                   label=f"attempt-{when:%Y%m%dT%H%M}" if when else "attempt",
                   lms="Brightspace", person=found["name"])


def read_path(relative: str, zone: datetime.tzinfo, lms: str, title: str | None = None,
              top: str = "") -> tuple[Attempt, str] | None:
    """Return the attempt the LMS ``lms`` (one of ``LMS_NAMES``, the whole download's) says
    the file ``relative`` (its path in the download, ``/``-separated) belongs to, its
    ``files`` still empty, and the file's own name (without what the LMS added; ``""`` for
    the LMS's own receipt); None when ``lms`` does not name it so. Only the LMS's part of a
    path is read: the outermost folder it names, or the start of a file name, never the
    name the student gave the file. ``zone``: the time zone of the LMS's times, which carry
    none. ``title``: Blackboard's assignment title (``blackboard_title``); without it the
    user is the head's last ``_`` part; with it, a head that does not start with it is not
    read. ``top``: the download's own folder (``top_folder``): a name the LMS gave a file
    itself (not a folder) is read only there, as an LMS writes no folders around it."""
    parts = [p for p in relative.split("/") if p]
    name = parts[-1]
    flat = "/".join(parts[:-1]) == top
    if lms in ("Moodle", "Brightspace"):
        for depth, part in enumerate(parts[:-1]):
            shown = "/".join(parts[depth:])
            moodle = MOODLE.fullmatch(part) if lms == "Moodle" else None
            if moodle:
                return (Attempt(student_id(moodle["name"]), ("moodle", moodle["user"]),
                                shown=shown, order=(0,), label="moodle", lms="Moodle",
                                person=moodle["name"]),
                        safe_name(name))
            space = BRIGHTSPACE.fullmatch(part) if lms == "Brightspace" else None
            if space:
                return _brightspace(space, shown, zone), safe_name(name)
    if not flat:
        return None
    if lms == "Moodle":
        moodle = MOODLE_FILE.fullmatch(name)
        if moodle:
            return (Attempt(student_id(moodle["name"]), ("moodle", moodle["user"]), shown=name,
                            order=(0,), label="moodle", lms="Moodle", person=moodle["name"]),
                    safe_name(moodle["file"]))
    if lms == "Brightspace":
        space = BRIGHTSPACE.fullmatch(name)
        if space and space["file"]:
            return _brightspace(space, name, zone), safe_name(space["file"])
    if lms == "Blackboard":
        board = BLACKBOARD.fullmatch(name)
        if board:
            head = board["head"]
            if title is not None and not head.startswith(title + "_"):
                return None  # not the download's assignment: no name the LMS gave
            user = head[len(title) + 1:] if title is not None else head.rpartition("_")[2]
            when = _lms_time(board["when"], "%Y-%m-%d-%H-%M-%S", zone)
            if not user:
                return None
            return (Attempt(user, ("blackboard", user), shown=name, timestamp=when,
                            order=(board["when"],), label=f"attempt-{board['when']}",
                            lms="Blackboard"),
                    safe_name(board["file"]) if board["file"] else "")
    if lms == "Canvas":
        canvas = CANVAS.fullmatch(name)
        if canvas:
            again = int(canvas["again"] or 0)
            own = name[canvas.start("file"):]
            if own.endswith(".ipynb"):  # a resubmitted file's -N: dropped from notebooks only
                own = canvas["file"] + (canvas["ext"] or "")
            return (Attempt(canvas["name"].lower(), ("canvas", canvas["user"]), shown=name,
                            late="Canvas marked it LATE" if canvas["late"] else None,
                            order=(int(canvas["number"]), again),
                            label=f"file-{canvas['number']}" + (f"-{again}" if again else ""),
                            lms="Canvas"), safe_name(own))
    return None


def blackboard_title(names: list[str]) -> str | None:
    """Return the assignment title that starts Blackboard's ``TITLE_USER_attempt_…`` names
    (the file names in the download's own folder, all the LMS's: one assignment): the
    longest ``_``-ended start all their distinct heads share, so that users with an ``_``
    (``ada_smith``) stay whole. None when fewer than two heads are there to compare (the
    user is then the head's last ``_`` part)."""
    heads = {m["head"] for n in names if (m := BLACKBOARD.fullmatch(n))}
    if len(heads) < 2:
        return None
    shared: dict[str, int] = {}
    for head in heads:
        for cut in (i for i, ch in enumerate(head) if ch == "_" and i > 0):
            shared[head[:cut]] = shared.get(head[:cut], 0) + 1
    titles = [title for title, count in shared.items() if count == len(heads)]
    return max(titles, key=len) if titles else None


def top_folder(relatives: list[str]) -> str:
    """Return the folder that holds every file of a download (``relatives``: their paths in
    it, ``/``-separated), ``""`` for the download itself: where an LMS's flat names are."""
    folders = [PurePosixPath(rel).parent.parts for rel in relatives]
    shared = list(folders[0]) if folders else []
    for parts in folders[1:]:
        same = 0
        while same < min(len(shared), len(parts)) and shared[same] == parts[same]:
            same += 1
        del shared[same:]
    return "/".join(shared)


def layout_of(relatives: list[str], zone: datetime.tzinfo) -> str:
    """Return the LMS whose names read the most files of a download (``relatives``: every
    file's path in it), ``""`` when none reads any. Told from the whole download, never one
    file: a student can name a file as another LMS would, not every file of the class."""
    top = top_folder(relatives)
    counts = {lms: sum(1 for rel in relatives if read_path(rel, zone, lms, top=top) is not None)
              for lms in LMS_NAMES}
    best = max(counts.values())
    return next(lms for lms in LMS_NAMES if counts[lms] == best) if best else ""


def read_download(source: Path, pattern: str | None = None, into: Path | None = None, *,
              zone: datetime.tzinfo = datetime.timezone.utc,
              assignments: list[str] | None = None, users: dict[str, str] | None = None,
              _depth: int = 0) -> Download:
    """Return the submissions in ``source`` (a folder, searched recursively, or a ``.zip``),
    read as the module doc says: by ``pattern`` when given, else by the names of the LMS the
    whole download reads as (``layout_of``; the files it does not name are skipped) or, when
    no LMS names any, as ``ID.ipynb``. Zip members are
    written to ``into`` under made-up folders (a member's own path is never used as one).
    ``zone``: the time zone of the LMS's times. ``assignments``: the course's ids; a
    download no LMS names whose notebooks are all named after one of them
    (``plaisante.ipynb``, ``plaisante-Copy1.ipynb``) is one student's, not a class's.
    ``users``: {LMS user: student id}, the roster's ``lms_user_id`` column
    (``roster.lms_users``): an LMS's attempt of such a user is that student's.

    One student over ``MAX_STUDENT_FILES`` files or ``MAX_STUDENT_BYTES`` (told from the
    zip's directory, before anything is written) is refused alone.

    A zip (or folder) holding nothing but one zip, a class download zipped once more, is
    read as that zip; one level only.

    Raises FileNotFoundError for a missing source, ValueError for a bad pattern, an unreadable
    zip, a zip three deep, one over ``MAX_MEMBERS`` files or ``MAX_ZIP_BYTES`` even without its
    refused students (naming the student with the most), one student's folder (say whose with
    ``--student``) or no notebook that names a student."""
    regex = compile_pattern(pattern) if pattern else None
    source = Path(source)
    listing = _listing(source, into, _depth)
    if len(listing) == 1 and listing[0][0].lower().endswith(".zip") and into is not None:
        return read_download(_inner_zip(source, listing[0], into), pattern, into / "inner",
                             zone=zone, assignments=assignments, users=users, _depth=_depth + 1)
    result = Download()
    read = _read_names(listing, regex, zone, users or {}, result)
    if regex is None and assignments and not any(a.lms for _, _, _, a, _ in read):
        _refuse_one_students_folder(source, [rel for rel, *_ in read], assignments)
    read = _within_caps(source, read, result)
    if into is not None and source.is_file():
        read = _unzipped(source, into, read)
    attempts = _attempts(read)
    _gather_submissions(attempts, result)
    result.layout = ", ".join(sorted({a.lms for a in attempts.values() if a.lms}))
    if not result.submissions and not result.refused:
        said = f"--pattern {pattern!r} matches" if pattern else \
            "is named as an LMS names it, or ID.ipynb"
        raise ValueError(f"no notebook in {source} {said}"
                         + (f" (found: {', '.join(result.skipped[:5])}"
                            f"{'…' if len(result.skipped) > 5 else ''})"
                            if result.skipped else " (it holds no files)"))
    return result


def _listing(source: Path, into: Path | None, depth: int) -> list[tuple[str, Any, int]]:
    """Return every file of ``source`` (a folder or a zip ``depth`` zips deep) as (its path
    in the download, where to read it: a ``Path`` or a zip member, its size in bytes), the
    operating systems' clutter left out; raise as ``read_download`` says."""
    if source.is_dir():
        files = sorted((p for p in source.rglob("*") if p.is_file() and not p.is_symlink()),
                       key=lambda p: str(p.relative_to(source)))
        listing: list[tuple[str, Any, int]] = [
            (p.relative_to(source).as_posix(), p, p.stat().st_size) for p in files]
    elif source.is_file() and zipfile.is_zipfile(source):
        if depth > 1:
            raise ValueError(f"{source} is a zip inside a zip inside a zip: unzip the download "
                             "down to the LMS's folder and give that folder to plaisante submit")
        if into is None:
            raise ValueError("a zip file needs a folder to unpack its notebooks into")
        listing = _zip_listing(source)
    elif source.exists():
        raise ValueError(f"{source} is neither a folder, a .zip file nor a notebook")
    else:
        raise FileNotFoundError(f"no folder or zip file at {source}")
    return [(rel, where, size) for rel, where, size in listing
            if not NOISE.fullmatch(PurePosixPath(rel).name) and not rel.startswith("__MACOSX/")]


def _read_names(listing: list[tuple[str, Any, int]], regex: re.Pattern[str] | None,
                zone: datetime.tzinfo, users: dict[str, str], result: Download
                ) -> list[tuple[str, Any, int, Attempt, str]]:
    """Return the files of ``listing`` whose names say whose they are, each with its
    ``Attempt`` and its own file name ("" for an LMS's receipt: left out), read by ``regex``,
    else by the LMS the whole download reads as, else as ``ID.ipynb``. A name no rule reads
    goes to ``result.skipped``; an attempt that names no student id, to ``result.refused``."""
    lms = "" if regex else layout_of([rel for rel, _, _ in listing], zone)
    top = top_folder([rel for rel, _, _ in listing])
    title = blackboard_title([PurePosixPath(rel).name for rel, _, _ in listing
                              if "/".join(PurePosixPath(rel).parent.parts) == top]) \
        if lms == "Blackboard" else None
    read: list[tuple[str, Any, int, Attempt, str]] = []
    for relative, where, size in listing:
        name = PurePosixPath(relative).name
        reading = None
        if regex:
            attempt = _by_pattern(regex, name, zone)
            reading = (attempt, safe_name(name)) if attempt else None
        elif lms:
            reading = read_path(relative, zone, lms, title, top)
        if reading is None and regex is None and not lms:  # in an LMS's download, a name
            plain = re.fullmatch(DEFAULT_PATTERN, name)    # it did not give is the student's
            reading = ((Attempt(plain["student_id"], ("file", plain["student_id"]), shown=name,
                              order=(0,), label="file"), name) if plain else None)
        if reading is not None and reading[0].lms and reading[0].who[1] in users:
            reading[0].roster_of = reading[0].who[1]
            reading[0].student = users[reading[0].who[1]]
        if reading is not None and not reading[0].student:
            who = reading[0].person or name
            result.refused.append((who, reading[0].shown or name,
                                   "the LMS's name gives no student id in ASCII letters or "
                                   "digits: submit their notebook with --student ID, or give "
                                   f"them an id in the roster CSV with {reading[0].who[1]} in "
                                   "its lms_user_id column (plaisante roster import) and "
                                   "submit the download again"))
            result.users[who] = reading[0].who[1]
            continue
        if reading is None:
            result.skipped.append(name)
            continue
        if reading[1]:  # "": the attempt's receipt, the LMS's own
            read.append((relative, where, size, *reading))
    return read


def _attempts(read: list[tuple[str, Any, int, Attempt, str]]) -> dict[tuple, Attempt]:
    """Return the attempts the ``read`` files make, each holding its files (by their own
    names, two of one name both kept) and what was left out of it (a name the course uses, a
    file over its size): {(who, label): attempt}."""
    attempts: dict[tuple, Attempt] = {}
    for relative, path, _size, attempt, own in read:
        name = PurePosixPath(relative).name
        attempt = attempts.setdefault((attempt.who, attempt.label), attempt)
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
    return attempts


def _gather_submissions(attempts: dict[tuple, Attempt], result: Download) -> None:
    """Add to ``result`` one submission per student (their newest attempt with a notebook,
    the older ones beside it), the attempts of no notebook refused (or their files given to
    the same person's newest attempt), and a number after the id of two people of one
    name."""
    by_student: dict[str, list[Attempt]] = {}
    for attempt in attempts.values():
        if attempt.notebooks:
            by_student.setdefault(attempt.student, []).append(attempt)
    for attempt in attempts.values():
        if not attempt.notebooks:
            _without_notebook(attempt, by_student, result)
    for student, found in list(by_student.items()):  # two people, one name: add their number
        people = {a.who for a in found}
        if len(people) > 1:
            del by_student[student]
            for attempt in found:
                attempt.student = f"{student}_{attempt.who[1]}"
                by_student.setdefault(attempt.student, []).append(attempt)
            result.renamed.append((student, sorted({a.student for a in found})))
    for student in sorted(by_student):
        found = sorted(by_student[student], key=lambda a: a.order)
        result.submissions.append(Submission(found[-1], found[:-1]))


def _without_notebook(attempt: Attempt, by_student: dict[str, list[Attempt]],
                      result: Download) -> None:
    """Give the files of ``attempt`` (no notebook among them) to the same person's newest
    attempt with one, or refuse it in ``result`` saying why."""
    # files the LMS names apart from any notebook (Canvas names each file apart): they go
    # with the same person's newest attempt
    theirs = sorted((a for a in by_student.get(attempt.student, []) if a.who == attempt.who),
                    key=lambda a: a.order)
    if theirs:
        for own, path in attempt.files.items():
            theirs[-1].files.setdefault(own, path)
        theirs[-1].left_out.extend(attempt.left_out)
    elif attempt.left_out:
        result.refused.append((attempt.student, attempt.shown or attempt.label,
                               f"nothing of it could be read: {', '.join(attempt.left_out)}"))
        result.users[attempt.student] = attempt.who[1]
    elif attempt.files:
        result.refused.append((attempt.student, attempt.shown or attempt.label,
                               no_notebook(attempt)))
        result.users[attempt.student] = attempt.who[1]


def no_notebook(attempt: Attempt) -> str:
    """Return, in one line, what ``attempt`` (files the LMS says are one student's, none of
    them a notebook) is and what the instructor does about it."""
    names = sorted(attempt.files)
    shown = ", ".join(names[:3]) + ("…" if len(names) > 3 else "")
    submit = f"submit it with --student {attempt.student}"
    if "_assignsubmission_onlinetext_" in attempt.shown:
        return ("Moodle online text only, no file handed in: ask them for the .ipynb and "
                f"{submit}")
    if any(name.lower().endswith(".zip") for name in names):
        return (f"handed in {shown}, not a notebook: unzip it and {submit}")
    if any(name.lower().endswith((".html", ".htm", ".pdf")) for name in names):
        return (f"handed in {shown}, an export, not a notebook: ask them for the .ipynb "
                f"(File > Download) and {submit}")
    return f"handed in {shown}, no notebook (.ipynb): ask them for it and {submit}"


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


def _refuse_one_students_folder(source: Path, relatives: list[str],
                                assignments: list[str]) -> None:
    """Raise ValueError when ``source`` holds notebooks named after an assignment (or copies
    of one) and no other: one student's folder, whose notebooks would each become a student
    named after the notebook."""
    names = sorted({PurePosixPath(rel).name for rel in relatives if rel.endswith(".ipynb")})
    own = re.compile("(" + "|".join(map(re.escape, assignments)) + ")" + COPY_SUFFIX
                     + r"\.ipynb")
    if names and all(own.fullmatch(name) for name in names):
        raise ValueError(f"{source} looks like one student's submission (it holds "
                         f"{', '.join(names[:4])}{'…' if len(names) > 4 else ''}, named after "
                         f"the assignment): submit it with --student ID; for a class, each "
                         "notebook is named after its student or as the LMS named it")


def _inner_zip(source: Path, member: tuple[str, Any, int], into: Path) -> Path:
    """Write the one zip ``member`` of the zip or folder ``source`` (a class download zipped
    once more) to ``into``; return where. Raises ValueError when it is over
    ``MAX_ZIP_BYTES``."""
    relative, where, size = member
    if size > MAX_ZIP_BYTES:
        raise ValueError(f"{source} holds only {relative}, of {size / MiB:.0f} MiB (at most "
                         f"{MAX_ZIP_BYTES // MiB} MiB in one download)")
    if isinstance(where, Path):
        return where
    into.mkdir(parents=True, exist_ok=True)
    target = into / "download.zip"
    try:
        with zipfile.ZipFile(source) as archive, archive.open(where) as stream, \
                open(target, "wb") as copy:
            while chunk := stream.read(MiB):
                copy.write(chunk)
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{source} cannot be read as a zip file: {error}") from None
    return target


def _zip_listing(source: Path) -> list[tuple[str, Any, int]]:
    """Return (member's path, its ZipInfo, its size as the zip's directory says) of each file
    in the zip ``source``, nothing unpacked. Raises ValueError for an unreadable zip."""
    try:
        with zipfile.ZipFile(source) as archive:
            return [(m.filename.replace("\\", "/"), m, m.file_size)
                    for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{source} cannot be read as a zip file: {error}") from None


def _limit(own: str) -> int:
    return MAX_NOTEBOOK_BYTES if own.endswith(".ipynb") else MAX_DATA_BYTES


def _refuse(result: Download, read: list, who: tuple[str, str], why: str) -> list:
    """Add the student ``who`` to ``result.refused`` with ``why``; return ``read`` without
    their files."""
    theirs = [entry for entry in read if entry[3].who == who]
    first = next((e for e in theirs if e[0].endswith(".ipynb")), theirs[0])
    result.refused.append((first[3].student, first[3].shown, why))
    result.users[first[3].student] = who[1]
    return [entry for entry in read if entry[3].who != who]


def _within_caps(source: Path, read: list, result: Download) -> list:
    """Return ``read`` without the files of students over ``MAX_STUDENT_FILES`` or
    ``MAX_STUDENT_BYTES`` (each counted as at most its file limit), who are refused alone.
    Raises ValueError, naming the student with the most, when the rest is still over
    ``MAX_MEMBERS`` files or ``MAX_ZIP_BYTES``."""
    counts: dict[tuple[str, str], list[int]] = {}
    for _rel, _where, size, attempt, own in read:
        count = counts.setdefault(attempt.who, [0, 0])
        count[0] += 1
        count[1] += min(size, _limit(own) + 1)
    for who, (files, size) in counts.items():
        if files > MAX_STUDENT_FILES:
            read = _refuse(result, read, who, f"{files} files, over the {MAX_STUDENT_FILES} "
                           "one student may hand in")
        elif size > MAX_STUDENT_BYTES:
            read = _refuse(result, read, who, f"{size / MiB:.0f} MiB of files, over the "
                           f"{MAX_STUDENT_BYTES // MiB} MiB one student may hand in")
    kept = {who: c for who, c in counts.items() if any(e[3].who == who for e in read)}
    total = [sum(c[0] for c in kept.values()), sum(c[1] for c in kept.values())]
    if total[0] > MAX_MEMBERS or total[1] > MAX_ZIP_BYTES:
        most = max(kept, key=lambda who: kept[who][1 if total[1] > MAX_ZIP_BYTES else 0])
        student = next(e[3].student for e in read if e[3].who == most)
        raise ValueError(f"{source} holds {total[0]} files, {total[1] / MiB:.0f} MiB (at most "
                         f"{MAX_MEMBERS} files, {MAX_ZIP_BYTES // MiB} MiB in one download): "
                         f"the most are {student}'s ({kept[most][0]} files, "
                         f"{kept[most][1] / MiB:.0f} MiB)")
    return read


def _unzipped(source: Path, into: Path, read: list) -> list:
    """Write the zip members of ``read`` to ``into``, each as ``N/its name`` (N its place in
    the zip); return ``read`` with the written path of each, None for a member over its size
    limit (a notebook over 100 MiB, another file over 20 MiB). zipfile never gives more of a
    member than the directory's ``file_size``, so ``_within_caps`` (which read the directory)
    bounds what is written. Raises ValueError for an unreadable zip."""
    into.mkdir(parents=True, exist_ok=True)
    done: list = []
    try:
        with zipfile.ZipFile(source) as archive:
            for index, (relative, member, size, attempt, own) in enumerate(read):
                limit = _limit(own)
                data = b""
                if size <= limit:
                    with archive.open(member) as stream:
                        data = stream.read(limit + 1)
                if size > limit or len(data) > limit:
                    done.append((relative, None, size, attempt, own))
                    continue
                target = into / str(index) / safe_name(PurePosixPath(relative).name)
                target.parent.mkdir()
                target.write_bytes(data)
                done.append((relative, target, size, attempt, own))
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{source} cannot be read as a zip file: {error}") from None
    done.sort(key=lambda entry: entry[0])
    return done
