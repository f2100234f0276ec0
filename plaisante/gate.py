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
    """Return the checklist as HTML: a row per step, ✔ ✎ or ✘ and a word (never colour alone),
    the first failing case, and the first step that needs work highlighted.

    Stable classes: ``plaisante-checklist``, ``plaisante-step`` plus ``plaisante-step-pass``,
    ``-todo`` or ``-fail``, ``plaisante-step-first`` on the first that needs work.
    """
    marks = {"pass": ("✔", "#1b6e35", "passes"), "todo": ("✎", "#7a4f00", "to do"),
             "fail": ("✘", "#a3001b", "fails")}
    first = next(r for r in results if r.status != "pass")
    rows = []
    for result in results:
        mark, colour, word = marks[result.status]
        detail = ("<div style='margin:4px 0 0 1.9em;font-size:16px;line-height:1.4'><code "
                  "style='background:#fff;color:#1b1b1b;padding:2px 6px;border-radius:4px;"
                  "font-size:16px;"
                  f"white-space:pre-wrap'>{html.escape(result.detail)}</code></div>"
                  if result.detail else "")
        here = result is first
        css = f"plaisante-step plaisante-step-{result.status}" + (
            " plaisante-step-first" if here else "")
        box = ("background:#fdecee;border-left:6px solid #a3001b;" if here else
               "border-left:6px solid transparent;")
        rows.append(f"<li class='{css}' style='list-style:none;margin:4px 0;padding:6px 10px;"
                    f"border-radius:6px;{box}'><span style='color:{colour};font-weight:700'>"
                    f"{mark} Step {result.step}: {html.escape(result.title)} — {word}</span>"
                    f"{detail}</li>")
    return ("<div class='plaisante-checklist' style='font-size:18px;line-height:1.35;"
            "color:#1b1b1b;background:#fffdf7;border:3px solid #a3001b;border-radius:12px;"
            "padding:10px 18px 14px;max-width:900px'>"
            f"<h3 style='margin:4px 0 8px;font-size:22px'>Not yet: step {first.step} "
            f"({html.escape(first.title)}) needs work before the game can start</h3>"
            f"<ul style='padding-left:0;margin:0 0 10px'>{''.join(rows)}</ul>"
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
