"""Write grading results into the course gradebook: ``plaisante.grading.record``, its one writer.

The gradebook is whatever database the course's nbgrader config names
(``c.CourseDirectory.db_url``), opened through nbgrader's ``Gradebook``. Each result is one
transaction: it is in the gradebook whole or not at all. Two runs recording the same student at
once (an instructor and a TA, two ``grade`` runs) meet in the database: on PostgreSQL the later
insert of a row the other just made fails its unique constraint, or one of two crossing
transactions is chosen as a deadlock victim, and that result is simply written again over the
row now there; SQLite serialises writers with its file lock (a writer waits for the other's
commit, as nbgrader documents, and one waiting past SQLite's timeout fails the run with
GradebookUnreachable).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from nbgrader.api import BaseCell, Grade, Gradebook, MissingEntry

from ..course import CourseLayout
from .result import SubmissionResult

#: Times one result is written before a conflict with a concurrent writer counts as an error.
CONFLICT_TRIES = 5


def _conflict(error: BaseException) -> bool:
    """Whether ``error`` is a concurrent writer's doing, gone when the result is written again:
    a unique row the other transaction made first (SQLAlchemy's IntegrityError, which
    nbgrader re-raises as its InvalidEntry), a deadlock or a serialization failure."""
    from sqlalchemy.exc import DBAPIError, IntegrityError

    seen: BaseException | None = error
    for _ in range(5):  # the error, and what it was raised from or during
        if seen is None:
            return False
        if isinstance(seen, IntegrityError):
            return True
        orig = getattr(seen, "orig", None)
        code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if isinstance(seen, DBAPIError) and code in ("40001", "40P01"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@contextmanager
def _one_transaction(gradebook: Gradebook) -> Iterator[None]:
    """Within the block, nbgrader's ``Gradebook`` calls only flush where they would commit
    (each commits its own change: the student, then the submission and its empty grades),
    so what the block writes is committed once, by the caller, or not at all."""
    session = gradebook.db
    session.commit = session.flush  # this session's only: nbgrader calls self.db.commit()
    try:
        yield
    finally:
        del session.commit


def _record_retrying(gradebook: Gradebook, assignment: str, result: SubmissionResult) -> None:
    """``_record_one`` in one transaction, written again (after a rollback) while it meets a
    concurrent writer's row or lock (``_conflict``), at most ``CONFLICT_TRIES`` times."""
    for attempt in range(CONFLICT_TRIES):
        try:
            with _one_transaction(gradebook):
                _record_one(gradebook, assignment, result)
            gradebook.db.commit()
            return
        except Exception as error:
            gradebook.db.rollback()
            if not _conflict(error) or attempt == CONFLICT_TRIES - 1:
                raise


def _record_one(gradebook: Gradebook, assignment: str, result: SubmissionResult) -> None:
    """Write one result: the student, the submission (timestamp), scores, penalty, flag;
    not committed (``_record_retrying`` does)."""
    gradebook.update_or_create_student(result.student)
    extra = {"timestamp": result.timestamp} if result.timestamp else {}
    submission = gradebook.update_or_create_submission(assignment, result.student, **extra)
    notebooks = list(submission.notebooks)
    with gradebook.db.no_autoflush:  # one flush at the commit, not one per grade
        for index, notebook in enumerate(notebooks):
            # each grade with its cell's name in one query (``grade.name`` loads the cell:
            # a query per grade, most of a result's recording time)
            graded = (gradebook.db.query(Grade, BaseCell.name)
                      .join(BaseCell, Grade.cell_id == BaseCell.id)
                      .filter(Grade.notebook_id == notebook.id))
            for grade, name in graded:
                grade.auto_score = float(result.cell_scores.get(name, 0.0))
                grade.needs_manual_grade = False
            notebook.flagged = result.status == "flagged"
            # nbgrader keeps the penalty per notebook; an assignment of ours has one
            notebook.late_submission_penalty = result.late_penalty if index == 0 else None


def record_results(root: Path, results: list[SubmissionResult], assignment: str) -> None:
    """See ``plaisante.grading.record``."""
    for result in results:
        if not isinstance(result, SubmissionResult):
            raise TypeError(f"record() takes SubmissionResult objects, got {type(result).__name__}")
    layout = CourseLayout(root)
    results = [r for r in results  # a grading of a submission replaced since: not recorded
               if r.still_current(layout.submitted(r.student, assignment).parent, assignment)]
    if layout.gradebook_missing():
        raise FileNotFoundError(f"no gradebook at {layout.gradebook_file}: run `plaisante "
                                "release` first")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nbgrader's SQLAlchemy session warnings
        with layout.open_gradebook() as gradebook:
            require_assignment(gradebook, assignment)
            for result in results:
                try:
                    _record_retrying(gradebook, assignment, result)
                except Exception as error:
                    if _unreachable(error):
                        raise  # the database is gone: open_gradebook says so
                    # anything else is this result's own (a timestamp nbgrader refuses): the
                    # others are recorded still
                    result.flag(f"could not be recorded with its timestamp: {error}"[:300])
                    result.timestamp = None
                    _record_retrying(gradebook, assignment, result)
                write_report(layout, assignment, result)  # once its grades are committed


def write_report(layout: CourseLayout, assignment: str, result: SubmissionResult) -> None:
    """Write ``result``, reasons included, to ``layout.report(assignment, student)``
    (JSON, atomically)."""
    target = layout.report(assignment, result.student)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.parent / f".{result.student}.json.{os.getpid()}.partial"
    partial.write_text(json.dumps(asdict(result), indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    os.replace(partial, target)


def require_assignment(gradebook: Gradebook, assignment: str) -> Any:
    """Return ``assignment``'s gradebook entry; raise FileNotFoundError when it has none."""
    try:
        return gradebook.find_assignment(assignment)
    except MissingEntry:
        raise FileNotFoundError(f"assignment {assignment!r} is not in the gradebook: run "
                                "`plaisante release` first") from None


def _unreachable(error: BaseException) -> bool:
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    return isinstance(error, (OperationalError, InterfaceError)) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)
