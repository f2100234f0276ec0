"""The showdown x-ray of the Hold'em demo: each player's best five of seven and its category
from the parts handed in (``best_five``, ``compare``), and the house rule's tie-break as
numbers: (strength of the category, sum of the five values, the ace 1). Pure: no widget import;
``presenter.py`` draws it.

Rules (the notebook's, ``rules.py``): the stronger category wins; the same category is split by
the higher sum of the five cards' values, the ace always 1; equal sums split the pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...student_side.wire import described
from .rules import CATEGORIES, strength, value

SEATS = ("You", "The bot")


@dataclass(frozen=True)
class Showing:
    """One player at the showdown: ``seven`` (2 hole cards, then the 5 of the board),
    ``category`` and ``five`` (what ``best_five`` returned; ``lit`` their positions in seven),
    ``key`` (strength 0–8, sum of the five values)."""

    seven: tuple[Any, ...]
    category: str
    five: tuple[Any, ...]
    lit: frozenset[int]
    key: tuple[int, int]

    @property
    def sum_said(self) -> str:
        """'1 + 5 + 9 + 11 + 13 = 39'."""
        return " + ".join(str(value(card)) for card in self.five) + f" = {self.key[1]}"


@dataclass(frozen=True)
class ShowdownXRay:
    """Both players' ``Showing`` (or None where ``problem`` stopped it) and ``verdict``, what
    ``compare(you, bot)`` said (1 you win, -1 the bot wins, 0 split). ``decided_by``: 'category'
    or 'sum' or 'tie' (the house rule's reading of the keys). ``problem``: one line naming a
    part that raised or answered out of shape."""

    players: tuple[Showing | None, ...]
    verdict: int | None = None
    problem: str | None = None

    @property
    def decided_by(self) -> str | None:
        if any(p is None for p in self.players):
            return None
        you, bot = (p.key for p in self.players if p is not None)
        return "category" if you[0] != bot[0] else "sum" if you[1] != bot[1] else "tie"


def _showing(seven: list[Any], answer: Any) -> Showing:
    # exact types: a subclass's own == could find a non-str among the categories, and its own
    # iteration could unpack something else than what was checked
    if not ((type(answer) is tuple or type(answer) is list) and len(answer) == 2
            and type(answer[0]) is str and answer[0] in CATEGORIES
            and isinstance(answer[1], (list, tuple)) and len(answer[1]) == 5):
        raise ValueError(f"best_five returned {answer!r:.80}, expected (category, 5 cards)")
    category, five = answer
    names = [(card.rank, card.suit) for card in seven]
    lit = set()
    for card in five:
        where = (card.rank, card.suit)
        if where not in names:
            raise ValueError(f"best_five chose {card!r}, not one of the seven cards")
        lit.add(names.index(where))
    return Showing(tuple(seven), category, tuple(five), frozenset(lit),
                   (strength(category), sum(value(card) for card in five)))


def xray(hole: Sequence[Sequence[Any]], board: Sequence[Any],
         parts: dict[str, Any]) -> ShowdownXRay:
    """Return the showdown x-ray of the two players' ``hole`` cards (2 each) on ``board`` (5)
    computed by ``parts`` (best_five, compare)."""
    sevens = [[*cards, *board] for cards in hole]
    players: list[Showing | None] = [None] * len(sevens)
    part = "best_five"
    try:
        for seat, seven in enumerate(sevens):
            players[seat] = _showing(seven, parts[part](list(seven)))
        part = "compare"
        verdict = parts[part](list(sevens[0]), list(sevens[1]))
        if verdict not in (1, 0, -1) or type(verdict) is not int:
            raise ValueError(f"compare returned {verdict!r:.40}, expected 1, 0 or -1")
    except (KeyboardInterrupt, SystemExit):
        raise
    except ValueError as wrong:
        return ShowdownXRay(tuple(players), problem=described(wrong, named=False))
    except BaseException as error:  # noqa: B036  the student's part (or its process, gone)
        return ShowdownXRay(tuple(players),
                            problem=f"{part} raised {described(error)}")
    return ShowdownXRay(tuple(players), verdict)


__all__ = ["SEATS", "ShowdownXRay", "Showing", "xray"]
