"""Plaisante's mutation gate, as data: the goals per step and every surviving mutant with
why it behaves as the reference does, as docs/mutation.md lists them
(tests/test_mutation_gates.py runs the gate in `make test-slow`)."""

from __future__ import annotations

import random

import pytest

#: Survivors: each mutant that no test can kill, and why it behaves as the reference does.
EQUIVALENT: dict[str, str] = {
    "step1_card_code:8: if suit not in SUITS: / self.rank = rank -> "
    "self.rank = rank / if suit not in SUITS:":
        "setting rank before checking the suit: for an unknown suit __init__ still raises, and "
        "the half-made card is never seen",
    "step1_card_code:10: self.rank = rank / self.suit = suit -> "
    "self.suit = suit / self.rank = rank":
        "two independent assignments in the other order",
    "step1_card_code:11: self.suit = suit / self.value = RANKS.index(rank) + 2 -> "
    "self.value = RANKS.index(rank) + 2 / self.suit = suit":
        "two independent assignments in the other order",
    "step4_scoring:4: if has_four_of_a_kind(cards): / if has_full_house(cards): -> "
    "if has_full_house(cards): / if has_four_of_a_kind(cards):":
        "four of a kind and a full house together need 4 + 3 + 2 = 9 cards; a hand has at most "
        "8 (5 when played), so at most one of the two holds",
    "step4_scoring:6: if has_full_house(cards): / if has_flush(cards): -> "
    "if has_flush(cards): / if has_full_house(cards):":
        "a full house has three cards of one value, so three different suits: never a flush",
    "step4_scoring:10: if has_straight(cards): / if has_three_of_a_kind(cards): -> "
    "if has_three_of_a_kind(cards): / if has_straight(cards):":
        "a straight has 5 different values, three of a kind a value 3 times: never both",
    "step4_scoring:12: if has_three_of_a_kind(cards): / if has_two_pair(cards): -> "
    "if has_two_pair(cards): / if has_three_of_a_kind(cards):":
        "when both hold, a value appears 3 times and another 2 times: a full house, named "
        "above both, so neither line is reached",
    "step5_tableau:28: self.held_cards.remove(card) / self.play_area.append(card) -> "
    "self.play_area.append(card) / self.held_cards.remove(card)":
        "two different lists changed in the other order; a selected card is always held, so "
        "remove never raises",
}
GOAL_VISIBLE, GOAL_ALL = 0.95, 0.99
AT_LEAST = 140  # mutants in all: the operators reach the whole solution


@pytest.mark.slow
def test_the_evaluate_swaps_name_every_hand_as_the_reference() -> None:
    """The step 4 survivors are equivalent on real hands: 0 to 8 distinct cards, every
    hand of sweep_hands and 20,000 seeded random ones, with the reference's has-checks."""
    from mutation import assert_alike_on

    from plaisante.games.plaisante.known_good import sweep_hands
    from plaisante.student_side.cards import hand, shuffled_deck

    rng = random.Random(10)
    deck = shuffled_deck(10)
    hands = [hand(text) for text in sweep_hands()]
    hands += [rng.sample(deck, rng.randint(0, 8)) for _ in range(20_000)]
    assert_alike_on("plaisante", "step4_scoring", "evaluate", hands, EQUIVALENT, 4)
