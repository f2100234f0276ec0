"""Promises of Hold'em's notebook that a hidden case tells apart from a plausible wrong
program: each wrong apply here keeps every other rule and fails the case made for it."""

from __future__ import annotations

import pytest
from assignment_support import unit

from plaisante.games.holdem import checks
from plaisante.student_side.checking import CheckFailed

HOLDEM = unit("holdem")
FACING_30 = {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30], "put_in": [0, 30],
             "acted": [False, True]}


def loose(apply, action_taken, when, instead):
    """Return ``apply`` that does ``instead`` when asked ``action_taken`` in a state where
    ``when(state)``: the rule that action needs is not checked."""
    def wrong(state, action, amount=None):
        if action == action_taken and when(state):
            return apply(state, instead, amount)
        return apply(state, action, amount)
    return wrong


@pytest.fixture(scope="module")
def apply():
    return HOLDEM.load_reference().apply


def test_the_reference_refuses_each(apply) -> None:
    checks.expect_illegal(apply, {}, "raise", 20)
    checks.expect_illegal(apply, FACING_30, "bet", 60)
    checks.expect_illegal(apply, {}, "call", None)


@pytest.mark.parametrize("wrong, fields, action, amount", [
    (("raise", lambda s: max(s["bets"]) == 0, "bet"), {}, "raise", 20),
    (("bet", lambda s: max(s["bets"]) > 0, "raise"), FACING_30, "bet", 60),
    (("call", lambda s: s["bets"][0] == s["bets"][1], "check"), {}, "call", None),
])
def test_an_apply_that_skips_the_rule_is_caught(apply, wrong, fields, action, amount) -> None:
    taken, when, instead = wrong
    with pytest.raises(CheckFailed, match="expected ValueError, got no error"):
        checks.expect_illegal(loose(apply, taken, when, instead), fields, action, amount)
