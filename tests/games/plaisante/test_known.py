"""What the student's side knows of the right answers: tables of the visible cases only, each
entry the known-good part's answer, and visible buggy versions that answer no step."""

from __future__ import annotations

import pytest

from plaisante.games.plaisante import checks, known_good
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import NotAVisibleCase


def test_every_table_entry_is_the_known_good_answer() -> None:
    for table in checks.TABLES:
        known = getattr(known_good, f"kit_{table.part}")
        for key in table.cases():
            assert table(hand(key)) == known(hand(key)), (table.part, key)


def test_the_count_values_table_covers_exactly_the_visible_has_check_and_evaluate_hands() -> None:
    visible = {text for cases in checks.HAS_CHECK_CASES.values() for text, _ in cases}
    visible |= {text for text, _, _ in checks.EVALUATE_CASES}
    (table,) = checks.TABLES
    assert set(table.cases()) == visible


def test_a_table_refuses_a_hand_no_visible_case_holds() -> None:
    (table,) = checks.TABLES
    assert table(hand("K♥ K♦ 3♣ 7♠ 9♥")) == [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0]
    with pytest.raises(NotAVisibleCase, match="only on the inputs of the visible checks"):
        table(hand("A♠ A♥ A♦ 5♣ 5♦"))


def test_an_answer_changed_by_its_caller_leaves_the_table_as_it_was() -> None:
    (table,) = checks.TABLES
    table(hand("5♣ 9♦"))[5] = 99
    assert table(hand("5♣ 9♦"))[5] == 1


def test_the_grader_answers_any_hand_once_known_good_is_loaded() -> None:
    assert checks.KNOWN.count_values is known_good.kit_count_values
    assert checks.KNOWN.count_values(hand("A♠ A♥ A♦ 5♣ 5♦"))[14] == 3


def test_the_stand_ins_of_the_hidden_checks_are_the_known_good_ones() -> None:
    assert known_good.STAND_INS["count_values"] is known_good.kit_count_values
    assert not hasattr(checks, "STAND_INS") and not hasattr(checks, "sweep_hands")


@pytest.mark.parametrize("mistake", checks.COUNT_VALUES_MISTAKES + checks.HAS_CHECK_MISTAKES,
                         ids=lambda m: m.mistake[:40])
def test_a_visible_buggy_version_is_a_right_answer_to_no_step(ref, mistake) -> None:
    """Shown in the student's notebook, so within their reach: each must be wrong, on some
    hand of the sweep, for every part of steps 2 and 3 (a has_two_pair that says True for a
    single pair would be a working has_pair)."""
    hands = [hand(text) for text in known_good.sweep_hands()]
    parts = ["count_values", *checks.HAS_CHECK_CASES]
    (buggy,) = mistake.parts.values()
    for part in parts:
        right = getattr(ref, part)
        assert any(buggy(list(cards)) != right(list(cards)) for cards in hands), part
