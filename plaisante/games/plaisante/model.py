"""A Plaisante round: the game's state and rules, with no widget import (rules: SPEC §2).

The round is played on the student's own parts, handed in as explicit parameters: their
``Card`` class builds the deck, their ``Tableau`` holds the cards, their ``evaluate`` names each
played hand and their ``total_value``, ``base_mult`` and ``score`` give the numbers of its
formula, ``(13 + 13 + 3 + 7 + 9) × 2 = 90``. If one of those raises or breaks an invariant, the
round puts its state back as it was before the action and raises ``StudentCodeError`` naming
the step the function belongs to.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ...student_side.cards import label, labels, shuffled_deck
from ...student_side.checking import article
from ..shell import IllegalAction, StudentCodeError, StudentParts, number_shown, said, short
from . import ASSIGNMENT
from .rules import DISCARDS_PER_ROUND, HAND_SIZE, HANDS_PER_ROUND, MAX_SELECTED, MULTIPLIERS

STUDENT = StudentParts(ASSIGNMENT)


def _describe(card: Any) -> str:
    """Return 'K♥' for a card, or its repr for anything that is not one."""
    try:
        return label(card)
    except Exception:
        return repr(card)


@dataclass(frozen=True)
class PlayedHand:
    """One scored play: the cards in play order, the hand's name, its score, and the numbers
    the score was made of (each card's ``value``, ``total_value`` and ``base_mult``)."""

    cards: tuple[Any, ...]
    name: str
    score: int
    values: tuple[int, ...]
    total_value: int
    multiplier: int

    @property
    def formula(self) -> str:
        """Return how the score was made, e.g. ``(13 + 13 + 3 + 7 + 9) × 2 = 90``.

        Each number is what the student's parts gave. Where they disagree the formula says so
        instead of hiding it: the values' sum and ``total_value`` both shown
        (``(2 + 3) = 6 × 1 …``), ``≠`` before a score that is not the product.
        """
        terms = " + ".join(str(value) for value in self.values) or "0"
        total = "" if sum(self.values) == self.total_value else f" = {self.total_value}"
        equals = "=" if self.total_value * self.multiplier == self.score else "≠"
        return f"({terms}){total} × {self.multiplier} {equals} {self.score}"

    def __str__(self) -> str:
        return f"{labels(self.cards)}: {self.name}, {self.formula}"


class Round:
    """One Plaisante round: 8 held cards, 4 hands, 4 discards (SPEC §2).

    Parameters are the student's parts: ``card_class(rank, suit)``, ``evaluate(cards) -> str``,
    ``total_value(cards) -> int``, ``base_mult(cards) -> int``, ``score(cards) -> int`` and
    ``tableau_class()`` (with deal_from, toggle_selection and move_selected_to_play_area).
    ``seed`` makes the deal repeatable; ``deck`` (a list whose end is the top) replaces the
    shuffled deck and is copied, never changed.
    """

    def __init__(self, *, card_class: Callable[[str, str], Any],
                 evaluate: Callable[[list[Any]], str],
                 total_value: Callable[[list[Any]], int], base_mult: Callable[[list[Any]], int],
                 score: Callable[[list[Any]], int], tableau_class: Callable[[], Any],
                 seed: int | None = None, deck: list[Any] | None = None):
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int or None, got {seed!r}")
        self.evaluate, self.score_hand = evaluate, score
        self.total_value, self.base_mult = total_value, base_mult
        self.seed = seed
        with self._student("Card", "could not build the deck"):
            self.deck = list(deck) if deck is not None else shuffled_deck(seed, card_class)
        with self._student("Tableau", "could not make an empty tableau"):
            self.tableau = tableau_class()
        self.hands_left, self.discards_left, self.total = HANDS_PER_ROUND, DISCARDS_PER_ROUND, 0
        self.history: list[PlayedHand] = []
        self._refill()

    # ------------------------------------------------------------------------------ state
    @property
    def held_cards(self) -> list[Any]:
        return list(self.tableau.held_cards)

    @property
    def selected(self) -> list[Any]:
        return list(self.tableau.selected)

    @property
    def is_over(self) -> bool:
        return self.hands_left == 0

    @property
    def last_hand(self) -> PlayedHand | None:
        return self.history[-1] if self.history else None

    @property
    def is_underway(self) -> bool:
        """Whether New round would throw something away: a hand played or a discard used, and
        the round not over."""
        return not self.is_over and (bool(self.history) or self.discards_left < DISCARDS_PER_ROUND)

    def why_not_play(self) -> str | None:
        """Return the rule that forbids Play now, or None when Play is allowed."""
        if self.is_over:
            return "the round is over: start a new round"
        if not self.tableau.selected:
            return "select 1 to 5 cards to play"
        return None

    def why_not_discard(self) -> str | None:
        """Return the rule that forbids Discard now, or None when Discard is allowed."""
        if self.is_over:
            return "the round is over: start a new round"
        if self.discards_left == 0:
            return f"no discards left: all {DISCARDS_PER_ROUND} are used"
        if not self.tableau.selected:
            return "select 1 to 5 cards to discard"
        return None

    # ---------------------------------------------------------------------------- actions
    def toggle(self, card: Any) -> bool:
        """Select or deselect one held card; return False when a sixth selection was refused.

        Raises IllegalAction when the round is over or the card is not held.
        """
        if self.is_over:
            raise IllegalAction("the round is over: start a new round")
        if card not in self.tableau.held_cards:
            raise IllegalAction(f"{_describe(card)} is not among the held cards")
        before = list(self.tableau.selected)
        with self._student("Tableau", f"toggle_selection({label(card)}) failed",
                           function="toggle_selection"):
            self.tableau.toggle_selection(card)
        refused = card not in before and len(before) >= MAX_SELECTED
        return not refused

    def play(self) -> PlayedHand:
        """Play the selected cards: name and score them, add to the total, refill to 8.

        Raises IllegalAction naming the rule when Play is not allowed now.
        """
        self._require(self.why_not_play())
        with self._student("Tableau", "could not move the selection",
                           function="move_selected_to_play_area"):
            cards = self._move_selection()
            with self._student("evaluate", f"evaluate({labels(cards)}) failed"):
                name = self.evaluate(list(cards))
            with self._student("total_value", f"total_value({labels(cards)}) failed"):
                total = self.total_value(list(cards))
            with self._student("base_mult", f"base_mult({labels(cards)}) failed"):
                multiplier = self.base_mult(list(cards))
            with self._student("score", f"score({labels(cards)}) failed"):
                points = self.score_hand(list(cards))
            with self._student("Card", "a played card has no value"):
                values = tuple(card.value for card in cards)
            for card, value in zip(cards, values):
                self._require_result("Card", value, int, f"{_describe(card)}.value is")
            self._require_result("evaluate", name, str)
            self._require_result("total_value", total, int)
            self._require_result("base_mult", multiplier, int)
            self._require_result("score", points, int)
            if name not in MULTIPLIERS:
                raise STUDENT.error("evaluate", f"returned {name!r}; one of the hand names "
                                    f"was expected: {', '.join(MULTIPLIERS)}")
            if points < 0:
                raise STUDENT.error("score", f"returned {short(points)}; a score is never negative")
            self.tableau.play_area.clear()
            self.hands_left -= 1
            self.total += points
            self._refill()
        played = PlayedHand(tuple(cards), name, points, values, total, multiplier)
        self.history.append(played)
        return played

    def discard(self) -> list[Any]:
        """Discard the selected cards without scoring and refill to 8; return them.

        Raises IllegalAction naming the rule when Discard is not allowed now.
        """
        self._require(self.why_not_discard())
        with self._student("Tableau", "could not move the selection",
                           function="move_selected_to_play_area"):
            gone = self._move_selection()
            self.tableau.play_area.clear()
            self.discards_left -= 1
            self._refill()
        return gone

    # ---------------------------------------------------------------------------- helpers
    @staticmethod
    def _require(reason: str | None) -> None:
        if reason is not None:
            raise IllegalAction(reason)

    @staticmethod
    def _require_result(function: str, value: Any, kind: type, what: str = "returned") -> None:
        if type(value) is not kind:
            raise STUDENT.error(function,
                                f"{what} {short(value)}; {article(kind.__name__)} was expected")
        if kind is int and not number_shown(value):
            raise STUDENT.error(function, f"{what} {said(value)}; no number of a round is "
                                "larger than 2**63 - 1")

    def _move_selection(self) -> list[Any]:
        """Call the student's move_selected_to_play_area and check what it did."""
        chosen = list(self.tableau.selected)
        self.tableau.move_selected_to_play_area()
        moved, held = list(self.tableau.play_area), list(self.tableau.held_cards)
        if moved != chosen:
            raise STUDENT.error("Tableau",
                                f"moved {labels(moved)}; the selection was {labels(chosen)}",
                                function="move_selected_to_play_area")
        still_held = [card for card in moved if card in held]
        if still_held or self.tableau.selected:
            raise STUDENT.error("Tableau",
                                f"left {labels(still_held or self.tableau.selected)} "
                                f"{'held' if still_held else 'selected'} after moving them",
                                function="move_selected_to_play_area")
        return moved

    def _refill(self) -> None:
        with self._student("Tableau", "could not refill the held cards", function="deal_from"):
            self.tableau.deal_from(self.deck)
        self._check_invariants()

    def _check_invariants(self) -> None:
        held, selected = list(self.tableau.held_cards), list(self.tableau.selected)
        if len(held) > HAND_SIZE:
            raise STUDENT.error("Tableau", f"{len(held)} cards are held; at most 8 allowed")
        if len(selected) > MAX_SELECTED:
            raise STUDENT.error("Tableau",
                                f"{len(selected)} cards are selected; at most 5 allowed",
                                function="toggle_selection")
        if any(card not in held for card in selected):
            raise STUDENT.error("Tableau", "a selected card is not among the held cards")

    def _snapshot(self) -> dict[str, Any]:
        t = self.tableau
        return {"deck": list(self.deck), "held": list(t.held_cards), "selected": list(t.selected),
                "play_area": list(t.play_area), "hands_left": self.hands_left,
                "discards_left": self.discards_left, "total": self.total}

    def _restore(self, saved: dict[str, Any]) -> None:
        self.deck[:] = saved["deck"]
        t = self.tableau
        t.held_cards, t.selected, t.play_area = saved["held"], saved["selected"], saved["play_area"]
        self.hands_left, self.discards_left = saved["hands_left"], saved["discards_left"]
        self.total = saved["total"]

    @contextmanager
    def _student(self, part: str, message: str, *, function: str | None = None
                 ) -> Iterator[None]:
        """Run the student's ``part`` (``function``: the method of it called, if not itself);
        on error put the round back as it was and say which step failed."""
        saved = self._snapshot() if hasattr(self, "tableau") else None
        try:
            with STUDENT.calling(part, message, function=function):
                yield
            if saved is not None:
                self._check_invariants()
        except BaseException:  # an interrupt (stopping a looping evaluate) must not corrupt state
            if saved is not None:
                self._restore(saved)
            raise


__all__ = ["Round", "PlayedHand", "IllegalAction", "StudentCodeError"]
