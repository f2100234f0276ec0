"""The widget view, driven headless by clicking its buttons (ipywidgets swallows handler errors,
so every test asserts on the round's state and the widgets' traits)."""

from display_support import assert_saved_shows

from plaisante.games import load
from plaisante.games.plaisante.setup import play
from plaisante.student_side.cards import label

game = load("plaisante").game


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


def play_first(view, count):
    for button in view.card_buttons[:count]:
        button.click()
    view.play_button.click()


def test_a_played_hand_shows_its_formula_from_the_students_parts(ref, ref_parts):
    view = play(**ref_parts, seed=4)
    chosen = view.round.held_cards[:5]
    play_first(view, 5)
    values = " + ".join(str(card.value) for card in chosen)
    formula = f"({values}) × {ref.base_mult(chosen)} = {ref.score(chosen)}"
    assert f'<span class="plaisante-formula">{formula}</span>' in view.last_hand_title.value
    assert "total_value × base_mult = score" in view.last_hand_title.value
    for _ in range(3):
        play_first(view, 5)
    first = view.round.history[0]
    assert f"{first.name}, {formula[:formula.rindex(' ')]} <b" in view.over_panel.children[0].value


def test_the_formula_shows_the_students_own_numbers(ref, ref_parts):
    parts = dict(ref_parts, base_mult=lambda cards: 3, score=lambda cards: 3 * sum(
        card.value for card in cards))
    from plaisante.games.plaisante import round_view
    view = round_view(**parts, seed=4)  # past the gate: these parts are wrong on purpose
    chosen = view.round.held_cards[:2]
    play_first(view, 2)
    values = [card.value for card in chosen]
    assert (f"({values[0]} + {values[1]}) × 3 = {3 * sum(values)}"
            in view.last_hand_title.value)


def test_new_round_deals_at_once_when_nothing_would_be_lost(ref_parts):
    view = play(**ref_parts, seed=7)
    game = view.round
    view.card_buttons[0].click()  # a selection alone is not worth a question
    view.new_round_button.click()
    assert view.round is not game and view.confirm.layout.display == "none"


def test_new_round_mid_round_asks_first_and_no_keeps_the_round(ref_parts):
    view = play(**ref_parts, seed=7)
    play_first(view, 3)
    game, total = view.round, view.round.total
    view.new_round_button.click()
    assert view.round is game and view.confirm.layout.display is None
    assert (f"Throw this round away? Its total of <b>{total}</b> and its 3 hands left are lost."
            == view.confirm_question.value)
    view.confirm_no.click()
    assert view.round is game and game.total == total and game.hands_left == 3
    assert view.confirm.layout.display == "none"
    view.new_round_button.click()
    view.card_buttons[0].click()  # any other action puts the question away
    assert view.confirm.layout.display == "none" and view.round is game
    view.new_round_button.click()
    view.confirm_yes.click()
    assert view.round is not game and view.round.total == 0 and view.round.hands_left == 4
    assert view.confirm.layout.display == "none"


def test_a_saved_notebook_shows_a_line_to_run_the_cell(ref_parts) -> None:
    assert_saved_shows(play(**ref_parts, seed=1), 'Plaisante: run this cell to play a round.')


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_a_students_error_or_answer_is_shown_escaped_never_as_html(ref_parts):
    def evaluate_raising(cards):
        raise ValueError(PAYLOAD)

    def evaluate_returning(cards):
        return PAYLOAD
    for evaluate in (evaluate_raising, evaluate_returning):
        view = game(**dict(ref_parts, evaluate=evaluate), seed=1)  # past the gate
        view.card_buttons[0].click()
        view.play_button.click()
        assert "evaluate" in view.message.value and ESCAPED in view.message.value
        assert "<img" not in view.message.value
        assert view.round.history == []  # the hand was not played


def test_the_round_over_panel_escapes_the_cards_labels(ref, ref_parts):
    class Card(ref.Card):  # a student's Card whose rank text is markup
        def __init__(self, rank, suit):
            super().__init__(rank, suit)
            self.rank = PAYLOAD + rank
    view = game(**dict(ref_parts, Card=Card), seed=1)
    for _ in range(4):
        view.card_buttons[0].click()
        view.play_button.click()
    panel = view.over_panel.children[0].value
    assert view.round.is_over and ESCAPED in panel and "<img" not in panel
