"""The betting state of heads-up Hold'em and the kit's part of the hand flow: posting the
blinds and opening each betting round. Pure: no widget, no grading import.

A state is a plain dict, so the grader can send it to a student's kernel and back:

``street``  "preflop", "flop", "turn" or "river"
``dealer``  0 or 1, the player with the button (posts the small blind)
``to_act``  0 or 1, who acts next; None once the betting round is over
``stacks``  [chips, chips]: what each player still has behind
``bets``    [chips, chips]: what each has put in during THIS betting round
``put_in``  [chips, chips]: what each has put in during this hand (the pot is their sum)
``acted``   [bool, bool]: who has acted this round (posting a blind is not acting)
``min_bet`` the least a first bet of this round may be (10, or 20 on the turn and river)
``folded``  None, or the player who folded
``showdown`` None, or at a showdown what ``compare(player 0's seven, player 1's seven)`` said

The chips are conserved: ``sum(stacks) + sum(put_in) == 2000`` at every moment.
"""

from __future__ import annotations

import copy
from typing import Any

from .rules import BIG_BLIND, MIN_BET, SMALL_BLIND, STREETS, TOTAL_CHIPS

KEYS: tuple[str, ...] = ("street", "dealer", "to_act", "stacks", "bets", "put_in", "acted",
                         "min_bet", "folded", "showdown")


def make_state(**fields: Any) -> dict[str, Any]:
    """Return a full state: a flop round with nobody having bet, player 0 the dealer (so
    player 1 acts first), 1,000 chips each, changed by ``fields``. Raises TypeError naming
    an unknown field."""
    unknown = set(fields) - set(KEYS)
    if unknown:
        raise TypeError(f"unknown state field(s) {sorted(unknown)}; fields: {', '.join(KEYS)}")
    state: dict[str, Any] = {"street": "flop", "dealer": 0, "to_act": 1,
                             "stacks": [1000, 1000], "bets": [0, 0], "put_in": [0, 0],
                             "acted": [False, False], "min_bet": MIN_BET["flop"],
                             "folded": None, "showdown": None}
    state.update(copy.deepcopy(fields))
    return state


def post_blinds(stacks: list[int], dealer: int) -> dict[str, Any]:
    """Return the state at the start of a hand: the dealer has posted the small blind (5), the
    other the big blind (10, the opening bet), and the dealer acts first. Raises ValueError
    when a player cannot pay the big blind (the match is over) or the chips are not 2,000."""
    if sum(stacks) != TOTAL_CHIPS or min(stacks) < BIG_BLIND:
        raise ValueError(f"stacks {stacks}: each player needs the big blind ({BIG_BLIND}) and "
                         f"the chips must total {TOTAL_CHIPS}")
    blinds = [0, 0]
    blinds[dealer], blinds[1 - dealer] = SMALL_BLIND, BIG_BLIND
    return make_state(street="preflop", dealer=dealer, to_act=dealer,
                      stacks=[stacks[p] - blinds[p] for p in (0, 1)], bets=list(blinds),
                      put_in=list(blinds), min_bet=MIN_BET["preflop"])


def next_round(state: dict[str, Any]) -> dict[str, Any]:
    """Return the state of the next street's betting round: nothing bet yet, nobody has
    acted, the non-dealer first; nobody acts when a player is all-in (stacks of 0). Raises
    ValueError after the river or after a fold."""
    if state["folded"] is not None or state["street"] == STREETS[-1]:
        raise ValueError(f"no betting round after the {state['street']} "
                         f"{'(a player folded)' if state['folded'] is not None else ''}".strip())
    street = STREETS[STREETS.index(state["street"]) + 1]
    new = copy.deepcopy(state)
    all_in = min(new["stacks"]) == 0
    new.update(street=street, bets=[0, 0], acted=[False, False], min_bet=MIN_BET[street],
               to_act=None if all_in else 1 - new["dealer"])
    return new


def problems(state: Any) -> list[str]:
    """Return what is wrong with ``state`` as a betting state (empty when nothing is): the
    kit checks what a student's ``apply`` returns with it before using it."""
    if type(state) is not dict:
        return [f"expected a dict, got {type(state).__name__}"]
    missing = [key for key in KEYS if key not in state]
    if missing:
        return [f"missing field(s) {', '.join(missing)}"]
    found = []
    for key in ("stacks", "bets", "put_in"):
        pair = state[key]
        if type(pair) is not list or len(pair) != 2 or any(type(x) is not int or x < 0
                                                           for x in pair):
            found.append(f"{key} should be two whole numbers of 0 or more, got {pair!r}")
    if not found:
        total = sum(state["stacks"]) + sum(state["put_in"])
        if total != TOTAL_CHIPS:
            found.append(f"chips + pot = {total}, not {TOTAL_CHIPS}")
    if state["to_act"] not in (0, 1, None) or type(state["to_act"]) is bool:
        found.append(f"to_act should be 0, 1 or None, got {state['to_act']!r}")
    return found
