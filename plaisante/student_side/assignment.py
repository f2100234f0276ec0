"""What an assignment of the course is, in one place: its steps, the parts the student writes in
each, the checks that judge them, and the game its last cell shows (SPEC §6).

Each game describes itself with one ``Assignment`` (Plaisante's: ``plaisante.games.plaisante``;
the course's list: ``plaisante.games.COURSE``). The gate of the last cell (``play``), the
placeholders of the setup cell, the step totals of ``plaisante scores`` and the CLI read it;
nothing else names a step or a part.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .markup import html, tag
from .style import CSS
from .tracebacks import stale_part
from .wire import described

Check = Callable[[Any], None]


@dataclass(frozen=True)
class Step:
    """One graded step: its number (grade ids start ``step<number>_``), a short title for the
    checklist, and the checks the gate runs, in order: (name of a part, check of that part).
    A check raises AssertionError naming the input, expected and actual value, and lets a
    part's NotImplementedError through."""

    number: int
    title: str
    checks: tuple[tuple[str, Check], ...]

    @property
    def parts(self) -> tuple[str, ...]:
        """The names the student writes in this step, in order, each once."""
        return tuple(dict.fromkeys(name for name, _ in self.checks))


@dataclass(frozen=True)
class Assignment:
    """One assignment: ``id`` (its folder under ``solutions/`` and ``starter/``, its nbgrader
    assignment id), a ``title``, its ``steps``, and ``game``: given every part as a keyword
    argument, return the widget the last cell shows once every step passes. ``presenter``, the
    same for the lecture-hall demo (``plaisante demo``), is the game itself when not given."""

    id: str
    title: str
    steps: tuple[Step, ...]
    game: Callable[..., Any] = field(repr=False)
    presenter: Callable[..., Any] | None = field(default=None, repr=False)

    def demo_view(self, **parts: Any) -> Any:
        """Return the presenter view (or the game) on ``parts``; options such as ``seed`` go
        through."""
        return (self.presenter or self.game)(**parts)

    @property
    def parts(self) -> tuple[str, ...]:
        """Every name the student writes, in step order, each once."""
        return tuple(dict.fromkeys(name for step in self.steps for name in step.parts))

    def step_of(self, part: str) -> int:
        """Return the step in which ``part`` is written. Raises KeyError for a name that is
        not one of this assignment's parts."""
        for step in self.steps:
            if part in step.parts:
                return step.number
        raise KeyError(f"{part!r} is not a part of {self.id!r}; its parts: "
                       f"{', '.join(self.parts)}")


# ----------------------------------------------------------------------------- placeholders

class PartNotDefined(NotImplementedError):
    """A part the student has not defined yet (or whose cell failed to run)."""


class Placeholder:
    """Callable stand-in for a part; calling it raises PartNotDefined naming the step."""

    def __init__(self, name: str, step: int):
        self.__name__, self.step = name, step

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PartNotDefined(f"{self.__name__} (step {self.step}) is not defined yet: run the cell "
                             "that defines it; if that cell shows an error, fix it first")

    def __repr__(self) -> str:
        return f"<{self.__name__}: not defined yet (step {self.step})>"


def placeholders(assignment: Assignment) -> dict[str, Placeholder]:
    """Return {part: Placeholder} for every part of ``assignment`` (the setup cell binds them,
    so a part whose cell failed shows as "not defined yet" instead of a NameError)."""
    return {name: Placeholder(name, assignment.step_of(name)) for name in assignment.parts}


# ----------------------------------------------------------------------------- the gate

#: What the last cell says above the game: what it checked (the parts the game runs on) and
#: what it did not (trace answers, own tests: their own cells and ``plaisante validate``).
ALL_VISIBLE_PASS = ("Every part the game runs on passes its visible checks, so here is the game. "
                    "Your trace answers and your own tests are checked in their own cells (or "
                    "run `plaisante validate` on the notebook); hidden tests run when your work "
                    "is graded and look for the classic mistakes each step warns about.")

#: Most characters of a failing case the checklist shows (a check's own are far shorter).
DETAIL_TEXT = 1000


@dataclass(frozen=True)
class StepResult:
    """How one step fared: status is 'pass', 'todo' (a stub still raises NotImplementedError)
    or 'fail'; ``detail`` is the first failing case (input, expected, actual) or ''."""

    step: int
    title: str
    status: str
    detail: str = ""


def check_step(step: Step, parts: dict[str, Any]) -> StepResult:
    """Run one step's checks on the student's parts and report the first failure."""
    for name, check in step.checks:
        try:
            check(parts[name])
        except PartNotDefined as missing:
            return StepResult(step.number, step.title, "todo", str(missing))
        except NotImplementedError as unfinished:
            return StepResult(step.number, step.title, "todo",
                              f"finish step {step.number}: "
                              + (stale_part(unfinished)
                                 or f"{name} still raises NotImplementedError"))
        except AssertionError as failure:  # a check's, or one the student's code raised
            return StepResult(step.number, step.title, "fail",
                              described(failure, DETAIL_TEXT, named=False))
        except Exception as error:  # a check that cannot even start, e.g. a broken class
            return StepResult(step.number, step.title, "fail",
                              f"{name}: {described(error, DETAIL_TEXT)}")
    return StepResult(step.number, step.title, "pass")


def check_all(assignment: Assignment, parts: dict[str, Any]) -> list[StepResult]:
    """Return one StepResult per step, in order. Raises TypeError naming any part missing
    from ``parts``."""
    missing = [name for name in assignment.parts if name not in parts]
    if missing:
        raise TypeError(f"play() needs every part: missing {', '.join(missing)}; "
                        f"expected keywords {', '.join(assignment.parts)}")
    return [check_step(step, parts) for step in assignment.steps]


def checklist_html(results: list[StepResult]) -> str:
    """Return the checklist as HTML: a row per step, ✔ ✎ or ✘ and a word (never colour alone),
    the first failing case, and the first step that needs work highlighted. The mark is hidden
    from screen readers (``aria-hidden``), which read each row as words, in order: "Step 1:
    Card — passes", then the failing case.

    Stable classes: ``plaisante-checklist``, ``plaisante-step`` plus ``plaisante-step-pass``,
    ``-todo`` or ``-fail``, ``plaisante-step-first`` on the first that needs work.
    """
    marks = {"pass": ("✔", "passes"), "todo": ("✎", "to do"), "fail": ("✘", "fails")}
    first = next(r for r in results if r.status != "pass")
    rows = (tag("li",
                tag("span", tag("span", marks[result.status][0], aria_hidden="true"),
                    f" Step {result.step}: {result.title} — {marks[result.status][1]}",
                    class_="plaisante-step-mark"),
                tag("div", tag("code", result.detail), class_="plaisante-step-detail")
                if result.detail else None,
                class_=["plaisante-step", f"plaisante-step-{result.status}",
                        "plaisante-step-first" if result is first else None])
            for result in results)
    return html(
        tag("style", CSS),
        tag("div",
            tag("h3", f"Not yet: step {first.step} ({first.title}) needs work before the game "
                      "can start"),
            tag("ul", rows),
            tag("div", f"{'Fix' if first.status == 'fail' else 'Finish'} step {first.step}, "
                       "run its cells again, then run this cell."),
            class_="plaisante-checklist"))


def checklist_widget(results: list[StepResult]) -> Any:
    """Return the checklist as an ipywidgets HTML that a saved notebook keeps as plain HTML
    too, so a reopened notebook shows the checklist, not ``HTML(value='<style>…')``."""
    from .card_widgets import Checklist  # only the view needs widgets; keeps the checks pure

    return Checklist(checklist_html(results))


def play(assignment: Assignment, parts: dict[str, Any], **options: Any) -> Any:
    """Check the student's ``parts``; return the assignment's game on them (``options`` go to
    it, e.g. a seed), or the checklist while a step fails.

    Under nbgrader (``NBGRADER_EXECUTION`` is set) only print a line and return None: grading
    never waits on a widget. Raises TypeError naming a part that was not passed.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print(f"{assignment.title}: the game is not shown while nbgrader runs this notebook.")
        return None
    results = check_all(assignment, parts)
    if any(result.status != "pass" for result in results):
        return checklist_widget(results)
    say_markdown(ALL_VISIBLE_PASS)
    return assignment.game(**options, **parts)


def say_markdown(text: str) -> None:
    """Show ``text`` (Markdown: ``code`` in backticks) as the notebook's rendered Markdown,
    which wraps at words in a narrow column, with ``text`` itself as its plain-text form;
    outside IPython, print it."""
    from IPython import get_ipython

    if get_ipython() is None:
        print(text)
        return
    from IPython.display import display

    show: Any = display  # IPython leaves display() untyped
    show({"text/markdown": text, "text/plain": text}, raw=True)
