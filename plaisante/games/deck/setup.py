"""What the setup cell of Deck and deal's notebook imports (``from plaisante.games.deck.setup
import *``): the kit's cards and their notation, the step checks, a stand-in for every part
until the student defines it, and ``play`` for the last cell."""

from __future__ import annotations

import random
from typing import Any

from ...student_side.assignment import placeholders
from ...student_side.assignment import play as _play
from ...student_side.cards import RANK_VALUES, RANKS, SUITS, KitCard, hand, label, labels
from ...student_side.checking import visible_checks_pass
from . import ASSIGNMENT
from .checks import *  # noqa: F403  the step checks the test cells call
from .checks import __all__ as _checks

globals().update(placeholders(ASSIGNMENT))


def play(*, seed: int | None = None, **parts: Any) -> Any:
    """Show the dealer's table on your functions once every step passes (``seed`` repeats
    its deals); until then, the checklist of steps, naming the first that fails."""
    return _play(ASSIGNMENT, parts, seed=seed)


__all__ = ["random", "RANKS", "SUITS", "RANK_VALUES", "KitCard", "hand", "label", "labels",
           "play", "visible_checks_pass", *_checks, *ASSIGNMENT.parts]
