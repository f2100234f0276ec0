"""The reference solution, read from the source notebook, against the contract (SPEC §2, §3)."""

import pytest

from plaisante.authoring import reference
from plaisante.games.plaisante import rules
from plaisante.student_side.cards import hand


def test_the_package_holds_no_solution_to_a_graded_function():
    from pathlib import Path

    import plaisante

    graded = ["count_values", "has_pair", "has_three_of_a_kind", "has_four_of_a_kind",
              "has_two_pair", "has_full_house", "has_flush", "has_straight", "evaluate",
              "total_value", "base_mult", "score", "toggle_selection",
              "move_selected_to_play_area"]
    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in Path(plaisante.__file__).parent.rglob("*.py"))
    assert [name for name in graded if f"def {name}(" in source] == []


def test_spec_example_k_k_3_7_9_is_a_pair_worth_90(ref):
    cards = hand("K♥ K♦ 3♣ 7♠ 9♥", ref.Card)
    assert ref.evaluate(cards) == rules.PAIR
    assert ref.total_value(cards) == 45
    assert ref.score(cards) == 90


@pytest.mark.parametrize("text, name", [
    ("5♥ 6♥ 7♥ 8♥ 9♥", rules.FLUSH),             # a straight flush scores as a Flush
    ("K♥ K♦ K♣ 3♠ 3♥", rules.FULL_HOUSE),         # never a Pair or Three of a Kind
    ("9♥ 9♦ 9♣ 9♠ 2♥", rules.FOUR_OF_A_KIND),     # not a Pair
    ("A♣ 2♦ 3♥ 4♠ 5♣", rules.HIGH_CARD),          # the ace is high
    ("", rules.HIGH_CARD),
])
def test_first_row_of_the_table_wins(ref, text, name):
    assert ref.evaluate(hand(text, ref.Card)) == name


def test_has_pair_is_exact(ref):
    assert ref.has_pair(hand("K♥ K♦ K♣ K♠ 9♥", ref.Card)) is False
    assert ref.has_pair(hand("K♥ K♦ K♣ 3♠ 3♥", ref.Card)) is True


def test_optional_rules_change_nothing_when_off(ref):
    for text in ("A♣ 2♦ 3♥ 4♠ 5♣", "5♥ 6♥ 7♥ 8♥ 9♥", "K♥ K♦ 3♣ 7♠ 9♥"):
        cards = hand(text, ref.Card)
        assert ref.evaluate_going_further(cards) == ref.evaluate(cards)
    assert ref.evaluate_going_further(hand("A♣ 2♦ 3♥ 4♠ 5♣", ref.Card), ace_low=True) == \
        rules.STRAIGHT
    assert ref.evaluate_going_further(hand("5♥ 6♥ 7♥ 8♥ 9♥", ref.Card),
                                      straight_flush=True) == rules.STRAIGHT_FLUSH
    assert rules.MULTIPLIERS[rules.STRAIGHT_FLUSH] == 9


def test_reference_code_skips_test_cells_and_the_play_cell():
    code = reference.reference_code(reference.source_notebook("plaisante"))
    assert "def evaluate(" in code and "class Tableau" in code
    assert "check_card(Card)" not in code and "play(Card=Card" not in code
