"""A heads-up match against the kit's bot: the hand flow (button, blinds, dealing, streets,
showdown) and the bot, with no widget or grading import.

The match runs on the student's own functions, handed in as parameters: ``legal_actions``
says what the player to act may do, ``apply`` moves the chips, ``best_five`` names each hand at
the showdown, ``compare`` decides it and ``settle`` pays the pot. The kit deals, posts the
blinds, opens each betting round (``betting``) and plays the bot. If a student's function
raises or returns something impossible (chips created or lost, a player acting out of turn),
the match keeps the state it had before and raises ``StudentCodeError`` naming the step.

You are player 0, the bot is player 1.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ...student_side.cards import label, labels, shuffled_deck
from ...student_side.markup import clipped
from ..shell import IllegalAction, StudentCodeError, StudentParts, short
from . import ASSIGNMENT, betting
from .rules import BIG_BLIND, STARTING_CHIPS, TOTAL_CHIPS, value

YOU, BOT = 0, 1
NAMES = ("You", "The bot")

STUDENT = StudentParts(ASSIGNMENT)


def bot_choice(legal: dict[str, Any], state: dict[str, Any], hole: list[Any],
               board: list[Any], rng: random.Random) -> tuple[str, int | None]:
    """Return the bot's (action, amount) among ``legal`` (what ``legal_actions`` allowed).

    A plain, readable strategy by a fixed rule, which names no hand (the kit holds no hand
    evaluator a student's kernel could borrow): it rates its cards (pre-flop: a pair or two
    cards of 10 and more is strong; later: by how many of the board's cards share a value with
    its own, ``matches``), raises or bets the least amount with a strong hand, calls or checks
    with a middling one, and with a weak one checks when it can, otherwise calls a small bet
    and folds to a big one. ``rng`` (seeded by the match) makes it bet more now and then, so it
    is not fully predictable."""
    me = state["to_act"]
    to_call = max(state["bets"]) - state["bets"][me]
    if board:
        matched = matches(hole, board)
        pocket_pair = value(hole[0]) == value(hole[1])
        strong = matched >= 2 or (pocket_pair and matched > 0)
        middling = matched > 0 or pocket_pair
    else:
        values = sorted(value(card) for card in hole)
        strong = values[0] == values[1] or values[0] >= 10
        middling = values[1] >= 10 or values[0] in (1, values[1] - 1)
    aggressive = "raise" if "raise" in legal else ("bet" if "bet" in legal else None)
    if aggressive and (strong or rng.random() < 0.1):
        least, most = legal[aggressive]
        amount = least if rng.random() < 0.7 else min(most, least * 2)
        return aggressive, amount
    if "check" in legal:
        return "check", None
    if strong or middling or to_call <= BIG_BLIND or to_call * 4 <= state["stacks"][me]:
        return "call", None
    return "fold", None


def matches(hole: list[Any], board: list[Any]) -> int:
    """Return how many of the ``board``'s cards share a value with a card of ``hole``."""
    own = {value(card) for card in hole}
    return sum(1 for card in board if value(card) in own)


class Match:
    """A heads-up match of no-limit Hold'em under the house rules, you against the bot.

    Parameters: the student's ``best_five``, ``compare``, ``legal_actions``, ``apply`` and
    ``settle`` (others are accepted and ignored); ``seed`` makes the button, every deal and the
    bot's choices repeatable. State: ``stacks`` between hands, ``state`` (the betting dict of
    the hand under way), ``hole`` (each player's two cards), ``board``, ``log`` (the lines of
    this hand), ``hand_number``, ``phase`` ("betting", "hand over" or "match over") and
    ``showdown`` (both best fives once shown).
    """

    def __init__(self, *, best_five: Callable[[list[Any]], Any],
                 compare: Callable[[list[Any], list[Any]], Any],
                 legal_actions: Callable[[dict[str, Any]], Any], apply: Callable[..., Any],
                 settle: Callable[[dict[str, Any]], Any], seed: int | None = None,
                 **_other_parts: Any) -> None:
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int or None, got {seed!r}")
        self.best_five, self.compare = best_five, compare
        self.legal_actions, self.apply, self.settle = legal_actions, apply, settle
        self.rng = random.Random(seed)
        self.dealer = self.rng.randrange(2)  # the first hand's button; it alternates after
        self.stacks = [STARTING_CHIPS, STARTING_CHIPS]
        self.hand_number = 0
        self.state: dict[str, Any] = {}
        self.hole: list[list[Any]] = [[], []]
        self.board: list[Any] = []
        self.deck: list[Any] = []
        self.log: list[str] = []
        self.phase = "hand over"
        self.showdown: list[tuple[str, list[Any]]] | None = None

    # ---------------------------------------------------------------------------- actions
    def new_hand(self) -> None:
        """Deal the next hand: the button moves (not before the first), the blinds are posted,
        two hole cards each, one at a time, the non-dealer first; the bot acts if it is first.
        Raises IllegalAction while a hand is under way or once the match is over."""
        if self.phase == "betting":
            raise IllegalAction("finish this hand first")
        if self.phase == "match over":
            raise IllegalAction("the match is over: a player cannot pay the big blind")
        with self._transaction():
            self._deal()

    def _deal(self) -> None:
        if self.hand_number:
            self.dealer = 1 - self.dealer
        self.hand_number += 1
        self.deck = shuffled_deck(self.rng.randrange(2**32))
        self.hole, self.board, self.showdown = [[], []], [], None
        for _ in range(2):
            for player in (1 - self.dealer, self.dealer):
                self.hole[player].append(self.deck.pop())
        self.state = betting.post_blinds(self.stacks, self.dealer)
        self.phase = "betting"
        self.log = [f"Hand {self.hand_number}: {NAMES[self.dealer]} deal"
                    f"{'s' if self.dealer else ''} and post{'s' if self.dealer else ''} the "
                    f"small blind (5), {NAMES[1 - self.dealer].lower()} the big blind (10)."]
        self._advance()

    def options(self) -> dict[str, Any]:
        """Return what you may do now (your ``legal_actions`` on the state), {} when it is not
        your turn."""
        if self.phase != "betting" or self.state.get("to_act") != YOU:
            return {}
        return self._legal()

    def act(self, action: str, amount: int | None = None) -> None:
        """Do ``action`` (with ``amount``, your round total, for a bet or a raise) for you,
        then let the bot and the dealing go on until it is your turn or the hand is over.
        Raises IllegalAction naming the rule when it is not your turn or your
        ``legal_actions`` does not allow it; on a student error nothing changes."""
        if self.phase != "betting" or self.state.get("to_act") != YOU:
            raise IllegalAction("it is not your turn" if self.phase == "betting" else
                                "the hand is over: deal the next one")
        legal = self._legal()
        if action not in legal:
            raise IllegalAction(f"{action} is not allowed now; you may: {', '.join(legal)}")
        if legal[action] is not None:
            least, most = legal[action]
            if type(amount) is not int or not least <= amount <= most:
                raise IllegalAction(f"{action} to {amount}: pick from {least} to {most}")
        else:
            amount = None
        with self._transaction():
            self._apply(action, amount)
            self._advance()

    # ----------------------------------------------------------------------- the hand flow
    def _advance(self) -> None:
        """Let the bot act, open the next street and finish the hand, until it is your turn
        or the hand is over."""
        while self.phase == "betting":
            who = self.state["to_act"]
            if who == YOU:
                return
            if who == BOT:
                legal = self._legal()
                action, amount = bot_choice(legal, self.state, self.hole[BOT], self.board,
                                            self.rng)
                self._apply(action, amount)
                continue
            if self.state["folded"] is not None or self.state["street"] == "river":
                self._finish()
                return
            self.state = betting.next_round(self.state)
            dealt = 3 if self.state["street"] == "flop" else 1
            self.deck.pop()  # burned
            cards = [self.deck.pop() for _ in range(dealt)]
            self.board.extend(cards)
            self.log.append(f"{self.state['street'].capitalize()}: {labels(cards)}")

    def _legal(self) -> dict[str, Any]:
        state = dict(self.state, stacks=list(self.state["stacks"]),
                     bets=list(self.state["bets"]), put_in=list(self.state["put_in"]),
                     acted=list(self.state["acted"]))
        with STUDENT.calling("legal_actions", "could not say what is allowed"):
            legal = self.legal_actions(state)
        if type(legal) is not dict or not legal or any(
                name not in ("fold", "check", "call", "bet", "raise") for name in legal):
            raise STUDENT.error("legal_actions", f"returned {short(legal)} for a player "
                                "who has to act; expected a dict such as {'fold': None, "
                                "'check': None, 'bet': (10, 1000)}")
        for name in ("bet", "raise"):
            span = legal.get(name)
            if name in legal and not (type(span) is tuple and len(span) == 2 and all(
                    type(x) is int for x in span) and 0 < span[0] <= span[1]):
                raise STUDENT.error("legal_actions", f"{name} maps to {short(span)}; "
                                    "expected (least, most)")
        return legal

    def _apply(self, action: str, amount: int | None) -> None:
        before = self.state
        given = dict(before, stacks=list(before["stacks"]), bets=list(before["bets"]),
                     put_in=list(before["put_in"]), acted=list(before["acted"]))
        with STUDENT.calling("apply", f"could not {action}"):
            after = self.apply(given, action) if amount is None else \
                self.apply(given, action, amount)
        wrong = betting.problems(after)
        if wrong:
            raise STUDENT.error("apply", f"{action} returned an impossible state: "
                                f"{'; '.join(wrong)}")
        mover = before["to_act"]
        if after["to_act"] == mover:
            raise STUDENT.error("apply", f"after {NAMES[mover].lower()} "
                                f"{action}{'' if amount is None else f' {amount}'}, "
                                f"to_act is {mover} again: a player acts out of turn")
        self.state = after
        put = after["put_in"][mover] - before["put_in"][mover]
        text = {"fold": "fold", "check": "check", "call": f"call {put}",
                "bet": f"bet {amount}", "raise": f"raise to {amount}"}[action]
        allin = " (all-in)" if after["stacks"][mover] == 0 and action != "fold" else ""
        self.log.append(f"{NAMES[mover]}: {text}{allin}")

    def _finish(self) -> None:
        state = dict(self.state)
        if state["folded"] is None:
            sevens = [self.hole[p] + self.board for p in (YOU, BOT)]
            with STUDENT.calling("compare", "could not decide the showdown"):
                result = self.compare(list(sevens[0]), list(sevens[1]))
            if result not in (1, -1, 0) or type(result) is not int:
                raise STUDENT.error("compare", f"returned {short(result)}; expected 1, -1 "
                                    "or 0")
            shown = []
            for player in (YOU, BOT):
                with STUDENT.calling("best_five", "could not name a hand"):
                    named = self.best_five(list(sevens[player]))
                if type(named) is not tuple or len(named) != 2:
                    raise STUDENT.error("best_five", f"returned {short(named)}; expected "
                                        "(category, five cards)")
                with STUDENT.calling("best_five", "gave a hand that cannot be shown"):
                    shown.append((clipped(named[0]), list(named[1])))
            state["showdown"] = result
        with STUDENT.calling("settle", "could not pay the pot"):
            paid = self.settle(dict(state, stacks=list(state["stacks"]),
                                    put_in=list(state["put_in"])))
        if type(paid) is not tuple or len(paid) != 2 or type(paid[0]) is not list or \
                len(paid[0]) != 2 or any(type(x) is not int or x < 0 for x in paid[0]) or \
                sum(paid[0]) != TOTAL_CHIPS or type(paid[1]) is not bool:
            raise STUDENT.error("settle", f"returned {short(paid)}; expected ([chips, "
                               f"chips] adding up to {TOTAL_CHIPS}, True or False)")
        if paid[1] != (min(paid[0]) < BIG_BLIND):
            raise STUDENT.error("settle", f"returned {short(paid)}: the match is over "
                                f"exactly when a player has fewer than {BIG_BLIND} chips")
        pot = sum(state["put_in"])
        if state["folded"] is None:
            self.showdown = shown
            for player in (YOU, BOT):
                self.log.append(f"{NAMES[player]} show{'s' if player else ''} "
                                f"{labels(self.hole[player])}: {shown[player][0]} "
                                f"({labels(shown[player][1])})")
            self.log.append({1: f"You win the pot of {pot}.", -1: f"The bot wins the pot of "
                             f"{pot}.", 0: f"A tie: the pot of {pot} is split."}[result])
        else:
            winner = 1 - state["folded"]
            self.log.append(f"{NAMES[winner]} win{'s' if winner else ''} the pot of {pot}.")
        self.state = state
        self.stacks = list(paid[0])
        over = paid[1]
        self.phase = "match over" if over else "hand over"
        if over:
            loser = YOU if self.stacks[YOU] < BIG_BLIND else BOT
            self.log.append(f"{NAMES[loser]} cannot pay the big blind: "
                            f"{'the bot wins' if loser == YOU else 'you win'} the match.")

    # --------------------------------------------------------------------------- helpers
    @property
    def pot(self) -> int:
        """The chips in the middle: everything put in this hand (0 between hands)."""
        return sum(self.state["put_in"]) if self.phase == "betting" else 0

    def shown_cards(self, player: int) -> list[Any]:
        """Return the hole cards the table shows for ``player``: yours always, the bot's only
        at a showdown."""
        if player == YOU or self.showdown is not None:
            return list(self.hole[player])
        return []

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """Put the match back as it was when a student's function fails inside the block."""
        saved = {key: (list(val) if type(val) is list else val)
                 for key, val in self.__dict__.items() if key != "rng"}
        saved["hole"] = [list(cards) for cards in self.hole]
        rng_state = self.rng.getstate()
        try:
            yield
        except StudentCodeError:
            self.__dict__.update(saved)
            self.rng.setstate(rng_state)
            raise


__all__ = ["Match", "IllegalAction", "StudentCodeError", "bot_choice", "YOU", "BOT", "label"]
