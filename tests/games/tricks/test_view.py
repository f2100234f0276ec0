"""The trick-taking table, driven headless by clicking its widgets (ipywidgets swallows handler
errors, so every test asserts on the table's state and the widgets' traits), its gate, and the
checks on known-wrong implementations (run directly, as in the student's own notebook)."""

from __future__ import annotations

import re

import pytest
from assignment_support import unit
from display_support import assert_saved_shows

from plaisante.games import load
from plaisante.games.tricks import checks, known_good
from plaisante.games.tricks.model import StudentCodeError, TrickTable
from plaisante.games.tricks.setup import play
from plaisante.games.tricks.view import TrickView, pairs_text
from plaisante.student_side.assignment import check_all
from plaisante.student_side.cards import KitCard, label, spoken_name

TRICKS = unit("tricks")
load_reference, mistaken, module_with = TRICKS.load_reference, TRICKS.mistaken, TRICKS.module_with
MISTAKES = TRICKS.mistakes

ASSIGNMENT = load("tricks")


def parts_of(module) -> dict[str, object]:
    return {name: getattr(module, name) for name in ASSIGNMENT.parts}


@pytest.fixture(scope="module")
def parts() -> dict[str, object]:
    return parts_of(load_reference())


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).replace("&nbsp;", " ")


def test_play_deals_a_sorted_hand_with_the_playable_cards_bright(parts) -> None:
    view = play(**parts, seed=3)
    assert isinstance(view, TrickView)
    table = view.table
    assert table.turn == 0 and table.on_table == [] and table.won == [0, 0, 0, 0]
    hand = table.your_hand()
    assert len(hand) == 8 and hand == parts["sort_hand"](hand)
    assert [b.description for b in view.card_buttons] == [label(c) for c in hand]
    assert all("tricks-legal" in b._dom_classes for b in view.card_buttons)  # you lead
    assert view.card_buttons[0].tooltip == spoken_name(hand[0]) + ", playable"
    assert [text(s.value).split("bot")[0].split("tricks")[0] for s in view.seats] == [
        "You", "West", "North", "East"]
    assert "tricks-turn" in view.seats[0]._dom_classes
    assert "you lead" in text(view.yours_title.value)


def test_the_same_seed_deals_the_same_cards(parts) -> None:
    assert play(**parts, seed=5).table.your_hand() == play(**parts, seed=5).table.your_hand()


def test_a_dimmed_card_is_refused_with_the_reason_and_changes_nothing(parts) -> None:
    view = play(**parts, seed=3)  # you hold K♣ 10♣ 9♦ J♦ 10♦ A♦ 8♠ K♠ and lead
    table = view.table
    assert [b.description for b in view.card_buttons] == [
        "K♣", "10♣", "9♦", "J♦", "10♦", "A♦", "8♠", "K♠"]
    led = table.led_suit
    # play on until a trick where you must follow and hold a card you may not play
    while not any("tricks-dimmed" in b._dom_classes for b in view.card_buttons):
        next(b for b in view.card_buttons if "tricks-legal" in b._dom_classes).click()
        led = table.led_suit
    dimmed = next(b for b in view.card_buttons if "tricks-dimmed" in b._dom_classes)
    before = (table.your_hand(), table.on_table, table.won, len(table.tricks))
    assert dimmed.tooltip.endswith(f"not playable now (follow {led})")
    dimmed.click()
    message = text(view.message.value)
    assert message.startswith(f"⚠ {dimmed.description} refused: {led} were led and you hold "
                              f"{led}, so play one of ")
    assert f"play a card of {led}" in message  # the student's own ValueError, quoted
    assert (table.your_hand(), table.on_table, table.won, len(table.tricks)) == before
    next(b for b in view.card_buttons if "tricks-legal" in b._dom_classes).click()
    assert view.message.value == ""


def test_a_whole_deal_of_8_tricks_then_a_new_deal(parts) -> None:
    view = play(**parts, seed=11)
    table = view.table
    for trick in range(8):
        assert f"trick {trick + 1} of 8" in text(view.status.value)
        before = len(table.tricks)
        next(b for b in view.card_buttons if "tricks-legal" in b._dom_classes).click()
        assert len(table.tricks) == before + 1  # the bots finish the trick at once
        plays, winner = table.last
        assert f"{['You', 'West', 'North', 'East'][winner]} won it" in text(view.last_line.value)
        assert len(view.card_buttons) == 7 - trick
        for player, seat in enumerate(view.seats):
            assert f"tricks {table.won[player]}" in text(seat.value)
    assert table.over and sum(table.won) == 8 and view.card_buttons == []
    # the end of the deal: a panel in your hand's place naming who took most tricks, a row a
    # seat with its tricks and card points, and the 8 tricks with their winners
    assert view.yours_area.layout.display == view.trick_area.layout.display == "none"
    assert view.over_panel.layout.display is None
    panel = text(view.over_panel.value)
    won, points = table.won, table.points()
    best = max(won)
    leaders = [seat for seat, n in zip(["You", "West", "North", "East"], won) if n == best]
    assert panel.startswith(f"Deal over: {' and '.join(leaders)} took most tricks")
    assert sum(points) == 120
    rows = re.findall(r'<tr class="(tricks-best)?"><th scope="row">(\w+)</th>'
                      r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>',
                      view.over_panel.value)
    assert [(seat, int(n), int(p)) for _, seat, n, p in rows] == list(
        zip(["You", "West", "North", "East"], won, points))
    assert [seat for best_row, seat, _, _ in rows if best_row] == leaders
    assert view.over_panel.value.count("<li title=") == 8
    plays, winner = table.tricks[0]
    card = label(dict(plays)[winner])
    assert f"{['You', 'West', 'North', 'East'][winner]} with {card} ({pairs_text(plays)})" in panel
    # New deal deals again, West leading: the bots have played before your first card
    view.new_deal_button.click()
    assert table.deals == 2 and len(table.tricks) == 0
    assert len(table.on_table) == 3 and len(view.card_buttons) == 8
    assert [p for p, _ in table.on_table] == [1, 2, 3]
    assert view.over_panel.layout.display == "none"
    assert view.yours_area.layout.display is view.trick_area.layout.display is None
    assert "tricks-played" in view.seats[1].value and "tricks-slot" in view.seats[0].value


def test_a_saved_notebook_shows_a_line_to_run_the_cell(parts) -> None:
    assert_saved_shows(play(**parts, seed=1), "Tricks: run this cell to play a deal.")


def test_a_student_error_is_shown_naming_its_step(parts) -> None:
    broken = dict(parts, legal_plays=lambda hand, led: [])
    with pytest.raises(StudentCodeError, match="step 3, legal_plays"):
        TrickTable(seed=1, **broken).playable()
    view = TrickView(TrickTable(seed=1, **dict(parts, sort_hand=lambda hand: hand[:1])))
    assert "Your code stopped the table (step 2, sort_hand: returned" in view.message.value
    assert view.card_buttons == []


def test_play_shows_the_checklist_while_a_step_fails() -> None:
    variant = module_with(mistaken("another_suit_can_win"))
    shown = play(**parts_of(variant))
    assert "step 4 (trick_winner) needs work" in shown.value
    assert "A♠" in shown.value


# ---------------------------------------------------------------------- the checks themselves

VISIBLE = {
    "step1_trick_strength": lambda p: checks.check_trick_strength(p.trick_strength),
    "step2_sort_hand": lambda p: checks.check_sort_hand(p.sort_hand),
    "step3_legal_plays": lambda p: checks.check_legal_plays(p.legal_plays),
    "step4_trick_winner": lambda p: checks.check_trick_winner(p.trick_winner),
    "step5_trick": lambda p: checks.check_trick(p.Trick),
}
HIDDEN = {
    "step1_trick_strength_hidden": lambda p: (
        checks.expect_stronger_in_order(p.trick_strength, "7♠ 8♠ 9♠ J♠ Q♠ K♠ 10♠ A♠"),
        checks.expect_not_in_deck(p.trick_strength, "2", "spades")),
    "step2_sort_hand_hidden": lambda p: checks.expect_sorted(p.sort_hand, "10♦ J♦ 9♦ 10♣ K♣"),
    "step3_legal_plays_hidden": lambda p: (
        checks.expect_legal(p.legal_plays, "J♦ 8♣", "hearts", "J♦ 8♣"),
        checks.expect_legal(p.legal_plays, "A♣ 8♦ 7♣ 10♣", "clubs", "A♣ 7♣ 10♣")),
    "step4_trick_winner_hidden": lambda p: (
        checks.expect_winner(p.trick_winner, "8♠ A♥ 9♠ K♥", 1),
        checks.expect_winner(p.trick_winner, "8♣ 7♣ 9♣ A♣", 2)),
    "step5_trick_hidden": lambda p: (
        checks.expect_plays(p.Trick, "8♥ A♠ | K♠ 7♣ | 10♥ Q♠ | J♥ 9♣", 0, [
            (0, "8♥"), (1, "K♠"), (2, "Q♠", "must follow hearts"), (2, "10♥"), (3, "J♥")]),
        checks.expect_plays(p.Trick, "J♦ 9♣ | Q♣ K♠ | 8♦ A♣ | 10♦ 7♠", 2, [
            (4, "8♦", "not their turn"), (2, "8♦")]),
        known_good.expect_full_deal(p.Trick, 15, 1)),
}


def test_the_reference_passes_every_step_of_the_gate(parts) -> None:
    assert [r.status for r in check_all(ASSIGNMENT, parts)] == ["pass"] * 6


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_mistake_is_caught_naming_input_expected_and_actual(mistake: str) -> None:
    variant = module_with(mistaken(mistake))
    for cell in TRICKS.fails(mistake):
        with pytest.raises(checks.CheckFailed) as failure:
            {**VISIBLE, **HIDDEN}[cell](variant)
        message = str(failure.value)
        assert "(" in message.split(":")[0], message  # names the call and its input
        assert "expected" in message or "should" in message, message


def test_a_refusal_must_name_the_suit_to_play() -> None:
    variant = module_with({"step5_trick_code": mistaken("winner_does_not_lead_next")[
        "step5_trick_code"].replace("play a card of {led_suit}", "not allowed")})
    with pytest.raises(checks.CheckFailed, match="should name the suit to follow, 'hearts'"):
        checks.check_trick(variant.Trick)
    assert checks.show_trick([(0, KitCard("10", "hearts"))]) == "[(0, 10♥)]"


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_what_the_students_trick_holds_and_raises_is_shown_escaped(parts) -> None:
    class Trick(parts["Trick"]):  # a student's Trick whose tricks-won counts are markup
        def __init__(self, hands, leader=0):
            super().__init__(hands, leader)
            self.won = [PAYLOAD] * len(self.hands)
    view = TrickView(TrickTable(seed=3, **dict(parts, Trick=Trick)))
    shown = [view.status.value] + [seat.value for seat in view.seats]
    assert all(ESCAPED in value and "<img" not in value for value in shown)

    def sort_hand(cards):
        raise ValueError(PAYLOAD)
    view = TrickView(TrickTable(seed=3, **dict(parts, sort_hand=sort_hand)))
    assert "sort_hand" in view.message.value and ESCAPED in view.message.value
    assert "<img" not in view.message.value


def test_a_sort_hand_that_fails_after_a_new_deal_is_said_not_a_crash(parts) -> None:
    """New deal goes through (the deal is the kit's) and the hand cannot be shown: the message
    line and the live region both say step 2, and nothing raises out of the click."""
    calls = [0]

    def sort_hand(hand):
        calls[0] += 1
        if calls[0] > 1:  # the view's first drawing passes, the new deal's fails
            raise ValueError("lost my cards")
        return parts["sort_hand"](hand)

    view = TrickView(TrickTable(seed=1, **dict(parts, sort_hand=sort_hand)))
    view.new_deal()
    assert "step 2, sort_hand" in view.message.value and view.card_buttons == []
    assert "step 2, sort_hand" in view.live.said and "lost my cards" in view.live.said
