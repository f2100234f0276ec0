"""The platform's Assignment and Grade Services (AGS) as the tool reaches them, through
pylti1p3: the access token (the tool's signed assertion, client credentials), line items,
scores posted, results read back; a platform down or refusing is one line (``LmsUnreachable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from ..boundary import NAME
from .registration import CourseRegistration

#: AGS scopes the tool asks its token for
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
RESULTS = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
LINEITEMS = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPES = [LINEITEMS, RESULTS, SCORE]

#: seconds a platform may take to answer one request
REQUEST_SECONDS = 30.0


class NoLineItem(ValueError):
    """An assignment whose grade column the registration does not give, nor lets the tool
    find: the message names the file and what to add."""


class LmsUnreachable(RuntimeError):
    """The platform could not be reached, or refused the tool (its token, a score): the
    message is one line naming the platform, what it said and what to do."""


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

        wanted: Any = {"label": assignment, "resourceId": assignment, "tag": NAME,
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
