"""The heads-up table, driven headless by clicking its widgets (ipywidgets swallows handler
errors, so every test asserts on the match's state and the widgets' traits), and its gate."""

from __future__ import annotations

import html as html_module
import random

import ipywidgets as widgets
import pytest
from assignment_support import unit
from display_support import assert_saved_shows

from plaisante.games import load
from plaisante.games.holdem.known_good import kit_best_five
from plaisante.games.holdem.model import BOT, YOU, IllegalAction, Match, StudentCodeError
from plaisante.games.holdem.rules import strength, value
from plaisante.games.holdem.setup import play
from plaisante.games.holdem.view import HoldemView, showdown_result
from plaisante.student_side.cards import hand, label, labels
from plaisante.student_side.markup import html

HOLDEM = unit("holdem")
load_reference, mistaken, module_with = HOLDEM.load_reference, HOLDEM.mistaken, HOLDEM.module_with

PARTS = load("holdem").parts


def parts_of(module) -> dict[str, object]:
    return {name: getattr(module, name) for name in PARTS}


@pytest.fixture(scope="module")
def parts() -> dict[str, object]:
    return parts_of(load_reference())


def play_to_the_end(view: HoldemView, prefer: tuple[str, ...]) -> None:
    """Click the first enabled of ``prefer`` until the hand is over."""
    for _ in range(40):
        if view.match.phase != "betting":
            return
        name = next(n for n in prefer if not view.buttons[n].disabled)
        view.buttons[name].click()
        assert view.message.value == "", view.message.value
    raise AssertionError("the hand did not end")


def test_play_deals_a_hand_with_blinds_and_your_cards(parts) -> None:
    view = play(**parts, seed=3)
    assert isinstance(view, HoldemView)
    match = view.match
    assert match.hand_number == 1 and match.phase == "betting"
    assert sum(match.state["stacks"]) + match.pot == 2000
    assert [b.description for b in view.you_row.children] == [label(c) for c in match.hole[YOU]]
    assert all("holdem-back" in b._dom_classes for b in view.bot_row.children)
    assert len(view.bot_row.children) == 2
    assert f"pot <b>{match.pot}</b>" in view.status.value
    assert view.next_button.disabled
    legal = match.options()
    assert {n for n, b in view.buttons.items() if not b.disabled} == set(legal)


def test_the_slider_is_bounded_by_the_students_legal_actions(parts) -> None:
    for seed in range(30):
        view = play(**parts, seed=seed)
        legal = view.match.options()
        span = legal.get("raise") or legal.get("bet")
        if span:
            assert (view.amount.min, view.amount.max, view.amount.value) == (*span, span[0])
            assert not view.amount.disabled
            view.amount.value = span[1]
            view.buttons["raise" if "raise" in legal else "bet"].click()
            assert view.message.value == ""
            action = "raise to" if "raise" in legal else "bet"
            assert f"You: {action} {span[1]} (all-in)" in view.match.log
            return
    raise AssertionError("no seed gave a raise to try")


def test_a_hand_to_showdown_shows_the_bots_cards(parts) -> None:
    for seed in range(40):
        view = play(**parts, seed=seed)
        play_to_the_end(view, ("check", "call"))
        if view.match.showdown:
            break
    match = view.match
    assert match.showdown is not None and match.phase == "hand over"
    assert [b.description for b in view.bot_row.children] == [label(c) for c in match.hole[BOT]]
    assert len(view.board_row.children) == 5
    assert sum(match.stacks) == 2000
    assert "show" in view.log_view.value and not view.next_button.disabled
    # the result panel, between the cards and the buttons: the winner as compare decided,
    # then each player's category, its strength, the best five and their sum (ace 1)
    actions = next(c for c in view.children if view.next_button in getattr(c, "children", ()))
    assert view.children.index(view.result_panel) == view.children.index(actions) - 1
    panel = view.result_panel.value
    assert view.result_panel.layout.display is None
    pot = sum(match.state["put_in"])
    head = {1: f"You win the pot of <b>{pot}</b>", -1: f"The bot wins the pot of <b>{pot}</b>",
            0: f"A tie: the pot of <b>{pot}</b> is split"}[match.state["showdown"]]
    assert f'<div class="holdem-winner">{head}</div>' in panel
    for player, who in ((YOU, "You"), (BOT, "The bot")):
        seven = match.hole[player] + match.board
        category, five = kit_best_five(seven)
        assert match.showdown[player][0] == category
        row = (f'<th scope="row">{who}</th><td>{category}</td><td class="num">'
               f'{strength(category)}</td><td class="holdem-five">{labels(five)}</td>'
               f'<td class="num">{sum(value(c) for c in five)}</td></tr>')
        assert row in panel, (row, panel)
    assert '<div class="holdem-why">Why: ' in panel
    view.next_button.click()
    assert match.hand_number == 2 and match.phase == "betting"
    assert view.result_panel.layout.display == "none" and view.result_panel.value == ""


def showdown_html(shown: list, result: int, pot: int) -> str:
    return html(showdown_result(shown, result, pot))


def test_the_showdown_panel_says_why_by_the_house_rule() -> None:
    pair_high = hand("K♥ K♦ Q♣ J♠ 9♥")  # Pair, 13+13+12+11+9 = 58
    pair_low = hand("K♠ K♣ Q♦ J♥ 3♦")  # Pair, 52
    flush = hand("2♥ 5♥ 7♥ 9♥ J♥")
    assert "Why: both Pair: the higher sum wins, 58 beats 52." in \
        showdown_html([("Pair", pair_high), ("Pair", pair_low)], 1, 40)
    aces = hand("A♠ A♣ Q♦ J♥ 3♦")  # Pair, 1+1+12+11+3 = 28
    assert "Why: both Pair: the higher sum wins, 58 beats 28 (an ace counts 1)." in \
        showdown_html([("Pair", pair_high), ("Pair", aces)], 1, 40)
    assert "Why: Flush (5) beats Pair (1): the stronger category wins." in \
        showdown_html([("Pair", pair_high), ("Flush", flush)], -1, 40)
    split = showdown_html([("Pair", pair_high), ("Pair", hand("K♠ K♣ Q♦ J♥ 9♦"))], 0, 41)
    assert "A tie: the pot of <b>41</b> is split" in split
    assert "Why: both Pair with a sum of 58: a split." in split
    assert "holdem-won" not in split
    odd = showdown_html([("Royal", pair_high), ("Pair", pair_low)], 1, 40)  # a student's name
    assert "the house rules do not know" in odd and '<td class="num">?</td>' in odd
    assert "&lt;b&gt;" in showdown_html([("<b>", pair_high), ("Pair", pair_low)], 1, 40)


def test_a_fold_gives_the_bot_the_pot(parts) -> None:
    view = play(**parts, seed=11)
    before = list(view.match.stacks)
    if view.match.phase == "betting":
        view.buttons["fold"].click()
    match = view.match
    assert match.phase == "hand over" and match.state["folded"] in (YOU, BOT)
    assert sum(match.stacks) == 2000 and match.stacks != before
    assert "win" in match.log[-1]
    winner = "You win" if match.state["folded"] == BOT else "The bot wins"
    loser = "the bot" if match.state["folded"] == BOT else "you"
    assert (f'<div class="holdem-winner">{winner} the pot of <b>{sum(match.state["put_in"])}'
            f"</b>: {loser} folded.</div>") in view.result_panel.value


def test_a_saved_notebook_shows_a_line_to_run_the_cell(parts) -> None:
    assert_saved_shows(play(**parts, seed=1), "Heads-up Hold'em: run this cell to play.")


def test_the_button_alternates_and_the_seed_repeats(parts) -> None:
    one, two = Match(seed=9, **parts), Match(seed=9, **parts)
    one.new_hand()
    two.new_hand()
    assert one.hole == two.hole and one.dealer == two.dealer
    first = one.dealer
    while one.phase == "betting":
        one.act("fold")
    one.new_hand()
    assert one.dealer == 1 - first


def your_turn(parts, seed: int) -> Match:
    """A seeded match, dealt until it is your turn."""
    match = Match(seed=seed, **parts)
    for _ in range(20):
        match.new_hand()
        if match.options():
            return match
        assert match.phase == "hand over"
    raise AssertionError("never your turn")


def test_a_student_error_leaves_the_match_as_it_was(parts) -> None:
    match = your_turn(parts, 1)
    saved = (dict(match.state), list(match.log), match.phase, list(match.board))
    match.apply = lambda state, action, amount=None: {**state, "stacks": [0, 0]}
    with pytest.raises(StudentCodeError, match="step 4, apply: fold returned an impossible"):
        match.act("fold")
    assert (match.state, match.log, match.phase, match.board) == saved
    match.apply = lambda state, action, amount=None: dict(state)  # the same player again
    with pytest.raises(StudentCodeError, match="out of turn"):
        match.act("fold")
    assert (match.state, match.log, match.phase, match.board) == saved


def test_an_illegal_action_is_refused_naming_the_rule(parts) -> None:
    match = your_turn(parts, 2)
    with pytest.raises(IllegalAction, match="you may: fold"):
        match.act("dance")
    span = match.options().get("raise") or match.options().get("bet")
    if span:
        with pytest.raises(IllegalAction, match=f"pick from {span[0]} to {span[1]}"):
            match.act("raise" if "raise" in match.options() else "bet", span[0] - 1)


def test_random_matches_keep_2000_chips_and_end(parts) -> None:
    """Whole matches of random legal choices against the bot: every hand's chips add up, the
    button alternates, and each match ends within 200 hands."""
    for seed in range(25):
        rng = random.Random(seed)
        match = Match(seed=seed, **parts)
        dealers = []
        while match.phase != "match over" and match.hand_number < 200:
            match.new_hand()
            dealers.append(match.dealer)
            while match.phase == "betting":
                legal = match.options()
                assert legal, match.log
                assert sum(match.state["stacks"]) + match.pot == 2000
                action = rng.choice(sorted(legal))
                span = legal[action]
                match.act(action, None if span is None else rng.randint(*span))
            assert sum(match.stacks) == 2000 and min(match.stacks) >= 0
        assert all(a != b for a, b in zip(dealers, dealers[1:]))
        assert match.phase == "match over", (seed, match.stacks)


def test_a_mistake_shows_the_checklist_naming_its_step() -> None:
    module = module_with(mistaken("raise_below_double"))
    shown = play(**parts_of(module))
    assert isinstance(shown, widgets.HTML)
    assert "step 4 (betting) needs work" in shown.value


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_the_street_a_students_apply_returned_is_shown_escaped(parts) -> None:
    def apply(state, action, amount=None):  # the kit checks the chips, not the street's name
        after = parts["apply"](state, action) if amount is None else \
            parts["apply"](state, action, amount)
        return dict(after, street=PAYLOAD)
    view = HoldemView(your_turn(dict(parts, apply=apply), 2))
    view.buttons["raise"].click()
    assert view.match.state["street"] == PAYLOAD and view.match.state["to_act"] == YOU
    assert ESCAPED in view.status.value and "<img" not in view.status.value


def test_a_students_error_message_is_shown_escaped(parts) -> None:
    def apply(state, action, amount=None):
        raise ValueError(PAYLOAD)
    view = HoldemView(your_turn(dict(parts, apply=apply), 2))
    view.buttons["raise"].click()
    assert "apply" in view.message.value and ESCAPED in view.message.value
    assert "<img" not in view.message.value


class Unreadable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("not today")


def test_a_legal_actions_that_fails_on_the_table_is_one_line_not_a_crash(parts) -> None:
    """The table asks legal_actions while it draws (which buttons, how far the amount goes):
    when that fails, the message line names step 4 and no action is offered, instead of the
    view failing to be built (or freezing after a click). An error whose message cannot be
    read is said so."""
    for error, says in ((ValueError("no idea"), "ValueError: no idea"),
                        (Unreadable(), "Unreadable: <the error's message could not be read>")):
        def legal_actions(state, error=error):
            raise error
        view = HoldemView(Match(seed=1, **dict(parts, legal_actions=legal_actions)))
        shown = html_module.unescape(view.message.value)
        assert "step 4, legal_actions" in shown and says in shown
        assert all(button.disabled for button in view.buttons.values())
        assert view.live.said.startswith("Warning: Your code stopped the table")


def test_a_page_long_category_is_clipped_in_the_table_and_its_log(parts) -> None:
    """best_five's category is shown as given (it may be wrong: the table says so), up to a
    line; a page of it would fill the result panel, the area titles and the hand's log."""
    from plaisante.student_side.markup import NAME_TEXT

    def best_five(seven):
        return ("Pair " * 5000, parts["best_five"](seven)[1])
    view = HoldemView(your_turn(dict(parts, best_five=best_five), 2))
    play_to_the_end(view, ("check", "call"))
    assert view.match.showdown is not None
    assert all(len(category) == NAME_TEXT for category, _ in view.match.showdown)
    for shown in (view.result_panel.value, view.you_title.value, view.log_view.value,
                  view.live.value):
        assert len(shown) < 5_000, shown[:200]
