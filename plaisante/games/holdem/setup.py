"""What the setup cell of Heads-up Hold'em's notebook imports (``from plaisante.games.holdem.setup
import *``): the kit's cards and their notation, the house rules' values and categories, the
step checks, a stand-in for every part until the student defines it, and ``play``."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...student_side.assignment import placeholders
from ...student_side.assignment import play as _play
from ...student_side.cards import RANKS, SUITS, KitCard, hand, label, labels
from ...student_side.checking import visible_checks_pass
from ...student_side.hand_names import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)
from . import ASSIGNMENT
from .checks import *  # noqa: F403  the step checks the test cells call
from .checks import __all__ as _checks
from .rules import BIG_BLIND, CATEGORIES, VALUES, value

globals().update(placeholders(ASSIGNMENT))


def play(*, seed: int | None = None, **parts: Any) -> Any:
    """Show the heads-up table on your functions once every step passes (``seed`` repeats
    the deals); until then, the checklist of steps, naming the first that fails."""
    return _play(ASSIGNMENT, parts, seed=seed)


__all__ = ["combinations", "RANKS", "SUITS", "KitCard", "hand", "label", "labels", "VALUES",
           "value", "CATEGORIES", "BIG_BLIND", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND", "FULL_HOUSE",
           "FLUSH", "STRAIGHT", "THREE_OF_A_KIND", "TWO_PAIR", "PAIR", "HIGH_CARD", "play",
           "visible_checks_pass", *_checks, *ASSIGNMENT.parts]
