"""The deal's x-ray for the lecture-hall demo of Deck and deal: the deck the parts handed in
make and shuffle, the deal in order (who gets which card, from which end of the deck) and each
card's sort key with the hand ``order_hand`` makes of it. Pure: no widget import;
``presenter.py`` draws it.

Rules (the notebook's): the deck's end is its top; ``deal`` gives one card at a time round the
table from the top, player 0 first; ``sort_key`` orders by suit (clubs, diamonds, hearts,
spades) then value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...student_side.cards import hand as parse_hand
from ...student_side.cards import label
from ...student_side.wire import described

PLAYERS = 3
CARDS_EACH = 4


@dataclass(frozen=True)
class Dealt:
    """One card of the deal: ``turn`` (1 = the first card given), ``player`` (0, 1, …), ``nth``
    (it is that player's nth card, 1-based), ``from_top`` (1 = the deck's top, its last item;
    ``deck_size`` = its bottom), ``card``."""

    turn: int
    player: int
    nth: int
    from_top: int
    card: Any


@dataclass(frozen=True)
class DealXRay:
    """A deal as the presenter shows it.

    ``hands``: what ``deal`` returned (player p's cards in the order given). ``order``: every
    card as ``Dealt``, turn by turn (round the table: turn = nth-1 × players + player + 1).
    ``deck_size``: the deck's length before the deal (52). ``left``: its length after.
    ``keys``: per player, ``sort_key`` of each card of the hand, in the hand's order (a
    ``repr``). ``ordered``: per player, ``order_hand``'s hand. ``problem``: one line naming a
    part that raised or answered out of shape (what comes after it is then empty)."""

    hands: tuple[tuple[Any, ...], ...] = ()
    order: tuple[Dealt, ...] = ()
    deck_size: int = 0
    left: int = 0
    keys: tuple[tuple[str, ...], ...] = ()
    ordered: tuple[tuple[Any, ...], ...] = ()
    problem: str | None = None

    def of(self, player: int, nth: int) -> Dealt | None:
        """Return the ``Dealt`` of ``player``'s ``nth`` card (1-based), or None."""
        return next((d for d in self.order if d.player == player and d.nth == nth), None)

    @property
    def from_the_top(self) -> bool:
        """True when turn t took the deck's t-th card from the top, every turn."""
        return bool(self.order) and all(d.from_top == d.turn for d in self.order)


class _PartFailed(Exception):
    pass


def _call(part: str, parts: dict[str, Any], *args: Any) -> Any:
    try:
        return parts[part](*args)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as error:  # noqa: B036  the student's part (or its process, gone)
        raise _PartFailed(f"{part} raised {described(error)}") from None


def _cards(part: str, value: Any, size: int | None = None) -> list[Any]:
    if type(value) is not list or not all(hasattr(c, "rank") and hasattr(c, "suit")
                                          for c in value):
        raise _PartFailed(f"{part} gave {value!r:.80}, not a list of cards")
    if size is not None and len(value) != size:
        raise _PartFailed(f"{part} gave {len(value)} cards, expected {size}")
    return value


def shuffled(parts: dict[str, Any], seed: int) -> list[Any]:
    """Return the parts' ``new_deck()`` shuffled in place by their ``shuffle`` with
    ``random.Random(seed)``: the same seed, the same deck. Raises ValueError naming a part
    that raised or gave something that is not 52 cards."""
    try:
        deck = _cards("new_deck", _call("new_deck", parts), 52)
        rng = random.Random(seed)
        _call("shuffle", parts, deck, rng)
        return _cards("shuffle", deck, 52)
    except _PartFailed as failure:
        raise ValueError(str(failure)) from None


def stacked(parts: dict[str, Any], text: str, seed: int) -> list[Any]:
    """Return a deck whose top cards are those written in ``text`` ('K♥ 3♣' or 'Kh 3c'; the
    first written is the top, so it is dealt first), the rest of the parts' ``new_deck()``
    under them in the order ``shuffle`` with seed gives. Raises ValueError naming a token that
    is not a card, a card written twice, or a part that failed."""
    written = parse_hand(text)
    if not written:
        raise ValueError("write the deck's top cards, e.g. 'K♥ 3♣ 10♠' (the first is the top)")
    deck = shuffled(parts, seed)
    names = {label(card) for card in written}
    mine = {label(card): card for card in deck}
    rest = [card for card in deck if label(card) not in names]
    return rest + [mine[label(card)] for card in reversed(written)]


def xray(deck: Sequence[Any], parts: dict[str, Any], players: int = PLAYERS,
         cards_each: int = CARDS_EACH) -> DealXRay:
    """Deal ``deck`` (a copy) with the parts' ``deal(deck, players, cards_each)`` and return
    the x-ray: where each card came from, each hand's sort keys and ordered hand."""
    before = list(deck)
    working = list(deck)
    try:
        hands = _call("deal", parts, working, players, cards_each)
        if type(hands) is not list or len(hands) != players:
            raise _PartFailed(f"deal gave {hands!r:.80}, expected {players} hands")
        hands = [_cards("deal", h, cards_each) for h in hands]
    except _PartFailed as failure:
        return DealXRay(deck_size=len(before), problem=str(failure))
    where = {label(card): len(before) - index for index, card in enumerate(before)}
    order = sorted((Dealt(turn=nth * players + player + 1, player=player, nth=nth + 1,
                          from_top=where.get(label(card), 0), card=card)
                    for player, cards in enumerate(hands) for nth, card in enumerate(cards)),
                   key=lambda dealt: dealt.turn)
    found: dict[str, Any] = {"hands": tuple(map(tuple, hands)), "order": tuple(order),
                             "deck_size": len(before), "left": len(working)}
    try:
        found["keys"] = tuple(tuple(repr(_call("sort_key", parts, card)) for card in cards)
                              for cards in hands)
        found["ordered"] = tuple(tuple(_cards("order_hand",
                                              _call("order_hand", parts, list(cards)),
                                              cards_each)) for cards in hands)
    except _PartFailed as failure:
        return DealXRay(**found, problem=str(failure))
    return DealXRay(**found)


__all__ = ["CARDS_EACH", "DealXRay", "Dealt", "PLAYERS", "shuffled", "stacked", "xray"]
