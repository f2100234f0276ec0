"""The reference evaluate against pokerkit, an independent poker hand evaluator.

Our rules differ from poker's in two places, mapped here: the ace is always high, so A-2-3-4-5
is High Card (Flush if suited), and a straight flush scores as a Flush.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from pokerkit import Label, StandardHighHand

from plaisante.games.plaisante import rules
from plaisante.student_side.cards import RANKS, SUITS

POKERKIT_RANK = {rank: ("T" if rank == "10" else rank) for rank in RANKS}
POKERKIT_SUIT = {suit: suit[0] for suit in SUITS}
CATEGORY = {
    Label.HIGH_CARD: rules.HIGH_CARD, Label.ONE_PAIR: rules.PAIR, Label.TWO_PAIR: rules.TWO_PAIR,
    Label.THREE_OF_A_KIND: rules.THREE_OF_A_KIND, Label.STRAIGHT: rules.STRAIGHT,
    Label.FLUSH: rules.FLUSH, Label.FULL_HOUSE: rules.FULL_HOUSE,
    Label.FOUR_OF_A_KIND: rules.FOUR_OF_A_KIND, Label.STRAIGHT_FLUSH: rules.FLUSH,
}
WHEEL = {"A", "2", "3", "4", "5"}

# The 2,598,960 five-card hands by our names: poker's counts with the 40 straight flushes
# moved to Flush and the 1,020 unsuited A-2-3-4-5 straights moved to High Card.
EXHAUSTIVE_COUNTS = {
    rules.FOUR_OF_A_KIND: 624, rules.FULL_HOUSE: 3_744, rules.FLUSH: 5_148,
    rules.STRAIGHT: 9_180, rules.THREE_OF_A_KIND: 54_912, rules.TWO_PAIR: 123_552,
    rules.PAIR: 1_098_240, rules.HIGH_CARD: 1_303_560,
}


def pokerkit_name(cards) -> str:
    """Our name for ``cards`` according to pokerkit, after mapping the two rule differences."""
    text = "".join(POKERKIT_RANK[c.rank] + POKERKIT_SUIT[c.suit] for c in cards)
    name = CATEGORY[StandardHighHand(text).entry.label]
    if name == rules.STRAIGHT and {c.rank for c in cards} == WHEEL:
        return rules.HIGH_CARD
    return name


@pytest.fixture(scope="module")
def deck(ref):
    return [ref.Card(rank, suit) for suit in SUITS for rank in RANKS]


def test_a_seeded_sample_of_50000_hands_agrees_with_pokerkit(ref, deck):
    rng = random.Random(20261130)
    disagreements = []
    for _ in range(50_000):
        cards = rng.sample(deck, 5)
        if ref.evaluate(cards) != pokerkit_name(cards):
            disagreements.append(cards)
    assert disagreements == []


def test_every_rule_difference_is_exercised(ref):
    from plaisante.student_side.cards import hand

    for text, name in [("A♣ 2♦ 3♥ 4♠ 5♣", rules.HIGH_CARD), ("A♥ 2♥ 3♥ 4♥ 5♥", rules.FLUSH),
                       ("10♠ J♠ Q♠ K♠ A♠", rules.FLUSH), ("A♣ K♦ Q♥ J♠ 10♣", rules.STRAIGHT)]:
        cards = hand(text, ref.Card)
        assert ref.evaluate(cards) == pokerkit_name(cards) == name


def test_exhaustive_counts_sum_to_every_five_card_hand():
    assert sum(EXHAUSTIVE_COUNTS.values()) == 2_598_960


@pytest.mark.slow
def test_all_2598960_hands_agree_with_pokerkit_and_count_exactly(ref, deck):
    counts: Counter[str] = Counter()
    disagreements = 0
    for cards in itertools.combinations(deck, 5):
        name = ref.evaluate(list(cards))
        counts[name] += 1
        disagreements += name != pokerkit_name(cards)
    assert disagreements == 0
    assert dict(counts) == EXHAUSTIVE_COUNTS
