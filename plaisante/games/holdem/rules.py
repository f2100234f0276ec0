"""Heads-up Hold'em's house rules, written once: card values with the ace always
low, the order of the categories, the blinds and stacks. Pure: no widget, no grading import.
The kit's known-good parts are the grader's alone (``known_good``).

The house rules, as the notebook states them:

* The **ace is always low**: its value is 1. J=11, Q=12, K=13, 2–10 their number. So
  A 2 3 4 5 is a straight, 10 J Q K A is not.
* A hand's categories, strongest first: ``CATEGORIES``. The same category is split by the
  higher **sum of the five cards' values**; equal sums split the pot.
* 1,000 chips each; blinds 5 and 10; the minimum bet is 10 pre-flop and on the flop, 20 on
  the turn and the river.
"""

from __future__ import annotations

from typing import Any

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

#: Every card's value under the house rules: the ace is 1, never 14.
VALUES: dict[str, int] = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13}

#: The categories a five-card hand can be, strongest first.
CATEGORIES: tuple[str, ...] = (STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH, STRAIGHT,
                               THREE_OF_A_KIND, TWO_PAIR, PAIR, HIGH_CARD)

STARTING_CHIPS = 1000
SMALL_BLIND = 5
BIG_BLIND = 10
TOTAL_CHIPS = 2 * STARTING_CHIPS
STREETS: tuple[str, ...] = ("preflop", "flop", "turn", "river")
#: The least a first bet of a round may be, by street.
MIN_BET: dict[str, int] = {"preflop": BIG_BLIND, "flop": BIG_BLIND, "turn": 2 * BIG_BLIND,
                           "river": 2 * BIG_BLIND}
ACTIONS: tuple[str, ...] = ("fold", "check", "call", "bet", "raise")


def value(card: Any) -> int:
    """Return the house value of ``card`` (anything with a ``rank``): 1 for an ace, 2–10,
    J 11, Q 12, K 13. Raises ValueError naming the ranks for an unknown rank.

    >>> from plaisante.student_side.cards import KitCard
    >>> value(KitCard("A", "spades")), value(KitCard("K", "hearts"))
    (1, 13)
    """
    try:
        return VALUES[card.rank]
    except (KeyError, TypeError):
        raise ValueError(f"unknown rank {card.rank!r}; ranks: {', '.join(VALUES)}") from None


def strength(category: str) -> int:
    """Return how strong ``category`` is: 0 for High Card up to 8 for Straight Flush. Raises
    ValueError naming the categories for anything else."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; categories: {', '.join(CATEGORIES)}")
    return len(CATEGORIES) - 1 - CATEGORIES.index(category)

