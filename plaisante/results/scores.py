"""Read scores back from nbgrader's gradebook, per step of the assignment (SPEC §3).

Grade cells are named ``stepN_…``; a step's score is the sum of its cells' scores. ``class_rows``
reads a whole class (one ``Row`` per submission: steps, total, late penalty, nbgrader's flag and
the grader's reasons, the roster's name and email): what ``plaisante scores``, ``plaisante
export`` and ``plaisante report`` show, flagged work marked, and work that could not be graded
left out of averages.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import Gradebook

from ..course import CourseLayout
from .lateness import is_late, lms_said

STEP_OF_GRADE_ID = re.compile(r"^step(\d+)_")


def gradebook_url(root: Path) -> str:
    """Return the URL of the course's gradebook (``c.CourseDirectory.db_url``)."""
    return CourseLayout(Path(root)).gradebook_url


def step_scores(root: Path, student: str, assignment: str) -> dict[str, float]:
    """Return {'step1': points, …, 'total': points} for one student's autograded submission;
    a late submission also has 'late_penalty' (points off), and its total is after it, as in
    nbgrader's export.

    Raises nbgrader's MissingEntry if the student or submission is not in the gradebook.
    """
    with CourseLayout(Path(root)).open_gradebook() as gradebook:
        submission = gradebook.find_submission(assignment, student)
        totals: dict[str, float] = defaultdict(float)
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                match = STEP_OF_GRADE_ID.match(grade.name)
                step = f"step{match.group(1)}" if match else grade.name
                totals[step] += float(grade.score or 0)
        penalty = float(submission.late_submission_penalty or 0.0)
        if penalty:
            totals["late_penalty"] = penalty
        totals["total"] = max(0.0, float(submission.score) - penalty)
    return dict(sorted(totals.items()))


def cell_scores(root: Path, student: str, assignment: str) -> dict[str, float]:
    """Return {grade_id: points} for every grade cell of one student's submission."""
    with CourseLayout(Path(root)).open_gradebook() as gradebook:
        submission = gradebook.find_submission(assignment, student)
        return {grade.name: float(grade.score or 0)
                for notebook in submission.notebooks for grade in notebook.grades}


# ------------------------------------------------------------------------ the class, row by row

#: What a flagged submission without a stated reason says (a flag set in formgrader, say).
FLAGGED_WITHOUT_REASON = "flagged in the gradebook (no reason recorded: see formgrader)"


@dataclass
class Row:
    """One student's submission of one assignment, as the gradebook holds it.

    ``steps`` maps ``stepN`` to points and ``step_max`` to that step's maximum; ``raw`` is the
    sum before the late penalty and ``total`` after it (never below 0), as nbgrader's export
    computes it. ``flagged`` is nbgrader's own flag on the submitted notebook (``plaisante
    grade`` sets it on work it could not fully grade, and on work it graded soundly but with a
    note for the instructor); ``reasons`` are the grader's, from
    ``assignments/reports/<assignment>/<student>.json``, ``notes`` those of them that are
    notes. A flagged row is marked everywhere; one that could not be graded (``ungraded``) is
    left out of every average (``counted``), one only ``noted`` counts. ``manual`` lists the
    grade cells given a manual grade in the formgrader (nbgrader counts it instead of the
    autograded score); ``lms_late`` what the LMS said of work it marked late without its
    time ("" if none)."""

    assignment: str
    student: str
    first_name: str
    last_name: str
    email: str
    timestamp: str
    steps: dict[str, float]
    step_max: dict[str, float]
    cells: dict[str, float]
    cell_max: dict[str, float]
    raw: float
    late_penalty: float
    total: float
    max_total: float
    flagged: bool
    reasons: list[str] = field(default_factory=list)
    seconds_late: float = 0.0
    manual: list[str] = field(default_factory=list)
    lms_late: str = ""
    notes: list[str] = field(default_factory=list)
    #: where each failing test cell failed, as the grader's report says: {grade_id:
    #: "visible" (its visible checks) | "hidden" (only its hidden tests)}
    failed_in: dict[str, str] = field(default_factory=dict)

    @property
    def noted(self) -> bool:
        """Whether the work is flagged only with notes (``SubmissionResult.noted``): a sound
        grade with something for the instructor to check, counted and exported."""
        return self.flagged and bool(self.reasons) and \
            all(reason in self.notes for reason in self.reasons)

    @property
    def ungraded(self) -> bool:
        """Whether the work is flagged as not all gradable: its score is left out of averages
        and of the LMS export (a flag without reasons, set in the formgrader, is one)."""
        return self.flagged and not self.noted

    @property
    def late(self) -> bool:
        """Whether the work is late (``plaisante.results.lateness.is_late``: after the due date and
        any extension, or marked late by the LMS, ``lms_late`` saying how)."""
        return is_late(self.seconds_late, self.lms_late)

    @property
    def name(self) -> str:
        """The student's name from the roster ("first last"), or "" when the roster has none."""
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    @property
    def reason(self) -> str:
        """The reasons in one line ("" when not flagged)."""
        if not self.flagged:
            return ""
        return "; ".join(self.reasons) or FLAGGED_WITHOUT_REASON


def step_of(grade_id: str) -> str:
    """Return the step a grade cell counts in ("step3" for ``step3_has_pair``), or the grade id
    itself when it names no step."""
    match = STEP_OF_GRADE_ID.match(grade_id)
    return f"step{match.group(1)}" if match else grade_id


#: the most of one student's grading report (``assignments/reports/ID/STUDENT.json``) the
#: class's tables and pages read: its reasons may quote what the student wrote
MOST_REPORT_BYTES = 4 * 1024 * 1024


def _from_report(layout: CourseLayout, assignment: str,
                 student: str) -> tuple[list[str], list[str], dict[str, str]]:
    """Return, from the grader's report of a submission, its reasons, those of them that
    are notes (``SubmissionResult.notes``) and where each failing test cell failed
    (``SubmissionResult.failed_in``: {grade_id: "visible" | "hidden"}); ([], [], {}) if
    none. A report over ``MOST_REPORT_BYTES`` is not read: its one reason says so and where
    it is."""
    path = layout.report(assignment, student)
    try:
        size = path.stat().st_size
        if size > MOST_REPORT_BYTES:
            return [f"the grader's report of this submission holds {size / 2**20:.1f} MiB, "
                    f"more than the {MOST_REPORT_BYTES // 2**20} MiB read here: read {path} "
                    "by hand"], [], {}
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [], [], {}
    if not isinstance(report, dict):
        return [], [], {}
    reasons, notes, failed_in = report.get("reasons"), report.get("notes"), \
        report.get("failed_in")
    return ([str(r) for r in reasons] if isinstance(reasons, list) else [],
            [str(r) for r in notes] if isinstance(notes, list) else [],
            {str(k): str(v) for k, v in failed_in.items()} if isinstance(failed_in, dict)
            else {})


def rows_from(gradebook: Gradebook, layout: CourseLayout, assignment: str) -> list[Row]:
    """Return a Row for every student with a submission of ``assignment`` in the open
    ``gradebook`` (students without one are not listed), sorted by student id. Raises
    MissingEntry when the gradebook has no such assignment."""
    found = gradebook.find_assignment(assignment)
    rows = []
    for submission in found.submissions:
        student = submission.student
        steps: dict[str, float] = defaultdict(float)
        step_max: dict[str, float] = defaultdict(float)
        cells, cell_max = {}, {}
        manual: list[str] = []
        flagged = False
        for notebook in submission.notebooks:
            flagged = flagged or bool(notebook.flagged)
            for grade in notebook.grades:
                score, top = float(grade.score or 0), float(grade.max_score or 0)
                cells[grade.name], cell_max[grade.name] = score, top
                if grade.manual_score is not None:
                    manual.append(grade.name)
                steps[step_of(grade.name)] += score
                step_max[step_of(grade.name)] += top
        penalty = float(submission.late_submission_penalty or 0.0)
        raw = float(submission.score or 0.0)
        reasons, notes, failed_in = _from_report(layout, assignment, student.id)
        if not flagged:
            reasons, notes = [], []
        rows.append(Row(
            assignment=assignment, student=student.id, first_name=student.first_name or "",
            last_name=student.last_name or "", email=student.email or "",
            timestamp=str(submission.timestamp or ""),
            steps=dict(sorted(steps.items(), key=lambda kv: _step_key(kv[0]))),
            step_max=dict(sorted(step_max.items(), key=lambda kv: _step_key(kv[0]))),
            cells=cells, cell_max=cell_max, raw=raw, late_penalty=penalty,
            total=max(0.0, raw - penalty), max_total=float(found.max_score or 0.0),
            flagged=flagged,
            reasons=reasons, notes=notes,
            seconds_late=float(submission.total_seconds_late or 0.0), manual=manual,
            failed_in=failed_in,
            lms_late=lms_said(layout.submitted(student.id, assignment).parent)))
    return sorted(rows, key=lambda row: row.student)


def _step_key(step: str) -> tuple[int, str]:
    match = re.fullmatch(r"step(\d+)", step)
    return (int(match.group(1)), "") if match else (10**6, step)


def class_rows(root: Path, assignment: str) -> list[Row]:
    """Return ``rows_from`` the course gradebook at ``root``; [] when the course has no
    gradebook yet (nothing released: none is made here). Raises MissingEntry when the
    gradebook has no such assignment (not released)."""
    layout = CourseLayout(Path(root))
    if layout.gradebook_missing():
        return []
    with layout.open_gradebook() as gradebook:
        return rows_from(gradebook, layout, assignment)


def average(values: list[float]) -> float | None:
    """Return the mean of ``values``, None for none.

    >>> average([90.0, 60.0]), average([])
    (75.0, None)
    """
    return sum(values) / len(values) if values else None


def counted(rows: list[Row]) -> list[Row]:
    """Return the rows that count in averages: every one but work that could not be graded
    (``Row.ungraded``); work flagged only with a note counts."""
    return [row for row in rows if not row.ungraded]


# ------------------------------------------------------------------------------- test cells

@dataclass(frozen=True)
class TestCell:
    """A graded test cell as an instructor's report names it: its ``grade_id``, ``step``
    ("step3"), ``title`` (the first comment line of the *released* cell, which the students
    see, or "hidden tests of <step>" for a cell of hidden tests only: never its code),
    ``hidden`` (whether the source cell holds hidden tests) and ``points``."""

    __test__ = False  # not a pytest class

    grade_id: str
    step: str
    title: str
    hidden: bool
    points: float


def _step_titles(assignment: str) -> dict[str, str]:
    """Return {"step1": "Card", …} from the assignment's description ({} if it has none)."""
    from ..games import COURSE, load

    if assignment not in COURSE:
        return {}
    return {f"step{step.number}": step.title for step in load(assignment).steps}


def step_titles(assignment: str) -> dict[str, str]:
    """Return {"step1": "Card", …}: each step's title from the assignment's description
    (``plaisante.games``); {} for an assignment the course does not describe."""
    return _step_titles(assignment)


def test_cells(root: Path, assignment: str) -> list[TestCell]:
    """Return the test cells of ``assignment`` in notebook order, named from the release
    (``starter/``): what may be shown to anyone. Whether a cell holds hidden tests is read from
    the source notebook; nothing else of it is used."""
    import nbformat

    layout = CourseLayout(Path(root))
    release = nbformat.read(layout.release(assignment), as_version=4)
    source = nbformat.read(layout.source(assignment), as_version=4)
    hidden = {cell.metadata["nbgrader"]["grade_id"] for cell in source.cells
              if cell.metadata.get("nbgrader", {}).get("grade_id")
              and "BEGIN HIDDEN TESTS" in cell.source}
    titles = step_titles(assignment)
    cells = []
    for cell in release.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("grade") or meta.get("solution"):
            continue
        grade_id = meta["grade_id"]
        step = step_of(grade_id)
        cells.append(TestCell(grade_id, step, cell_title(cell.source, step, titles),
                              grade_id in hidden, float(meta.get("points", 0))))
    return cells


def cut_at_word(text: str, width: int) -> str:
    """Return ``text``, or when it is longer than ``width`` its words that fit with "…" after
    them (a single word longer than ``width`` is cut in it).

    >>> cut_at_word("a hand that leaves the last card", 24), cut_at_word("short", 24)
    ('a hand that leaves the…', 'short')
    """
    if len(text) <= width:
        return text
    head = text[: width - 1]
    if not text[width - 1].isspace() and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:(") + "…"


def cell_title(source: str, step: str, titles: dict[str, str], width: int = 120) -> str:
    r"""Return a test cell's short title from its released ``source``: its first line, a
    comment stating what it checks (with the comment lines that carry on its sentence, up to
    four lines and ``width`` characters in all), without the "Step N:" in front; "hidden
    tests of <step title>" for a cell of hidden tests only (no code but comments, or a
    comment saying so). Over ``width`` characters it is cut at a word (``cut_at_word``).

    >>> cell_title("# Step 3: has_flush (exactly 5 cards).\ncheck_has(has_flush)", "step3", {})
    'has_flush (exactly 5 cards).'
    >>> cell_title("# Step 1, hidden tests (they run when graded).", "step1", {"step1": "Card"})
    'hidden tests of Card'
    >>> cell_title("# == is true when both match, and the\n# hash agrees.\nx()", "step1", {})
    '== is true when both match, and the hash agrees.'
    """
    lines = source.splitlines()
    code = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    first = lines[0] if source.strip() else ""
    for line in lines[1:4]:  # a sentence carried on in the next comment lines, if it fits
        joined = f"{first.rstrip()} {line.lstrip().lstrip('#').strip()}"
        if (first.rstrip().endswith((".", "!", "?", ":")) or not line.lstrip().startswith("#")
                or len(joined) > width + 12):  # the "# Step N: " the title drops
            break
        first = joined
    title = re.sub(r"^#\s*(Step \d+\s*[:,]\s*)?", "", first).strip() if \
        first.startswith("#") else ""
    if not code or not title or title.lower().startswith("hidden tests"):
        title = f"hidden tests of {titles.get(step, step)}"
    return cut_at_word(title, width)


def cell_maxima(root: Path, assignment: str) -> dict[str, float]:
    """Return {grade_id: points} of every grade cell of ``assignment`` in the gradebook."""
    with CourseLayout(Path(root)).open_gradebook() as gradebook:
        found = gradebook.find_assignment(assignment)
        return {cell.name: float(cell.max_score)
                for notebook in found.notebooks for cell in notebook.grade_cells}


#: the file, beside an assignment's reports, naming the students LMS downloads named who
#: handed in nothing that could be submitted: {their id as a download names them: {"line":
#: what was said, "lms_user": the LMS's user}}, kept across downloads until answered
UNSUBMITTED = "not-submitted.json"


def _recorded(path: Path) -> dict[str, dict[str, str]]:
    """Return the record at ``path`` (``UNSUBMITTED``), {} when none or unreadable; an entry
    of the first form, {student: line}, is read with the student as its LMS user."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {str(student): {"line": str(entry), "lms_user": str(student)}
            if not isinstance(entry, dict) else
            {"line": str(entry.get("line", "")), "lms_user": str(entry.get("lms_user", student))}
            for student, entry in kept.items()}


def _answering(layout: CourseLayout, recorded: dict[str, dict[str, str]]) -> dict[str, set[str]]:
    """Return, of each student of ``recorded``, the ids a submission under which is theirs:
    the id the download named them by; for an id nbgrader cannot take (``kim.lee``), the id
    ``course.mapped_id`` maps it to (``kim_lee``, as the refusal told); the id the roster
    gives their LMS user (``lms_user_id``)."""
    from ..course import STUDENT_ID, mapped_id
    from .roster import lms_users

    roster = lms_users(layout.root) if recorded else {}
    return {student: {student, roster.get(entry["lms_user"], student),
                      student if STUDENT_ID.fullmatch(student) else mapped_id(student)}
            for student, entry in recorded.items()}


def _answered(layout: CourseLayout, assignment: str,
              recorded: dict[str, dict[str, str]]) -> set[str]:
    """Return the students of ``recorded`` whose work has been submitted since, under one of
    the ids ``_answering`` gives them."""
    have = set(layout.submitted_students(assignment))
    return {student for student, ids in _answering(layout, recorded).items() if ids & have}


def record_unsubmitted(layout: CourseLayout, assignment: str, lines: dict[str, str],
                       users: dict[str, str] | None = None) -> None:
    """Add ``lines`` ({student as a download of ``assignment`` names them: the line said})
    to what earlier downloads recorded in its reports folder (``UNSUBMITTED``), so that
    ``scores`` and the class report list them with nothing graded; ``users``: {student: the
    LMS's user} of those of ``lines``. A student named again gets the new line; one whose
    work has been submitted since (``_answered``) is dropped."""
    path = layout.report(assignment, "-").parent / UNSUBMITTED
    recorded = _recorded(path)
    for student, line in lines.items():
        recorded[student] = {"line": line, "lms_user": (users or {}).get(student, student)}
    for student in _answered(layout, assignment, recorded):
        del recorded[student]
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(f".{UNSUBMITTED}.new")
    fresh.write_text(json.dumps(recorded, indent=1, sort_keys=True, ensure_ascii=False),
                     encoding="utf-8")
    fresh.replace(path)  # whole or not at all: the only copy of who is missing


def unsubmitted(layout: CourseLayout, assignment: str) -> dict[str, str]:
    """Return the students LMS downloads of ``assignment`` named who handed in nothing that
    could be submitted and whose work has not been submitted since (``_answered``): {their
    id as the download names it: what was said of them}; {} when none (or the record is
    unreadable)."""
    recorded = _recorded(layout.report(assignment, "-").parent / UNSUBMITTED)
    answered = _answered(layout, assignment, recorded)
    return {student: entry["line"] for student, entry in recorded.items()
            if student not in answered}


def nothing_handed_in(layout: CourseLayout, assignment: str) -> dict[str, str]:
    """Return the gradebook's students (a roster's, or whoever autograding added) and the
    students the LMS downloads of ``assignment`` named who have no submission of it
    (``unsubmitted``): {id: why, in words: "on the roster" only for an id an imported roster
    held (``roster.roster_ids``), else "in the gradebook"}."""
    from .roster import roster_ids
    from .tables import plain

    have = set(layout.submitted_students(assignment))
    missing = {student: "the download named them, " + plain(line.split(": ", 1)[1])
               for student, line in unsubmitted(layout, assignment).items()}
    recorded = _recorded(layout.report(assignment, "-").parent / UNSUBMITTED)
    said = set().union(*(ids for student, ids in _answering(layout, recorded).items()
                         if student in missing))  # the roster's id of a refused login
    if not layout.gradebook_missing():
        with layout.open_gradebook() as gradebook:
            roster = [student.id for student in gradebook.students]
        on_roster = roster_ids(layout.root)
        for student in roster:
            if student not in have and student not in missing and student not in said:
                missing[student] = ("on the roster" if student in on_roster
                                    else "in the gradebook") + ", no submission"
    return missing
