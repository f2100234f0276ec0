"""What the setup cell of the Plaisante notebook imports (``from plaisante.games.plaisante.setup
import *``): the kit's cards and their notation, the hand names and round sizes, the step checks,
a stand-in for every part until the student defines it, and ``play`` for the last cell."""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import placeholders
from ...student_side.assignment import play as _play
from ...student_side.cards import RANKS, SUITS, KitCard, hand, labels
from ...student_side.checking import visible_checks_pass
from . import ASSIGNMENT
from .checks import *  # noqa: F403  the step checks the test cells call
from .checks import __all__ as _checks
from .rules import *  # noqa: F403  the hand names, multipliers and round sizes
from .rules import __all__ as _rules

globals().update(placeholders(ASSIGNMENT))


def play(*, seed: int | None = None, four_colour: bool = False, **parts: Any) -> Any:
    """Show a Plaisante round on your parts once every step passes (``seed`` repeats a deal,
    ``four_colour`` gives each suit its own colour); until then, the checklist of steps, naming
    the first that fails. Every part is a keyword: Card, count_values, the has-checks, evaluate,
    total_value, base_mult, score, Tableau."""
    return _play(ASSIGNMENT, parts, seed=seed, four_colour=four_colour)


__all__ = ["RANKS", "SUITS", "KitCard", "hand", "labels", "play", *_rules,
           "visible_checks_pass", *_checks,
           *ASSIGNMENT.parts]
