"""The rules of the trick-taking game that no step asks for: the 32-card deck, the order
inside a suit as data (A 10 K Q J 9 8 7), the seeded deal, card points and the three bots. Pure:
no widget, no grading import.

A card is the kit's ``KitCard`` (``plaisante.student_side.cards``); its ``value`` (2…14) is the
kit's and is NOT this game's order (``STRENGTH_ORDER`` is). A trick is a list of ``(player, card)``
pairs in the order they were played; players are 0–3, clockwise, and the first card's suit is the
led suit. Nothing here answers a graded part: the kit's known-good parts are the grader's
(``known_good``), and a bot ranks cards by the ``strength`` it is given (the student's
``trick_strength`` at the table).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ...student_side.cards import RANKS, SUITS, KitCard

#: The ranks of the 32-card deck, weakest first in this game's order: the 10 is second only
#: to the ace.
STRENGTH_ORDER: tuple[str, ...] = ("7", "8", "9", "J", "Q", "K", "10", "A")
PLAYERS = 4
CARDS_EACH = 8
DECK_SIZE = PLAYERS * CARDS_EACH  # 32
#: Where each player sits (0 is you; play goes clockwise 0 → 1 → 2 → 3).
SEATS: tuple[str, ...] = ("You", "West", "North", "East")
#: Card points, for the optional "going further" count (not graded): 120 in a deck.
CARD_POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


def deck32() -> list[KitCard]:
    """Return the 32 cards 7…A of each suit, as the kit's 52-card deck filtered (suit by suit,
    clubs first; within a suit in the kit's rank order 7 8 9 10 J Q K A)."""
    return [KitCard(rank, suit) for suit in SUITS for rank in RANKS if rank in STRENGTH_ORDER]


def led_suit_of(trick: Sequence[tuple[int, Any]]) -> str | None:
    """Return the suit of the trick's first card, or None for an empty trick."""
    return trick[0][1].suit if trick else None


def deal_hands(seed: int | None) -> list[list[KitCard]]:
    """Return 4 hands of 8 from the 32-card deck shuffled by ``random.Random(seed)``, dealt one
    card at a time round the table from the top (end), player 0 first."""
    deck = deck32()
    random.Random(seed).shuffle(deck)
    hands: list[list[KitCard]] = [[] for _ in range(PLAYERS)]
    for _ in range(CARDS_EACH):
        for held in hands:
            held.append(deck.pop())
    return hands


def card_points(cards: Sequence[Any]) -> int:
    """Return the card points of ``cards`` (A 11, 10 10, K 4, Q 3, J 2, others 0)."""
    return sum(CARD_POINTS.get(card.rank, 0) for card in cards)


# ------------------------------------------------------------------------------------ bots
# A bot is a function (legal, trick, strength) -> card: ``legal`` the cards it may play (never
# empty), ``trick`` the (player, card) pairs played so far, ``strength`` the order in a suit.

Bot = Callable[[list[Any], list[tuple[int, Any]], Callable[[Any], int]], Any]


def weakest_bot(legal: list[Any], trick: list[tuple[int, Any]],
                strength: Callable[[Any], int]) -> Any:
    """Play the weakest legal card (ties: the first)."""
    return min(legal, key=strength)


def strongest_bot(legal: list[Any], trick: list[tuple[int, Any]],
                  strength: Callable[[Any], int]) -> Any:
    """Play the strongest legal card (ties: the first)."""
    return max(legal, key=strength)


def thrifty_bot(legal: list[Any], trick: list[tuple[int, Any]],
                strength: Callable[[Any], int]) -> Any:
    """Win as cheaply as possible: the weakest legal card that beats the trick's best card of
    the led suit; when none does (or the bot leads), the weakest legal card."""
    led = led_suit_of(trick)
    best = max((strength(card) for _, card in trick if card.suit == led), default=-1)
    winning = [card for card in legal if card.suit == led and strength(card) > best]
    return min(winning or legal, key=strength)


#: The bots of seats 1, 2 and 3, with the rule each follows (shown at the table).
BOTS: tuple[tuple[str, Bot], ...] = (
    ("plays its weakest card", weakest_bot),
    ("plays its strongest card", strongest_bot),
    ("wins as cheaply as it can", thrifty_bot),
)
