"""Grades out of the gradebook for a grade book: nbgrader export plugins (SPEC §5).

``plaisante export`` runs ``nbgrader export --exporter=…`` with one of these, so nbgrader's
gradebook stays the record and its export command does the work:

* ``StepsCsvExport`` (the default, ``--layout steps``): one row per submission, under its
  assignment: ``assignment, duedate, timestamp, student_id, last_name, first_name, email``, each
  step's points (``step1`` …), ``raw_score, late_submission_penalty, score, max_score``, then
  ``flagged`` (``yes``: could not be graded in full; ``noted``: a sound grade with a note for
  the instructor; ``no``), ``reason`` (the grader's reasons for flagged work), ``late``
  (``yes``/``no``: after the due date and any extension, with or without a penalty method)
  and ``seconds_late`` (lateness as ``plaisante.results.lateness`` rules it: work its LMS marked
  late without its time is ``late`` ``yes`` with ``seconds_late`` empty). Due dates and
  timestamps are ISO 8601 with their zone, any fraction of a second kept
  (``2026-12-01T10:30:15.250000+00:00``). Only students who have something for an assignment are
  listed under it.
* ``LmsCsvExport`` (``--layout lms``): what a learning platform's grade book imports: one row
  per student of the roster or with a submission, ``student_id, last_name, first_name, email``,
  then one column per assignment holding the score after any late penalty. The cell is empty
  when the student has nothing for that assignment, or when the work could not be graded in
  full (its score is not a real measure of the work: grade it by hand, then fill it in); a
  noted grade is exported.

Names and emails come from nbgrader's student table, filled with ``plaisante roster import``.
A text cell that a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return: a roster's ``=HYPERLINK(…)``) is written with a ``'`` in
front (``cell``); numbers are written as they are.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin

from ..course import CourseLayout
from .lateness import time_text
from .scores import Row, rows_from

BASE_COLUMNS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name",
                "email"]
SCORE_COLUMNS = ["raw_score", "late_submission_penalty", "score", "max_score", "flagged",
                 "reason", "late", "seconds_late"]


def utc_text(value: Any) -> str:
    """Return a gradebook time as ISO 8601 with its zone, its fraction of a second kept
    (``plaisante.results.lateness.time_text``); "" for none.

    >>> utc_text("2026-12-01 10:30:15.250000"), utc_text(None)
    ('2026-12-01T10:30:15.250000+00:00', '')
    """
    return time_text(value)


def number(value: float) -> str:
    """Return points as a CSV cell: ``15``, ``7.5``.

    >>> number(15.0), number(7.5), number(0.0)
    ('15', '7.5', '0')
    """
    return f"{value:g}"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def cell(value: Any) -> str:
    """Return ``value`` as a CSV cell no spreadsheet runs as a formula: text starting with
    ``= + - @``, a tab or a carriage return gets a ``'`` in front; a number stays as it is.

    >>> cell("=HYPERLINK(1)"), cell("@SUM(1+1)"), cell("-2.5"), cell("Ada")
    ("'=HYPERLINK(1)", "'@SUM(1+1)", '-2.5', 'Ada')
    """
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def flag_cell(row: Row) -> str:
    """Return the ``flagged`` cell of ``row``: "yes" (could not be graded in full), "noted"
    (a sound grade with a note) or "no"."""
    return "noted" if row.noted else "yes" if row.flagged else "no"


def write_row(out: Any, values: Iterable[Any]) -> None:
    """Write one CSV row of ``values``, each through ``cell``."""
    out.writerow([cell(value) for value in values])


class _CourseExport(ExportPlugin):
    """What both layouts share: the course (nbgrader's course root) and its rows."""

    def _layout(self) -> CourseLayout:
        coursedir = getattr(self.parent, "coursedir", None)
        return CourseLayout(Path(coursedir.root if coursedir is not None else "."))

    def _assignments(self, gradebook: Gradebook) -> list[str]:
        """The gradebook's assignments (only those asked for, if any), in the course's
        teaching order, then any other."""
        from ..games import COURSE

        names = [a.name for a in gradebook.assignments]
        names = [a for a in COURSE if a in names] + sorted(a for a in names if a not in COURSE)
        wanted = [str(a) for a in self.assignment]
        return [name for name in names if not wanted or name in wanted]

    def _rows(self, gradebook: Gradebook, assignment: str) -> list[Row]:
        try:
            rows = rows_from(gradebook, self._layout(), assignment)
        except MissingEntry:
            return []
        wanted = {str(s) for s in self.student}
        return [row for row in rows if not wanted or row.student in wanted]

    def _target(self) -> str:
        return self.to or "grades.csv"


class StepsCsvExport(_CourseExport):
    """One row per submission with each step's points, flagged and reason (module doc)."""

    def export(self, gradebook: Gradebook) -> None:
        assignments = self._assignments(gradebook)
        rows = {a: self._rows(gradebook, a) for a in assignments}
        steps = list(dict.fromkeys(step for a in assignments for row in rows[a]
                                   for step in row.steps))
        duedates = {a.name: a.duedate for a in gradebook.assignments}
        self.log.info("Exporting %d submission(s) of %s to %s", sum(map(len, rows.values())),
                      ", ".join(assignments) or "no assignment", self._target())
        with open(self._target(), "w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            write_row(out, BASE_COLUMNS + steps + SCORE_COLUMNS)
            for assignment in assignments:
                for row in rows[assignment]:
                    write_row(out, [
                        assignment, utc_text(duedates.get(assignment)), utc_text(row.timestamp),
                        row.student, row.last_name, row.first_name, row.email,
                        *(number(row.steps[s]) if s in row.steps else "" for s in steps),
                        number(row.raw), number(row.late_penalty), number(row.total),
                        number(row.max_total), flag_cell(row), row.reason,
                        "yes" if row.late else "no",
                        "" if row.lms_late and not row.seconds_late
                        else number(row.seconds_late)])


class LmsCsvExport(_CourseExport):
    """An id column and one column per assignment, as LMS grade books import (module doc)."""

    def export(self, gradebook: Gradebook) -> None:
        assignments = self._assignments(gradebook)
        wanted = {str(s) for s in self.student}
        students = {s.id: s for s in gradebook.students if not wanted or s.id in wanted}
        cells: dict[str, dict[str, str]] = {sid: {} for sid in students}
        for assignment in assignments:
            for row in self._rows(gradebook, assignment):
                cells.setdefault(row.student, {})[assignment] = (
                    "" if row.ungraded else number(row.total))
        self.log.info("Exporting %d student(s) × %d assignment(s) to %s", len(cells),
                      len(assignments), self._target())
        with open(self._target(), "w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            write_row(out, ["student_id", "last_name", "first_name", "email", *assignments])
            for sid in sorted(cells):
                student = students.get(sid)
                write_row(out, [sid, getattr(student, "last_name", "") or "",
                              getattr(student, "first_name", "") or "",
                              getattr(student, "email", "") or "",
                              *(cells[sid].get(a, "") for a in assignments)])


LAYOUTS = {"steps": "plaisante.results.export.StepsCsvExport",
           "lms": "plaisante.results.export.LmsCsvExport"}
