"""The kit's cards, hand notation and deck (SPEC §2)."""

import pytest

from plaisante.cards import RANKS, SUITS, KitCard, hand, label, shuffled_deck


def test_values_are_rank_for_2_to_10_then_j_q_k_a_high():
    assert [KitCard(rank, "clubs").value for rank in RANKS] == list(range(2, 15))


def test_unknown_rank_names_every_allowed_rank():
    with pytest.raises(ValueError) as error:
        KitCard("1", "hearts")
    assert "'1'" in str(error.value)
    assert all(rank in str(error.value) for rank in RANKS)


def test_unknown_suit_names_every_allowed_suit():
    with pytest.raises(ValueError, match="allowed suits: clubs, diamonds, hearts, spades"):
        KitCard("K", "stars")


def test_hand_reads_symbols_and_letters_alike():
    assert hand("K♥ 10s a♦") == [KitCard("K", "hearts"), KitCard("10", "spades"),
                                  KitCard("A", "diamonds")]
    assert hand("") == []


@pytest.mark.parametrize("token", ["1♥", "K", "Kx", "11s", "♥"])
def test_hand_rejects_a_token_that_is_not_a_card_and_names_it(token):
    with pytest.raises(ValueError, match=f"'{token}' is not a card"):
        hand(f"2♣ {token}")


def test_deck_has_52_distinct_cards():
    deck = shuffled_deck(0)
    assert len(deck) == 52 and len(set(deck)) == 52
    assert {card.suit for card in deck} == set(SUITS)


def test_same_seed_same_order_other_seed_other_order():
    assert shuffled_deck(7) == shuffled_deck(7)
    assert shuffled_deck(7) != shuffled_deck(8)
    assert sorted(map(label, shuffled_deck(7))) == sorted(f"{rank}{suit}" for rank in RANKS
                                                          for suit in "♣♦♥♠")


def test_deck_is_built_by_the_given_card_class(ref):
    deck = shuffled_deck(3, ref.Card)
    assert all(type(card) is ref.Card for card in deck)
    assert [label(c) for c in deck] == [label(c) for c in shuffled_deck(3)]


def test_an_int_rank_is_told_that_ranks_are_strings():
    with pytest.raises(ValueError, match=r"unknown rank 10 \(ranks are strings, e.g. '10'\)"):
        KitCard(10, "hearts")
    with pytest.raises(ValueError, match="unknown rank"):
        KitCard(["K"], "hearts")


def test_hand_takes_emoji_suits_and_refuses_a_card_written_twice_or_not_a_string():
    assert hand("K♥️ 2♦️") == [KitCard("K", "hearts"), KitCard("2", "diamonds")]
    with pytest.raises(ValueError, match="'Ks' is written twice"):
        hand("Ks 3d Ks")
    with pytest.raises(TypeError, match="hand\\(\\) takes a string"):
        hand(None)
