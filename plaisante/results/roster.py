"""The class roster: names and emails in nbgrader's student table (``plaisante roster import``).

The file is a CSV (separated by commas, semicolons or tabs) with a header row naming an id
column (``id`` or ``student_id``: the ids students submit under) and any of ``first_name``,
``last_name``, ``email`` and ``lms_user_id`` (nbgrader's column: the student's login or user
number in the LMS, which may hold what an id may not, ``kim.lee``; ``plaisante submit`` files a
download's work of that LMS user under the roster's id). It is checked whole first; then
nbgrader's own ``nbgrader db student import`` writes it, so formgrader, ``plaisante scores``,
``export`` and ``report`` all show the names. Names and emails are plain text: one holding
markup (``<``, ``>``) or control characters is refused, naming its line (an LMS export is text
the students wrote).

nbgrader's student table also gains students without a roster (autograding adds whoever it
grades), so the ids each import brought are kept apart too (``roster_ids``): who is on the
roster and who is only in the gradebook.
"""

from __future__ import annotations

import csv
import json
import re
import tempfile
from pathlib import Path

from ..course import STUDENT_ID

ID_COLUMNS = ("id", "student_id")
OPTIONAL = ("first_name", "last_name", "email", "lms_user_id")
#: the longest LMS user nbgrader's student table holds
MOST_LMS_USER_CHARS = 128


#: What a name or email may not hold: the angle brackets of HTML tags (nbgrader's formgrader
#: writes names into its pages unescaped) and the control and text-direction characters that
#: would act in a terminal or reorder what it shows (as ``plaisante.results.tables.CONTROL``).
MARKUP = re.compile("[<>\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: Separators a roster may use: commas, semicolons (spreadsheets where the comma is the
#: decimal mark save CSV so) and tabs.
DELIMITERS = (",", ";", "\t")


def delimiter_of(header: str) -> str:
    """Return the separator of a roster whose header row is ``header``: the first of
    ``DELIMITERS`` that splits out an id column (a comma when none does)."""
    for delimiter in DELIMITERS:
        names = [name.strip().lower() for name in next(csv.reader([header], delimiter=delimiter))]
        if any(name in ID_COLUMNS for name in names):
            return delimiter
    return ","


def read_roster(path: Path) -> list[dict[str, str]]:
    """Return the roster's students as {"id", "first_name", "last_name", "email",
    "lms_user_id"} dicts ("" for a column the file does not have).

    Raises ValueError in one line naming the file, the line and what is allowed, for a file
    that is not UTF-8 CSV, has no id column, an id nbgrader cannot use, an id twice, or a
    name, email or LMS user holding markup (``MARKUP``), or one LMS user given twice or over
    ``MOST_LMS_USER_CHARS``."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text; save the roster as CSV (UTF-8)") from None
    lines = text.splitlines()
    reader = csv.DictReader(lines, delimiter=delimiter_of(lines[0] if lines else ""))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    id_column = next((name for name in ID_COLUMNS if name in header), None)
    if id_column is None:
        raise ValueError(f"{path}: no id column; the header row needs 'id' (or 'student_id') and "
                         f"may have {', '.join(OPTIONAL)} (found: {', '.join(header) or 'none'})")
    students, seen, users = [], set(), set()
    for line, raw in enumerate(reader, start=2):
        if None in raw or None in raw.values():  # fields missing, or more than the header's
            if not any((v or "").strip() for v in raw.values() if isinstance(v, str)):
                continue  # a blank line
            raise ValueError(f"{path} line {line}: not as many fields as the header row has "
                             f"({len(header)}: {', '.join(header)}); an empty field is written "
                             "as two separators in a row")
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        student = row.get(id_column, "")
        if not student and not any(row.values()):
            continue  # a blank line
        if not STUDENT_ID.fullmatch(student):
            raise ValueError(f"{path} line {line}: student id {student!r}: use ASCII letters, "
                             "digits, '_' and '-' (not first) only, as students submit under")
        if student in seen:
            raise ValueError(f"{path} line {line}: student id {student!r} appears twice")
        for name in OPTIONAL:
            if MARKUP.search(row.get(name, "")):
                raise ValueError(f"{path} line {line}: {name} {row[name]!r} holds markup or "
                                 "control characters (< > or a control or text-direction "
                                 "character); names and emails are plain text: remove them")
        user = row.get("lms_user_id", "")
        if user in users or len(user) > MOST_LMS_USER_CHARS:
            raise ValueError(f"{path} line {line}: lms_user_id {user!r} "
                             + ("appears twice: one LMS user is one student" if user in users
                                else f"is over {MOST_LMS_USER_CHARS} characters"))
        if user:
            users.add(user)
        seen.add(student)
        students.append({"id": student, **{name: row.get(name, "") for name in OPTIONAL}})
    if not students:
        raise ValueError(f"{path}: no students under the header row")
    return students


def import_roster(path: Path, root: Path) -> int:
    """Check the roster at ``path`` (``read_roster``) and write it into the gradebook of the
    course at ``root`` with ``nbgrader db student import``; return how many students it
    holds. Students already there get the roster's names and emails (and LMS users, when
    it gives any)."""
    from ..course import run_nbgrader

    students = read_roster(path)
    # without any, the column stays out: nbgrader would clear each student's LMS user
    columns = [c for c in OPTIONAL if c != "lms_user_id" or any(s[c] for s in students)]
    with tempfile.TemporaryDirectory(prefix="plaisante-roster-") as folder:
        clean = Path(folder) / "roster.csv"
        with open(clean, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=["id", *columns], extrasaction="ignore")
            writer.writeheader()
            writer.writerows(students)
        run_nbgrader("db", "student", "import", str(clean), "--log-level=WARN", root=root)
    record_roster(root, [student["id"] for student in students])
    return len(students)


def roster_path(root: Path) -> Path:
    """The course's record of the ids its rosters brought (``roster_ids``)."""
    return Path(root) / "assignments" / "reports" / "roster.json"


def roster_ids(root: Path) -> set[str]:
    """Return the ids every roster imported into the course at ``root`` so far held (a JSON
    list in ``roster_path``); an empty set when none was imported (or the record is
    unreadable)."""
    try:
        data = json.loads(roster_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {str(student) for student in data} if isinstance(data, list) else set()


def record_roster(root: Path, students: list[str]) -> None:
    """Add ``students`` (ids) to the course's record of roster ids (a new file renamed over
    the old one)."""
    path = roster_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(f".{path.name}.new")
    fresh.write_text(json.dumps(sorted(roster_ids(root) | set(students)), indent=1),
                     encoding="utf-8")
    fresh.replace(path)


def lms_users(root: Path) -> dict[str, str]:
    """Return {LMS user: student id} of the gradebook's students of the course at ``root``
    that have an ``lms_user_id`` (the roster's column); {} when none or no gradebook yet."""
    from ..course import CourseLayout

    layout = CourseLayout(Path(root))
    if layout.gradebook_missing():
        return {}
    with layout.open_gradebook() as gradebook:
        return {str(student.lms_user_id): str(student.id) for student in gradebook.students
                if student.lms_user_id}
