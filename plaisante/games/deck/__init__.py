"""Deck and deal (SPEC §6): a 52-card deck that deals to N players, lets a player draw
and discard, and keeps hands ordered by suit then rank. This package is the whole assignment:
its description (``ASSIGNMENT``), its checks, the dealer's table (model and view) and the names
its notebook's setup cell imports (``setup``).

Step 6, the student's own tests: ``my_deal_tests(deal)`` is graded as students' own tests are
(``plaisante.student_side.student_tests``), on a correct ``deal`` and on five buggy ones, each a
classic mistake of dealing (its hidden test cell holds them).
"""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import Assignment, Step
from . import checks

ASSIGNMENT = Assignment(
    id="deck",
    title="Deck and deal",
    steps=(
        Step(1, "new_deck", (("new_deck", checks.check_new_deck),)),
        Step(2, "shuffle", (("shuffle", checks.check_shuffle),)),
        Step(3, "deal", (("deal", checks.check_deal),)),
        Step(4, "draw and discard", (("draw", checks.check_draw),
                                     ("discard", checks.check_discard))),
        Step(5, "sort_key and order_hand", (("sort_key", checks.check_sort_key),
                                            ("order_hand", checks.check_order_hand))),
        Step(6, "your tests of deal", (("my_deal_tests", checks.check_deal_tests),)),
    ),
    game=lambda **parts: dealer_table(**parts),
    presenter=lambda **parts: presenter_view(**parts),
)


def presenter_view(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the lecture-hall presenter view (the deal and its x-ray) on ``parts``."""
    from .presenter import presenter_view as view

    return view(seed=seed, **parts)


def dealer_table(*, seed: int | None = None, players: int = 4, cards_each: int = 5,
                 **parts: Any) -> Any:
    """Return the dealer's table view on the student's parts, dealt once (``seed`` repeats
    the deals)."""
    from .model import DealerTable
    from .view import TableView

    return TableView(DealerTable(seed=seed, **parts), players=players, cards_each=cards_each)
