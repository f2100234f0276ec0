"""The machine as the view sees it: the student's ``Machine`` driven by name, its state read
back and checked, and what each button may do now. Pure: no widgets, no grading.

The rules live in the student's class (checked by step 4); this module only calls it, turns a
``ValueError`` (a rule refusing an action, which changes nothing) into ``IllegalAction`` and any
other error, or a state that breaks the rules' shapes, into ``StudentCodeError`` naming step 4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...student_side.wire import described
from ..shell import IllegalAction, StudentCodeError, StudentParts, number_shown, said, short
from . import ASSIGNMENT
from .rules import BET_STEP, HAND_SIZE, MAX_BET, MIN_BET

ACTIONS = ("place_bet", "bet_max", "deal", "toggle_hold", "draw")


STUDENT = StudentParts(ASSIGNMENT)


@dataclass(frozen=True)
class Snapshot:
    """What the machine shows: ints ``credits``, ``games``, ``bet``, ``win``; ``cards`` (5 cards
    once dealt, else empty), ``held`` (5 bools), ``dealt`` (a game waits for its draw),
    ``name`` (the last hand's name, or None) and ``notice`` (a line from loading, or None)."""

    credits: int
    games: int
    bet: int
    cards: tuple[Any, ...]
    held: tuple[bool, ...]
    dealt: bool
    name: str | None
    win: int
    notice: str | None

    def why_not(self, action: str) -> str | None:
        """Return why ``action`` (one of ACTIONS) is not allowed now, or None."""
        if action == "place_bet":
            if self.dealt:
                return "draw first: bets are placed between games"
            if self.bet + BET_STEP > MAX_BET:
                return f"the bet is at most {MAX_BET}"
            if self.bet + BET_STEP > self.credits:
                return f"a bet of {self.bet + BET_STEP} needs that many credits"
            return None
        if action == "bet_max":
            if self.dealt:
                return "draw first"
            return None if self.credits >= MAX_BET else f"Bet max needs {MAX_BET} credits"
        if action == "deal":
            if self.dealt:
                return "draw first"
            return None if self.bet >= MIN_BET else f"bet at least {MIN_BET} first"
        if action in ("draw", "toggle_hold"):
            return None if self.dealt else "deal first"
        raise ValueError(f"unknown action {action!r}; the actions are {', '.join(ACTIONS)}")


class MachinePlay:
    """One machine of the student's class, built with ``random.Random(seed)`` and the saved
    file ``path`` (None: nothing saved). Raises StudentCodeError if it cannot be built."""

    def __init__(self, machine_class: Any, *, seed: int | None = None,
                 path: str | None = None) -> None:
        self.machine_class, self.seed, self.path = machine_class, seed, path
        try:
            self.machine = machine_class(rng=random.Random(seed), path=path)
        except Exception as error:
            raise STUDENT.error("Machine", f"Machine(rng=…, path={path!r}) raised "
                                f"{described(error)}") from error
        self.state = self.read()

    def act(self, action: str, *args: Any) -> Snapshot:
        """Call the machine's ``action`` (one of ACTIONS) with ``args``; return the new state.
        Raises IllegalAction when the machine refuses, StudentCodeError when it breaks."""
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}; the actions are {', '.join(ACTIONS)}")
        try:
            getattr(self.machine, action)(*args)
        except ValueError as rule:
            raise IllegalAction(described(rule, named=False)) from rule
        except Exception as error:
            raise STUDENT.error("Machine", f"{action}() raised {described(error)}") from error
        finally:
            self.state = self.read()
        return self.state

    def read(self) -> Snapshot:
        """Return the machine's state, checked. Raises StudentCodeError naming an attribute
        that is missing or of the wrong shape."""
        machine = self.machine
        values: dict[str, Any] = {}
        for name in ("credits", "games", "bet", "cards", "held", "dealt", "name", "win"):
            if not hasattr(machine, name):
                raise STUDENT.error("Machine", f"the machine has no attribute {name!r}")
            values[name] = getattr(machine, name)
        values["notice"] = getattr(machine, "notice", None)
        for name in ("credits", "games", "bet", "win"):
            if not number_shown(values[name]) or values[name] < 0:
                raise STUDENT.error("Machine", f"machine.{name} is {said(values[name])}, not "
                                    "an int from 0 to 2**63 - 1")
        cards, held = values["cards"], values["held"]
        if not isinstance(cards, list) or len(cards) not in (0, HAND_SIZE) or not all(
                hasattr(card, "rank") and hasattr(card, "suit") for card in cards):
            raise STUDENT.error("Machine",
                                f"machine.cards is {short(cards)}, not 0 or {HAND_SIZE} cards")
        if not isinstance(held, list) or len(held) != HAND_SIZE or not all(
                type(flag) is bool for flag in held):
            raise STUDENT.error("Machine", f"machine.held is {short(held)}, not {HAND_SIZE} bools")
        if type(values["dealt"]) is not bool:
            raise STUDENT.error("Machine", f"machine.dealt is {short(values['dealt'])}, not a bool")
        for name in ("name", "notice"):
            if values[name] is not None and type(values[name]) is not str:
                raise STUDENT.error("Machine",
                                    f"machine.{name} is {short(values[name])}, not a str or None")
        return Snapshot(credits=values["credits"], games=values["games"], bet=values["bet"],
                        cards=tuple(cards), held=tuple(held), dealt=values["dealt"],
                        name=values["name"], win=values["win"], notice=values["notice"])


__all__ = ["ACTIONS", "MachinePlay", "Snapshot", "IllegalAction", "StudentCodeError"]
