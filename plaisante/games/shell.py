"""The shell every game shares, between the game's pure model and the student's parts: the two
ways an action can fail, one way to call a student's part, and one way for a view to run an
action and say how it went. Pure: no widget, no grading import.

- ``IllegalAction``: the game's rules refuse the action now (the student did nothing wrong);
  the message names the rule.
- ``StudentCodeError``: one of the student's parts raised, or left the game in a state the
  rules do not allow. It names the notebook step of that part, read from the game's
  ``Assignment`` (``StudentParts.error``), so a step is never written twice.
- ``StudentParts(assignment).calling(part, what)``: the block in which a model calls a part;
  any exception from it becomes a ``StudentCodeError`` naming the step.
- ``act(action, stopped)``: what a view runs on a click; it returns the message line to show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..student_side.assignment import Assignment
from ..student_side.wire import described


class IllegalAction(Exception):
    """An action the game's rules do not allow now; the message names the rule (and, where
    there is a choice, what is allowed)."""


class StudentCodeError(Exception):
    """A student's part raised, or left the game in a state its rules do not allow.

    ``step`` (int) is the notebook step the part is written in, ``function`` (str) the name
    shown to the student (the part, or one of its methods such as ``toggle_selection``) and
    ``error`` the original exception (None when a rule of the game was broken). ``str()`` is
    ``"step <step>, <function>: <message>"``. Build one with ``StudentParts.error`` so the step
    comes from the assignment."""

    def __init__(self, step: int, function: str, message: str,
                 error: BaseException | None = None) -> None:
        super().__init__(f"step {step}, {function}: {message}")
        self.step, self.function, self.error = step, function, error


@dataclass(frozen=True)
class StudentParts:
    """How a game's model reaches the student's parts of ``assignment``: the errors it raises
    name the step ``assignment.step_of`` gives."""

    assignment: Assignment

    def error(self, part: str, message: str, error: BaseException | None = None, *,
              function: str | None = None) -> StudentCodeError:
        """Return the StudentCodeError for ``part`` (one of the assignment's parts) with
        ``message``; ``function`` is the name shown when it is not the part itself (a method
        of a student's class). Raises KeyError naming the parts for any other ``part``."""
        return StudentCodeError(self.assignment.step_of(part), function or part, message, error)

    @contextmanager
    def calling(self, part: str, what: str, *, function: str | None = None) -> Iterator[None]:
        """Run the block that calls the student's ``part``: an IllegalAction or a
        StudentCodeError raised in it goes through unchanged; any other exception becomes
        ``error(part, f"{what}: {type}: {message}")``, chained to it, SystemExit and the
        student's own BaseException classes included (an ``exit()`` left in a part would
        otherwise end the click's handler with no word). ``what`` says what the game was doing
        ("could not deal"). KeyboardInterrupt (the instructor's interrupt) goes through."""
        step = self.assignment.step_of(part)  # a wrong part is the kit's bug: say so at once
        try:
            yield
        except (IllegalAction, StudentCodeError, KeyboardInterrupt):
            raise
        except BaseException as error:  # noqa: B036  a student's part may raise anything
            raise StudentCodeError(step, function or part, f"{what}: {described(error)}",
                                   error) from error


def act(action: Callable[[], object], stopped: str = "Your code stopped the table") -> str:
    """Run a view's ``action`` (a click) and return the message line to show, as text (a view
    writes it with ``student_side.markup``, which escapes it): ``""`` when it went through,
    ``"⚠ <the rule>"`` for an IllegalAction and ``"⚠ <stopped> (step N, part: …). Fix step N
    and run its cells again."`` for a StudentCodeError. Any other exception (the kit's own
    bug) goes through."""
    try:
        action()
    except IllegalAction as rule:
        return f"⚠ {rule}"
    except StudentCodeError as error:
        return stopped_message(error, stopped)
    return ""


def stopped_message(error: StudentCodeError, stopped: str = "Your code stopped the table") -> str:
    """Return the line (text) for ``error`` that ``act`` shows (``stopped`` is its opening
    words, e.g. "Your Machine stopped")."""
    return f"⚠ {stopped} ({error}). Fix step {error.step} and run its cells again."


#: No number of a round (a score, credits, a bet) is larger; a view could not even print one
#: over 4,300 digits (Python refuses such an int's str()), so a larger one is the student's bug.
LARGEST_NUMBER = 2 ** 63 - 1


def number_shown(value: object) -> bool:
    """Return True when ``value`` is an exact int of at most 18 digits, one a view can show."""
    return type(value) is int and -LARGEST_NUMBER <= value <= LARGEST_NUMBER


def said(value: object) -> str:
    """Return ``short(value)``, or "an int of about N digits" for an int too large to show."""
    if type(value) is int and not number_shown(value):
        return f"an int of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    return short(value)


def short(value: object, limit: int = 120) -> str:
    """Return ``repr(value)`` cut to ``limit`` characters (the last one "…"), or
    ``"<unprintable: <class>: <message>>"`` when that repr raises (a student's object may,
    anything but KeyboardInterrupt)."""
    try:
        text = repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: B036  a student's __repr__ may raise anything
        text = f"<unprintable: {described(error)}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"
