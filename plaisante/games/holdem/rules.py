"""Heads-up Hold'em's house rules, written once: card values with the ace always
low, the order of the categories, the blinds and stacks, and the kit's own known-good
``category`` and ``best_five`` (the stand-ins a check uses while a later step is graded, and
what the kit's bot reads its cards with). Pure: no widget, no grading import.

The house rules, as the notebook states them:

* The **ace is always low**: its value is 1. J=11, Q=12, K=13, 2–10 their number. So
  A 2 3 4 5 is a straight, 10 J Q K A is not.
* A hand's categories, strongest first: ``CATEGORIES``. The same category is split by the
  higher **sum of the five cards' values**; equal sums split the pot.
* 1,000 chips each; blinds 5 and 10; the minimum bet is 10 pre-flop and on the flop, 20 on
  the turn and the river.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...hand_names import (
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

    >>> from plaisante.cards import KitCard
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


def kit_category(five: list[Any]) -> str:
    """The kit's known-good category of five cards, the ace low (the stand-in for
    ``category`` while ``best_five`` is checked). Raises ValueError unless given 5 cards."""
    if len(five) != 5:
        raise ValueError(f"a category is of exactly 5 cards, got {len(five)}")
    values = sorted(value(card) for card in five)
    counts = sorted((values.count(v) for v in set(values)), reverse=True)
    flush = len({card.suit for card in five}) == 1
    straight = counts == [1, 1, 1, 1, 1] and values[-1] - values[0] == 4
    if straight and flush:
        return STRAIGHT_FLUSH
    by_counts = {(4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE}
    if tuple(counts[:2]) in by_counts:
        return by_counts[(counts[0], counts[1])]
    if flush:
        return FLUSH
    if straight:
        return STRAIGHT
    return {3: THREE_OF_A_KIND, 2: TWO_PAIR if counts[1] == 2 else PAIR}.get(counts[0], HIGH_CARD)


def kit_best_five(seven: list[Any]) -> tuple[str, list[Any]]:
    """The kit's known-good best five of ``seven`` cards: (category, five cards), the strongest
    category, then the highest sum of values; of equal ones the first found (the stand-in for
    ``best_five`` while ``compare`` is checked, and how the bot reads its cards)."""
    best: tuple[int, int] | None = None
    chosen: list[Any] = []
    for five in combinations(seven, 5):
        key = (strength(kit_category(list(five))), sum(value(card) for card in five))
        if best is None or key > best:
            best, chosen = key, list(five)
    if best is None:
        raise ValueError(f"best_five needs at least 5 cards, got {len(seven)}")
    return CATEGORIES[len(CATEGORIES) - 1 - best[0]], chosen


def rank_key(category: str, five: list[Any]) -> tuple[int, int]:
    """Return what a showdown compares: (strength of the category, sum of the five values)."""
    return strength(category), sum(value(card) for card in five)
