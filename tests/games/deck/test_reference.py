"""Deck and deal's reference solution, checked by tests that do not use it to decide what is
right: properties (hypothesis), a chi-square test of the shuffle, and every set of positions
discarded from an 8-card hand."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from assignment_support import unit
from hypothesis import given, settings
from hypothesis import strategies as st

from plaisante.student_side.cards import RANKS, SUITS, KitCard

DECK = unit("deck")
load_reference = DECK.load_reference

ref = load_reference()
ALL_CARDS = [KitCard(rank, suit) for suit in SUITS for rank in RANKS]


def fresh(size: int = 52) -> list[KitCard]:
    return list(ALL_CARDS[:size])


# ------------------------------------------------------------------------------------ new_deck

def test_new_deck_holds_the_52_cards_suit_by_suit_and_a_new_list_each_time() -> None:
    deck = ref.new_deck()
    assert deck == ALL_CARDS and len(set(deck)) == 52
    assert all(type(card) is KitCard for card in deck)
    assert deck is not ref.new_deck()


# ------------------------------------------------------------------------------------- shuffle

@given(st.integers(min_value=0, max_value=52), st.integers())
def test_shuffle_keeps_exactly_the_cards_and_returns_none(size: int, seed: int) -> None:
    deck = fresh(size)
    before = list(deck)
    assert ref.shuffle(deck, random.Random(seed)) is None
    assert sorted(map(id, deck)) == sorted(map(id, before)) and len(set(deck)) == size


@given(st.integers())
def test_shuffle_depends_only_on_the_rng(seed: int) -> None:
    one, two = fresh(), fresh()
    ref.shuffle(one, random.Random(seed))
    ref.shuffle(two, random.Random(seed))
    assert one == two


@pytest.mark.parametrize("size, shuffles, critical", [
    (3, 6_000, 20.52),   # 6 orders, 5 degrees of freedom, p = 0.001
    (4, 12_000, 49.73),  # 24 orders, 23 degrees of freedom, p = 0.001
])
def test_shuffle_makes_every_order_equally_likely(size: int, shuffles: int,
                                                  critical: float) -> None:
    rng = random.Random(20240917)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(shuffles):
        cards = list(range(size))
        ref.shuffle(cards, rng)
        counts[tuple(cards)] += 1
    orders = list(itertools.permutations(range(size)))
    expected = shuffles / len(orders)
    chi_square = sum((counts[order] - expected) ** 2 / expected for order in orders)
    assert set(counts) == set(orders)
    assert chi_square < critical, chi_square


def test_the_chi_square_test_rejects_the_naive_shuffle() -> None:
    """The same test, on the naive shuffle (swap with any index), fails: the test has power."""
    def naive(cards: list[int], rng: random.Random) -> None:
        for i in range(len(cards)):
            j = rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
    rng = random.Random(20240917)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(12_000):
        cards = list(range(4))
        naive(cards, rng)
        counts[tuple(cards)] += 1
    expected = 12_000 / 24
    assert sum((counts[o] - expected) ** 2 / expected
               for o in itertools.permutations(range(4))) > 49.73


# ---------------------------------------------------------------------------------------- deal

@st.composite
def deals(draw_: st.DrawFn) -> tuple[int, int, int | None]:
    size = draw_(st.integers(min_value=0, max_value=52))
    players = draw_(st.integers(min_value=1, max_value=8))
    each = draw_(st.one_of(st.none(), st.integers(min_value=0, max_value=size // players)))
    return size, players, each


@given(deals())
def test_deal_round_robin_from_the_top_conserving_the_cards(case: tuple[int, int, int | None]
                                                            ) -> None:
    size, players, each = case
    deck = fresh(size)
    before = list(deck)
    hands = ref.deal(deck, players) if each is None else ref.deal(deck, players, each)
    each = size // players if each is None else each
    assert type(hands) is list and len(hands) == players
    assert all(len(h) == each for h in hands)
    for player, held in enumerate(hands):
        for k, card in enumerate(held):  # the k-th round's card: position -(k·n + p + 1)
            assert card is before[-(k * players + player + 1)]
    assert deck == before[: size - players * each]
    everything = deck + [card for held in hands for card in held]
    assert sorted(map(id, everything)) == sorted(map(id, before))


@given(st.integers(min_value=0, max_value=20), st.integers(min_value=-3, max_value=10),
       st.integers(min_value=-3, max_value=10))
def test_deal_refuses_what_it_cannot_do_naming_the_numbers(size: int, players: int,
                                                           each: int) -> None:
    if players >= 1 and each >= 0 and players * each <= size:
        return
    deck = fresh(size)
    with pytest.raises(ValueError) as error:
        ref.deal(deck, players, each)
    assert deck == fresh(size)
    wrong = players if players < 1 else each if each < 0 else size
    assert str(wrong) in str(error.value)


# ---------------------------------------------------------------------------------------- draw

@given(st.integers(min_value=0, max_value=52), st.integers(min_value=0, max_value=10),
       st.integers(min_value=-2, max_value=60))
def test_draw_moves_the_top_cards_in_order_or_nothing(size: int, held: int, n: int) -> None:
    cards = fresh(52)
    deck, hand = cards[:size], cards[size:size + held]
    deck_before, hand_before = list(deck), list(hand)
    if 0 <= n <= size:
        assert ref.draw(deck, hand, n) is None
        assert hand == hand_before + deck_before[::-1][:n]
        assert deck == deck_before[: size - n]
    else:
        with pytest.raises(ValueError):
            ref.draw(deck, hand, n)
        assert (deck, hand) == (deck_before, hand_before)


# ------------------------------------------------------------------------------------- discard

def test_discard_every_set_of_positions_of_an_8_card_hand_in_any_order() -> None:
    """All 256 sets of positions, each given ascending, descending and in a seeded order."""
    rng = random.Random(8)
    checked = 0
    for size in range(9):
        for chosen in itertools.combinations(range(8), size):
            mixed = list(chosen)
            rng.shuffle(mixed)
            for positions in {tuple(chosen), tuple(reversed(chosen)), tuple(mixed)}:
                hand = fresh(8)
                removed = ref.discard(hand, list(positions))
                assert removed == [ALL_CARDS[p] for p in positions]
                assert hand == [ALL_CARDS[p] for p in range(8) if p not in positions]
                checked += 1
    assert checked >= 256


@given(st.lists(st.integers(min_value=-3, max_value=14), max_size=6))
def test_discard_refuses_bad_positions_leaving_the_hand_alone(positions: list[int]) -> None:
    hand = fresh(12)
    if all(0 <= p < 12 for p in positions) and len(set(positions)) == len(positions):
        removed = ref.discard(hand, positions)
        assert len(removed) + len(hand) == 12 and set(removed).isdisjoint(hand)
        return
    kind = IndexError if not all(0 <= p < 12 for p in positions) else ValueError
    with pytest.raises(kind):
        ref.discard(hand, positions)
    assert hand == fresh(12)


# ------------------------------------------------------------------------------------ ordering

def hand_position(card: KitCard) -> tuple[int, int]:
    return SUITS.index(card.suit), RANKS.index(card.rank)


@given(st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=13))
def test_order_hand_orders_by_suit_then_rank_and_leaves_the_hand(hand: list[KitCard]) -> None:
    before = list(hand)
    ordered = ref.order_hand(hand)
    assert hand == before and ordered is not hand
    assert sorted(map(id, ordered)) == sorted(map(id, before))
    assert all(hand_position(a) < hand_position(b) for a, b in zip(ordered, ordered[1:]))


@settings(max_examples=50)
@given(st.permutations(ALL_CARDS))
def test_order_hand_does_not_depend_on_the_order_cards_come_in(cards: list[KitCard]) -> None:
    assert ref.order_hand(cards) == ALL_CARDS


def test_sort_key_is_strictly_increasing_over_the_whole_deck() -> None:
    keys = [ref.sort_key(card) for card in ALL_CARDS]
    assert all(a < b for a, b in zip(keys, keys[1:]))
