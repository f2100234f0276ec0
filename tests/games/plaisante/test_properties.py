"""Properties of the reference scoring (hypothesis): order and suit names never matter, and no
hand of 0–5 cards makes evaluate or score raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from plaisante.games.plaisante import rules
from plaisante.student_side.cards import RANKS, SUITS

CARDS = st.tuples(st.sampled_from(RANKS), st.sampled_from(SUITS))
HANDS = st.lists(CARDS, min_size=0, max_size=5, unique=True)
SUIT_PERMUTATIONS = st.permutations(SUITS)


def build(ref, pairs):
    return [ref.Card(rank, suit) for rank, suit in pairs]


@settings(max_examples=300, deadline=None)
@given(pairs=HANDS, data=st.data())
def test_card_order_never_changes_name_or_score(ref, pairs, data):
    cards = build(ref, pairs)
    shuffled = data.draw(st.permutations(cards))
    assert ref.evaluate(shuffled) == ref.evaluate(cards)
    assert ref.score(shuffled) == ref.score(cards)


@settings(max_examples=300, deadline=None)
@given(pairs=HANDS, relabel=SUIT_PERMUTATIONS)
def test_relabelling_suits_never_changes_name_or_score(ref, pairs, relabel):
    mapping = dict(zip(SUITS, relabel))
    cards = build(ref, pairs)
    renamed = build(ref, [(rank, mapping[suit]) for rank, suit in pairs])
    assert ref.evaluate(renamed) == ref.evaluate(cards)
    assert ref.score(renamed) == ref.score(cards)


@settings(max_examples=500, deadline=None)
@given(pairs=HANDS)
def test_hands_of_0_to_5_cards_never_raise_and_score_by_the_table(ref, pairs):
    cards = build(ref, pairs)
    name = ref.evaluate(cards)
    assert name in rules.HAND_ORDER
    assert ref.score(cards) == sum(c.value for c in cards) * rules.MULTIPLIERS[name]
