"""The notebook's last cell: check the student's steps, then show the game or what still fails.

``play(...)`` takes every part the student wrote as an explicit keyword argument. It runs the
same checks as the visible test cells (``plaisante.checks``). While any step fails it returns
a checklist; once all pass it returns a playable ``RoundView`` built on the student's code.
Under nbgrader (``NBGRADER_EXECUTION`` is set) it only prints a line: grading never waits on
a widget.
"""

from __future__ import annotations

import html
import itertools
import os
from dataclasses import dataclass
from typing import Any, Callable

from . import checks
from .placeholders import PartNotDefined

# (step, title, what to call for the step's checks: name of the part → check function)
STEPS: tuple[tuple[int, str, tuple[tuple[str, Callable[[Any], None]], ...]], ...] = (
    (1, "Card", (("Card", checks.check_card),)),
    (2, "count_values", (("count_values", checks.check_count_values),)),
    (3, "the has-checks", tuple((name, lambda f, name=name: checks.check_has(f, name))
                                for name in checks.HAS_CHECK_CASES)),
    (4, "scoring", (("evaluate", checks.check_evaluate), ("total_value", checks.check_total_value),
                    ("base_mult", checks.check_base_mult), ("score", checks.check_score))),
    (5, "Tableau", (("Tableau", checks.check_toggle_selection),
                    ("Tableau", checks.check_move_selected))),
)
PART_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(name for _, _, parts in STEPS for name, _ in parts))


@dataclass(frozen=True)
class StepResult:
    """How one step fared: status is 'pass', 'todo' (a stub still raises NotImplementedError)
    or 'fail'; ``detail`` is the first failing case (input, expected, actual) or ''."""

    step: int
    title: str
    status: str
    detail: str = ""


def check_step(step: int, title: str, parts: dict[str, Any],
               calls: tuple[tuple[str, Callable[[Any], None]], ...]) -> StepResult:
    """Run one step's checks on the student's parts and report the first failure."""
    for name, check in calls:
        try:
            check(parts[name])
        except PartNotDefined as missing:
            return StepResult(step, title, "todo", str(missing))
        except NotImplementedError:
            return StepResult(step, title, "todo", f"finish step {step}: {name} still raises "
                                                   "NotImplementedError")
        except AssertionError as failure:
            return StepResult(step, title, "fail", str(failure))
        except Exception as error:  # a check that cannot even start, e.g. a broken class
            return StepResult(step, title, "fail", f"{name}: {type(error).__name__}: {error}")
    return StepResult(step, title, "pass")


def check_all(**parts: Any) -> list[StepResult]:
    """Return one StepResult per step (SPEC §3), in order. Every part in PART_NAMES is needed."""
    missing = [name for name in PART_NAMES if name not in parts]
    if missing:
        raise TypeError(f"play() needs every part: missing {', '.join(missing)}; "
                        f"expected keywords {', '.join(PART_NAMES)}")
    return [check_step(step, title, parts, calls) for step, title, calls in STEPS]


def checklist_html(results: list[StepResult]) -> str:
    """Return the checklist as HTML: a row per step, ✔ or ✘, and the first failing case."""
    marks = {"pass": ("✔", "#1b7f3b", "passes"), "todo": ("✎", "#8a5a00", "to do"),
             "fail": ("✘", "#b00020", "fails")}
    rows = []
    for result in results:
        mark, colour, word = marks[result.status]
        detail = f"<div style='margin-left:2.2em'><code>{html.escape(result.detail)}</code></div>" \
            if result.detail else ""
        rows.append(f"<li style='list-style:none;margin:6px 0'><span style='color:{colour};"
                    f"font-weight:700'>{mark} Step {result.step}: {html.escape(result.title)}"
                    f" — {word}</span>{detail}</li>")
    first = next(r for r in results if r.status != "pass")
    return ("<div class='plaisante-checklist' style='font-size:16px;border:2px solid #b00020;"
            "border-radius:10px;padding:10px 16px;max-width:900px'>"
            f"<h3 style='margin-top:4px'>Not yet: step {first.step} ({html.escape(first.title)})"
            " needs work before the game can start</h3>"
            f"<ul style='padding-left:0'>{''.join(rows)}</ul>"
            "<div>Fix the first failing step, run its cells again, then run this cell.</div></div>")


def play(*, seed: int | None = None, four_colour: bool = False, **parts: Any) -> Any:
    """Check the student's parts; return a RoundView of a round on them, or the checklist.

    Keywords: Card, count_values, has_pair, has_three_of_a_kind, has_four_of_a_kind,
    has_two_pair, has_full_house, has_flush, has_straight, evaluate, total_value, base_mult,
    score, Tableau — the student's own objects. ``seed`` repeats a deal. Returns None (after one
    printed line) under nbgrader, where no widget should run.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print("Plaisante: the game is not shown while nbgrader runs this notebook.")
        return None
    results = check_all(**parts)
    import ipywidgets as widgets  # only the view needs widgets; keeps `check_all` pure

    if any(result.status != "pass" for result in results):
        return widgets.HTML(checklist_html(results))
    from .game import Round
    from .view import RoundView

    deals = itertools.count()

    def new_round() -> Round:  # New round deals afresh: seed, seed + 1, … when seeded
        number = next(deals)
        return Round(card_class=parts["Card"], evaluate=parts["evaluate"], score=parts["score"],
                     tableau_class=parts["Tableau"], seed=None if seed is None else seed + number)

    return RoundView(new_round, four_colour=four_colour)
