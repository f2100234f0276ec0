"""Scores from nbgrader's gradebook to the platform's grade book: LTI Advantage Assignment and
Grade Services (AGS), through pylti1p3.

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
from ..scores import Row, rows_from
from .registration import CourseRegistration

#: AGS scopes the tool asks its token for
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
RESULTS = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
LINEITEMS = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPES = [LINEITEMS, RESULTS, SCORE]

#: seconds a platform may take to answer one request
REQUEST_SECONDS = 30.0

FULLY_GRADED, PENDING_MANUAL = "FullyGraded", "PendingManual"


class NoLineItem(ValueError):
    """An assignment whose grade column the registration does not give, nor lets the tool
    find: the message names the file and what to add."""


class LmsUnreachable(RuntimeError):
    """The platform could not be reached, or refused the tool (its token, a score): the
    message is one line naming the platform, what it said and what to do."""


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


# ------------------------------------------------------------------------- the platform's side

def http_session() -> Any:
    """A requests session whose every request gives up after ``REQUEST_SECONDS``."""
    import requests

    class Session(requests.Session):
        def request(self, method: str, url: str, **kwargs: Any) -> Any:  # type: ignore[override]
            kwargs.setdefault("timeout", REQUEST_SECONDS)
            return super().request(method, url, **kwargs)

    session = Session()
    session.headers["User-Agent"] = "plaisante-lti"
    return session


@dataclass
class Platform:
    """The course's platform as pylti1p3 reaches it: one service connector (the access token
    asked once, for ``SCOPES``) over a session with time limits."""

    registration: CourseRegistration
    connector: Any = None

    def __post_init__(self) -> None:
        from pylti1p3.service_connector import ServiceConnector

        self.connector = ServiceConnector(self.registration.pylti_registration(),
                                          http_session())

    def service(self, lineitem: str = "") -> Any:
        """pylti1p3's ``AssignmentsGradesService`` on the course's line items."""
        from pylti1p3.assignments_grades import AssignmentsGradesService

        data: dict[str, Any] = {"scope": SCOPES, "lineitems": self.registration.lineitems_url}
        if lineitem:
            data["lineitem"] = lineitem
        return AssignmentsGradesService(self.connector, data)  # type: ignore[arg-type]

    def lineitem(self, assignment: str, maximum: float) -> str:
        """Return the line item URL of ``assignment``: the registration's, else the one of
        the course's container whose resourceId is the assignment id, made when missing.
        Raises ValueError when the registration gives neither."""
        given = self.registration.lineitems.get(assignment)
        if given:
            return given
        if not self.registration.lineitems_url:
            raise NoLineItem(
                f"no line item for {assignment!r}: give its URL under lineitems in "
                f"{self.registration.source}, or the course's lineitems_url")
        from pylti1p3.lineitem import LineItem

        wanted: Any = {"label": assignment, "resourceId": assignment, "tag": "plaisante",
                       "scoreMaximum": maximum}
        found = self.service().find_or_create_lineitem(LineItem(wanted), find_by="resource_id")
        return str(found.get_id())

    def send(self, lineitem: str, score: dict[str, Any]) -> None:
        """Post one AGS score to ``lineitem``."""
        from pylti1p3.grade import Grade
        from pylti1p3.lineitem import LineItem

        grade = (Grade().set_user_id(score["userId"]).set_score_maximum(score["scoreMaximum"])
                 .set_activity_progress(score["activityProgress"])
                 .set_grading_progress(score["gradingProgress"])
                 .set_timestamp(score["timestamp"]).set_comment(score["comment"]))
        if "scoreGiven" in score:
            grade.set_score_given(score["scoreGiven"])
        self.service(lineitem).put_grade(grade, LineItem({"id": lineitem}))

    def results(self, lineitem: str) -> dict[str, dict[str, Any]]:
        """Return the platform's results on ``lineitem``: {userId: AGS result}, every page."""
        url = results_url(lineitem)
        found: dict[str, dict[str, Any]] = {}
        while url:
            page = self.connector.make_service_request(
                SCOPES, url, accept="application/vnd.ims.lis.v2.resultcontainer+json")
            body = page["body"]
            if not isinstance(body, list):
                raise LmsUnreachable(f"the platform's results of {lineitem} are not a list")
            for result in body:
                if isinstance(result, dict) and result.get("userId") is not None:
                    found[str(result["userId"])] = result
            url = page["next_page_url"]
        return found


def results_url(lineitem: str) -> str:
    """The AGS results address of the line item ``lineitem``: its path and ``/results``, its
    query kept (Moodle's line items carry ``?type_id=…``)."""
    parts = urlparse(lineitem)
    return parts._replace(path=parts.path.rstrip("/") + "/results").geturl()


def unreachable(registration: CourseRegistration, error: BaseException) -> LmsUnreachable:
    """Return the one-line ``LmsUnreachable`` for ``error``, raised while talking to the
    platform of ``registration``."""
    import requests
    from pylti1p3.exception import LtiServiceException

    host = urlparse(registration.auth_token_url).netloc
    if isinstance(error, LtiServiceException):
        response = error.response
        said = " ".join((response.text or "").split())[:200]
        if response.url.split("?")[0] == registration.auth_token_url:
            return LmsUnreachable(
                f"the platform {host} refused the tool's token (HTTP {response.status_code}"
                f"{': ' + said if said else ''}): check client_id in lti.json and that the "
                "platform holds the tool's public key (plaisante lms key)")
        return LmsUnreachable(f"the platform {host} refused {response.url} (HTTP "
                              f"{response.status_code}{': ' + said if said else ''})")
    if isinstance(error, requests.Timeout):
        return LmsUnreachable(f"the platform {host} did not answer within "
                              f"{REQUEST_SECONDS:g} s")
    if isinstance(error, requests.ConnectionError):
        return LmsUnreachable(f"the platform {host} cannot be reached "
                              f"({type(error).__name__}: connection refused or dropped)")
    return LmsUnreachable(f"the platform {host}: {type(error).__name__}: "
                          f"{' '.join(str(error).split())[:200]}")


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
    return f"plaisante lms: sent to {host}: " + ("; ".join(parts) or "no assignment")


# --------------------------------------------------------------------------------- status

@dataclass(frozen=True)
class Standing:
    """One student's score of one assignment in the gradebook (``outcome``, None when the
    gradebook has none) beside what the platform holds (``held``: its AGS result, None
    when it has none); ``state`` says how they compare: "same", "differs", "not sent",
    "pending" (waiting for a grade by hand, as sent) or "only on the LMS"."""

    assignment: str
    student: str
    outcome: Outcome | None
    held: dict[str, Any] | None
    state: str


def compare(outcome: Outcome | None, held: dict[str, Any] | None) -> str:
    """How the platform's result ``held`` stands against the gradebook's ``outcome``."""
    if outcome is None:
        return "only on the LMS"
    if held is None:
        return "not sent"
    score = held.get("resultScore")
    if outcome.score_given is None:
        return "pending" if score is None else "differs"
    if score is None:
        return "differs"
    got = float(score)
    maximum = held.get("resultMaximum")
    if maximum not in (None, 0) and float(maximum) != outcome.score_maximum:
        got = got * outcome.score_maximum / float(maximum)  # scaled to the line item's
    return "same" if abs(got - outcome.score_given) < 1e-6 else "differs"


def status(layout: CourseLayout, registration: CourseRegistration, assignments: list[str],
           platform: Platform | None = None) -> list[Standing]:
    """Return, for each of ``assignments`` and each student in the gradebook or on the
    platform's line item, how the platform's result stands against the gradebook. Raises
    LmsUnreachable (one line) when the platform cannot be reached or refuses."""
    from nbgrader.api import MissingEntry

    platform = platform or Platform(registration)
    standings: list[Standing] = []
    for assignment in assignments:
        try:
            found = {o.user_id: o for o in outcomes(layout, registration, assignment)}
        except MissingEntry:
            found = {}
        ledger = read_ledger(layout, assignment)
        lineitem = registration.lineitems.get(assignment) or next(
            (entry.get("lineitem", "") for entry in ledger.values() if entry.get("lineitem")),
            "")
        try:
            if not lineitem and found and registration.lineitems_url:
                lineitem = platform.lineitem(assignment, next(iter(found.values())).score_maximum)
            held = platform.results(lineitem) if lineitem else {}
        except (NoLineItem, LmsUnreachable):
            raise
        except Exception as error:  # noqa: BLE001  requests' and pylti1p3's, in one line
            raise unreachable(registration, error) from error
        for user in sorted(set(found) | set(held)):
            outcome = found.get(user)
            standings.append(Standing(assignment, outcome.student if outcome else user,
                                      outcome, held.get(user), compare(outcome, held.get(user))))
    return standings


def status_table(standings: list[Standing]) -> str:
    """The terminal table of ``status`` (rich): assignment, student, the gradebook's score,
    the platform's, and how they stand."""
    from rich import box
    from rich.table import Table

    from ..tables import cell, render

    table = Table(box=box.SIMPLE_HEAD, title="The gradebook against the LMS")
    for name in ("assignment", "student", "gradebook", "LMS", "state"):
        table.add_column(name, justify="right" if name in ("gradebook", "LMS") else "left")
    for standing in standings:
        outcome, held = standing.outcome, standing.held
        mine = ("" if outcome is None else "needs grading" if outcome.score_given is None
                else f"{points(outcome.score_given)} / {points(outcome.score_maximum)}")
        theirs = ("" if held is None else "no score" if held.get("resultScore") is None
                  else f"{points(float(held['resultScore']))} / "
                       f"{points(float(held.get('resultMaximum') or 0))}")
        table.add_row(cell(standing.assignment), cell(standing.student), cell(mine),
                      cell(theirs), cell(standing.state))
    return render(table)


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
