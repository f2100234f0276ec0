"""The checks of heads-up Hold'em's steps, shared by the notebook's test cells and the gate.

Each ``check_*`` takes the student's part as a parameter, calls it with plain data only (kit
cards, lists, dicts, ints, strs), compares what comes back strictly and raises
``CheckFailed`` naming the call, the expected value and the actual one. A student's
``NotImplementedError`` goes through untouched. While ``best_five`` is checked, ``category`` is
the kit's; while ``compare`` is checked, ``best_five`` is the kit's: each step is graded alone.
What a check compares with and stands in with comes from ``KNOWN``: in the student's kernel,
tables of the visible cases' answers (``visible``: data, not an implementation of any part); in
the grader, the known-good parts of ``known_good``, which answer the hidden cases too.

Each step's ``check_*`` (what the last cell's checklist runs) makes exactly the ``expect_*``
calls that the notebook's visible test cell spells out, in the same order and with the same
literal data, so a student reads in the cell what is tested.

Step 6's tests are the student's own (``plaisante.student_side.student_tests``): its cell judges
``my_settle_tests(settle)`` on a correct ``settle`` and on buggy ones; here are only the buggy
versions shown in the notebook (``SETTLE_MISTAKES``) and the gate's check that the tests are
written (``check_settle_tests``).

Under the grader a part runs in the student's kernel, and what a call leaves in the dicts and
lists it is given comes back (``plaisante.grading.judge``): ``apply`` is judged by the state it
returns and by the state it was given, which must stay as it was, in both modes.
"""

from __future__ import annotations

import builtins
import copy
from collections.abc import Callable
from typing import Any

from ...student_side import hand_names as names
from ...student_side.cards import KitCard, hand, labels
from ...student_side.checking import (
    Always,
    AnyOrder,
    CheckFailed,
    Known,
    check_shape,
    expect_value,
    plain_keys,
    run,
    same,
    show,
    substituted,
)
from ...student_side.student_tests import (
    Version,
    check_written,
    grade_my_tests,
    try_my_tests,
    version,
)
from .betting import make_state, problems
from .rules import BIG_BLIND, value
from .visible import VISIBLE_BEST, VISIBLE_CATEGORIES

_type, _len, _sorted = builtins.type, builtins.len, builtins.sorted


def _best(answer: tuple[str, str]) -> tuple[str, list[KitCard]]:
    """Return a visible table's best five, (category, 'K♠ K♥ 7♦ 7♣ 9♣'), as best_five does."""
    return answer[0], hand(answer[1])


#: The right answers of the parts the checks stand in with and compare with: here the visible
#: cases' (``visible``), in the grader the known-good parts (``known_good`` calls ``use``).
KNOWN = Known(category=AnyOrder("category", VISIBLE_CATEGORIES),
              best_five=AnyOrder("best_five", VISIBLE_BEST, convert=_best))


def expect_error(call: str, compute: Callable[[], Any], mentions: tuple[str, ...] = ()) -> None:
    """Raise CheckFailed unless ``compute()`` raises ValueError whose message holds every text
    of ``mentions`` (the numbers or words a good message names)."""
    try:
        result = compute()
    except NotImplementedError:
        raise
    except ValueError as error:
        message = str(error)
        absent = [text for text in mentions if text not in message]
        if absent:
            raise CheckFailed(f"{call}: the ValueError should name {', '.join(mentions)}; its "
                              f"message {message!r} lacks {', '.join(absent)}") from None
        return
    except Exception as error:
        raise CheckFailed(f"{call}: expected ValueError, got {_type(error).__name__}: {error}"
                          ) from error
    raise CheckFailed(f"{call}: expected ValueError, got no error (it returned {show(result)})")


# ----------------------------------------------------------------------------- step 1: category

def expect_category(category: Callable[[list[Any]], Any], text: str, expected: str) -> None:
    """Check ``category`` on the kit's five cards ``text`` gives ``expected``, the hand
    unchanged."""
    five = hand(text)
    before = list(five)
    expect_value(f"category([{text}])", expected, lambda: category(five))
    if not same(before, five):
        raise CheckFailed(f"category([{text}]) changed the hand it was given: {show(five)}")


def check_category(category: Callable[[list[Any]], Any]) -> None:
    """Check step 1 on one hand of every category, the ace low, and a pair whose values span
    five (not a straight: a straight's five values all differ). The notebook's visible cell
    makes these same calls."""
    expect_category(category, "9♠ 10♠ J♠ Q♠ K♠", names.STRAIGHT_FLUSH)
    expect_category(category, "7♣ 7♦ 7♥ 7♠ 2♣", names.FOUR_OF_A_KIND)
    expect_category(category, "3♣ 3♦ 3♥ 9♠ 9♣", names.FULL_HOUSE)
    expect_category(category, "2♥ 9♥ J♥ 4♥ 6♥", names.FLUSH)
    expect_category(category, "A♣ 2♦ 3♥ 4♠ 5♣", names.STRAIGHT)
    expect_category(category, "Q♣ Q♦ Q♥ 2♠ 5♣", names.THREE_OF_A_KIND)
    expect_category(category, "J♣ J♦ 4♥ 4♠ A♣", names.TWO_PAIR)
    expect_category(category, "K♣ K♦ 2♥ 7♠ 9♣", names.PAIR)
    expect_category(category, "10♣ J♦ Q♥ K♠ A♣", names.HIGH_CARD)
    expect_category(category, "5♠ 5♦ 6♣ 7♥ 9♠", names.PAIR)


# ---------------------------------------------------------------------------- step 2: best_five

def expect_best_five(best_five: Callable[[list[Any]], Any], text: str) -> None:
    """Check ``best_five`` on the kit's seven cards ``text``: a tuple (category, five of the
    seven cards), the strongest category and then the highest sum, the seven unchanged.
    ``category`` is the kit's meanwhile. Of two fives equally good, either is right."""
    seven = hand(text)
    before = list(seven)
    call = f"best_five([{text}])"
    wanted, wanted_five = KNOWN.best_five(before)
    wanted_sum = sum(value(card) for card in wanted_five)
    with substituted(best_five, category=KNOWN.category):
        result = run(call, lambda: best_five(seven))
    shape = (f"expected a tuple (category, list of 5 cards) such as ({wanted!r}, "
             f"[{labels(wanted_five)}]), got {show(result)}")
    if _type(result) is not tuple or _len(result) != 2 or _type(result[1]) is not list:
        raise CheckFailed(f"{call}: {shape}")
    got, five = result
    keys = [(c.rank, c.suit) for c in five if _type(c) is KitCard]  # the kit's: plain strs
    if _len(five) != 5 or _len(keys) != 5 or _len(set(keys)) != 5 or not set(keys) <= {
            (c.rank, c.suit) for c in before}:
        raise CheckFailed(f"{call}: expected five different cards of the seven, got "
                          f"{show(five)}")
    if not same(wanted, got):
        raise CheckFailed(f"{call}: expected the category {wanted!r} (for example "
                          f"[{labels(wanted_five)}]), got {show(got)} with [{labels(five)}]")
    total = sum(value(card) for card in five)
    made = KNOWN.category(five)
    if made != wanted or total != wanted_sum:
        raise CheckFailed(f"{call}: expected a {wanted} whose values sum to {wanted_sum} "
                          f"(for example [{labels(wanted_five)}]), got [{labels(five)}], a "
                          f"{made} summing to {total}")
    if not same(before, seven):
        raise CheckFailed(f"{call} changed the seven cards it was given: {show(seven)}")


def check_best_five(best_five: Callable[[list[Any]], Any]) -> None:
    """Check step 2: the best category, then the highest sum (ace low)."""
    expect_best_five(best_five, "K♠ K♥ 7♦ 7♣ A♠ 2♥ 9♣")
    expect_best_five(best_five, "2♥ 3♥ 4♥ 8♣ 9♦ 10♠ J♥")
    expect_best_five(best_five, "A♣ 2♦ 3♥ 4♠ 5♣ K♦ K♥")
    expect_best_five(best_five, "2♠ 5♠ 9♠ J♠ Q♠ K♠ 3♦")


# ------------------------------------------------------------------------------ step 3: compare

def _best_told(seven: list[Any]) -> str:
    """Return the kit's best five of ``seven`` as a failing compare check tells it:
    '[Q♠ J♦ 10♣ 9♥ 7♠], a High Card summing to 49'."""
    name, five = KNOWN.best_five(seven)
    return f"[{labels(five)}], a {name} summing to {sum(value(card) for card in five)}"


def expect_compare(compare: Callable[[list[Any], list[Any]], Any], a: str, b: str,
                   expected: int) -> None:
    """Check ``compare`` on the kit's seven cards ``a`` and ``b`` gives ``expected`` (1, -1 or
    0). ``best_five`` is the kit's meanwhile. A failure names both best fives, their
    categories and their sums: why the expected side wins (or why they tie)."""
    seven_a, seven_b = hand(a), hand(b)
    call = f"compare([{a}], [{b}])"
    with substituted(compare, best_five=KNOWN.best_five):
        result = run(call, lambda: compare(seven_a, seven_b))
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {expected!r}, got {show(result)}. A's best five is "
                          f"{_best_told(hand(a))}; B's is {_best_told(hand(b))}")
    for name, given, text in (("A", seven_a, a), ("B", seven_b, b)):
        if not same(hand(text), given):
            raise CheckFailed(f"{call} changed the seven cards of {name} it was given: "
                              f"{show(given)}")


def check_compare(compare: Callable[[list[Any], list[Any]], Any]) -> None:
    """Check step 3: category first, then the sum of the best five (not of all seven); equal
    sums are a tie. The notebook's visible cell makes these same calls."""
    expect_compare(compare, "Q♠ J♦ Q♥ 9♣ 5♦ 4♠ 3♣", "K♣ 2♥ Q♥ 9♣ 5♦ 4♠ 3♣", 1)
    expect_compare(compare, "K♣ 2♥ Q♥ 9♣ 5♦ 4♠ 3♣", "Q♠ J♦ Q♥ 9♣ 5♦ 4♠ 3♣", -1)
    expect_compare(compare, "K♠ 7♦ 5♣ 4♥ 2♠ 3♦ 8♦", "Q♦ J♣ 10♥ 8♠ 6♦ 2♣ 3♠", -1)
    expect_compare(compare, "K♠ Q♦ J♣ 9♥ 7♠ A♦ 2♣", "K♥ Q♣ J♦ 8♠ 7♦ 6♣ 5♥", 1)
    expect_compare(compare, "2♠ 7♠ Q♥ 9♣ 5♦ 4♠ 3♣", "2♥ 7♦ Q♥ 9♣ 5♦ 4♠ 3♣", 0)


# ------------------------------------------------------------------------ step 4: the betting

def valid(state: dict[str, Any]) -> dict[str, Any]:
    """Return ``state``; raises ValueError (a mistake in the check, not the student's) when it
    is not a state that can happen: chips + pot must be 2,000."""
    wrong = problems(state)
    if wrong:
        raise ValueError(f"the check's own state is impossible: {'; '.join(wrong)}")
    return state


def state_text(state: dict[str, Any]) -> str:
    """Return the fields of ``state`` that differ from ``make_state()``'s, as a call would
    build it: 'state(to_act=0, bets=[0, 30])'."""
    base = make_state()
    changed = [f"{key}={state[key]!r}" for key in state if state[key] != base.get(key)]
    return f"state({', '.join(changed)})"


def expect_legal(legal_actions: Callable[[dict[str, Any]], Any], fields: dict[str, Any],
                 expected: dict[str, Any]) -> None:
    """Check ``legal_actions`` on ``make_state(**fields)`` gives ``expected``: each allowed
    action mapped to None, or for bet and raise to the (least, most) your round total may
    become."""
    state = valid(make_state(**fields))
    call = f"legal_actions({state_text(state)})"
    result = run(call, lambda: legal_actions(copy.deepcopy(state)))
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {expected!r}, got {show(result)}")


def expect_apply(apply: Callable[..., Any], fields: dict[str, Any], action: str,
                 amount: int | None, changes: dict[str, Any]) -> dict[str, Any]:
    """Check ``apply`` on ``make_state(**fields)`` returns the state with ``changes`` (a new
    dict; the one given stays as it was). Returns the expected state."""
    state = valid(make_state(**fields))
    expected = {**copy.deepcopy(state), **copy.deepcopy(changes)}
    given = copy.deepcopy(state)
    call = (f"apply({state_text(state)}, {action!r}"
            + ("" if amount is None else f", {amount}") + ")")
    result = run(call, lambda: apply(given, action) if amount is None else
                 apply(given, action, amount))
    if _type(result) is not dict or not plain_keys(result):
        raise CheckFailed(f"{call}: expected the new state (a dict), got {show(result)}")
    if not same(expected, result):
        wrong = [key for key in expected if key not in result
                 or not same(expected[key], result[key])]
        extra = _sorted((key for key in result if key not in expected), key=str)
        detail = "; ".join(f"{key}: expected {expected[key]!r}, got "
                           f"{show(result.get(key, '(missing)'))}" for key in wrong)
        raise CheckFailed(f"{call}: {detail or f'unexpected fields {extra}'}")
    if not same(state, given):
        raise CheckFailed(f"{call} changed the state it was given (return a new one): "
                          f"{show(given)}")
    return expected


def expect_illegal(apply: Callable[..., Any], fields: dict[str, Any], action: str,
                   amount: int | None, mentions: tuple[str, ...] = ()) -> None:
    """Check ``apply`` refuses ``action`` on ``make_state(**fields)`` with a ValueError naming
    ``mentions``, the state given unchanged."""
    state = valid(make_state(**fields))
    given = copy.deepcopy(state)
    call = (f"apply({state_text(state)}, {action!r}"
            + ("" if amount is None else f", {amount}") + ")")
    expect_error(call, lambda: apply(given, action) if amount is None else
                 apply(given, action, amount), mentions)
    if not same(state, given):
        raise CheckFailed(f"{call}: an illegal action changed the state: {show(given)}")


#: The pre-flop state a hand starts from: player 0 the dealer, blinds posted, the dealer first.
PREFLOP: dict[str, Any] = {"street": "preflop", "to_act": 0, "stacks": [995, 990],
                           "bets": [5, 10], "put_in": [5, 10]}


def check_legal_actions(legal_actions: Callable[[dict[str, Any]], Any]) -> None:
    """Check step 4's legal_actions: pre-flop facing the big blind, a flop with nothing bet,
    facing a bet, exactly the chips for the least bet or raise, the other player all-in (or one
    chip short of it), the round over. The notebook's visible cell makes these same calls."""
    expect_legal(legal_actions, PREFLOP, {"fold": None, "call": None, "raise": (20, 1000)})
    expect_legal(legal_actions, {}, {"fold": None, "check": None, "bet": (10, 1000)})
    expect_legal(legal_actions, {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30],
                                 "put_in": [0, 30], "acted": [False, True]},
                 {"fold": None, "call": None, "raise": (60, 1000)})
    expect_legal(legal_actions, {"stacks": [1000, 10], "put_in": [0, 990]},
                 {"fold": None, "check": None, "bet": (10, 10)})
    expect_legal(legal_actions, {"to_act": 0, "stacks": [60, 970], "bets": [0, 30],
                                 "put_in": [940, 30], "acted": [False, True]},
                 {"fold": None, "call": None, "raise": (60, 60)})
    expect_legal(legal_actions, {"to_act": 0, "stacks": [900, 0], "bets": [0, 100],
                                 "put_in": [100, 1000], "acted": [False, True]},
                 {"fold": None, "call": None})
    expect_legal(legal_actions, {"to_act": 0, "stacks": [1000, 1], "bets": [0, 30],
                                 "put_in": [0, 999], "acted": [False, True]},
                 {"fold": None, "call": None, "raise": (60, 1000)})
    expect_legal(legal_actions, {"to_act": None, "acted": [True, True]}, {})


def check_apply(apply: Callable[..., Any]) -> None:
    """Check step 4's apply: a call, a bet, a raise and a raise back, a check that ends the
    round, a fold, all-in calls and an all-in raise, and illegal actions refused. The
    notebook's visible cell makes these same calls."""
    expect_apply(apply, PREFLOP, "call", None, {"stacks": [990, 990], "bets": [10, 10],
                                                 "put_in": [10, 10], "acted": [True, False],
                                                 "to_act": 1})
    expect_apply(apply, {}, "bet", 30, {"stacks": [1000, 970], "bets": [0, 30],
                                        "put_in": [0, 30], "acted": [False, True],
                                        "to_act": 0})
    expect_apply(apply, {"acted": [True, False]}, "check", None,
                 {"acted": [True, True], "to_act": None})
    expect_apply(apply, {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30], "put_in": [0, 30],
                         "acted": [False, True]}, "raise", 60,
                 {"stacks": [940, 970], "bets": [60, 30], "put_in": [60, 30],
                  "acted": [True, True], "to_act": 1})
    expect_apply(apply, {"to_act": 1, "stacks": [940, 970], "bets": [60, 30], "put_in": [60, 30],
                         "acted": [True, True]}, "raise", 120,
                 {"stacks": [940, 880], "bets": [60, 120], "put_in": [60, 120], "to_act": 0})
    expect_apply(apply, {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30], "put_in": [0, 30],
                         "acted": [False, True]}, "fold", None,
                 {"folded": 0, "acted": [True, True], "to_act": None})
    expect_apply(apply, {"to_act": 0, "stacks": [80, 900], "bets": [0, 100],
                         "put_in": [920, 100], "acted": [False, True]}, "call", None,
                 {"stacks": [0, 900], "bets": [80, 100], "put_in": [1000, 100],
                  "acted": [True, True], "to_act": None})
    expect_apply(apply, {**PREFLOP, "stacks": [5, 1980]}, "call", None,
                 {"stacks": [0, 1980], "bets": [10, 10], "put_in": [10, 10],
                  "acted": [True, False], "to_act": None})
    expect_apply(apply, {"street": "preflop", "dealer": 1, "to_act": 1, "stacks": [0, 995],
                         "bets": [10, 5], "put_in": [1000, 5]}, "call", None,
                 {"stacks": [0, 990], "bets": [10, 10], "put_in": [1000, 10],
                  "acted": [False, True], "to_act": None})
    expect_apply(apply, PREFLOP, "raise", 1000, {"stacks": [0, 990], "bets": [1000, 10],
                                                "put_in": [1000, 10], "acted": [True, False],
                                                "to_act": 1})
    expect_illegal(apply, {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30],
                           "put_in": [0, 30], "acted": [False, True]}, "raise", 50, ("60",))
    expect_illegal(apply, {"to_act": 0, "stacks": [1000, 970], "bets": [0, 30],
                           "put_in": [0, 30], "acted": [False, True]}, "check", None)
    expect_illegal(apply, PREFLOP, "call", 10)


# -------------------------------------------------------------------------------- step 5: settle

def expect_settle(settle: Callable[[dict[str, Any]], Any], fields: dict[str, Any],
                  stacks: list[int], match_over: bool) -> None:
    """Check ``settle(make_state(**fields))`` returns (the stacks after the pot is paid,
    whether the match is over), the state it was given unchanged."""
    state = valid(make_state(**{"to_act": None, **fields}))
    given = copy.deepcopy(state)
    call = f"settle({state_text(state)})"
    result = run(call, lambda: settle(given))
    expected = (stacks, match_over)
    if _type(result) is not tuple or _len(result) != 2 or not same(stacks, result[0]) \
            or not same(match_over, result[1]):
        raise CheckFailed(f"{call}: expected {expected!r}, got {show(result)}")
    if not same(state, given):
        raise CheckFailed(f"{call} changed the state it was given (make a new list of stacks):"
                          f" {show(given)}")


def check_settle(settle: Callable[[dict[str, Any]], Any]) -> None:
    """Check step 5: a fold, a showdown each way, an even split, an odd split, a lost match and
    a stack of exactly the big blind. The notebook's visible cell makes these same calls."""
    expect_settle(settle, {"folded": 1, "stacks": [900, 980], "put_in": [100, 20]},
                  [1020, 980], False)
    expect_settle(settle, {"showdown": 1, "stacks": [800, 800], "put_in": [200, 200]},
                  [1200, 800], False)
    expect_settle(settle, {"showdown": -1, "stacks": [800, 800], "put_in": [200, 200]},
                  [800, 1200], False)
    expect_settle(settle, {"showdown": 0, "stacks": [800, 800], "put_in": [200, 200]},
                  [1000, 1000], False)
    expect_settle(settle, {"showdown": 0, "dealer": 1, "stacks": [700, 599],
                           "put_in": [300, 401]}, [1051, 949], False)
    expect_settle(settle, {"showdown": -1, "stacks": [0, 1000], "put_in": [1000, 0]},
                  [0, 2000], True)
    expect_settle(settle, {"showdown": 1, "stacks": [0, 10], "put_in": [1000, 990]},
                  [1990, 10], False)


# ------------------------------------------------------------- step 6: your tests of settle

# Each buggy settle is written out whole with its one mistake, sharing no helper that pays a
# pot rightly.

def _split_to_player_0(state: dict[str, Any]) -> tuple[list[int], bool]:
    stacks = list(state["stacks"])
    pot = sum(state["put_in"])
    if state["folded"] is not None:
        stacks[1 - state["folded"]] += pot
    elif state["showdown"] == -1:
        stacks[1] += pot
    else:
        stacks[0] += pot
    return stacks, min(stacks) < BIG_BLIND


def _winner_gets_only_the_losers_chips(state: dict[str, Any]) -> tuple[list[int], bool]:
    stacks = list(state["stacks"])
    pot = sum(state["put_in"])
    if state["folded"] is not None:
        stacks[1 - state["folded"]] += state["put_in"][state["folded"]]
    elif state["showdown"] in (1, -1):
        winner = 0 if state["showdown"] == 1 else 1
        stacks[winner] += state["put_in"][1 - winner]
    else:
        stacks = [chips + pot // 2 for chips in stacks]
        stacks[1 - state["dealer"]] += pot % 2
    return stacks, min(stacks) < BIG_BLIND


def _fold_returns_the_bets(state: dict[str, Any]) -> tuple[list[int], bool]:
    stacks = list(state["stacks"])
    pot = sum(state["put_in"])
    if state["folded"] is not None:
        stacks = [chips + put for chips, put in zip(stacks, state["put_in"])]
    elif state["showdown"] in (1, -1):
        stacks[0 if state["showdown"] == 1 else 1] += pot
    else:
        stacks = [chips + pot // 2 for chips in stacks]
        stacks[1 - state["dealer"]] += pot % 2
    return stacks, min(stacks) < BIG_BLIND


#: The buggy settles the notebook's own-tests cell shows (the hidden ones are others).
SETTLE_MISTAKES: tuple[Version, ...] = (
    version("gives a split pot all to player 0", settle=_split_to_player_0),
    version("pays the winner only what the other player put in",
            settle=_winner_gets_only_the_losers_chips),
    version("gives each player back what they put in after a fold",
            settle=_fold_returns_the_bets),
)


def check_settle_tests(my_settle_tests: Callable[..., Any]) -> None:
    """Check step 6 for the gate: ``my_settle_tests(settle)`` is written (it no longer raises
    NotImplementedError before testing anything). What it catches is graded when the work is:
    on a correct settle, and on buggy ones. Raises CheckFailed when it does not take one
    parameter named settle."""
    check_written(my_settle_tests, "settle")


__all__ = [
    "CheckFailed", "Always", "same", "show", "expect_value", "check_shape", "run", "hand",
    "labels", "make_state", "PREFLOP", "expect_error", "check_category", "expect_category",
    "check_best_five", "expect_best_five", "check_compare", "expect_compare",
    "check_legal_actions", "expect_legal", "check_apply", "expect_apply", "expect_illegal",
    "check_settle", "expect_settle", "state_text", "Version", "version", "try_my_tests",
    "grade_my_tests", "SETTLE_MISTAKES", "check_settle_tests",
]
