"""The kit's known-good parts of the trick-taking game, and the hidden checks that need them:
the grader's alone. Nothing on the student's side imports this module
(``plaisante.boundary``), so no kernel holds a working ``trick_strength``, ``sort_hand``,
``legal_plays`` or ``trick_winner``. Importing it makes the checks' ``KNOWN`` answer with these
parts (``plaisante.grading.judge.known_good_answers`` does so in the grader), so a hidden check
compares with them on inputs the visible cases' tables do not hold.

A card is the kit's ``KitCard``; a trick is a list of ``(player, card)`` pairs in play order,
its first card's suit the led suit (``plaisante.games.tricks.rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...student_side.cards import SUITS
from ...student_side.checking import CheckFailed
from .checks import KNOWN, Game, expect_plays, expect_sorted, expect_winner
from .rules import STRENGTH_ORDER, deal_hands, led_suit_of, weakest_bot


def trick_strength(card: Any) -> int:
    """Return the card's strength inside its suit, 0 (the 7) to 7 (the ace), in the order
    7 8 9 J Q K 10 A. Raises ValueError naming the allowed ranks for a rank not in the
    32-card deck (a 2 to 6)."""
    if card.rank not in STRENGTH_ORDER:
        raise ValueError(f"{card.rank!r} is not a rank of the 32-card deck; allowed ranks: "
                         f"{', '.join(STRENGTH_ORDER)}")
    return STRENGTH_ORDER.index(card.rank)


def sort_hand(hand: Sequence[Any]) -> list[Any]:
    """Return a new list of ``hand``'s cards by suit (clubs, diamonds, hearts, spades), then
    weakest first."""
    return sorted(hand, key=lambda card: (SUITS.index(card.suit), trick_strength(card)))


def legal_plays(hand: Sequence[Any], led_suit: str | None) -> list[Any]:
    """Return a new list of the hand's cards of ``led_suit`` in hand order if it has any, else
    the whole hand; ``led_suit`` None (the player leads): the whole hand."""
    following = [card for card in hand if card.suit == led_suit]
    return following if following else list(hand)


def trick_winner(trick: Sequence[tuple[int, Any]]) -> int:
    """Return the player of the strongest card of the led suit (the first card's). Raises
    ValueError for an empty trick."""
    if not trick:
        raise ValueError("an empty trick has no winner: it needs 1 to 4 (player, card) pairs")
    led = trick[0][1].suit
    return max((pair for pair in trick if pair[1].suit == led),
               key=lambda pair: trick_strength(pair[1]))[0]


def expect_full_deal(Trick: Callable[..., Any], seed: int, leader: int) -> None:
    """Play a whole seeded deal (``rules.deal_hands(seed)``, 8 tricks of 4, ``leader`` first)
    where every player plays their weakest legal card, checking every return value and the
    state after every card (``checks.Game``). Raises CheckFailed at the first difference."""
    game = Game(Trick, deal_hands(seed), leader)
    for _ in range(32):
        player = game.turn
        legal = legal_plays(game.hands[player], led_suit_of(game.trick))
        game.play(player, weakest_bot(legal, game.trick, trick_strength))
    if sum(game.won) != 8:
        raise CheckFailed(f"after a whole deal: expected 8 tricks won in all, got {game.won}")


KNOWN.use(trick_strength=trick_strength, sort_hand=sort_hand, legal_plays=legal_plays,
          trick_winner=trick_winner)

__all__ = ["expect_full_deal", "expect_plays", "expect_sorted", "expect_winner", "legal_plays",
           "sort_hand", "trick_strength", "trick_winner"]
