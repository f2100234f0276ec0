"""The trick's x-ray for the lecture-hall demo of Tricks: the led suit, the cards ``legal_plays``
lets you play, and once the trick is full why ``trick_winner``'s card wins: each card's place on
the A 10 K Q J 9 8 7 ladder (``trick_strength``), a card of another suit never winning. Pure: no
widget import; ``presenter.py`` draws it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...student_side.cards import label
from ...student_side.wire import described
from .rules import BOTS, PLAYERS, STRENGTH_ORDER, deal_hands, deck32, led_suit_of


@dataclass(frozen=True)
class TrickXRay:
    """What the x-ray shows. ``trick``: the (player, card) pairs played so far; ``led``: the led
    suit (None: you lead). ``legal``: the positions in your hand ``legal_plays`` allowed.
    ``strengths``: ``trick_strength`` of each card of the trick. ``winner``: what
    ``trick_winner`` said once the trick has 4 cards, else None. ``problem``: one line naming a
    part that raised or answered out of shape."""

    trick: tuple[tuple[int, Any], ...]
    led: str | None
    legal: frozenset[int] = frozenset()
    strengths: tuple[int, ...] = ()
    winner: int | None = None
    problem: str | None = None

    @property
    def following(self) -> tuple[int, ...]:
        """Positions in the trick of the cards of the led suit."""
        return tuple(i for i, (_, card) in enumerate(self.trick) if card.suit == self.led)


def deal(seed: int) -> tuple[list[list[Any]], int]:
    """Return (the four hands of ``deal_hands(seed)``, the seat who leads: ``Random(seed)``)."""
    return deal_hands(seed), random.Random(seed).randrange(PLAYERS)


def written(mine: Sequence[Any], before: Sequence[Any], seed: int
            ) -> tuple[list[list[Any]], list[tuple[int, Any]]]:
    """Return (four hands, the trick so far) for your written hand ``mine`` (1–8 cards) and the
    cards ``before`` you (0–3, played by the seats before you, in order); the bots' hands are
    the rest of the 32 cards, dealt by ``seed``. Raises ValueError naming a card outside the
    32-card deck or a count out of range."""
    ranks = set(STRENGTH_ORDER)
    for card in [*mine, *before]:
        if card.rank not in ranks:
            raise ValueError(f"{label(card)} is not in the 32-card deck: ranks "
                             f"{' '.join(STRENGTH_ORDER[::-1])}")
    if not 1 <= len(mine) <= 8 or len(before) > 3:
        raise ValueError(f"write 1 to 8 cards of your hand, then '|' and 0 to 3 cards played "
                         f"before you; got {len(mine)} and {len(before)}")
    used = {label(card) for card in [*mine, *before]}
    rest = [card for card in deck32() if label(card) not in used]
    random.Random(seed).shuffle(rest)
    hands: list[list[Any]] = [list(mine), [], [], []]
    for i, card in enumerate(rest[:21]):
        hands[1 + i % 3].append(card)
    leader = (PLAYERS - len(before)) % PLAYERS
    trick = [((leader + i) % PLAYERS, card) for i, card in enumerate(before)]
    return hands, trick


def bots_play(hands: list[list[Any]], trick: list[tuple[int, Any]], until: int | None,
              parts: dict[str, Any]) -> None:
    """Let the seats after the trick's last play (a bot each: ``rules.BOTS``) play, with the
    parts' ``legal_plays`` and ``trick_strength``, until seat ``until`` is next (None: until the
    trick has four cards). Changes ``hands`` and ``trick``."""
    while len(trick) < PLAYERS:
        seat = (trick[-1][0] + 1) % PLAYERS if trick else 0
        if seat == until:
            return
        legal = list(parts["legal_plays"](list(hands[seat]), led_suit_of(trick)))
        if not legal:
            raise ValueError(f"legal_plays gave seat {seat} no card to play")
        card = BOTS[seat - 1][1](legal, list(trick), parts["trick_strength"])
        hands[seat] = [c for c in hands[seat] if label(c) != label(card)]
        trick.append((seat, card))


def xray(hand: Sequence[Any], trick: Sequence[tuple[int, Any]], parts: dict[str, Any]
         ) -> TrickXRay:
    """Return the x-ray of your ``hand`` (as shown) and the ``trick`` so far, computed by
    ``parts`` (legal_plays, trick_strength, trick_winner)."""
    played = tuple(trick)
    led = led_suit_of(played)
    part = "legal_plays"
    found: dict[str, Any] = {}
    try:
        if len(played) < PLAYERS:
            allowed = parts[part](list(hand), led)
            names = {label(card) for card in allowed}
            found["legal"] = frozenset(i for i, card in enumerate(hand) if label(card) in names)
        part = "trick_strength"
        strengths = tuple(parts[part](card) for _, card in played)
        if not all(type(n) is int for n in strengths):
            raise ValueError(f"trick_strength returned {strengths!r:.60}, expected ints")
        found["strengths"] = strengths
        if len(played) == PLAYERS:
            part = "trick_winner"
            winner = parts[part](list(played))
            if type(winner) is not int or not 0 <= winner < PLAYERS:
                raise ValueError(f"trick_winner returned {winner!r:.40}, expected a player 0–3")
            found["winner"] = winner
    except (KeyboardInterrupt, SystemExit):
        raise
    except ValueError as wrong:
        return TrickXRay(played, led, **found, problem=described(wrong, named=False))
    except BaseException as error:  # noqa: B036  the student's part (or its process, gone)
        return TrickXRay(played, led, **found,
                         problem=f"{part} raised {described(error)}")
    return TrickXRay(played, led, **found)


__all__ = ["TrickXRay", "bots_play", "deal", "written", "xray"]
