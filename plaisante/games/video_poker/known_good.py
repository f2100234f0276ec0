"""The video-poker machine's known-good parts, for the grader alone: ``frequencies``,
``hand_name`` and ``payout`` as the kit computes them. Nothing on the student's side imports
this module (``plaisante.boundary``); importing it makes the checks'
``KNOWN`` answer with these functions instead of the visible cases' tables, so the same checks
judge hidden inputs here, in the grader's process, and stand in for earlier parts from here."""

from __future__ import annotations

from typing import Any

from .checks import KNOWN
from .rules import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    NOTHING,
    PAIR,
    PAYS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)


def kit_frequencies(cards: list[Any]) -> list[int]:
    """Return the 15-slot tally of ``cards`` (slot = value 2…14; slots 0 and 1 hold 0)."""
    counts = [0] * 15
    for card in cards:
        counts[card.value] += 1
    return counts


def kit_hand_name(cards: list[Any]) -> str:
    """Return the name of five kit cards (one of ``rules.HAND_ORDER``), the ace high or low in
    a straight. It answers by the cards it is given, so a machine that names the hand it was
    dealt, not the one it drew, is seen."""
    counts = kit_frequencies(cards)
    values = sorted(value for value in range(2, 15) if counts[value])
    flush = len({card.suit for card in cards}) == 1
    straight = len(values) == 5 and (values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14])
    if straight and flush:
        return ROYAL_FLUSH if values[0] == 10 else STRAIGHT_FLUSH
    rows = ((FOUR_OF_A_KIND, 4 in counts), (FULL_HOUSE, 3 in counts and 2 in counts),
            (FLUSH, flush), (STRAIGHT, straight), (THREE_OF_A_KIND, 3 in counts),
            (TWO_PAIR, counts.count(2) == 2), (PAIR, 2 in counts))
    return next((name for name, made in rows if made), NOTHING)


def kit_payout(cards: list[Any], bet: int) -> int:
    """Return the win of five kit cards on ``bet`` credits: ``PAYS[name] * bet``."""
    return PAYS[kit_hand_name(cards)] * bet


KNOWN.use(frequencies=kit_frequencies, hand_name=kit_hand_name, payout=kit_payout)

__all__ = ["kit_frequencies", "kit_hand_name", "kit_payout"]
