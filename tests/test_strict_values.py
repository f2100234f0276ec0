"""What a check compares and prints of a student's value: strict at every depth, and bounded.

An object whose ``==`` always answers True is refused at any depth of a list, tuple or dict;
the "before" state a check reads from a student's machine must be plain data; and a failure
message costs its limit, not the size of a value that shares one list many times.
"""

from __future__ import annotations

import random

import pytest

from plaisante.games.holdem import checks as holdem
from plaisante.games.holdem.betting import make_state
from plaisante.games.video_poker import checks as video_poker
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import CheckFailed, plain, same, show


class Liar:
    """Equal to everything, unequal to nothing: what a check must never ask."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


@pytest.mark.parametrize("expected", [
    [1, 2], (20, 1000), {"raise": (20, 1000), "fold": None}, [[1], (2, [3])],
    {"stacks": [995, 990], "acted": [False, True]},
])
def test_same_refuses_a_liar_at_any_depth(expected):
    def liars(value):
        if type(value) is dict:
            return {key: liars(item) for key, item in value.items()}
        if type(value) in (list, tuple):
            return type(value)(liars(item) for item in value)
        return Liar()

    assert same(expected, expected)
    assert not same(expected, liars(expected))


def test_same_refuses_a_dict_whose_key_answers_equal():
    assert not same({"fold": None}, {Liar(): None})
    assert not same((1, [True]), (1, [1]))  # a bool is not an int, inside a tuple too


def test_plain_accepts_data_and_refuses_objects_cycles_and_blown_up_sharing():
    assert plain([1, "a", None, True, 2.5, hand("K♥ 3♣"), (1, 2), {"a": [1], 3: None}])
    cycle: list = []
    cycle.append(cycle)
    row = [0] * 200
    assert not plain([Liar()])
    assert not plain({"credits": Liar()})
    assert not plain({(1,): 2})
    assert not plain(cycle)
    assert not plain([row] * 200)  # 40,200 items walked: past the bound


def liar_apply(state, action, amount=None):
    """Hold'em's apply that never moves a chip and answers every comparison with a Liar."""
    new = dict(state)
    for key in ("stacks", "bets", "put_in", "acted"):
        new[key] = [Liar(), Liar()]
    new["to_act"] = Liar()
    return new


def test_holdem_apply_that_returns_liars_fails():
    with pytest.raises(CheckFailed, match=r"^apply\(state\(\), 'bet', 30\): to_act: expected 0, "
                                          r"got <.*; stacks: expected \[1000, 970\], got \[<"):
        holdem.expect_apply(liar_apply, {}, "bet", 30, {"stacks": [1000, 970],
                                                         "bets": [0, 30], "put_in": [0, 30],
                                                         "acted": [False, True], "to_act": 0})


def test_holdem_apply_that_swaps_the_given_state_for_liars_fails():
    right = make_state(**{"stacks": [1000, 970], "bets": [0, 30], "put_in": [0, 30],
                          "acted": [False, True], "to_act": 0})

    def apply(state, action, amount=None):
        for key in ("stacks", "bets", "put_in", "acted"):
            state[key] = [Liar(), Liar()]
        return dict(right)

    with pytest.raises(CheckFailed, match="changed the state it was given"):
        holdem.expect_apply(apply, {}, "bet", 30, {"stacks": [1000, 970], "bets": [0, 30],
                                                   "put_in": [0, 30], "acted": [False, True],
                                                   "to_act": 0})


def test_holdem_legal_actions_that_computes_no_amount_fails():
    def legal_actions(state):
        return {"fold": None, "call": None, "raise": (Liar(), Liar())}

    with pytest.raises(CheckFailed, match=r"expected \{'fold': None, 'call': None, "
                                          r"'raise': \(20, 1000\)\}"):
        holdem.check_legal_actions(legal_actions)


class LyingMachine:
    """A machine whose refused bet takes a credit, and whose credits answer every comparison
    as equal: the "before" it gives a check is not plain data."""

    def __init__(self) -> None:
        self.games, self.bet, self.cards, self.held, self.dealt = 0, 0, [], [False] * 5, False
        self.name, self.win, self.taken = None, 0, 0

    @property
    def credits(self):
        return Liar()

    def press_bet(self):
        self.taken += 1
        raise ValueError("no bet now")


def test_video_poker_refused_action_needs_a_plain_state_before():
    machine = LyingMachine()
    with pytest.raises(CheckFailed, match=r"before press_bet\(\): machine.credits should be "
                                          r"plain data"):
        video_poker.expect_refused(machine, "press_bet()", machine.press_bet, ("bet",))


class Counted:
    """An item whose repr counts how often it was asked."""

    asked = 0

    def __repr__(self) -> str:
        Counted.asked += 1
        return "c"


def test_show_of_a_list_sharing_one_list_many_times_does_bounded_work():
    Counted.asked = 0
    inner = [Counted()] * 45_000
    outer = [inner] * 45_000  # 2 x 10^9 items if written out
    text = show(outer)
    assert len(text) == 200 and text.endswith("…")
    assert text.startswith("[[c, c, c")
    assert Counted.asked <= 200


def test_show_of_a_list_that_holds_itself_many_times_is_cut():
    bomb: list = []
    bomb[:] = [bomb] * 45_000
    text = show([bomb] * 45_000)
    assert text.startswith("[[[...], [...]") and len(text) == 200


def test_show_writes_small_values_as_repr_does():
    values = [1, "abc", None, (1,), (1, 2), {"a": [1, (2, 3)], "b": None}, set(), {1, 2},
              frozenset({1}), [], {}, 3.5, KeyError("x"), list(range(20)), random.Random]
    for value in values:
        assert show(value) == repr(value)
    assert show(hand("K♥ 3♣")) == "[K♥ 3♣]"
    assert show(list(range(1000))) == repr(list(range(1000)))[:199] + "…"


def test_a_games_printer_of_hands_and_tricks_does_bounded_work():
    from plaisante.games.deck import checks as deck
    from plaisante.games.tricks import checks as tricks

    Counted.asked = 0
    shared = [Counted()] * 45_000
    for text in (deck.show_hands([shared] * 45_000), tricks.show_hands([shared] * 45_000),
                 tricks.show_trick([(0, shared)] * 45_000)):
        assert len(text) == 200
    assert Counted.asked <= 600
    assert tricks.show_hands([hand("9♥ A♠"), []]) == "[9♥ A♠ | -]"
    assert deck.show_hands([hand("K♥ 3♣"), []]) == "[K♥ 3♣] []"
