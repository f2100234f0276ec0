"""Poker's hand names, shared by every game of the course that names hands (Plaisante, video
poker, Hold'em). Each game's rules module says which of them it uses, in what order and what
they pay; the names themselves are written once, here."""

from __future__ import annotations

HIGH_CARD = "High Card"
PAIR = "Pair"
TWO_PAIR = "Two Pair"
THREE_OF_A_KIND = "Three of a Kind"
STRAIGHT = "Straight"
FLUSH = "Flush"
FULL_HOUSE = "Full House"
FOUR_OF_A_KIND = "Four of a Kind"
STRAIGHT_FLUSH = "Straight Flush"
ROYAL_FLUSH = "Royal Flush"

#: Every name above, weakest first.
BY_RANK: tuple[str, ...] = (HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH,
                            FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH)
