"""Write grading results into the course gradebook: ``plaisante.grading.record``, its one writer."""

from __future__ import annotations

import json
import os
import sqlite3
import warnings
from dataclasses import asdict
from pathlib import Path

from nbgrader.api import BaseCell, Grade, Gradebook, MissingEntry

from ..course import CourseLayout
from .result import SubmissionResult


def course_id_of(db_path: Path) -> str:
    """Return the course id stored in the gradebook at ``db_path`` (read-only)."""
    connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=60)
    try:
        row = connection.execute("SELECT id FROM course LIMIT 1").fetchone()
    finally:
        connection.close()
    return row[0] if row else "default_course"


def _record_one(gradebook: Gradebook, assignment: str, result: SubmissionResult) -> None:
    """Write one result: the student, the submission (timestamp), scores, penalty, flag."""
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
    gradebook.db.commit()


def record_results(root: Path, results: list[SubmissionResult], assignment: str) -> None:
    """See ``plaisante.grading.record``."""
    for result in results:
        if not isinstance(result, SubmissionResult):
            raise TypeError(f"record() takes SubmissionResult objects, got {type(result).__name__}")
    layout = CourseLayout(root)
    results = [r for r in results  # a grading of a submission replaced since: not recorded
               if r.still_current(layout.submitted(r.student, assignment).parent, assignment)]
    db_path = layout.gradebook
    if not db_path.is_file():
        raise FileNotFoundError(f"no gradebook at {db_path}: run `plaisante release` first")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nbgrader's SQLAlchemy session warnings
        with Gradebook("sqlite:///" + str(db_path), course_id_of(db_path)) as gradebook:
            try:
                gradebook.find_assignment(assignment)
            except MissingEntry:
                raise FileNotFoundError(f"assignment {assignment!r} is not in the gradebook: "
                                        "run `plaisante release` first") from None
            for result in results:
                try:
                    _record_one(gradebook, assignment, result)
                except Exception as error:  # noqa: BLE001  one result never stops the others
                    gradebook.db.rollback()
                    result.flag(f"could not be recorded with its timestamp: {error}"[:300])
                    result.timestamp = None
                    _record_one(gradebook, assignment, result)
    for result in results:
        target = layout.report(assignment, result.student)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.parent / f".{result.student}.json.{os.getpid()}.partial"
        partial.write_text(json.dumps(asdict(result), indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
        os.replace(partial, target)
