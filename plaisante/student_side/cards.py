"""The kit's own cards, deck and card notation (rules: SPEC §2).

A card is a rank (one of RANKS, as a string) and a suit (one of SUITS). Its value is the rank
for 2–10, J=11, Q=12, K=13, A=14. The kit builds its own known-good cards (``KitCard``) so that
a later step can be graded without depending on the student's ``Card``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
RANK_VALUES: dict[str, int] = {rank: value for value, rank in enumerate(RANKS, start=2)}
SUIT_SYMBOLS: dict[str, str] = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RED_SUITS: frozenset[str] = frozenset({"diamonds", "hearts"})
RANK_NAMES: dict[str, str] = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}

_SUIT_BY_MARK: dict[str, str] = {
    **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()},
    **{suit[0]: suit for suit in SUITS},
}


@dataclass(frozen=True)
class KitCard:
    """A known-good playing card built by the kit: immutable, hashable, equal by rank and suit.

    Raises ValueError when the rank or the suit is not one of the deck's (RANKS, SUITS). Its
    message points to RANKS and SUITS rather than spelling every rank and suit out: a message
    that did would be a working answer to the Plaisante assignment's first step (the student's
    own ``Card`` must name them), handed to every kernel.
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not str or self.rank not in RANK_VALUES:
            hint = " (ranks are strings, e.g. '10')" if type(self.rank) is not str else ""
            raise ValueError(f"KitCard: unknown rank {self.rank!r}{hint}; a rank is one of "
                             "RANKS: 2 to 10, J, Q, K or A")
        if type(self.suit) is not str or self.suit not in SUITS:
            raise ValueError(f"KitCard: unknown suit {self.suit!r}; a suit is one of SUITS, "
                             "in words (♣ ♦ ♥ ♠: e.g. 'hearts')")

    @property
    def value(self) -> int:
        """The card's value, an int from 2 to 14 (ace high)."""
        return RANK_VALUES[self.rank]

    def __repr__(self) -> str:
        return f"KitCard({self.rank!r}, {self.suit!r})"


def label(card: Any) -> str:
    """Return a short label such as 'K♥' for any object with ``rank`` and ``suit`` attributes."""
    return f"{card.rank}{SUIT_SYMBOLS.get(card.suit, '?')}"


def spoken_name(card: Any) -> str:
    """Return the name a screen reader should say, such as 'King of hearts'."""
    return f"{RANK_NAMES.get(card.rank, card.rank)} of {card.suit}"


def labels(cards: Iterable[Any]) -> str:
    """Return the cards' labels joined by spaces, such as 'K♥ K♦ 3♣' (empty hand: '(no cards)')."""
    text = " ".join(label(card) for card in cards)
    return text or "(no cards)"


def hand(text: str, card_class: Callable[[str, str], Any] = KitCard) -> list[Any]:
    """Parse a hand written like 'K♥ K♦ 3♣ 7♠ 9♥' (or 'Kh Kd 3c 7s 9h') into a list of cards.

    Each token is a rank from RANKS followed by one suit mark (♣♦♥♠ or c d h s; the emoji
    forms such as ♥️ too). The empty string gives an empty list. Raises ValueError naming the
    token that is not a card, or the card written twice; TypeError if ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"hand() takes a string such as 'K♥ K♦ 3♣', got {text!r}")
    cards: list[Any] = []
    seen: set[tuple[str, str]] = set()
    for token in text.replace("\ufe0f", "").split():
        rank, mark = token[:-1].upper(), token[-1:]
        suit = _SUIT_BY_MARK.get(mark.lower())
        if rank not in RANK_VALUES or suit is None:
            raise ValueError(
                f"{token!r} is not a card; write a rank ({' '.join(RANKS)}) "
                "followed by a suit (♣ ♦ ♥ ♠ or c d h s), e.g. 'K♥' or '10s'"
            )
        if (rank, suit) in seen:
            raise ValueError(f"{token!r} is written twice; a deck holds each card once")
        seen.add((rank, suit))
        cards.append(card_class(rank, suit))
    return cards


def shuffled_deck(seed: int | None = None,
                  card_class: Callable[[str, str], Any] = KitCard) -> list[Any]:
    """Return a new 52-card deck shuffled by ``random.Random(seed)``: same seed, same order.

    The kit deals from shuffled decks only: a deck in order is the deck assignment's first
    step (``new_deck``), which no helper of the student's side may answer."""
    deck = [card_class(rank, suit) for suit in SUITS for rank in RANKS]
    random.Random(seed).shuffle(deck)
    return deck
