"""Heads-up Hold'em's reference solution (the source notebook's), checked by code that does not
share its logic:

* ``category`` / ``best_five`` / ``compare`` against a brute force written differently (ranks
  counted with Counter, straights looked up in the nine ace-low windows, the best five found by
  leaving out two of the seven), on seeded random deals: a few thousand in ``make test``,
  200,000 in ``make test-slow``; and on hand-picked edge cases;
* the betting (``legal_actions``, ``apply``, ``settle`` and the kit's rounds) by hypothesis:
  random legal sequences never create or lose chips, never let a player act out of turn, always
  end; illegal actions raise ValueError and change nothing;
* the kit's known-good ``kit_category`` / ``kit_best_five`` (the grader's stand-ins) against
  the same brute force.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from assignment_support import unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plaisante.games.holdem import betting, known_good, rules
from plaisante.student_side.cards import RANKS, SUITS, KitCard, hand
from plaisante.student_side.hand_names import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

HOLDEM = unit("holdem")
load_reference = HOLDEM.load_reference

REF = load_reference()

# ------------------------------------------------------------------ an independent brute force
ACE_LOW = {"A": 1, "J": 11, "Q": 12, "K": 13}
WINDOWS = [frozenset(range(low, low + 5)) for low in range(1, 10)]  # A-5 … 9-K, never 10-A
ORDER = [HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE,
         FOUR_OF_A_KIND, STRAIGHT_FLUSH]  # weakest first


def points(card: Any) -> int:
    return ACE_LOW.get(card.rank) or int(card.rank)


def brute_category(five: list[Any]) -> str:
    shape = tuple(sorted(Counter(card.rank for card in five).values()))
    suited = len(Counter(card.suit for card in five)) == 1
    run = frozenset(points(card) for card in five) in WINDOWS
    table = {(1, 4): FOUR_OF_A_KIND, (2, 3): FULL_HOUSE, (1, 1, 3): THREE_OF_A_KIND,
             (1, 2, 2): TWO_PAIR, (1, 1, 1, 2): PAIR}
    if run:
        return STRAIGHT_FLUSH if suited else STRAIGHT
    if shape in table and table[shape] in (FOUR_OF_A_KIND, FULL_HOUSE):
        return table[shape]
    return FLUSH if suited else table.get(shape, HIGH_CARD)


def brute_best(seven: list[Any]) -> tuple[int, int]:
    """(strength, sum) of the best five: every way of leaving two cards out."""
    best = (-1, -1)
    for i in range(7):
        for j in range(i + 1, 7):
            five = [card for k, card in enumerate(seven) if k not in (i, j)]
            best = max(best, (ORDER.index(brute_category(five)), sum(map(points, five))))
    return best


def deal(seed: int) -> tuple[list[Any], list[Any]]:
    deck = [KitCard(rank, suit) for suit in SUITS for rank in RANKS]
    random.Random(seed).shuffle(deck)
    board = deck[4:9]
    return deck[:2] + board, deck[2:4] + board


def agree_on(seeds: range) -> list[str]:
    """Return a line for every deal of ``seeds`` where the reference disagrees."""
    wrong = []
    for seed in seeds:
        a, b = deal(seed)
        want_a, want_b = brute_best(a), brute_best(b)
        name, five = REF.best_five(list(a))
        got = (ORDER.index(name), sum(map(points, five)))
        if got != want_a or brute_category(five) != name or not set(five) <= set(a):
            wrong.append(f"seed {seed}: best_five {name} {five} vs {want_a}")
        sign = (want_a > want_b) - (want_a < want_b)
        if REF.compare(list(a), list(b)) != sign:
            wrong.append(f"seed {seed}: compare gave {REF.compare(a, b)}, expected {sign}")
    return wrong


def test_best_five_and_compare_agree_with_the_brute_force_on_3000_deals() -> None:
    assert agree_on(range(3000)) == []


@pytest.mark.slow
def test_best_five_and_compare_agree_with_the_brute_force_on_200000_deals() -> None:
    chunks = [range(start, start + 10_000) for start in range(0, 200_000, 10_000)]
    with ProcessPoolExecutor(2) as pool:
        wrong = [line for lines in pool.map(agree_on, chunks) for line in lines]
    assert wrong == []


def test_the_kits_stand_ins_agree_with_the_brute_force() -> None:
    for seed in range(1500):
        a, _ = deal(seed)
        name, five = known_good.kit_best_five(a)
        assert (ORDER.index(name), sum(map(points, five))) == brute_best(a)
        assert known_good.kit_category(a[:5]) == brute_category(a[:5])


@pytest.mark.parametrize(("text", "expected"), [
    ("A♠ 2♦ 3♣ 4♥ 5♠", STRAIGHT),            # the wheel: the ace is low
    ("10♥ J♥ Q♥ K♥ A♥", FLUSH),             # 10-A is no straight here
    ("10♣ J♦ Q♥ K♠ A♠", HIGH_CARD),
    ("J♣ Q♦ K♥ A♠ 2♣", HIGH_CARD),           # no wrapping round the ace
    ("A♦ 2♦ 3♦ 4♦ 5♦", STRAIGHT_FLUSH),
    ("9♠ 10♠ J♠ Q♠ K♠", STRAIGHT_FLUSH),     # the strongest straight flush
    ("A♣ A♦ A♥ A♠ K♣", FOUR_OF_A_KIND),
    ("2♣ 2♦ 2♥ A♠ A♣", FULL_HOUSE),
])
def test_edge_case_categories(text: str, expected: str) -> None:
    assert REF.category(hand(text)) == expected == brute_category(hand(text))


def test_edge_cases_of_the_showdown() -> None:
    board = "2♠ 3♠ 4♠ 5♠ 9♥"  # a four-flush and an open-ended straight on the board
    assert REF.best_five(hand(f"A♥ K♦ {board}"))[0] == STRAIGHT       # A 2 3 4 5
    assert REF.best_five(hand(f"7♠ K♦ {board}"))[0] == FLUSH          # the flush beats it
    assert REF.compare(hand(f"7♠ K♦ {board}"), hand(f"A♥ 6♦ {board}")) == 1   # flush > straight
    assert REF.compare(hand(f"6♦ 7♣ {board}"), hand(f"A♥ K♦ {board}")) == 1   # 3-7 > A-5
    # the board plays for both: a split pot
    assert REF.compare(hand("2♣ 3♦ 9♠ 10♠ J♠ Q♠ K♠"), hand("4♣ 5♦ 9♠ 10♠ J♠ Q♠ K♠")) == 0
    # the same category: the higher sum wins, whatever the highest card
    assert REF.compare(hand("K♠ 2♦ 3♣ 4♥ 7♠ 8♦ 9♣"), hand("Q♠ J♦ 10♣ 4♦ 7♣ 8♥ 9♦")) == -1
    # equal sums (38), different cards: a tie, though the king is the highest card
    assert REF.compare(hand("K♣ 9♦ 7♥ 5♠ 4♦ 2♣ 3♥"), hand("Q♠ 10♦ 7♣ 5♥ 4♠ 2♦ 3♣")) == 0


def test_permuting_or_relabelling_suits_changes_nothing() -> None:
    rng = random.Random(5)
    swap = {"clubs": "hearts", "hearts": "spades", "spades": "diamonds", "diamonds": "clubs"}
    for seed in range(200):
        a, b = deal(seed)
        shuffled = list(a)
        rng.shuffle(shuffled)
        relabelled = [KitCard(card.rank, swap[card.suit]) for card in a]
        key = brute_best(a)
        for other in (shuffled, relabelled):
            name, five = REF.best_five(other)
            assert (ORDER.index(name), sum(map(points, five))) == key
        assert REF.compare(a, b) == REF.compare(shuffled, b) == -REF.compare(b, a)


# ------------------------------------------------------------------------------ the betting
def start_state(data: Any) -> dict[str, Any]:
    """A hand's first state: random stacks (each able to pay the big blind), random dealer."""
    first = data.draw(st.integers(rules.BIG_BLIND, rules.TOTAL_CHIPS - rules.BIG_BLIND))
    dealer = data.draw(st.integers(0, 1))
    return betting.post_blinds([first, rules.TOTAL_CHIPS - first], dealer)


def total(state: dict[str, Any]) -> int:
    return sum(state["stacks"]) + sum(state["put_in"])


def play_round(state: dict[str, Any], data: Any) -> dict[str, Any]:
    """Random legal actions until the round is over; checks every step's promises."""
    for _ in range(40):  # a round must end: raises at least double, chips are finite
        legal = REF.legal_actions(copy.deepcopy(state))
        if state["to_act"] is None:
            assert legal == {}
            return state
        assert legal and "fold" in legal
        assert ("check" in legal) != ("call" in legal)
        action = data.draw(st.sampled_from(sorted(legal)))
        amount = None if legal[action] is None else data.draw(st.integers(*legal[action]))
        before = copy.deepcopy(state)
        new = REF.apply(state, action, amount)
        assert state == before, "apply changed the state it was given"
        assert total(new) == rules.TOTAL_CHIPS
        assert min(new["stacks"]) >= 0 and new["bets"][1 - before["to_act"]] == \
            before["bets"][1 - before["to_act"]], "a player put chips in out of turn"
        assert new["to_act"] in (None, 1 - before["to_act"]), "a player acts out of turn"
        if new["to_act"] is not None:
            assert new["stacks"][new["to_act"]] > 0, "a player who is all-in is asked to act"
        illegal = [name for name in rules.ACTIONS if name not in legal]
        if illegal:
            wrong = data.draw(st.sampled_from(illegal))
            with pytest.raises(ValueError):
                REF.apply(before, wrong, 10 if wrong in ("bet", "raise") else None)
            assert before == state
        state = new
    raise AssertionError(f"the round did not end: {state}")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_hands_keep_2000_chips_take_turns_and_end(data: Any) -> None:
    state = start_state(data)
    assert total(state) == rules.TOTAL_CHIPS
    while True:
        state = play_round(state, data)
        if state["folded"] is not None or state["street"] == "river":
            break
        state = betting.next_round(state)
    state["showdown"] = None if state["folded"] is not None else data.draw(
        st.sampled_from([1, -1, 0]))
    stacks, over = REF.settle(copy.deepcopy(state))
    assert sum(stacks) == rules.TOTAL_CHIPS and min(stacks) >= 0
    assert over == (min(stacks) < rules.BIG_BLIND)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_raise_is_to_at_least_double_and_a_bet_at_least_the_minimum(data: Any) -> None:
    state = start_state(data)
    while state["to_act"] is not None:
        legal = REF.legal_actions(state)
        highest = max(state["bets"])
        if "raise" in legal:
            assert legal["raise"][0] == 2 * highest
            with pytest.raises(ValueError, match=str(2 * highest)):
                REF.apply(state, "raise", 2 * highest - 1)
        if "bet" in legal:
            assert legal["bet"][0] == state["min_bet"]
        action = data.draw(st.sampled_from(sorted(legal)))
        amount = None if legal[action] is None else data.draw(st.integers(*legal[action]))
        state = REF.apply(state, action, amount)


def test_an_odd_split_pot_gives_the_chip_to_the_non_dealer() -> None:
    for dealer, expected in ((0, [517, 1483]), (1, [518, 1482])):
        state = betting.make_state(to_act=None, showdown=0, dealer=dealer, stacks=[100, 1065],
                                   put_in=[417, 418])
        assert REF.settle(state) == (expected, False)


def test_a_compare_that_changes_the_cards_it_is_given_fails_its_check():
    from plaisante.games.holdem import checks
    from plaisante.games.holdem.known_good import kit_best_five, rank_key
    from plaisante.student_side.checking import CheckFailed

    def compare(seven_a, seven_b):
        a, b = rank_key(*kit_best_five(seven_a)), rank_key(*kit_best_five(seven_b))
        seven_a.reverse()
        return (a > b) - (a < b)

    with pytest.raises(CheckFailed, match="changed the seven cards of A it was given"):
        checks.check_compare(compare)
