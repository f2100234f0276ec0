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
    from plaisante.games.plaisante.checks import (
        check_card,
        check_card_equality,
        check_card_text,
        check_card_values,
    )
    from plaisante.student_side.checking import CheckFailed

    with pytest.raises(CheckFailed, match=r"gave the kit's own card \(a KitCard, or a class"):
        check_card(KitCard)

    class Borrowed(KitCard):
        pass

    for check in (check_card_values, check_card_equality, check_card_text):
        with pytest.raises(CheckFailed, match=r"gave the kit's own card \(a KitCard, or a class"):
            check(Borrowed)
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


def test_under_the_judge_the_kits_card_and_a_class_built_on_it_earn_no_point_of_step_1():
    """Step 1's test cells, judged against a kernel (the judge's loopback) whose Card is the
    kit's card or a class built on it: each cell fails, naming the kit's card. A class built
    on it crosses to the grader as a kit card, as the kit's own does; before, it crossed as a
    handle and earned the values and equality cells (8 of 12 points, for two lines)."""
    import nbformat
    from loopback_judge import loopback

    from plaisante.authoring.reference import source_notebook
    from plaisante.grading.judge import judge_cell, setup_namespace

    setup_source = "from plaisante.games.plaisante.setup import *"
    setup = setup_namespace([setup_source])
    cells = {cell.metadata["nbgrader"]["grade_id"]: cell.source
             for cell in nbformat.read(source_notebook("plaisante"), as_version=4).cells
             if cell.metadata.get("nbgrader", {}).get("grade_id", "").startswith("step1_card_")
             and cell.metadata["nbgrader"].get("grade")}
    assert sorted(cells) == ["step1_card_equality", "step1_card_text", "step1_card_values"]
    for card in ("Card = KitCard", "class Card(KitCard):\n    pass"):
        for grade_id, source in cells.items():
            namespace: dict = {"__name__": "__main__"}
            exec(f"{setup_source}\n{card}\n", namespace)  # noqa: S102
            verdict = judge_cell(source, setup, {"Card"}, loopback(namespace))
            assert not verdict.passed, (card, grade_id)
            assert verdict.error is not None and "gave the kit's own card" in verdict.error[1], (
                card, grade_id, verdict.error)
