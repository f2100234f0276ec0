"""The dealer's table of Deck and deal: its state and rules, with no widget or grading import.

The table runs on the student's own functions, handed in as parameters: ``new_deck`` and
``shuffle`` make the deck, ``deal`` gives out the hands, ``discard`` and ``draw`` replace the
cards the player (player 0) marked, ``order_hand`` keeps every hand in order. If one of them
raises or leaves the cards in an impossible state, the table puts its state back as it was
before the action and raises ``StudentCodeError`` naming the step the function belongs to.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..shell import IllegalAction, StudentCodeError, StudentParts, short
from . import ASSIGNMENT

MAX_PLAYERS = 8
DECK_SIZE = 52

STUDENT = StudentParts(ASSIGNMENT)


class DealerTable:
    """A table of 1–8 players dealt from one shuffled deck; the player is player 0.

    Parameters are the student's functions (see the module). ``seed`` makes the deals
    repeatable: the n-th deal shuffles with ``random.Random(seed + n)``. State: ``deck`` (its
    end is the top), ``hands`` (one list per player, each kept in hand order), ``marked`` (the
    positions in the player's hand marked for discarding), ``deals`` (how many deals so far).
    """

    def __init__(self, *, new_deck: Callable[[], list[Any]],
                 shuffle: Callable[[list[Any], random.Random], None],
                 deal: Callable[..., list[list[Any]]],
                 draw: Callable[[list[Any], list[Any], int], None],
                 discard: Callable[[list[Any], list[int]], list[Any]],
                 order_hand: Callable[[list[Any]], list[Any]],
                 seed: int | None = None, **_other_parts: Any) -> None:
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int or None, got {seed!r}")
        self.new_deck, self.shuffle, self.deal = new_deck, shuffle, deal
        self.draw, self.discard, self.order_hand = draw, discard, order_hand
        self.seed = seed
        self.deck: list[Any] = []
        self.hands: list[list[Any]] = []
        self.marked: list[int] = []
        self.deals = 0

    # ---------------------------------------------------------------------------- actions
    def start(self, num_players: int, cards_each: int) -> None:
        """Shuffle a new deck and deal ``cards_each`` cards to each of ``num_players``; each
        hand is shown ordered. Raises IllegalAction for a count the table cannot deal."""
        if type(num_players) is not int or not 1 <= num_players <= MAX_PLAYERS:
            raise IllegalAction(f"players: pick 1 to {MAX_PLAYERS}, not {num_players}")
        if type(cards_each) is not int or cards_each < 1:
            raise IllegalAction(f"cards each: pick at least 1, not {cards_each}")
        if num_players * cards_each > DECK_SIZE:
            raise IllegalAction(f"{num_players} players × {cards_each} cards = "
                                f"{num_players * cards_each}, more than the {DECK_SIZE} cards "
                                "of a deck")
        rng = random.Random(None if self.seed is None else self.seed + self.deals)
        with STUDENT.calling("new_deck", "could not make a deck"):
            deck = self.new_deck()
        self._expect_cards("new_deck", deck, DECK_SIZE)
        with STUDENT.calling("shuffle", "could not shuffle the deck"):
            self.shuffle(deck, rng)
        self._expect_cards("shuffle", deck, DECK_SIZE)
        with STUDENT.calling("deal", "could not deal"):
            hands = self.deal(deck, num_players, cards_each)
        if type(hands) is not list or len(hands) != num_players or any(
                type(h) is not list or len(h) != cards_each for h in hands):
            raise STUDENT.error("deal", f"returned {short(hands)}; expected {num_players} "
                                f"lists of {cards_each} cards")
        self._expect_cards("deal", [*deck, *(c for h in hands for c in h)], DECK_SIZE)
        ordered = [self._ordered(h) for h in hands]
        self.deck, self.hands, self.marked = deck, ordered, []
        self.deals += 1

    def toggle(self, position: int) -> None:
        """Mark the card at ``position`` of the player's hand, or unmark it."""
        if not self.hands or not 0 <= position < len(self.hands[0]):
            raise IllegalAction(f"no card at position {position} of your hand")
        if position in self.marked:
            self.marked.remove(position)
        else:
            self.marked.append(position)

    def why_not_replace(self) -> str | None:
        """Return why Discard and draw cannot run now, or None when it can."""
        if not self.hands:
            return "deal first"
        if not self.marked:
            return "mark the cards to replace: click them"
        if len(self.marked) > len(self.deck):
            return (f"the deck has only {len(self.deck)} cards left: mark at most "
                    f"{len(self.deck)}")
        return None

    def replace_marked(self) -> list[Any]:
        """Discard the marked cards of the player's hand and draw as many from the deck; the
        hand is ordered again. Returns the discarded cards. Raises IllegalAction when it
        cannot run (see ``why_not_replace``); on a student error the table is unchanged."""
        reason = self.why_not_replace()
        if reason:
            raise IllegalAction(reason)
        held, deck, positions = list(self.hands[0]), list(self.deck), list(self.marked)
        total = len(held) + len(deck)
        with STUDENT.calling("discard", "could not discard the marked cards"):
            removed = self.discard(held, positions)
        if type(removed) is not list or len(removed) != len(positions) or \
                len(held) != len(self.hands[0]) - len(positions):
            raise STUDENT.error("discard", f"returned {short(removed)} and left "
                                f"{len(held)} cards for {len(positions)} positions")
        with STUDENT.calling("draw", "could not draw"):
            self.draw(deck, held, len(removed))
        if len(held) != len(self.hands[0]) or len(held) + len(deck) != total - len(removed):
            raise STUDENT.error("draw", f"left {len(held)} cards in the hand and "
                                f"{len(deck)} in the deck")
        self.hands[0] = self._ordered(held)
        self.deck, self.marked = deck, []
        return removed

    # --------------------------------------------------------------------------- helpers
    def _ordered(self, cards: list[Any]) -> list[Any]:
        before = list(cards)
        with STUDENT.calling("order_hand", "could not order a hand"):
            result = self.order_hand(cards)
        if type(result) is not list or Counter(map(id, result)) != Counter(map(id, before)):
            raise STUDENT.error("order_hand", f"returned {short(result)}; expected the same "
                                "cards in order")
        return list(result)

    def _expect_cards(self, function: str, cards: Any, size: int) -> None:
        if type(cards) is not list or len(cards) != size or len(set(cards)) != size:
            raise STUDENT.error(function, f"left {short(cards)}; expected {size} different "
                                "cards")


__all__ = ["DealerTable", "IllegalAction", "StudentCodeError", "MAX_PLAYERS", "DECK_SIZE"]
