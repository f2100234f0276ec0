"""Where ``plaisante watch`` takes submissions from, and publishes its lab board to, when the
course's exchange is the exchange service (its ``nbgrader_config.py`` names this package's
``plugin.Collect`` as ``c.ExchangeFactory.collect``).

What it trusts of the service: the student is whom the hub said submitted (the service wrote
it, the caller could not), the time is the service's clock, and only the submission's
top-level files are written (as the file-system exchange's collect does). ``watch`` itself
keeps each student's newest, coalesces a flood and retries a call that failed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..course import STUDENT_ID, CourseLayout, check_ids, course_config
from ..live.watch import Collected, Handin, shown
from .client import ServiceClient, ServiceError
from .plugin import Collect, collect_into


class ServiceSource:
    """The exchange service's submissions of one course, called with the watcher's own hub
    token (``$JUPYTERHUB_API_TOKEN``: the instructor's or a grader's; ``SCOPE_GRADE``)."""

    def __init__(self, client: ServiceClient, course: str) -> None:
        self.client, self.course = client, course

    @property
    def where(self) -> str:
        return f"the exchange service {self.client.url} (course {self.course})"

    def board_url(self, assignment: str) -> str:
        """The board's page on the hub (behind its login)."""
        return f"{self.client.url}board/{self.course}/{assignment}/"

    def check(self, assignment: str) -> None:
        """Raise FileNotFoundError unless ``assignment`` is released on the service,
        PermissionError (one line) unless the token may grade."""
        try:
            released = [a["assignment_id"] for a in
                        self.client.call("GET", "assignments", self.course)]
            self.client.call("GET", "submissions", self.course, assignment)
        except ServiceError as error:
            if error.status in (401, 403):
                raise PermissionError(f"{error} (run watch with an instructor's or a "
                                      "grader's hub token)") from None
            raise ConnectionError(str(error)) from None
        if assignment not in released:
            raise FileNotFoundError(f"{assignment!r} is not released on {self.where}: run "
                                    f"`plaisante release {assignment}` first")

    def scan(self, assignment: str) -> tuple[dict[str, Handin], list[str]]:
        """Return each student's newest submission (by the service's time) and one line per
        submission refused (a hub user name nbgrader cannot take as a student id). Raises
        OSError (ConnectionError) when the service cannot be asked: watch retries."""
        try:
            newest = self.client.call("GET", "submissions", self.course, assignment)
        except ServiceError as error:
            raise ConnectionError(str(error)) from None
        latest, refused = {}, []
        for item in newest:
            student, name = str(item["student"]), str(item["id"])
            if not STUDENT_ID.fullmatch(student):
                refused.append(f"{shown(name)}: hub user {shown(student)!r} is not a student "
                               "id nbgrader takes (letters, digits, '_', '-')")
                continue
            latest[student] = Handin(student, name, Path(name), int(item["ns"]), (0, 0))
        return latest, refused

    def collect(self, layout: CourseLayout, handin: Handin, assignment: str, *,
                newer_than: int | None = None) -> Collected | None:
        """Write ``handin``'s top-level files into ``submitted/<student>/<assignment>/`` with
        the service's ``timestamp.txt``; None when it was collected before at that time.
        Raises OSError when the service cannot be asked."""
        check_ids(handin.student, assignment)
        if newer_than is not None and handin.arrived <= newer_than:
            return None
        try:
            answer = self.client.call("GET", "submissions", self.course, assignment,
                                      handin.student, handin.name)
        except ServiceError as error:
            raise ConnectionError(str(error)) from None
        target = layout.submitted_root / handin.student / assignment
        collect_into(answer, target, top_level_only=True)
        return Collected(target, handin.arrived)

    def publish_board(self, assignment: str, title: str, text: str) -> None:
        """Send ``board.json``'s text (with ``title``) to the service's board. Raises
        ConnectionError when it cannot."""
        import json

        data = json.loads(text)
        data["title"] = title
        try:
            self.client.call("PUT", "board", self.course, assignment,
                             raw=json.dumps(data).encode("utf-8"))
        except ServiceError as error:
            raise ConnectionError(str(error)) from None


def service_source(root: Path) -> ServiceSource | None:
    """Return the course's exchange service source when its ``nbgrader_config.py`` names this
    exchange (``c.ExchangeFactory.collect``), else None (nbgrader's file-system exchange).
    Raises ValueError (one line) when it names it without a course id or URL."""
    config: Any = course_config(root)
    named = config.get("ExchangeFactory", {}).get("collect")
    if named not in (f"{Collect.__module__}.{Collect.__name__}", Collect):
        return None
    course = config.get("CourseDirectory", {}).get("course_id")
    url = config.get("HubExchange", {}).get("service_url")
    if not isinstance(course, str) or not course:
        raise ValueError(f"{root / 'nbgrader_config.py'} sets no c.CourseDirectory.course_id")
    try:
        return ServiceSource(ServiceClient(url if isinstance(url, str) and url else
                                           os.environ.get("PLAISANTE_EXCHANGE_URL", "")),
                             course)
    except ServiceError as error:
        raise ValueError(str(error)) from None
