"""The lecture-hall presenter view and its scoring x-ray, driven headless: every
number on it is the parts' own, deals repeat by seed, notation deals exactly its cards."""

from __future__ import annotations

import pytest
from live_html import Live, LyingText

from plaisante.games.plaisante.presenter import PresenterView, xray_html
from plaisante.games.plaisante.rules import FLUSH, PAIR, STRAIGHT
from plaisante.games.plaisante.xray import xray
from plaisante.student_side.cards import hand, labels


def test_the_xray_of_the_spec_example_is_the_references_own_numbers(ref, ref_parts):
    shot = xray(hand("K♥ K♦ 3♣ 7♠ 9♥", ref.Card), ref_parts)
    assert shot.counts == [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0]
    assert dict(shot.answers) == {"has_four_of_a_kind": False, "has_full_house": False,
                                  "has_flush": False, "has_straight": False,
                                  "has_three_of_a_kind": False, "has_two_pair": False,
                                  "has_pair": True}
    assert [check for check, _ in shot.answers][:3] == ["has_four_of_a_kind", "has_full_house",
                                                        "has_flush"]
    assert (shot.first, shot.name, shot.formula, shot.problem) == (PAIR, PAIR, "45 × 2 = 90",
                                                                    None)


def test_an_empty_selection_asks_no_part_anything(ref_parts):
    asked = []
    parts = dict(ref_parts, count_values=lambda cards: asked.append(cards))
    shot = xray([], parts)
    assert asked == [] and shot.formula == "" and shot.answers == ()
    assert "Select up to five cards" in xray_html(shot)


def test_a_part_that_raises_is_named_and_what_came_before_is_kept(ref, ref_parts):
    def broken(cards):
        raise ZeroDivisionError("oops")

    shot = xray(hand("5♥ 6♥ 7♥ 8♥ 9♥", ref.Card), dict(ref_parts, total_value=broken))
    assert shot.problem == "total_value raised ZeroDivisionError: oops"
    assert (shot.name, shot.total, shot.formula) == (FLUSH, None, "")
    assert "⚠ total_value raised ZeroDivisionError: oops" in xray_html(shot)


def test_an_evaluate_that_disagrees_with_the_table_is_shown_disagreeing(ref, ref_parts):
    shot = xray(hand("5♥ 6♥ 7♥ 8♥ 9♥", ref.Card),
                dict(ref_parts, evaluate=lambda cards: STRAIGHT))
    assert (shot.first, shot.name) == (FLUSH, STRAIGHT)
    assert "evaluate says Straight; the first check that holds says Flush" in xray_html(shot)


def test_a_wrong_type_is_a_problem_not_a_crash(ref, ref_parts):
    shot = xray(hand("2♣ 3♦", ref.Card), dict(ref_parts, has_flush=lambda cards: "no"))
    assert shot.problem == "has_flush returned 'no' (str), expected a bool"


def test_cards_that_cannot_be_shown_are_one_line_not_a_crash(ref_parts):
    """The first deal is guarded as every click is: a Card whose suit cannot even be looked up
    (a list) makes the message line say so, never a traceback in place of the demo."""

    class Card:
        def __init__(self, rank, suit):
            self.rank, self.suit = rank, [suit]

    view = PresenterView(dict(ref_parts, Card=Card), seed=7)
    assert view.message.value.startswith("⚠ TypeError: unhashable type")
    assert view.cards == []


def test_the_same_seed_deals_the_same_cards_built_by_the_parts_card(ref, ref_parts):
    first, again = PresenterView(ref_parts, seed=7), PresenterView(ref_parts, seed=7)
    assert labels(first.cards) == labels(again.cards) and len(first.cards) == 8
    assert all(type(card) is ref.Card for card in first.cards)
    first.seed_box.value = 8
    first.deal_button.click()
    assert labels(first.cards) != labels(again.cards)


@pytest.mark.parametrize("text", ["K♥ K♦ 3♣ 7♠ 9♥", "Kh Kd 3c 7s 9h"])
def test_deal_this_hand_takes_either_notation_and_selects_five(ref_parts, text):
    view = PresenterView(ref_parts)
    view.notation.value = text
    assert labels(view.selected) == "K♥ K♦ 3♣ 7♠ 9♥"
    assert view.current.formula == "45 × 2 = 90"
    assert "45 × 2 = 90" in view.xray_panel.value and 'aria-label="scoring x-ray"' in \
        view.xray_panel.value


def test_bad_notation_says_what_is_allowed_and_keeps_the_table(ref_parts):
    view = PresenterView(ref_parts, seed=3)
    before = labels(view.cards)
    view.deal_notation("K♥ 1x")
    assert labels(view.cards) == before
    assert "is not a card; write a rank" in view.message.value
    view.deal_notation("2c 3c 4c 5c 6c 7c 8c 9c 10c")
    assert view.message.value == "⚠ write 1 to 8 cards, e.g. 'K♥ K♦ 3♣ 7♠ 9♥'; got 9"


def test_clicks_select_five_refuse_a_sixth_and_the_xray_follows(ref, ref_parts):
    view = PresenterView(ref_parts, seed=11)
    for button in view.card_buttons[:6]:
        button.click()
    assert len(view.selected) == 5 and "at most 5 cards" in view.message.value
    chosen = view.cards[:5]
    expected = f"{ref.total_value(chosen)} × {ref.base_mult(chosen)} = {ref.score(chosen)}"
    assert view.current.formula == expected and expected in view.xray_panel.value
    assert all("plaisante-selected" in b._dom_classes for b in view.card_buttons[:5])
    view.card_buttons[0].click()
    assert len(view.selected) == 4 and "plaisante-selected" not in view.card_buttons[0]._dom_classes


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_what_a_students_part_returned_or_raised_is_shown_escaped(ref, ref_parts):
    cards = hand("K♥ K♦ 3♣ 7♠ 9♥", ref.Card)
    # a str whose own methods lie to the escaper is escaped as any other
    for payload in (PAYLOAD, LyingText(PAYLOAD), LyingText('"' + PAYLOAD)):
        counts = dict(ref_parts, count_values=lambda cards, p=payload: [p] * 15)
        panel = Live.read(xray_html(xray(cards, counts)))
        # in a bar's text and its data-count, slots 2–14; never an element
        assert "img" not in panel.tags and panel.texts.count(str.__str__(payload)) == 13
        assert [value for name, value in panel.attributes if name == "data-count"] == \
            [str.__str__(payload)] * 13

    def evaluate(cards):
        raise ValueError(PAYLOAD)
    view = PresenterView(dict(ref_parts, evaluate=evaluate))
    view.deal_notation("K♥ K♦ 3♣ 7♠ 9♥")
    assert "evaluate raised ValueError: " + ESCAPED in view.xray_panel.value
    assert "<img" not in view.xray_panel.value
