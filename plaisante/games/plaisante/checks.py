"""The visible checks of each graded step, shared by the notebook's test cells and the gate.

Each ``check_*`` function takes the student's part as a parameter, runs it on cards the kit
builds (so one step is graded on its own, SPEC §3) and raises ``CheckFailed`` (an
AssertionError) whose message names the input, the expected value and the actual value.
A student's ``NotImplementedError`` is let through untouched, so "not started" stays distinct
from "wrong".

Comparisons are strict (type and value, see ``same``): an object whose ``==`` always answers
True is not a list, an int or a bool, and earns nothing.
"""

from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...student_side.cards import RANK_VALUES, RANKS, SUIT_SYMBOLS, SUITS, KitCard, hand, labels
from ...student_side.checking import (
    Always,
    CheckFailed,
    Known,
    Table,
    check_shape,
    expect_value,
    expect_value_error,
    run,
    same,
    show,
    substituted,
)
from ...student_side.student_tests import Version, grade_my_tests, try_my_tests, version
from . import visible
from .rules import (
    CHECK_FOR_HAND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    MAX_SELECTED,
    MULTIPLIERS,
    PAIR,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

# Bound at import so a part that patches builtins cannot change what a check sees.
_type: Any = builtins.type
_len: Any = builtins.len
_repr: Any = builtins.repr
_isinstance: Any = builtins.isinstance


def counts_list(counts: dict[int, int]) -> list[int]:
    """Return the 15-slot counts list with ``counts`` (value → how many) filled in."""
    return [counts.get(value, 0) for value in range(15)]


#: What the checks know of count_values in a student's kernel: its answers on the hands of the
#: visible has-check and evaluate cases (value → how many), the stand-in while those parts are
#: checked. In the grader ``known_good`` puts the known-good count_values in its place.
TABLES: tuple[Table, ...] = (
    Table("count_values", visible.COUNTS, convert=counts_list),
)

#: The answers the checks stand in with (``KNOWN.count_values``), read when a check runs.
KNOWN = Known(**{table.part: table for table in TABLES})


# ----------------------------------------------------------------------------- step 1: Card

def expect_own_card(Card: Callable[[str, str], Any]) -> Any:
    """Check that ``Card`` makes cards of a class of the student's own, not the kit's card
    (``KitCard``) nor a class built on it: the kit's card, in every kernel, is right about
    rank, suit, value, equality and hashing, most of step 1. Returns ``Card('K', 'hearts')``.
    Under the judge a kit card, of a class built on it too, crosses to the grader as itself
    (``plaisante.kernel.oracle``)."""
    king = run("Card('K', 'hearts')", lambda: Card("K", "hearts"))
    if _isinstance(king, KitCard):
        raise CheckFailed("Card('K', 'hearts'): gave the kit's own card (a KitCard, or a class "
                          "built on it); step 1 asks for a class of your own, Card")
    return king


def check_card_values(Card: Callable[[str, str], Any]) -> None:
    """Check step 1's attributes: rank, suit, and the value of every one of the 13 ranks."""
    king = expect_own_card(Card)
    expect_value("Card('K', 'hearts').rank", "K", lambda: king.rank)
    expect_value("Card('K', 'hearts').suit", "hearts", lambda: king.suit)
    for rank in RANKS:
        expect_value(f"Card({rank!r}, 'spades').value", RANK_VALUES[rank],
                     lambda rank=rank: Card(rank, "spades").value)


def check_card_equality(Card: Callable[[str, str], Any]) -> None:
    """Check step 1's == (same rank and suit, never equal to a non-card) and a hash that
    agrees with it."""
    expect_own_card(Card)
    expect_value("Card('Q', 'clubs') == Card('Q', 'clubs')", True,
                 lambda: Card("Q", "clubs") == Card("Q", "clubs"))
    expect_value("Card('Q', 'clubs') == Card('Q', 'spades')", False,
                 lambda: Card("Q", "clubs") == Card("Q", "spades"))
    expect_value("Card('Q', 'clubs') == Card('K', 'clubs')", False,
                 lambda: Card("Q", "clubs") == Card("K", "clubs"))
    expect_value("hash(Card('Q', 'clubs')) == hash(Card('Q', 'clubs'))", True,
                 lambda: hash(Card("Q", "clubs")) == hash(Card("Q", "clubs")))
    expect_value("len({Card('Q', 'clubs'), Card('Q', 'clubs')})", 1,
                 lambda: _len({Card("Q", "clubs"), Card("Q", "clubs")}))
    expect_value("Card('K', 'hearts') == 'K♥'", False, lambda: Card("K", "hearts") == "K♥")


def check_card_text(Card: Callable[[str, str], Any]) -> None:
    """Check step 1's readable repr and the ValueError naming the allowed ranks or suits (the
    rank checked first)."""
    expect_own_card(Card)
    expect_readable_repr("repr(Card('10', 'diamonds'))", lambda: Card("10", "diamonds"), "10")
    expect_value_error("Card('1', 'hearts')", lambda: Card("1", "hearts"), RANKS, "ranks")
    expect_value_error("Card('K', 'stars')", lambda: Card("K", "stars"), SUITS, "suits")
    expect_value_error("Card('hearts', 'K')", lambda: Card("hearts", "K"), RANKS, "ranks")


def expect_readable_repr(call: str, make: Callable[[], Any], rank: str,
                         suit: str | None = None) -> None:
    """Check that ``repr(make())`` is a readable text naming ``rank`` (not Python's default
    ``<… object at 0x…>``) and, when ``suit`` is given, that suit: its name in any case, its
    symbol (♠) or its initial right after the rank ('As'). ``call`` names it as the student
    writes it."""
    text = run(call, lambda: _repr(make()))
    named = _type(text) is str and (suit is None or suit in text.lower()
                                    or SUIT_SYMBOLS[suit] in text
                                    or (rank + suit[0]).lower() in text.lower())
    if _type(text) is not str or " object at 0x" in text or rank not in text or not named:
        raise CheckFailed(f"{call}: expected a readable text naming rank {rank} and the suit, "
                          f"got {show(text)}")


def check_card(Card: Callable[[str, str], Any]) -> None:
    """Check all of step 1: values, equality and hashing, repr and bad input."""
    check_card_values(Card)
    check_card_equality(Card)
    check_card_text(Card)


# ---------------------------------------------------------------------- step 2: count_values

COUNT_VALUES_CASES: tuple[tuple[str, dict[int, int]], ...] = (
    ("", {}),
    ("K♥ K♦ 3♣ 7♠ 9♥", {13: 2, 3: 1, 7: 1, 9: 1}),
    ("A♠ A♥ 2♣", {14: 2, 2: 1}),
    ("10♠ 10♥ 10♦ 10♣ J♠ Q♥ K♦ A♣", {10: 4, 11: 1, 12: 1, 13: 1, 14: 1}),
)


def check_count_values(count_values: Callable[[list[Any]], list[int]]) -> None:
    """Check step 2: a list of 15 ints, index = card value, on the kit's cards."""
    for text, counts in COUNT_VALUES_CASES:
        expect_counts(count_values, text, counts_list(counts))


def expect_counts(count_values: Callable[..., Any], text: str, expected: list[int]) -> None:
    """Check count_values on the kit's cards for ``text`` against ``expected`` (15 ints)."""
    cards = hand(text)
    expect_value(f"count_values({labels(cards)})", expected, lambda: count_values(list(cards)))


# ------------------------------------------------- the buggy versions students' tests should catch
# Visible ones: the cell after a student's own tests names each one their tests catch. The
# hidden ones are in the test cells' hidden regions (they never reach the student's kernel).

def _from_slot_0(cards: list[Any]) -> list[int]:
    counts = [0] * 15
    for card in cards:
        counts[card.value - 2] += 1
    return counts


_KEPT: list[int] = [0] * 15


def _keeps_counting(cards: list[Any]) -> list[int]:
    for card in cards:
        _KEPT[card.value] += 1
    return list(_KEPT)


def _sets_to_one(cards: list[Any]) -> list[int]:
    counts = [0] * 15
    for card in cards:
        counts[card.value] = 1
    return counts


COUNT_VALUES_MISTAKES: tuple[Version, ...] = (
    version("counts from slot 0 (a 2 goes in slot 0, an ace in slot 12)",
            count_values=_from_slot_0),
    version("keeps the counts of earlier calls (its list is made once, outside the function)",
            count_values=_keeps_counting),
    version("sets a slot to 1 instead of adding 1", count_values=_sets_to_one),
)

# Each is wrong for its own part and right for no other part: a buggy version shown here must
# never be a working answer to some step.
HAS_CHECK_MISTAKES: tuple[Version, ...] = (
    version("says True for at least 2 of a value (>= 2), so for three or four of a kind",
            has_pair=lambda cards: any(n >= 2 for n in Counter(c.value for c in cards).values())),
    version("says True for any 5 cards of just 2 values, so for four of a kind and a fifth card",
            has_full_house=lambda cards: len(cards) == 5 and len({c.value for c in cards}) == 2),
    version("counts the cards that repeat a value (2 for two pairs), so three of a kind too",
            has_two_pair=lambda cards: len(cards) - len({c.value for c in cards}) == 2),
)


# ------------------------------------------------------------------------ step 3: has-checks

HAS_CHECK_CASES: dict[str, tuple[tuple[str, bool], ...]] = {
    "has_pair": (("K♥ K♦ 3♣ 7♠ 9♥", True), ("K♥ Q♦ 3♣ 7♠ 9♥", False), ("", False),
                 ("K♥ K♦ K♣ 3♠ 3♥", True), ("K♥ K♦ K♣ K♠ 9♥", False),
                 ("7♥ 7♦ 7♣ 2♠ 9♥", False)),
    "has_three_of_a_kind": (("7♥ 7♦ 7♣ 2♠ 9♥", True), ("7♥ 7♦ 2♣ 2♠ 9♥", False), ("", False),
                            ("7♥ 7♦ 7♣ 7♠ 9♥", False)),
    "has_four_of_a_kind": (("9♥ 9♦ 9♣ 9♠ 2♥", True), ("9♥ 9♦ 9♣ 2♠ 2♥", False),
                           ("9♥ 9♦ 9♣ 9♠", True), ("9♥ 9♦ 9♣ 9♠ 2♥ 3♥ 4♥ 5♥", True)),
    "has_two_pair": (("K♥ K♦ 3♣ 3♠ 9♥", True), ("K♥ K♦ 3♣ 7♠ 9♥", False), ("", False),
                     ("K♥ K♦ 3♣ 3♠ 9♥ 9♦", False), ("K♥ K♦ K♣ 3♠ 3♥", False)),
    "has_full_house": (("K♥ K♦ K♣ 3♠ 3♥", True), ("K♥ K♦ K♣ 3♠ 9♥", False),
                       ("K♥ K♦ 3♣ 3♠ 9♥", False), ("K♥ K♦ K♣ K♠ 3♥", False)),
    "has_flush": (("2♥ 7♥ 9♥ J♥ K♥", True), ("2♥ 7♥ 9♥ J♥ K♠", False), ("2♥ 7♥ 9♥", False),
                  ("2♥ 7♥ 9♥ J♥ K♥ A♥", False)),
    "has_straight": (("5♣ 6♦ 7♥ 8♠ 9♣", True), ("10♠ J♠ Q♦ K♥ A♣", True),
                     ("5♣ 6♦ 7♥ 8♠ 10♣", False), ("5♣ 5♦ 7♥ 8♠ 9♣", False), ("5♣ 9♦", False),
                     ("A♣ 2♦ 3♥ 4♠ 5♣", False)),
}


def expect_has(check: Callable[[list[Any]], bool], text: str, expected: bool) -> None:
    """Check one has-check on the kit's cards for ``text``; count_values is the kit's meanwhile."""
    cards = hand(text)
    name = getattr(check, "__name__", "check")
    with substituted(check, count_values=KNOWN.count_values):
        expect_value(f"{name}({labels(cards)})", expected, lambda: check(list(cards)))


def check_has(check: Callable[[list[Any]], bool], name: str | None = None) -> None:
    """Check one has-check of step 3 (its name picks the cases, e.g. 'has_pair')."""
    name = name or getattr(check, "__name__", "")
    if name not in HAS_CHECK_CASES:
        raise ValueError(f"no cases for {name!r}; known has-checks: {', '.join(HAS_CHECK_CASES)}")
    for text, expected in HAS_CHECK_CASES[name]:
        expect_has(check, text, expected)


def expect_list_kept(call: str, cards: list[Any], given: Any) -> None:
    """Raise CheckFailed unless ``given`` still holds exactly ``cards`` (same objects, same
    order): a part must not change the list it is given."""
    if _type(given) is not list or _len(given) != _len(cards) or any(
            a is not b for a, b in zip(given, cards)):
        raise CheckFailed(f"{call} changed the list it was given: it held {show(cards)}, "
                          f"afterwards {show(given)}")


def expect_untouched(part: Callable[..., Any], text: str, **stand_ins: Any) -> None:
    """Check that calling ``part`` on the kit's cards for ``text`` leaves the list unchanged
    (whatever it returns); ``stand_ins`` as for ``substituted``."""
    cards = hand(text)
    given = list(cards)
    name = getattr(part, "__name__", "part")
    with substituted(part, **stand_ins):
        run(f"{name}({labels(cards)})", lambda: part(given))
    expect_list_kept(f"{name}({labels(cards)})", cards, given)


# --------------------------------------------------------------------------- step 4: scoring

# hand, its name, and the hand names whose has-check holds for it (the stand-ins' answers)
EVALUATE_CASES: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("K♥ K♦ 3♣ 7♠ 9♥", PAIR, frozenset({PAIR})),
    ("K♥ K♦ 3♣ 3♠ 9♥", TWO_PAIR, frozenset({PAIR, TWO_PAIR})),
    ("5♥ 6♥ 7♥ 8♥ 9♥", FLUSH, frozenset({FLUSH, STRAIGHT})),
    ("7♥ 7♦ 7♣ 2♠ 9♥", THREE_OF_A_KIND, frozenset({THREE_OF_A_KIND})),
    ("5♣ 6♦ 7♥ 8♠ 9♣", STRAIGHT, frozenset({STRAIGHT})),
    ("2♥ 7♥ 9♥ J♥ K♥", FLUSH, frozenset({FLUSH})),
    ("K♥ K♦ K♣ 3♠ 3♥", FULL_HOUSE, frozenset({PAIR, THREE_OF_A_KIND, FULL_HOUSE})),
    ("9♥ 9♦ 9♣ 9♠ 2♥", FOUR_OF_A_KIND, frozenset({FOUR_OF_A_KIND})),
    ("2♥ 5♦ 9♣ J♠ K♥", HIGH_CARD, frozenset()),
    ("", HIGH_CARD, frozenset()),
)

#: total_value of each hand of EVALUATE_CASES, in its order: what score's stand-in answers
SCORE_TOTALS: tuple[int, ...] = (45, 41, 35, 32, 35, 42, 45, 38, 40, 0)

TOTAL_VALUE_CASES: tuple[tuple[str, int], ...] = (
    ("K♥ K♦ 3♣ 7♠ 9♥", 45), ("", 0), ("A♠", 14), ("10♠ J♠ Q♦ K♥ A♣", 60),
)


def _has_check_stand_ins(holds: frozenset[str]) -> dict[str, Callable[[Any], bool]]:
    return {check: Always(name in holds) for name, check in CHECK_FOR_HAND.items()}


def expect_name(evaluate: Callable[[list[Any]], str], text: str, expected: str,
                holds: frozenset[str] | set[str]) -> None:
    """Check evaluate on ``text``; the has-checks answer True exactly for the names in ``holds``."""
    cards = hand(text)
    with substituted(evaluate, count_values=KNOWN.count_values,
                     **_has_check_stand_ins(frozenset(holds))):
        expect_value(f"evaluate({labels(cards)})", expected, lambda: evaluate(list(cards)))


def check_evaluate(evaluate: Callable[[list[Any]], str]) -> None:
    """Check step 4's evaluate on one hand of every name, with known-good has-checks."""
    for text, name, holds in EVALUATE_CASES:
        expect_name(evaluate, text, name, holds)


def expect_total(total_value: Callable[[list[Any]], int], text: str, expected: int) -> None:
    """Check total_value on the kit's cards for ``text``."""
    cards = hand(text)
    expect_value(f"total_value({labels(cards)})", expected, lambda: total_value(list(cards)))


def expect_base_mult(base_mult: Callable[[list[Any]], int], text: str, name: str,
                     holds: frozenset[str] | set[str] = frozenset()) -> None:
    """Check base_mult on ``text`` while evaluate (known-good) answers ``name``."""
    cards = hand(text)
    stand_ins = {"evaluate": Always(name), **_has_check_stand_ins(frozenset(holds))}
    with substituted(base_mult, **stand_ins):
        expect_value(f"base_mult({labels(cards)})  # a {name}", MULTIPLIERS[name],
                     lambda: base_mult(list(cards)))


def expect_score(score: Callable[[list[Any]], int], text: str, name: str, total: int,
                 holds: frozenset[str] | set[str] = frozenset()) -> None:
    """Check score on ``text`` = total × multiplier of ``name``, with known-good parts under it."""
    cards = hand(text)
    stand_ins = {
        "evaluate": Always(name),
        "total_value": Always(total),
        "base_mult": Always(MULTIPLIERS[name]),
        **_has_check_stand_ins(frozenset(holds)),
    }
    with substituted(score, **stand_ins):
        expect_value(f"score({labels(cards)})  # a {name} worth {total}",
                     total * MULTIPLIERS[name], lambda: score(list(cards)))


def check_total_value(total_value: Callable[[list[Any]], int]) -> None:
    """Check step 4's total_value: the sum of the played cards' values, 0 for no cards."""
    for text, expected in TOTAL_VALUE_CASES:
        expect_total(total_value, text, expected)


def check_base_mult(base_mult: Callable[[list[Any]], int]) -> None:
    """Check step 4's base_mult: the multiplier of the hand's name (evaluate is known-good)."""
    for text, name, holds in EVALUATE_CASES:
        expect_base_mult(base_mult, text, name, holds)


def check_score(score: Callable[[list[Any]], int]) -> None:
    """Check step 4's score = total_value × base_mult, with known-good parts underneath."""
    for (text, name, holds), total in zip(EVALUATE_CASES, SCORE_TOTALS):
        expect_score(score, text, name, total, holds)


# --------------------------------------------------------------------------- step 5: Tableau

def dealt_tableau(Tableau: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """Return a new tableau holding the 8 kit cards 2♣…9♣, and those cards in held order."""
    table = run("Tableau()", Tableau)
    for name in ("held_cards", "selected", "play_area"):
        expect_value(f"Tableau().{name}", [], lambda name=name: getattr(table, name))
    deck = hand("A♠ K♠ Q♠ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣")
    run("tableau.deal_from(deck)", lambda: table.deal_from(deck))
    return table, list(table.held_cards)


def expect_tableau(table: Any, call: str, **expected: list[Any]) -> None:
    """Check the tableau's lists after ``call``; each expected list is compared card by card."""
    for name, cards in expected.items():
        actual: Any = getattr(table, name, None)
        if _type(actual) is not list or _len(actual) != _len(cards) or any(
                a is not e for a, e in zip(actual, cards)):
            raise CheckFailed(f"after {call}: expected {name} = {show(cards)}, got {show(actual)}")


def check_toggle_selection(Tableau: Callable[[], Any]) -> None:
    """Check toggle_selection: select, deselect, and refuse a sixth selection."""
    table, held = dealt_tableau(Tableau)
    expect_value("len(held_cards) after deal_from(11 cards)", 8, lambda: _len(held))
    run("toggle_selection(held[2])", lambda: table.toggle_selection(held[2]))
    expect_tableau(table, "toggle_selection(held[2])", selected=[held[2]], held_cards=held)
    run("toggle_selection(held[2]) again", lambda: table.toggle_selection(held[2]))
    expect_tableau(table, "toggle_selection(held[2]) twice", selected=[])
    for card in held[:MAX_SELECTED]:
        run(f"toggle_selection({show(card)})", lambda card=card: table.toggle_selection(card))
    run("a sixth toggle_selection(held[5])", lambda: table.toggle_selection(held[5]))
    expect_tableau(table, "selecting held[0]…held[4], then held[5]",
                   selected=held[:MAX_SELECTED], held_cards=held)


def check_move_selected(Tableau: Callable[[], Any]) -> None:
    """Check move_selected_to_play_area: selection order kept, held cards shrink, none selected;
    once for two cards apart, once for two neighbours (a loop that removes from the list it
    walks skips the second neighbour)."""
    for picks in ((4, 1), (2, 3)):
        table, held = dealt_tableau(Tableau)
        chosen = [held[i] for i in picks]
        for card in chosen:
            run(f"toggle_selection({show(card)})", lambda card=card, table=table:
                table.toggle_selection(card))
        call = (f"selecting held[{picks[0]}] then held[{picks[1]}], "
                "then move_selected_to_play_area()")
        run(call, table.move_selected_to_play_area)
        rest = [card for card in held if all(card is not pick for pick in chosen)]
        expect_tableau(table, call, play_area=chosen, held_cards=rest, selected=[])


def check_tableau(Tableau: Callable[[], Any]) -> None:
    """Check step 5: both of the student's Tableau methods."""
    check_toggle_selection(Tableau)
    check_move_selected(Tableau)


__all__ = [
    "CheckFailed", "same", "show", "expect_value", "Always", "substituted", "counts_list",
    "check_card", "expect_own_card", "check_card_values", "check_card_equality",
    "check_card_text",
    "expect_readable_repr",
    "check_count_values", "expect_list_kept", "expect_untouched", "expect_value_error", "KNOWN",
    "COUNT_VALUES_MISTAKES", "HAS_CHECK_MISTAKES", "Version", "version", "try_my_tests",
    "grade_my_tests", "expect_counts", "check_has", "expect_has",
    "check_evaluate", "expect_name", "check_total_value", "expect_total", "check_base_mult",
    "expect_base_mult", "check_score", "expect_score", "check_toggle_selection",
    "check_move_selected", "check_tableau", "dealt_tableau", "expect_tableau", "check_shape",
    "try_going_further", "KitCard",
]


# ----------------------------------------------------------------- going further (not graded)

GOING_FURTHER_CASES: tuple[tuple[str, bool, bool, str], ...] = (
    ("A♣ 2♦ 3♥ 4♠ 5♣", False, False, HIGH_CARD),
    ("A♣ 2♦ 3♥ 4♠ 5♣", True, False, STRAIGHT),
    ("5♥ 6♥ 7♥ 8♥ 9♥", False, False, FLUSH),
    ("5♥ 6♥ 7♥ 8♥ 9♥", False, True, "Straight Flush"),
    ("A♥ 2♥ 3♥ 4♥ 5♥", True, True, "Straight Flush"),
    ("A♥ 2♥ 3♥ 4♥ 5♥", True, False, FLUSH),
    ("K♥ K♦ 3♣ 7♠ 9♥", True, True, PAIR),
)


def try_going_further(has_straight_ace_low: Callable[..., bool],
                      has_straight_flush: Callable[..., bool],
                      evaluate_going_further: Callable[..., str],
                      evaluate: Callable[[list[Any]], str]) -> None:
    """Try the optional functions and print what passes; never raises, returns None.

    With both options off ``evaluate_going_further`` must equal ``evaluate`` on every case.
    """
    try:
        for text, ace_low, straight_flush, name in GOING_FURTHER_CASES:
            cards = hand(text)
            expect_value(f"evaluate_going_further({labels(cards)}, ace_low={ace_low}, "
                         f"straight_flush={straight_flush})", name,
                         lambda cards=cards, ace_low=ace_low, straight_flush=straight_flush:
                         evaluate_going_further(list(cards), ace_low=ace_low,
                                                straight_flush=straight_flush))
            expect_value(f"evaluate_going_further({labels(cards)}) vs evaluate",
                         run("evaluate", lambda cards=cards: evaluate(list(cards))),
                         lambda cards=cards: evaluate_going_further(list(cards)))
        expect_value("has_straight_ace_low(A♣ 2♦ 3♥ 4♠ 5♣)", True,
                     lambda: has_straight_ace_low(hand("A♣ 2♦ 3♥ 4♠ 5♣")))
        expect_value("has_straight_flush(5♥ 6♥ 7♥ 8♥ 9♥)", True,
                     lambda: has_straight_flush(hand("5♥ 6♥ 7♥ 8♥ 9♥")))
    except NotImplementedError:
        print("Going further: not attempted (that is fine, it is optional).")
        return
    except Exception as failure:  # optional work: report, never fail the notebook
        print(f"Going further: not yet. {failure}")
        return
    print("Going further: all optional checks pass.")
