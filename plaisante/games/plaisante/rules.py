"""Hand names and multipliers of a Plaisante round (rules: SPEC §2, "Scoring a played hand").

The names are poker's (``plaisante.student_side.hand_names``). HAND_ORDER is the scoring table read
top-down: a hand is named after the first row whose check holds. Straight Flush is the
optional bonus row, off by default.
"""

from __future__ import annotations

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

HAND_ORDER: tuple[str, ...] = (
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    FLUSH,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    PAIR,
    HIGH_CARD,
)

MULTIPLIERS: dict[str, int] = {
    STRAIGHT_FLUSH: 9,
    FOUR_OF_A_KIND: 8,
    FULL_HOUSE: 7,
    FLUSH: 6,
    STRAIGHT: 5,
    THREE_OF_A_KIND: 4,
    TWO_PAIR: 3,
    PAIR: 2,
    HIGH_CARD: 1,
}

# The has-check that recognises each named hand (High Card needs none).
CHECK_FOR_HAND: dict[str, str] = {
    FOUR_OF_A_KIND: "has_four_of_a_kind",
    FULL_HOUSE: "has_full_house",
    FLUSH: "has_flush",
    STRAIGHT: "has_straight",
    THREE_OF_A_KIND: "has_three_of_a_kind",
    TWO_PAIR: "has_two_pair",
    PAIR: "has_pair",
}

HAND_SIZE = 8          # held cards after every refill
MAX_SELECTED = 5       # cards one play or discard may take
HANDS_PER_ROUND = 4
DISCARDS_PER_ROUND = 4

__all__ = ["HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE",
           "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "HAND_ORDER", "MULTIPLIERS", "CHECK_FOR_HAND",
           "HAND_SIZE", "MAX_SELECTED", "HANDS_PER_ROUND", "DISCARDS_PER_ROUND"]
