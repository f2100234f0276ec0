"""The x-ray of the video-poker demo: five cards named by the parts handed in (``hand_name``,
``frequencies``, ``payout``), why (the counts, one suit or not, a run or not), the pay table's
row, the holds, and the draw replacing exactly the unheld positions from the deck's top. Pure:
no widget import; ``presenter.py`` draws it.

Rules (the notebook's): the deck's end is its top; a draw replaces each card not held, position
0 to 4, with the top card; a hand pays ``PAYS[name] * bet``; the ace plays high or low in a
straight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...student_side.cards import RANK_VALUES, label
from ...student_side.wire import described
from .rules import HAND_SIZE

RANK_OF_VALUE = {value: rank for rank, value in RANK_VALUES.items()}


@dataclass
class Hand:
    """A game on the presenter's machine: ``cards`` (5), ``held`` (5 bools), ``deck`` (what is
    left; its end is the top), ``drawn`` (after the draw: the (position, old card, new card)
    of each replaced card, else None)."""

    cards: list[Any]
    deck: list[Any]
    held: list[bool] = field(default_factory=lambda: [False] * HAND_SIZE)
    drawn: list[tuple[int, Any, Any]] | None = None

    def toggle(self, position: int) -> None:
        """Hold the card at ``position`` (0–4) or release it. Raises ValueError after the draw
        or for a position outside 0–4."""
        if self.drawn is not None:
            raise ValueError("the draw is done: Deal for a new game")
        if not 0 <= position < HAND_SIZE:
            raise ValueError(f"no card at position {position}: positions are 0 to 4")
        self.held[position] = not self.held[position]

    def draw(self) -> None:
        """Replace every card not held, position by position, with the deck's top card.
        Raises ValueError when the draw is done already."""
        if self.drawn is not None:
            raise ValueError("the draw is done: Deal for a new game")
        drawn = []
        for position in range(HAND_SIZE):
            if not self.held[position]:
                new = self.deck.pop()
                drawn.append((position, self.cards[position], new))
                self.cards[position] = new
        self.drawn = drawn


def dealt(deck: Sequence[Any]) -> Hand:
    """Deal five cards from the top (end) of a copy of ``deck``: the first is its last item."""
    left = list(deck)
    return Hand([left.pop() for _ in range(HAND_SIZE)], left)


@dataclass(frozen=True)
class PokerXRay:
    """What the x-ray shows for five cards and a bet.

    ``counts``: value → how many, from ``frequencies`` (only the values present). ``flush``,
    ``straight``: the kit's reading of the cards (a straight counts A-2-3-4-5). ``name``: what
    ``hand_name`` said. ``win``: what ``payout(cards, bet)`` said. ``problem``: one line naming
    a part that raised or answered out of shape."""

    cards: tuple[Any, ...]
    bet: int
    counts: tuple[tuple[int, int], ...] = ()
    flush: bool = False
    straight: bool = False
    name: str | None = None
    win: int | None = None
    problem: str | None = None

    @property
    def why(self) -> str:
        """The reason in words: e.g. 'two Ks', 'one suit and a run of five', 'no two alike'."""
        groups = sorted(((n, v) for v, n in self.counts if n > 1), reverse=True)
        said = [f"{['', '', 'two', 'three', 'four'][n]} {RANK_OF_VALUE.get(v, v)}s"
                for n, v in groups if n <= 4]
        if self.flush:
            said.append("all one suit")
        if self.straight:
            said.append("five values in a run")
        return ", ".join(said) or "no two alike, no run, not one suit"


def _kind(part: str, answer: Any, kind: type) -> Any:
    if type(answer) is not kind:
        raise ValueError(f"{part} returned {answer!r:.60} ({type(answer).__name__}), "
                         f"expected {'an' if kind is int else 'a'} {kind.__name__}")
    return answer


def xray(cards: Sequence[Any], bet: int, parts: dict[str, Any]) -> PokerXRay:
    """Return the x-ray of five ``cards`` at ``bet`` computed by ``parts`` (frequencies,
    hand_name, payout). Raises KeyError naming a missing part."""
    chosen = tuple(cards)
    values = sorted({card.value for card in chosen})
    straight = len(values) == 5 and (values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14])
    base: dict[str, Any] = {"cards": chosen, "bet": bet, "straight": straight,
                            "flush": len({c.suit for c in chosen}) == 1}
    found: dict[str, Any] = {}
    part = "frequencies"
    try:
        counts = _kind(part, parts[part](list(chosen)), list)
        found["counts"] = tuple((v, n) for v, n in enumerate(counts) if type(n) is int and n)
        part = "hand_name"
        found["name"] = _kind(part, parts[part](list(chosen)), str)
        part = "payout"
        found["win"] = _kind(part, parts[part](list(chosen), bet), int)
    except (KeyboardInterrupt, SystemExit):
        raise
    except ValueError as wrong:
        return PokerXRay(**base, **found, problem=described(wrong, named=False))
    except BaseException as error:  # noqa: B036  the student's part (or its process, gone)
        return PokerXRay(**base, **found, problem=f"{part} raised {described(error)}")
    return PokerXRay(**base, **found)


def labels_at(cards: Sequence[Any], positions: Sequence[int]) -> str:
    """'K♥ at 0, K♦ at 1': the cards at ``positions`` and where they are."""
    return ", ".join(f"{label(cards[p])} at {p}" for p in positions) or "none"


__all__ = ["Hand", "PokerXRay", "dealt", "labels_at", "xray"]
