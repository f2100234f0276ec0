"""The rules of the video-poker machine: hand names in the order they are checked,
the pay table, the bets and the credits.

The names are poker's (``plaisante.student_side.hand_names``) plus ``NOTHING``, this machine's name
for a hand that pays nothing. The pay table is read ``PAYS[name] * bet``: a Pair pays the bet back.
"""

from __future__ import annotations

from ...student_side.cards import RANKS, SUITS, KitCard
from ...student_side.hand_names import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

#: A hand that pays nothing (no pair or better).
NOTHING = "Nothing"

#: Every name, best first: a hand is named after the first row it makes.
HAND_ORDER: tuple[str, ...] = (ROYAL_FLUSH, STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH,
                               STRAIGHT, THREE_OF_A_KIND, TWO_PAIR, PAIR, NOTHING)

#: What each hand pays per credit bet.
PAYS: dict[str, int] = {ROYAL_FLUSH: 9, STRAIGHT_FLUSH: 8, FOUR_OF_A_KIND: 7, FULL_HOUSE: 6,
                        FLUSH: 5, STRAIGHT: 4, THREE_OF_A_KIND: 3, TWO_PAIR: 2, PAIR: 1,
                        NOTHING: 0}

HAND_SIZE = 5
START_CREDITS = 100     # a new machine, and every refill
BET_STEP = 5            # what one press of Bet adds
MIN_BET = 5             # the smallest bet a deal accepts; below it the machine refills
MAX_BET = 15            # the largest bet; Bet max bets it and deals
BETS: tuple[int, ...] = tuple(range(MIN_BET, MAX_BET + 1, BET_STEP))  # the pay table's columns


def new_deck() -> list[KitCard]:
    """Return a new list of the 52 kit cards the machine shuffles and deals from: clubs 2…A,
    then diamonds, hearts, spades. (Written here, not in the kit's shared card module: there a
    deck in order would answer the deck assignment's first step.)"""
    return [KitCard(rank, suit) for suit in SUITS for rank in RANKS]

__all__ = ["ROYAL_FLUSH", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND", "FULL_HOUSE", "FLUSH", "STRAIGHT",
           "THREE_OF_A_KIND", "TWO_PAIR", "PAIR", "NOTHING", "HAND_ORDER", "PAYS", "HAND_SIZE",
           "START_CREDITS", "BET_STEP", "MIN_BET", "MAX_BET", "BETS", "new_deck"]
