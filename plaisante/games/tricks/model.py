"""The table of the trick-taking game: you (player 0) and the kit's three bots play a deal of 8
tricks on the student's own code. State and rules only: no widget, no grading import.

The student's parts are parameters: ``Trick`` keeps the deal (hands, the trick on the table,
whose turn, tricks won) and refuses a card that does not follow suit; ``sort_hand`` orders your
hand; ``legal_plays`` says which of your cards are playable (the view highlights them) and
which cards a bot may choose from; ``trick_strength`` is the order the bots play by. If one of
them raises, or the deal ends up impossible (a card accepted that should have been refused, a
card that does not leave the hand, a winner who is not a player), the table raises
``StudentCodeError`` naming the step; a card refused by the rules raises ``IllegalAction``
saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...student_side.cards import label, labels
from ...student_side.wire import described
from ..shell import IllegalAction, StudentCodeError, StudentParts
from . import ASSIGNMENT
from .rules import BOTS, CARDS_EACH, PLAYERS, SEATS, card_points, deal_hands, led_suit_of

STUDENT = StudentParts(ASSIGNMENT)


class TrickTable:
    """A deal of 8 tricks among 4 players: you are player 0, the kit's bots players 1–3.

    Parameters are the student's parts (see the module). ``seed`` repeats the deals: the n-th
    deal (from 0) shuffles with ``random.Random(seed + n)`` and is led by player n % 4.
    State: ``game`` (the student's ``Trick``), ``tricks`` (every completed trick of this deal,
    each ``(plays, winner)`` with ``plays`` the (player, card) pairs in play order), ``deals``.
    A deal starts at once, and the bots play until it is your turn.
    """

    def __init__(self, *, trick_strength: Callable[[Any], int],
                 sort_hand: Callable[[list[Any]], list[Any]],
                 legal_plays: Callable[[list[Any], str | None], list[Any]],
                 trick_winner: Callable[[list[tuple[int, Any]]], int],
                 Trick: Callable[..., Any], seed: int | None = None,
                 **_other_parts: Any) -> None:
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int or None, got {seed!r}")
        self.trick_strength, self.sort_hand = trick_strength, sort_hand
        self.legal_plays, self.trick_winner, self.Trick = legal_plays, trick_winner, Trick
        self.seed = seed
        self.deals = 0
        self.game: Any = None
        self.tricks: list[tuple[list[tuple[int, Any]], int]] = []
        self.start()

    # ------------------------------------------------------------------------- reading
    @property
    def turn(self) -> int:
        """The player who plays next (the student's ``Trick.turn``)."""
        return int(self.game.turn)

    @property
    def on_table(self) -> list[tuple[int, Any]]:
        """The (player, card) pairs of the trick being played, in play order."""
        return list(self.game.trick)

    @property
    def led_suit(self) -> str | None:
        """The suit of the trick's first card; None before anyone has played to it."""
        return led_suit_of(self.on_table)

    @property
    def won(self) -> list[int]:
        """Tricks won so far in this deal, per player."""
        return list(self.game.won)

    @property
    def over(self) -> bool:
        """True once the 8 tricks of the deal are played."""
        return len(self.tricks) == CARDS_EACH

    @property
    def last(self) -> tuple[list[tuple[int, Any]], int] | None:
        """The last completed trick and its winner, or None before the first."""
        return self.tricks[-1] if self.tricks else None

    def your_hand(self) -> list[Any]:
        """Your cards, ordered by the student's ``sort_hand``."""
        held = list(self.game.hands[0])
        with STUDENT.calling("sort_hand", "could not sort your hand"):
            ordered = self.sort_hand(list(held))
        if type(ordered) is not list or sorted(map(label, ordered)) != sorted(map(label, held)):
            shown = labels(ordered) if isinstance(ordered, list) else repr(ordered)
            raise STUDENT.error("sort_hand", f"returned {shown} for the hand {labels(held)}")
        return ordered

    def playable(self) -> list[Any]:
        """The cards you may play now (the student's ``legal_plays``); none when it is not your
        turn or the deal is over."""
        if self.over or self.turn != 0:
            return []
        return self._legal(0)

    def points(self) -> list[int]:
        """Card points taken per player so far (A 11, 10 10, K 4, Q 3, J 2): going further."""
        taken = [0] * PLAYERS
        for plays, winner in self.tricks:
            taken[winner] += card_points([card for _, card in plays])
        return taken

    # ------------------------------------------------------------------------- actions
    def start(self) -> None:
        """Deal a new hand of 8 to each player and let the bots play until your turn."""
        seed = None if self.seed is None else self.seed + self.deals
        hands = deal_hands(seed)
        leader = self.deals % PLAYERS
        with STUDENT.calling("Trick", "could not start a deal"):
            game = self.Trick(hands, leader)
        self.game, self.tricks = game, []
        self.deals += 1
        self._bots_play()

    def play(self, card: Any) -> None:
        """Play ``card`` from your hand, then let the bots play until your turn (or the end).
        Raises IllegalAction, the table unchanged, for a card you may not play now, saying why
        and which cards you may play."""
        if self.over:
            raise IllegalAction("the deal is over: press New deal to play another")
        if self.turn != 0:
            raise IllegalAction(f"it is {SEATS[self.turn]}'s turn, not yours")
        held = list(self.game.hands[0])
        if card not in held:
            raise IllegalAction(f"{label(card)} is not in your hand")
        legal = self._legal(0)
        if card not in legal:
            refusal = self._refusal(card)
            raise IllegalAction(f"{label(card)} refused: {self.led_suit} were led and you hold "
                                f"{self.led_suit}, so play one of {labels(legal)}" + (
                                    f" (your play_card says: {refusal})" if refusal else ""))
        self._play(0, card)
        self._bots_play()

    # ------------------------------------------------------------------------- helpers
    def _legal(self, player: int) -> list[Any]:
        held = list(self.game.hands[player])
        with STUDENT.calling("legal_plays", "could not tell the playable cards"):
            legal = self.legal_plays(list(held), self.led_suit)
        if type(legal) is not list or not legal or any(card not in held for card in legal):
            raise STUDENT.error("legal_plays", f"returned {legal!r} for the hand "
                                f"{labels(held)} and led suit {self.led_suit!r}; expected "
                                "some of those cards")
        return legal

    def _refusal(self, card: Any) -> str:
        """Ask the student's play_card to play an illegal card: it must raise ValueError and
        change nothing. Returns its message."""
        before = (list(self.game.hands[0]), self.on_table, self.turn, self.won)
        try:
            self.game.play_card(0, card)
        except ValueError as error:
            after = (list(self.game.hands[0]), self.on_table, self.turn, self.won)
            if after != before:
                raise STUDENT.error("Trick", f"play_card(0, {label(card)}) refused the card "
                                    "but changed the deal") from error
            return described(error, named=False)
        except Exception as error:
            raise STUDENT.error("Trick", f"play_card(0, {label(card)}): {described(error)}",
                                error) from error
        raise STUDENT.error("Trick", f"play_card(0, {label(card)}) accepted a card that does "
                            "not follow suit")

    def _play(self, player: int, card: Any) -> None:
        plays = self.on_table + [(player, card)]
        with STUDENT.calling("Trick", f"could not play {label(card)} for {SEATS[player]}"):
            winner = self.game.play_card(player, card)
        if card in self.game.hands[player]:
            raise STUDENT.error("Trick", f"play_card({player}, {label(card)}) left the card "
                                "in the hand")
        if len(plays) == PLAYERS:
            if type(winner) is not int or not 0 <= winner < PLAYERS:
                raise STUDENT.error("Trick", f"play_card ended a trick and returned "
                                    f"{winner!r}; expected the winner, 0 to 3")
            self.tricks.append((plays, winner))
        elif winner is not None:
            raise STUDENT.error("Trick", f"play_card returned {winner!r} before the trick "
                                "was complete; expected None")

    def _bots_play(self) -> None:
        while not self.over and self.turn != 0:
            player = self.turn
            legal = self._legal(player)
            _, bot = BOTS[player - 1]
            with STUDENT.calling("trick_strength", "could not rank a card for a bot"):
                card = bot(legal, self.on_table, self.trick_strength)
            self._play(player, card)


__all__ = ["TrickTable", "IllegalAction", "StudentCodeError"]
