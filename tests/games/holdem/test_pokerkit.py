"""Heads-up Hold'em's reference ``category`` and the kit's ``kit_category`` against pokerkit, an
independent poker hand evaluator.

The house rules differ from poker's in one place for a category: the ace is always low, so
10-J-Q-K-A is no straight (a Flush when suited, else a High Card). A-2-3-4-5 is a straight in
both. Ties (the house's sum of five values) are not poker's, so only the category is compared.
"""

from __future__ import annotations

import random

from assignment_support import unit
from pokerkit import Label, StandardHighHand

from plaisante.games.holdem import known_good, rules
from plaisante.student_side.cards import RANKS, SUITS, KitCard, hand

REF = unit("holdem").load_reference()
LETTER = {rank: ("T" if rank == "10" else rank) for rank in RANKS}
POKER_NAME = {
    Label.HIGH_CARD: rules.HIGH_CARD, Label.ONE_PAIR: rules.PAIR,
    Label.TWO_PAIR: rules.TWO_PAIR, Label.THREE_OF_A_KIND: rules.THREE_OF_A_KIND,
    Label.STRAIGHT: rules.STRAIGHT, Label.FLUSH: rules.FLUSH,
    Label.FULL_HOUSE: rules.FULL_HOUSE, Label.FOUR_OF_A_KIND: rules.FOUR_OF_A_KIND,
    Label.STRAIGHT_FLUSH: rules.STRAIGHT_FLUSH,
}
BROADWAY = {"10", "J", "Q", "K", "A"}


def house_category(five: list) -> str:
    """The house category of ``five`` according to pokerkit, the ace made low."""
    text = "".join(LETTER[card.rank] + card.suit[0] for card in five)
    name = POKER_NAME[StandardHighHand(text).entry.label]
    if {card.rank for card in five} == BROADWAY:
        return rules.FLUSH if len({card.suit for card in five}) == 1 else rules.HIGH_CARD
    return name


def test_the_one_rule_difference_is_mapped() -> None:
    for text, name in [("10♠ J♠ Q♠ K♠ A♠", rules.FLUSH), ("10♣ J♦ Q♥ K♠ A♣", rules.HIGH_CARD),
                       ("A♥ 2♥ 3♥ 4♥ 5♥", rules.STRAIGHT_FLUSH),
                       ("A♣ 2♦ 3♥ 4♠ 5♣", rules.STRAIGHT)]:
        five = hand(text)
        assert house_category(five) == REF.category(five) == name, text


def test_10000_seeded_hands_agree_with_pokerkit() -> None:
    rng = random.Random(20261201)
    deck = [KitCard(rank, suit) for suit in SUITS for rank in RANKS]
    assert len(deck) == len(RANKS) * len(SUITS)
    hands = [rng.sample(deck, 5) for _ in range(10_000)]
    wrong = [five for five in hands
             if not REF.category(five) == known_good.kit_category(five) == house_category(five)]
    assert wrong == []
    assert {house_category(five) for five in hands} >= set(POKER_NAME.values()) - {
        rules.STRAIGHT_FLUSH}  # 10,000 random hands reach every category but (likely) the rarest
