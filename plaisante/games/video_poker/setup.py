"""What the setup cell of the video-poker notebook imports (``from
plaisante.games.video_poker.setup import *``): the kit's cards and their notation, the hand
names and the pay table, the saved-credits file's two functions, the step checks, a stand-in
for every part until the student defines it, and ``play`` for the last cell."""

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
from .rules import *  # noqa: F403  hand names, PAYS, the bets and credits
from .rules import __all__ as _rules
from .saving import load_credits, save_credits

globals().update(placeholders(ASSIGNMENT))


def play(*, seed: int | None = None, **parts: Any) -> Any:
    """Show the machine on your ``Machine`` once every step passes (``seed`` repeats its
    deals; credits are saved beside the notebook); until then, the checklist of steps,
    naming the first that fails."""
    return _play(ASSIGNMENT, parts, seed=seed)


__all__ = ["random", "RANKS", "SUITS", "RANK_VALUES", "KitCard", "hand", "label", "labels",
           "load_credits", "save_credits", "play", *_rules,
           "visible_checks_pass", *_checks,
           *ASSIGNMENT.parts]
