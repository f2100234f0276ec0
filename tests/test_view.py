"""The widget view, driven headless by clicking its buttons (ipywidgets swallows handler errors,
so every test asserts on the round's state and the widgets' traits)."""

from plaisante.cards import label
from plaisante.games.plaisante.setup import play


def buttons_by_label(view):
    return {button.description: button for button in view.card_buttons}


def test_clicking_cards_selects_them_and_raises_them(ref_parts):
    view = play(**ref_parts, seed=1)
    first, second = view.card_buttons[:2]
    first.click()
    second.click()
    assert [label(c) for c in view.round.selected] == [first.description, second.description]
    assert "plaisante-selected" in view.card_buttons[0]._dom_classes
    assert "plaisante-selected" not in view.card_buttons[2]._dom_classes
    assert not view.play_button.disabled and not view.discard_button.disabled
    view.card_buttons[0].click()
    assert [label(c) for c in view.round.selected] == [second.description]


def test_a_sixth_click_is_refused_with_a_message(ref_parts):
    view = play(**ref_parts, seed=1)
    for button in view.card_buttons[:6]:
        button.click()
    assert len(view.round.selected) == 5
    assert "at most 5 cards" in view.message.value
    assert "plaisante-selected" not in view.card_buttons[5]._dom_classes


def test_play_and_discard_are_disabled_with_nothing_selected(ref_parts):
    view = play(**ref_parts, seed=1)
    assert view.play_button.disabled and view.discard_button.disabled


def test_play_shows_the_hand_and_adds_its_score(ref, ref_parts):
    view = play(**ref_parts, seed=4)
    chosen = view.round.held_cards[:5]
    for button in view.card_buttons[:5]:
        button.click()
    view.play_button.click()
    expected = ref.score(chosen)
    assert view.round.total == expected
    assert f"<b>{expected}</b> points" in view.last_hand_title.value
    assert ref.evaluate(chosen) in view.last_hand_title.value
    assert [b.description for b in view.last_hand_row.children] == [label(c) for c in chosen]
    assert len(view.card_buttons) == 8 and f"Total <b>{expected}</b>" in view.status.value
    assert "hands left <b>3</b>" in view.status.value


def test_discard_runs_out_and_the_button_disables(ref_parts):
    view = play(**ref_parts, seed=5)
    for used in range(1, 5):
        view.card_buttons[0].click()
        view.discard_button.click()
        assert view.round.discards_left == 4 - used and view.round.total == 0
    view.card_buttons[0].click()
    assert view.discard_button.disabled and not view.play_button.disabled


def test_a_whole_round_by_clicks_ends_with_the_over_panel_and_a_new_round(ref_parts):
    view = play(**ref_parts, seed=6)
    first_deal = [label(c) for c in view.round.held_cards]
    for _ in range(4):
        for button in view.card_buttons[:5]:
            button.click()
        view.play_button.click()
    game = view.round
    assert game.is_over and view.over_panel.layout.display is None
    panel = view.over_panel.children[0].value
    assert f"Round over: total {game.total}" in panel
    assert game.total == sum(p.score for p in game.history)
    assert view.play_button.disabled and all(b.disabled for b in view.card_buttons)
    view.new_round_button.click()
    assert view.round is not game and view.round.total == 0 and view.round.hands_left == 4
    assert view.over_panel.layout.display == "none"
    assert [label(c) for c in view.round.held_cards] != first_deal


def test_student_code_that_raises_is_reported_and_the_game_goes_on(ref_parts):
    def evaluate(cards):
        raise ValueError("no idea")
    view = play(**dict(ref_parts), seed=1)
    view.round.evaluate = evaluate
    view.card_buttons[0].click()
    view.play_button.click()
    assert "step 4, evaluate" in view.message.value and "no idea" in view.message.value
    assert view.round.hands_left == 4 and len(view.round.selected) == 1
