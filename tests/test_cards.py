"""The kit's cards, hand notation and deck (SPEC §2)."""

import pytest

from plaisante.student_side.cards import RANKS, SUITS, KitCard, hand, label, shuffled_deck


def test_values_are_rank_for_2_to_10_then_j_q_k_a_high():
    assert [KitCard(rank, "clubs").value for rank in RANKS] == list(range(2, 15))


def test_an_unknown_rank_or_suit_is_named_with_where_the_allowed_ones_are():
    with pytest.raises(ValueError, match=r"unknown rank '1'; a rank is one of RANKS: 2 to 10"):
        KitCard("1", "hearts")
    with pytest.raises(ValueError, match=r"unknown suit 'stars'; a suit is one of SUITS"):
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


def test_the_kits_card_is_no_answer_to_the_first_step_of_plaisante():
    """The kit's card is in every kernel: neither it, nor a class built on it, nor its
    messages may pass step 1 (a Card of the student's own, its ValueError naming every allowed
    rank and suit)."""
    from plaisante.games.plaisante.checks import check_card, check_card_text
    from plaisante.student_side.checking import CheckFailed

    with pytest.raises(CheckFailed, match=r"gave the kit's own card \(a KitCard\)"):
        check_card(KitCard)

    class Borrowed(KitCard):
        pass

    with pytest.raises(CheckFailed, match="should name the allowed ranks"):
        check_card_text(Borrowed)
    for rank, suit, allowed in (("1", "hearts", RANKS), ("K", "stars", SUITS)):
        with pytest.raises(ValueError) as refused:
            KitCard(rank, suit)
        assert [item for item in allowed if item not in str(refused.value)], str(refused.value)


def test_hand_takes_emoji_suits_and_refuses_a_card_written_twice_or_not_a_string():
    assert hand("K♥️ 2♦️") == [KitCard("K", "hearts"), KitCard("2", "diamonds")]
    with pytest.raises(ValueError, match="'Ks' is written twice"):
        hand("Ks 3d Ks")
    with pytest.raises(TypeError, match="hand\\(\\) takes a string"):
        hand(None)
