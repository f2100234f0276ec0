"""The dealer's table, driven headless by clicking its widgets (ipywidgets swallows handler
errors, so every test asserts on the table's state and the widgets' traits), and its gate."""

from __future__ import annotations

import ipywidgets as widgets
import pytest
from assignment_support import unit
from display_support import assert_saved_shows, mark_read_as

from plaisante.games import load
from plaisante.games.deck.model import DealerTable, IllegalAction, StudentCodeError
from plaisante.games.deck.setup import play
from plaisante.games.deck.view import TableView
from plaisante.student_side.cards import label, spoken_name

DECK = unit("deck")
load_reference, mistaken, module_with = DECK.load_reference, DECK.mistaken, DECK.module_with

PARTS = load("deck").parts


def parts_of(module) -> dict[str, object]:
    return {name: getattr(module, name) for name in PARTS}


@pytest.fixture(scope="module")
def parts() -> dict[str, object]:
    return parts_of(load_reference())


def test_play_deals_four_hands_of_five_each_in_order(parts) -> None:
    view = play(**parts, seed=1)
    assert isinstance(view, TableView)
    table = view.table
    assert [len(h) for h in table.hands] == [5, 5, 5, 5] and len(table.deck) == 32
    assert "deck <b>32</b> cards" in view.status.value
    for held in table.hands:
        assert held == sorted(held, key=parts["sort_key"])
    assert [b.description for b in view.card_buttons] == [label(c) for c in table.hands[0]]
    assert view.card_buttons[0].tooltip == spoken_name(table.hands[0][0])
    assert len(view.others.children) == 3 and view.replace_button.disabled


def test_the_same_seed_deals_the_same_cards(parts) -> None:
    assert play(**parts, seed=5).table.hands == play(**parts, seed=5).table.hands


def test_marking_then_discard_and_draw_replaces_the_marked_cards(parts) -> None:
    view = play(**parts, seed=2)
    table = view.table
    before, top = list(table.hands[0]), table.deck[-2:]
    view.card_buttons[1].click()
    view.card_buttons[4].click()
    assert table.marked == [1, 4]
    assert "plaisante-selected" in view.card_buttons[1]._dom_classes
    assert view.card_buttons[1].tooltip.endswith(", marked")
    assert mark_read_as(view, view.card_buttons[1]) == "marked"  # the ✓ says what the tip says
    assert not view.replace_button.disabled and view.replace_button.description.endswith("2")
    view.card_buttons[4].click()
    view.card_buttons[4].click()  # unmark, mark again
    view.replace_button.click()
    assert view.message.value == ""
    kept = [before[0], before[2], before[3]]
    assert sorted(map(id, table.hands[0])) == sorted(map(id, kept + top))
    assert table.hands[0] == sorted(table.hands[0], key=parts["sort_key"])
    assert len(table.deck) == 30 and "deck <b>30</b> cards" in view.status.value
    assert table.marked == [] and view.replace_button.disabled


def test_players_and_cards_each_are_picked_and_impossible_deals_refused(parts) -> None:
    view = play(**parts, seed=3)
    view.players.value, view.cards_each.value = 8, 6
    view.deal_button.click()
    assert [len(h) for h in view.table.hands] == [6] * 8 and len(view.table.deck) == 4
    assert len(view.others.children) == 7
    view.cards_each.value = 7
    view.deal_button.click()
    assert "more than the 52 cards" in view.message.value
    assert [len(h) for h in view.table.hands] == [6] * 8  # the table is as it was
    view.players.value, view.cards_each.value = 1, 52
    view.deal_button.click()
    assert len(view.table.hands[0]) == 52 and view.others_area.layout.display == "none"


def test_more_marked_cards_than_the_deck_holds_cannot_be_replaced(parts) -> None:
    view = play(**parts, seed=4)
    view.players.value, view.cards_each.value = 2, 26
    view.deal_button.click()
    view.card_buttons[0].click()
    assert view.replace_button.disabled
    with pytest.raises(IllegalAction, match="only 0 cards"):
        view.table.replace_marked()


def test_a_students_error_stops_nothing_and_puts_the_table_back(parts) -> None:
    broken = dict(parts)

    def draw(deck, hand, n):
        deck.pop()
        raise RuntimeError("oops")
    broken["draw"] = draw
    view = TableView(DealerTable(seed=1, **broken))
    hand, deck = list(view.table.hands[0]), list(view.table.deck)
    view.card_buttons[0].click()
    view.replace_button.click()
    assert "step 4, draw" in view.message.value and "oops" in view.message.value
    assert view.table.hands[0] == hand and view.table.deck == deck
    with pytest.raises(StudentCodeError):
        view.table.replace_marked()


def test_the_gate_shows_the_checklist_naming_the_first_failing_step() -> None:
    variant = module_with(mistaken("discard_ascending_positions"))
    shown = play(**parts_of(variant))
    assert isinstance(shown, widgets.HTML) and not isinstance(shown, TableView)
    assert "Not yet: step 4 (draw and discard)" in shown.value
    assert "plaisante-step-first" in shown.value and "[3, 0]" in shown.value


def test_a_card_keeps_its_button_so_keyboard_focus_stays(parts) -> None:
    view = play(**parts, seed=6)
    first = view.card_buttons[0]
    first.click()
    assert view.card_buttons[0] is first and view.table.marked == [0]
    view.deal_button.click()  # a new deal: every button shows its own card
    assert [b.description for b in view.card_buttons] == [label(c) for c in view.table.hands[0]]
    view.card_buttons[2].click()
    assert view.table.marked == [2]


def test_a_saved_notebook_shows_a_line_to_run_the_cell(parts) -> None:
    assert_saved_shows(play(**parts, seed=1), 'Deck and deal: run this cell to deal.')


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_a_students_error_message_is_shown_escaped_never_as_html(parts) -> None:
    raised, returned = dict(parts), dict(parts)

    def draw_raising(deck, hand, n):
        raise ValueError(PAYLOAD)

    def discard_returning(hand, positions):
        return PAYLOAD  # the repr of what the student's code returned goes into the message
    raised["draw"], returned["discard"] = draw_raising, discard_returning
    for broken, function in ((raised, "draw"), (returned, "discard")):
        view = TableView(DealerTable(seed=1, **broken))
        view.card_buttons[0].click()
        view.replace_button.click()
        assert function in view.message.value and ESCAPED in view.message.value
        assert "<img" not in view.message.value


def test_the_gate_asks_for_step_6s_tests_once_steps_1_to_5_pass(parts) -> None:
    """Step 6 is done for the gate once my_deal_tests is written and takes deal; what it
    catches is graded later."""
    from plaisante.student_side.assignment import check_all

    def unwritten(deal):
        raise NotImplementedError()

    def two_parameters(deal, draw):
        assert deal([], 1) == [[]]

    results = {name: check_all(load("deck"), dict(parts, my_deal_tests=tests))[5]
               for name, tests in (("written", parts["my_deal_tests"]), ("unwritten", unwritten),
                                   ("two parameters", two_parameters))}
    assert results["written"].status == "pass"
    assert (results["unwritten"].status, results["unwritten"].detail) == (
        "todo", "finish step 6: my_deal_tests still raises NotImplementedError")
    assert (results["two parameters"].status, results["two parameters"].detail) == (
        "fail", "my_deal_tests must take one parameter, deal: def my_deal_tests(deal):")
    shown = play(**dict(parts, my_deal_tests=unwritten))
    assert "Not yet: step 6 (your tests of deal) needs work" in shown.value
