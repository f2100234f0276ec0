"""Scores from nbgrader's gradebook to the platform's grade book: LTI Advantage Assignment and
Grade Services (AGS), through pylti1p3 (``ags``).

Each student's submission of an assignment becomes one AGS score on that assignment's line
item (``registration.CourseRegistration.lineitems``, or the one whose ``resourceId`` is the
assignment id in the course's ``lineitems_url``, made there when missing):

* graded (by ``plaisante grade``, noted work included): ``scoreGiven`` the total after any late
  penalty, ``scoreMaximum`` the assignment's points, ``gradingProgress`` FullyGraded,
  ``activityProgress`` Completed, a comment with the points and where the feedback is;
* given a manual grade in the formgrader: the same, the total counting it, its comment saying
  it was graded by hand (posted later, so it replaces the autograded one);
* flagged as not all gradable (``scores.Row.ungraded``) and given no grade by hand yet: no
  ``scoreGiven`` at all, ``gradingProgress`` PendingManual, ``activityProgress`` Submitted:
  the platform shows the work as waiting to be graded, never as 0. Once the instructor gives
  it a manual grade in the formgrader, it is sent as graded by hand, like any other.

The AGS ``userId`` is the student's ``lms_user_id`` in nbgrader's student table when set, else
the LTI user id their launches recorded (``identities``), else the student id.

A score's ``timestamp`` is when it was first sent as it is: ``assignments/reports/<id>/lms.json``
keeps, per student, what was last sent and when, so sending the same score again sends the
same timestamp (the platform keeps one result), and a changed one gets a new, later one. That
file is the only one written; the gradebook is only read. A platform that cannot be reached or
refuses the tool's token stops the push with one line (``LmsUnreachable``); the scores sent
before it stay recorded, and the next push sends them again, unchanged, with the rest.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..course import CourseLayout
from ..results.scores import Row, rows_from
from .ags import LmsUnreachable, NoLineItem, Platform, unreachable
from .registration import CourseRegistration

#: AGS gradingProgress of a score given, and of work waiting for a grade by hand
FULLY_GRADED, PENDING_MANUAL = "FullyGraded", "PendingManual"


@dataclass(frozen=True)
class Outcome:
    """What the platform is told of one student's submission: the AGS score fields
    (``score_given`` None for work that waits for a grade by hand)."""

    assignment: str
    student: str
    user_id: str
    score_given: float | None
    score_maximum: float
    grading_progress: str
    activity_progress: str
    comment: str

    def payload(self, timestamp: str) -> dict[str, Any]:
        """The AGS score (``application/vnd.ims.lis.v1.score+json``) sent at ``timestamp``."""
        score: dict[str, Any] = {
            "userId": self.user_id, "scoreMaximum": self.score_maximum,
            "activityProgress": self.activity_progress,
            "gradingProgress": self.grading_progress, "timestamp": timestamp,
            "comment": self.comment}
        if self.score_given is not None:
            score["scoreGiven"] = self.score_given
        return score

    def digest(self, lineitem: str) -> str:
        """A fingerprint of what is sent (not when), to tell a changed score."""
        fields = [lineitem, self.user_id, self.score_given, self.score_maximum,
                  self.grading_progress, self.activity_progress, self.comment]
        return hashlib.sha256(json.dumps(fields).encode()).hexdigest()


def points(value: float) -> str:
    """``15``, ``7.5``."""
    return f"{value:g}"


def outcome_of(row: Row, user_id: str, feedback: str) -> Outcome:
    """Return the outcome of ``row`` (module doc) for the platform's user ``user_id``, the
    comment pointing to ``feedback`` (an address, or "" for none)."""
    where = f" Feedback: {feedback}" if feedback else ""
    if row.ungraded and not row.manual:
        return Outcome(row.assignment, row.student, user_id, None, row.max_total,
                       PENDING_MANUAL, "Submitted",
                       "Handed in; it could not be graded automatically, so your instructor "
                       "grades it by hand." + where)
    how = "graded by hand" if row.manual else "autograded"
    late = (f", {points(row.late_penalty)} points off for lateness"
            if row.late_penalty else "")
    return Outcome(row.assignment, row.student, user_id, round(row.total, 4), row.max_total,
                   FULLY_GRADED, "Completed",
                   f"{points(row.total)} / {points(row.max_total)} points, {how}{late}." + where)


def outcomes(layout: CourseLayout, registration: CourseRegistration, assignment: str,
             students: list[str] | None = None) -> list[Outcome]:
    """Return the outcome of every submission of ``assignment`` in the gradebook (only
    ``students``' when given), by student id. Raises nbgrader's MissingEntry for an
    assignment the gradebook does not have."""
    if layout.gradebook_missing():
        return []
    from .identities import launched

    lms_ids = launched(layout.root)
    with layout.open_gradebook() as gradebook:
        rows = rows_from(gradebook, layout, assignment)
        lms_ids.update({s.id: s.lms_user_id for s in gradebook.students if s.lms_user_id})
    return [outcome_of(row, lms_ids.get(row.student) or row.student,
                       registration.feedback_address(row.student, assignment))
            for row in rows if not students or row.student in students]


# ----------------------------------------------------------------------- what was sent, when

def ledger_path(layout: CourseLayout, assignment: str) -> Path:
    """Where what was last sent of ``assignment`` is kept."""
    return layout.report(assignment, "lms").with_name("lms.json")


def read_ledger(layout: CourseLayout, assignment: str) -> dict[str, dict[str, str]]:
    """Return {student: {"digest", "timestamp", "lineitem"}} of what was last sent ({} if
    nothing, or an unreadable file: the scores are then sent with new timestamps)."""
    try:
        data = json.loads(ledger_path(layout, assignment).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_ledger(layout: CourseLayout, assignment: str, data: dict[str, Any]) -> None:
    """Replace the ledger of ``assignment`` with ``data`` at once (a new file renamed over)."""
    path = ledger_path(layout, assignment)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".lms.json.{os.getpid()}")
    partial.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    partial.replace(path)


def now() -> str:
    """The current time as AGS writes it: ISO 8601, UTC, milliseconds."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


# ----------------------------------------------------------------------------------- push

@dataclass
class Pushed:
    """What one push did for one assignment: scores ``sent``, of which ``changed`` were new
    or different from what the platform was last sent, and ``pending`` of them waiting for a
    grade by hand; ``lineitem`` the URL they went to."""

    assignment: str
    lineitem: str = ""
    sent: int = 0
    changed: int = 0
    pending: int = 0
    total: int = 0


def push(layout: CourseLayout, registration: CourseRegistration, assignments: list[str],
         students: list[str] | None = None, platform: Platform | None = None) -> list[Pushed]:
    """Send every score of ``assignments`` (``students``' only when given) to the platform;
    return what was sent, per assignment. Raises LmsUnreachable (one line, saying how many
    were sent before it) when the platform cannot be reached, refuses or answers what is not
    AGS; NoLineItem (a ValueError) when an assignment has no line item."""
    from nbgrader.api import MissingEntry

    platform = platform or Platform(registration)
    done: list[Pushed] = []
    for assignment in assignments:
        try:
            found = outcomes(layout, registration, assignment, students)
        except MissingEntry:
            continue  # not released: nothing graded
        pushed = Pushed(assignment, total=len(found))
        done.append(pushed)
        if not found:
            continue
        ledger = read_ledger(layout, assignment)
        try:
            pushed.lineitem = platform.lineitem(assignment, found[0].score_maximum)
            for outcome in found:
                digest = outcome.digest(pushed.lineitem)
                last = ledger.get(outcome.student, {})
                same = last.get("digest") == digest
                stamp = last["timestamp"] if same and last.get("timestamp") else now()
                platform.send(pushed.lineitem, outcome.payload(stamp))
                ledger[outcome.student] = {"digest": digest, "timestamp": stamp,
                                           "lineitem": pushed.lineitem}
                write_ledger(layout, assignment, ledger)
                pushed.sent += 1
                pushed.changed += not same
                pushed.pending += outcome.score_given is None
        except (NoLineItem, LmsUnreachable):
            raise
        except Exception as error:  # noqa: BLE001  requests' and pylti1p3's, said in one line
            problem = unreachable(registration, error)
            raise LmsUnreachable(
                f"{problem}; {sum(p.sent for p in done)} score(s) sent before it "
                f"({pushed.sent} of {pushed.total} of {assignment}); nothing in the "
                "gradebook changed: run `plaisante lms push` again to send the rest") from error
    return done


def pushed_line(done: list[Pushed], registration: CourseRegistration) -> str:
    """One line saying what ``push`` did."""
    host = urlparse(registration.auth_token_url).netloc
    parts = []
    for pushed in done:
        if not pushed.total:
            parts.append(f"{pushed.assignment}: nothing graded")
            continue
        extra = [f"{pushed.changed} new or changed"] if pushed.changed != pushed.sent else []
        extra += [f"{pushed.pending} waiting for a grade by hand"] if pushed.pending else []
        parts.append(f"{pushed.assignment}: {pushed.sent} score(s)"
                     + (f" ({', '.join(extra)})" if extra else ""))
    if not any(pushed.total for pushed in done):  # the platform was never called
        return f"plaisante lms: nothing sent to {host} (not asked): " + (
            "; ".join(parts) or "no assignment")
    return f"plaisante lms: sent to {host}: " + ("; ".join(parts) or "no assignment")


def after_grading(root: Path, assignments: list[str], students: list[str] | None = None) -> str:
    """Send the scores just graded (``assignments``, ``students``' only when given) when the
    course at ``root`` has an LTI registration; return the line to show ("" when the course
    has none). Never raises for the platform: a platform down, a token refused, a broken
    registration or key is that line (starting "plaisante lms:"), and the grades stay as
    graded."""
    from .registration import load

    layout = CourseLayout(Path(root))
    try:
        registration = load(layout.root)
        if registration is None:
            return ""
        done = push(layout, registration, assignments, students)
    except (LmsUnreachable, ValueError, FileNotFoundError, PermissionError) as error:
        return f"plaisante lms: scores not all sent: {error}"
    except ImportError as error:
        return (f"plaisante lms: scores not sent: {error.name} is not installed "
                "(pip install -r requirements.txt)")
    return pushed_line(done, registration)
