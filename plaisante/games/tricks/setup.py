"""What the setup cell of the Tricks notebook imports (``from plaisante.games.tricks.setup
import *``): the kit's cards and their notation, the suits, the step checks, a stand-in for
every part until the student defines it, and ``play`` for the last cell."""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import placeholders
from ...student_side.assignment import play as _play
from ...student_side.cards import SUITS, KitCard, hand, label, labels
from ...student_side.checking import visible_checks_pass
from . import ASSIGNMENT
from .checks import *  # noqa: F403  the step checks the test cells call
from .checks import __all__ as _checks
from .rules import deck32

globals().update(placeholders(ASSIGNMENT))


def play(*, seed: int | None = None, **parts: Any) -> Any:
    """Show the table on your functions once every step passes (``seed`` repeats its deals);
    until then, the checklist of steps, naming the first that fails."""
    return _play(ASSIGNMENT, parts, seed=seed)


__all__ = ["SUITS", "KitCard", "hand", "label", "labels", "deck32", "play",
           "visible_checks_pass", *_checks,
           *ASSIGNMENT.parts]
