"""What the platform's grade book holds beside nbgrader's gradebook (``plaisante lms status``):
each student's result read back through AGS, compared with the score the gradebook gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..course import CourseLayout
from .ags import LmsUnreachable, NoLineItem, Platform, unreachable
from .passback import Outcome, outcomes, points, read_ledger
from .registration import CourseRegistration


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


def known_lineitem(layout: CourseLayout, registration: CourseRegistration,
                   assignment: str) -> str:
    """Return the line item URL of ``assignment`` known without asking the platform (the
    registration's ``lineitems``, else the one scores were last sent to); "" if none."""
    ledger = read_ledger(layout, assignment)
    return registration.lineitems.get(assignment) or next(
        (entry.get("lineitem", "") for entry in ledger.values() if entry.get("lineitem")), "")


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
        lineitem = known_lineitem(layout, registration, assignment)
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

    from ..results.tables import cell, render

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
