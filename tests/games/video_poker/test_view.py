"""The video-poker machine, driven headless by clicking its widgets on the reference's
Machine (ipywidgets swallows handler errors, so every test asserts on the machine's state and
the widgets' traits), its refusals in the message line, saved credits across views, and the
gate on a sample with a failing step."""

from __future__ import annotations

import re
from pathlib import Path

import ipywidgets as widgets
import pytest
from assignment_support import unit
from display_support import assert_saved_shows, mark_read_as

from plaisante.games import load
from plaisante.games.video_poker.checks import kit_deal
from plaisante.games.video_poker.model import MachinePlay, StudentCodeError
from plaisante.games.video_poker.setup import play
from plaisante.games.video_poker.view import MachineView
from plaisante.student_side.cards import label, spoken_name

POKER = unit("video_poker")
load_reference, mistaken, module_with = POKER.load_reference, POKER.mistaken, POKER.module_with

PARTS = load("video_poker").parts


def parts_of(module) -> dict[str, object]:
    return {name: getattr(module, name) for name in PARTS}


@pytest.fixture(scope="module")
def parts() -> dict[str, object]:
    return parts_of(load_reference())


@pytest.fixture
def save_file(tmp_path: Path) -> str:
    return str(tmp_path / "credits.json")


def view_of(parts, seed: int, path: str | None) -> MachineView:
    view = load("video_poker").game(seed=seed, path=path, **parts)
    assert isinstance(view, MachineView)
    return view


def test_bet_deal_hold_two_and_draw(parts, save_file) -> None:
    view = view_of(parts, 24, save_file)
    assert view.deal_button.disabled and view.draw_button.disabled
    assert all(b.disabled for b in view.hold_buttons)
    view.bet_button.click()
    view.bet_button.click()
    assert view.play.state.bet == 10 and "credits <b>100</b>" in view.status.value
    assert view.pay_table.value.count("vp-lit") == 11  # the bet-10 column: header and 10 rows
    view.deal_button.click()
    dealt, _ = kit_deal(24)
    assert [b.description for b in view.card_buttons] == [label(c) for c in dealt]
    assert "credits <b>90</b>" in view.status.value and view.bet_button.disabled
    view.card_buttons[1].click()  # a card toggles its hold
    view.hold_buttons[2].value = True  # so does its HOLD toggle
    assert view.play.state.held == (False, True, True, False, False)
    assert "plaisante-selected" in view.card_buttons[1]._dom_classes
    assert view.card_buttons[1].tooltip.startswith(spoken_name(dealt[1]) + ", held")
    assert mark_read_as(view, view.card_buttons[1]) == "held"  # the ✓ says what the tip says
    assert view.hold_buttons[1].description == "HELD"
    view.draw_button.click()
    state = view.play.state
    assert state.cards[1:3] == tuple(dealt[1:3]) and state.games == 1
    assert state.credits == 90 + state.win
    assert state.name in view.result.value and f"win <b>{state.win}</b>" in view.result.value
    assert "games <b>1</b>" in view.status.value and view.message.value == ""
    assert not any(b.value for b in view.hold_buttons)


def test_bet_max_deals_and_a_win_marks_its_row(parts, save_file) -> None:
    view = view_of(parts, 35, save_file)  # J♥ 10♦ J♠ 10♣ 10♠: a full house
    # said on screen, before anyone presses it: Bet max deals too
    assert view.bet_max_button.description == "Bet max (15) + deal"
    how = next(c for c in view.children if "vp-how" in c._dom_classes)
    assert "<b>Bet max</b> bets 15 and also deals" in how.value
    assert "<b>Bet max</b>, which deals at once" in view.result.value
    view.bet_max_button.click()
    assert view.play.state.bet == 15 and view.play.state.dealt
    for position in range(5):
        view.toggle(position)
    view.draw_button.click()
    assert view.play.state.credits == 85 + 90
    assert '<tr class="vp-hit"><th scope="row">Full House</th>' in view.pay_table.value


def test_the_cards_and_buttons_come_before_the_pay_table(parts) -> None:
    view = view_of(parts, 1, None)
    actions = next(c for c in view.children if view.deal_button in getattr(c, "children", ()))
    assert view.draw_button in actions.children
    order = [view.children.index(w) for w in (view.status, view.cards_row, view.result, actions,
                                                view.pay_table)]
    assert order == sorted(order) and view.children[-1] is view.pay_table


def test_a_saved_notebook_shows_a_line_to_run_the_cell(parts) -> None:
    assert_saved_shows(view_of(parts, 1, None), "Video poker: run this cell to play.")


def test_a_refusal_shows_the_rule_and_changes_nothing(parts) -> None:
    view = view_of(parts, 1, None)
    view.press("deal")
    assert view.message.value == "⚠ bet at least 5 before dealing"
    assert view.play.state.credits == 100 and not view.play.state.dealt
    view.press("draw")
    assert "deal first" in view.message.value


def test_credits_are_kept_for_the_next_view_on_the_same_file(parts, save_file) -> None:
    first = view_of(parts, 3, save_file)
    first.bet_button.click()
    first.deal_button.click()
    first.draw_button.click()  # A♥ 6♥ 3♠ K♠ 6♣: a pair, the bet back
    again = view_of(parts, None, save_file)
    assert (again.play.state.credits, again.play.state.games) == (100, 1)
    assert "games <b>1</b>" in again.status.value


def test_a_corrupt_save_file_is_said_in_the_message_line(parts, save_file) -> None:
    Path(save_file).write_text('{"credits": 4')
    view = view_of(parts, 1, save_file)
    assert view.message.value.startswith("⚠ credits.json was not a saved machine: it is not JSON")
    assert "credits.json.corrupt-1" in view.message.value
    assert view.play.state.credits == 100


def test_a_machine_that_breaks_names_step_4(parts) -> None:
    class Broken(parts["Machine"]):  # type: ignore[misc, valid-type]
        def draw(self):
            raise KeyError("oops")
    view = MachineView(MachinePlay(Broken, seed=2))
    view.bet_max_button.click()
    view.draw_button.click()
    assert view.message.value == ("⚠ Your Machine stopped (step 4, Machine: draw() raised "
                                  "KeyError: 'oops'). Fix step 4 and run its cells "
                                  "again.")
    with pytest.raises(StudentCodeError, match="machine.held"):
        class Bad(parts["Machine"]):  # type: ignore[misc, valid-type]
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.held = "none"
        MachinePlay(Bad)


def test_credits_too_large_to_print_stop_the_machine_with_one_line(parts) -> None:
    """Python refuses str() of an int over 4,300 digits: a machine whose credits grew that
    large is stopped as any broken machine, with one line, instead of crashing the view."""
    class Rich(parts["Machine"]):  # type: ignore[misc, valid-type]
        def draw(self):
            super().draw()
            self.credits = 10 ** 5000
    view = MachineView(MachinePlay(Rich, seed=2))
    view.bet_max_button.click()
    view.draw_button.click()
    assert view.message.value == ("⚠ Your Machine stopped (step 4, Machine: machine.credits "
                                  "is an int of about 5,001 digits, not an int from 0 to "
                                  "2**63 - 1). Fix step 4 and run its cells again.")


def test_play_shows_the_checklist_naming_step_4_for_held_cards_moved(tmp_path,
                                                                    monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    module = module_with(mistaken("held_cards_moved"))
    shown = play(**parts_of(module))
    assert isinstance(shown, widgets.HTML)
    assert "Not yet: step 4 (Machine) needs work" in shown.value
    assert "expected machine.cards = [Q♣ K♦ K♥ K♣ A♣]" in shown.value
    assert list(tmp_path.iterdir()) == []


def test_the_gate_asks_for_step_5s_tests_once_steps_1_to_4_pass(tmp_path, monkeypatch) -> None:
    """Step 5 is done for the gate once my_port_tests is written and takes hand_name and
    Machine; what it catches is graded later."""
    from plaisante.games.video_poker import ASSIGNMENT
    from plaisante.student_side.assignment import check_all

    monkeypatch.chdir(tmp_path)
    parts = parts_of(module_with({}))

    def unwritten(hand_name, Machine):
        raise NotImplementedError()

    def one_parameter(hand_name):
        assert hand_name([]) == "?"

    results = {name: check_all(ASSIGNMENT, dict(parts, my_port_tests=tests))[4]
               for name, tests in (("written", parts["my_port_tests"]), ("unwritten", unwritten),
                                   ("one parameter", one_parameter))}
    assert results["written"].status == "pass"
    assert (results["unwritten"].status, results["unwritten"].detail) == (
        "todo", "finish step 5: my_port_tests still raises NotImplementedError")
    assert (results["one parameter"].status, results["one parameter"].detail) == (
        "fail", "my_port_tests must take two parameters, hand_name and Machine: "
                "def my_port_tests(hand_name, Machine):")
    shown = play(**dict(parts, my_port_tests=unwritten))
    assert "Not yet: step 5 (your tests of the port) needs work" in shown.value


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_what_a_students_machine_raised_is_shown_escaped(parts) -> None:
    class Broken(parts["Machine"]):  # type: ignore[misc, valid-type]
        def draw(self):
            raise KeyError(PAYLOAD)
    view = MachineView(MachinePlay(Broken, seed=2))
    view.bet_max_button.click()
    view.draw_button.click()
    assert "draw() raised KeyError" in view.message.value and ESCAPED in view.message.value
    assert "<img" not in view.message.value


class Unreadable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("not today")


def test_a_machine_error_that_cannot_be_read_or_printed_is_one_line(parts) -> None:
    """An error whose message raises, or cards whose repr raises, are said in the message line
    (or as a StudentCodeError naming step 4) instead of escaping the view."""
    class Mute(parts["Machine"]):  # type: ignore[misc, valid-type]
        def draw(self):
            raise Unreadable()
    view = MachineView(MachinePlay(Mute, seed=2))
    view.bet_max_button.click()
    view.draw_button.click()
    assert "draw() raised Unreadable: &lt;the error's message could not be read&gt;" in \
        view.message.value

    class Card:
        rank, suit = "K", "hearts"

        def __repr__(self):
            raise Unreadable()

    class Shapeless(parts["Machine"]):  # type: ignore[misc, valid-type]
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.cards = [Card()] * 3
    with pytest.raises(StudentCodeError, match="machine.cards is <unprintable"):
        MachinePlay(Shapeless, seed=2)


def test_a_page_long_hand_name_is_clipped_to_a_line(parts) -> None:
    from plaisante.student_side.markup import NAME_TEXT

    class Wordy(parts["Machine"]):  # type: ignore[misc, valid-type]
        def draw(self):
            super().draw()
            self.name = "Pair of wonders " * 6000
    view = MachineView(MachinePlay(Wordy, seed=2))
    view.bet_max_button.click()
    view.draw_button.click()
    assert view.play.state.name.startswith("Pair of wonders")
    shown = re.search(r'class="plaisante-hand-name">([^<]*)<', view.result.value)
    assert shown and len(shown[1]) == NAME_TEXT and len(view.live.value) < 2_000
