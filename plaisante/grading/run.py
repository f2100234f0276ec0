"""Grade one submission in a sandbox (``grade_submission``), record results in the course
gradebook from one process (``record``), and tell whose submissions there are
(``submitted_among``). ``parallel.grade`` and ``parallel.grade_parallel`` do both for a
class."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..course import CourseLayout, check_ids
from .result import Limits, SubmissionResult

DEFAULT_LIMITS = Limits()  # frozen: safe as a default


def submitted_students(root: Path, assignment: str) -> list[str]:
    """Return the ids of students with an ``assignments/submitted/<id>/<assignment>`` folder,
    sorted."""
    return CourseLayout(Path(root)).submitted_students(assignment)


def submitted_among(root: Path, assignment: str, students: Iterable[str] | None) -> list[str]:
    """Return ``students`` without repeats (default: every submitted student, sorted), each
    checked: a well-formed id with a submission of ``assignment``. Raises ValueError naming
    the first that is not."""
    available = submitted_students(root, assignment)
    chosen = list(dict.fromkeys(students)) if students is not None else available
    for student in chosen:
        check_ids(student, assignment)
        if student not in available:
            raise ValueError(f"no submission of {assignment!r} for student {student!r} in "
                             f"{Path(root) / 'assignments' / 'submitted'}")
    return chosen


def grade_submission(root: Path, student: str, assignment: str, *,
                     limits: Limits = DEFAULT_LIMITS, sandbox: bool = True) -> SubmissionResult:
    """Autograde one student's submission and return how it ended; never raises for anything
    the submission holds or does.

    Runs nbgrader's own autograde preprocessors on the notebook in memory (the assignment's
    source cells read once per process from the course gradebook, never written:
    ``plaisante.grading.autograde``), with the kernel in a bubblewrap sandbox when ``sandbox``
    (forked from this process's zygote, in namespaces of its own; no network, no view of the
    course folder, ``limits`` enforced, every process killed at the end). Writes the autograded
    notebook to ``assignments/autograded/<student>/<assignment>/`` and nothing else in the
    course: the course gradebook is only read. Safe to call from several processes at once
    for different students.

    Raises ValueError for a malformed id, FileNotFoundError when the course has no gradebook
    entry for ``assignment`` (run ``plaisante release`` first), and RuntimeError when
    ``sandbox`` is asked for but bubblewrap cannot run here.
    """
    from .submission import grade_one

    check_ids(student, assignment)
    return grade_one(Path(root).resolve(), student, assignment, limits=limits, sandbox=sandbox)


def record(root: Path, results: Iterable[SubmissionResult], assignment: str) -> None:
    """Write ``results`` into the course gradebook (the database ``c.CourseDirectory.db_url``
    names; by default ``assignments/gradebook.db``).

    The only function that writes the course gradebook; call it from one coordinating process.
    Each result's ``cell_scores`` become the auto scores of the submission's grades (created
    through nbgrader's ``Gradebook`` API, student included); a flagged result sets nbgrader's
    own review flag on the submitted notebook. Every result is also written, reasons included,
    to ``assignments/reports/<assignment>/<student>.json``. Re-recording a student overwrites
    their earlier scores. Each result is one transaction; a concurrent writer's row or lock
    makes it be written again. Raises FileNotFoundError when the gradebook has no
    ``assignment``, GradebookUnreachable (a RuntimeError) when its database cannot be used.
    """
    from .gradebook import record_results

    record_results(Path(root).resolve(), list(results), assignment)
