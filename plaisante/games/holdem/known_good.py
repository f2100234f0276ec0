"""Heads-up Hold'em's known-good parts, for the grader alone: ``category`` and ``best_five``
under the house rules. Nothing on the student's side imports this module
(``plaisante.boundary``); importing it makes the checks' ``KNOWN`` answer
with these functions instead of the visible cases' tables, so the same checks judge hidden
inputs here, in the grader's process, and stand in for earlier parts from here."""

from __future__ import annotations

from itertools import combinations
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
from .checks import KNOWN
from .rules import CATEGORIES, strength, value


def kit_category(five: list[Any]) -> str:
    """Return the category of five cards (one of ``CATEGORIES``), the ace low. Raises
    ValueError unless given 5 cards."""
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
    """Return the best five of ``seven`` cards: (category, five cards), the strongest category,
    then the highest sum of values; of equal ones the first found. Raises ValueError for fewer
    than 5 cards."""
    best: tuple[int, int] | None = None
    chosen: list[Any] = []
    for five in combinations(seven, 5):
        key = (strength(kit_category(list(five))), sum(value(card) for card in five))
        if best is None or key > best:
            best, chosen = key, list(five)
    if best is None:
        raise ValueError(f"best_five needs at least 5 cards, got {len(seven)}")
    return CATEGORIES[len(CATEGORIES) - 1 - best[0]], chosen


KNOWN.use(category=kit_category, best_five=kit_best_five)

def rank_key(category: str, five: list[Any]) -> tuple[int, int]:
    """Return what a showdown compares: (strength of the category, sum of the five values).
    Not on the student's side: with a stand-in's best fives it is a working ``compare``."""
    return strength(category), sum(value(card) for card in five)


__all__ = ["kit_category", "kit_best_five", "rank_key"]
