"""The presenter views of the lecture-hall demo on the reference solutions, without a browser:
each game's x-ray says what its rule says (the deal's turns and ends, a hand's name and pay, the
best five and the house tie-break, a trick's legal cards and winner), a seed deals the same
cards twice, notation deals exactly what is written and bad notation is one line; and the
checklist of a failing submission names the step, the input, expected and got."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from display_support import mark_read_as
from live_html import Live, LyingText

from plaisante.authoring import reference
from plaisante.student_side.assignment import StepResult
from plaisante.student_side.cards import labels
from plaisante.student_side.presenting import presenter_checklist_html, split_case

GAMES = ("deck", "video_poker", "holdem", "tricks")


@pytest.fixture(scope="module")
def parts() -> dict[str, dict[str, Any]]:
    return {game: reference.parts(reference.load(game), game) for game in GAMES}


def view(game: str, parts: dict[str, dict[str, Any]], seed: int = 7) -> Any:
    from plaisante.games import load

    return load(game).demo_view(seed=seed, **parts[game])


def shown(presenter: Any) -> list[str]:
    """Every card button's label on the presenter's stage, in order."""
    found: list[str] = []

    def walk(widget: Any) -> None:
        if "plaisante-card" in getattr(widget, "_dom_classes", ()):
            found.append(widget.description)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(presenter.stage)
    return found


def text(panel: str) -> str:
    """The words ``panel`` (HTML) shows: its stylesheets dropped, then its tags."""
    shown = re.sub(r"<style>.*?</style>", " ", panel, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown)))


@pytest.mark.parametrize("game", GAMES)
def test_without_a_seed_the_first_deal_is_seed_2026s(game: str, parts: Any) -> None:
    from plaisante.games import load

    assert shown(load(game).demo_view(**parts[game])) == shown(view(game, parts, 2026))


@pytest.mark.parametrize("game", GAMES)
def test_a_seed_deals_the_same_cards_and_another_seed_others(game: str, parts: Any) -> None:
    first, again, other = view(game, parts, 7), view(game, parts, 7), view(game, parts, 8)
    assert shown(first) == shown(again)
    assert first.xray_panel.value == again.xray_panel.value
    assert shown(first) != shown(other)
    assert len(shown(first)) >= 5


def test_deck_deals_round_the_table_from_the_top(parts: Any) -> None:
    deck = view("deck", parts)
    deck.deal_notation("Kh 3c 10s 2d")
    shot = deck.shot
    assert [labels(h[:1]) for h in shot.hands] == ["K♥", "3♣", "10♠"]
    assert labels(shot.hands[0][1:2]) == "2♦"
    assert [d.from_top for d in shot.order] == list(range(1, 13))
    assert shot.from_the_top and shot.left == 40
    ref = reference.load("deck")
    assert shot.keys[0] == tuple(repr(ref.sort_key(card)) for card in shot.hands[0])
    assert [labels(h) for h in shot.ordered] == [labels(ref.order_hand(list(h)))
                                                 for h in shot.hands]
    deck.click_card(1, 2)  # player 1's second card: turn 5, the 5th from the top
    said = text(deck.xray_panel.value)
    assert f"{labels(shot.hands[1][1:2])}: turn 5, player 1's 2nd card, the 5th card from the " \
           "top" in said


def test_deck_shows_a_deal_from_the_bottom(parts: Any) -> None:
    def from_the_bottom(deck: list[Any], num_players: int, cards_each: int) -> list[list[Any]]:
        hands: list[list[Any]] = [[] for _ in range(num_players)]
        for _ in range(cards_each):
            for held in hands:
                held.append(deck.pop(0))
        return hands

    deck = view("deck", {**parts, "deck": {**parts["deck"], "deal": from_the_bottom}})
    assert not deck.shot.from_the_top
    assert deck.shot.order[0].from_top == 52
    assert "did not take the deck's top card" in text(deck.xray_panel.value)


def test_video_poker_draw_replaces_exactly_the_unheld_positions(parts: Any) -> None:
    poker = view("video_poker", parts)
    poker.deal_notation("Kh Kd 3c 7s 9h Qs Ks 2d")
    assert poker.current.name == "Pair" and poker.current.win == 5
    assert 'data-hand="Pair"' in re.search(r'<tr class="plaisante-hall-lit"[^>]*>',
                                           poker.xray_panel.value)[0]
    poker.hold(0)
    poker.hold(1)
    poker.draw()
    assert shown(poker) == ["K♥", "K♦", "Q♠", "K♠", "2♦"]
    assert [p for p, _, _ in poker.hand.drawn] == [2, 3, 4]
    shot = poker.current
    assert (shot.name, shot.win, shot.why) == ("Three of a Kind", 15, "three Ks")
    assert 'data-replaced="2 3 4"' in poker.xray_panel.value
    poker.next_bet()
    assert poker.current.win == 30
    with pytest.raises(ValueError, match="the draw is done"):
        poker.draw()


def test_holdem_best_five_and_the_house_tie_break(parts: Any) -> None:
    holdem = view("holdem", parts)
    holdem.deal_notation("Ah Kd 7c 7d 2c 3c 4c 5h 9s")
    shot = holdem.current
    you, bot = shot.players
    assert (you.category, you.key, labels(you.five)) == ("Straight", (4, 15), "A♥ 2♣ 3♣ 4♣ 5♥")
    assert (bot.category, bot.key) == ("Pair", (1, 32))
    assert shot.verdict == 1 and shot.decided_by == "category"
    assert "(4, 15) > (1, 32): the stronger category wins" in text(holdem.xray_panel.value)
    holdem.deal_notation("Kh Qd Kc Jd 2c 5s 8h 8d 3c")  # a pair of 8s each: K Q vs K J
    shot = holdem.current
    assert [p.key for p in shot.players] == [(1, 46), (1, 45)]
    assert shot.decided_by == "sum" and shot.verdict == 1
    assert "same category: the higher sum wins" in text(holdem.xray_panel.value)
    before = holdem.current.players[0].seven
    holdem.replace(0, 6)  # the river: both rows change
    assert holdem.current.players[0].seven[6] != before[6]
    assert holdem.current.players[1].seven[6] == holdem.current.players[0].seven[6]


def test_tricks_lights_the_legal_cards_and_says_why_the_winner_wins(parts: Any) -> None:
    tricks = view("tricks", parts)
    tricks.deal_notation("7h 8h Ah 10s Kc | Kh 10h")
    mine = [f"{c.rank}{c.suit[0]}" for c in tricks.mine]
    assert mine == ["Kc", "7h", "8h", "Ah", "10s"]  # sort_hand: suit, then weakest first
    assert tricks.current.led == "hearts" and tricks.current.legal == {1, 2, 3}
    with pytest.raises(ValueError, match="K♣ does not follow ♥"):
        tricks.play(0)
    tricks.play(3)  # A♥ beats North's K♥ and East's 10♥
    shot = tricks.current
    assert shot.winner == 0 and [s for s, _ in shot.trick] == [2, 3, 0, 1]
    said = text(tricks.xray_panel.value)
    assert "trick_winner → 0: You win with A♥" in said
    assert "above K♥ 10♥" in said
    tricks.play(1)  # the same trick replayed with 7♥: 10♥ (East) beats K♥
    assert tricks.current.winner == 3
    assert "East wins with 10♥" in text(tricks.xray_panel.value)
    tricks.play(1)  # the card played, clicked again: taken back
    assert tricks.current.winner is None and len(tricks.current.trick) == 2


@pytest.mark.parametrize(("seed", "says"), [(2026, "Seed 2026: You lead"),
                                           (7, "Seed 7: North leads")])
def test_tricks_says_who_leads_in_words_that_agree(seed: int, says: str, parts: Any) -> None:
    tricks = view("tricks", parts, seed)
    assert text(tricks.message.value).strip() == says


@pytest.mark.parametrize(("game", "written", "says"), [
    ("deck", "Kh Zz", "'Zz' is not a card"),
    ("video_poker", "Kh Kd", "write 5 cards to deal"),
    ("holdem", "Ah Kd 7c", "write 9 cards"),
    ("tricks", "2h 8h | Kh", "2♥ is not in the 32-card deck"),
])
def test_bad_notation_is_one_line_and_changes_nothing(game: str, written: str, says: str,
                                                      parts: Any) -> None:
    presenter = view(game, parts)
    before = shown(presenter)
    presenter.notation.value = written
    assert says in html.unescape(presenter.message.value)
    assert "\n" not in presenter.message.value
    assert shown(presenter) == before


def test_a_failing_students_checklist_reads_on_a_projector() -> None:
    results = [StepResult(1, "Card", "pass"),
               StepResult(2, "count_values", "fail",
                          "count_values([K♥, <b>x</b>]): expected [0, 0, 1], got [0, 1]"),
               StepResult(3, "the has-checks", "todo", "has_pair is not defined yet")]
    page = presenter_checklist_html(results, "Plaisante")
    said = text(page)
    assert "Plaisante cannot start: step 2 (count_values) fails" in said
    assert "The input count_values([K♥, <b>x</b>])" in said
    assert "Expected [0, 0, 1]" in said and "Got [0, 1]" in said
    assert "<b>x</b>" not in page  # what the student's code put in is text, never markup
    assert "run" not in said.lower() and "cell" not in said.lower()
    assert split_case("Card('1', 'hearts'): raised TypeError: no") is None


def test_what_a_students_cards_say_is_text_in_the_xray(parts: Any) -> None:
    """A sort_hand that hands back a card whose suit and rank are markup: the x-ray shows it
    as text (the led suit, the trick's rows), no element of it is made."""
    from types import SimpleNamespace

    markup = "h'><img src=x onerror=alert(1)>"

    def sort_hand(cards: list[Any]) -> list[Any]:
        return [SimpleNamespace(rank="A", suit=markup, value=14), *cards[1:]]

    tricks = view("tricks", {**parts, "tricks": {**parts["tricks"], "sort_hand": sort_hand}})
    tricks.deal_notation("7h 8h Ah 10s Kc")  # you lead: any card
    tricks.play(0)
    assert tricks.current.led == markup
    for shown_html in (tricks.xray_panel.value, tricks.message.value):
        made = Live()
        made.feed(shown_html)
        assert "img" not in made.tags and made.handlers == [] and made.hrefs == []


def made_by(shown_html: str) -> Live:
    made = Live()
    made.feed(shown_html)
    return made


MARKUP = "<script>go()</script><img src=x onerror=go()><svg onload=go()>"


def test_a_category_that_is_not_a_str_never_becomes_an_element_of_the_xray(parts: Any) -> None:
    """best_five's category is the student's: an element (its == made to find it among the
    categories) or a str whose methods lie to the escaper is refused or shown as text."""
    from xml.etree.ElementTree import Element

    class Sneaky(Element):
        def __eq__(self, other: object) -> bool:
            return other == "High Card"

        __hash__ = Element.__hash__

    class Passing(LyingText):
        def __eq__(self, other: object) -> bool:
            return other == "High Card" or str.__eq__(self, other)

        __hash__ = str.__hash__

    best_five = parts["holdem"]["best_five"]
    for category in (Sneaky("script"), Passing(MARKUP)):
        shown = {**parts["holdem"], "best_five": lambda seven, c=category: (c, best_five(seven)[1])}
        holdem = view("holdem", {**parts, "holdem": shown})
        made = made_by(holdem.xray_panel.value)
        assert "script" not in made.tags and "img" not in made.tags, holdem.xray_panel.value
        assert made.handlers == [] and made.hrefs == []
        assert "best_five returned" in holdem.current.problem


def test_a_suit_whose_methods_lie_stays_text_in_the_tricks_xray(parts: Any) -> None:
    """legal_plays hands back the bots' cards: one whose suit lies to the escaper leads the
    trick, and the x-ray's led suit (a text and a data- attribute) makes no element."""
    from types import SimpleNamespace

    legal_plays = parts["tricks"]["legal_plays"]

    def lying(cards: list[Any], led: Any) -> list[Any]:
        return [SimpleNamespace(rank=card.rank, suit=LyingText(f'"{MARKUP}'), value=0)
                for card in legal_plays(cards, led)]

    tricks = view("tricks", {**parts, "tricks": {**parts["tricks"], "legal_plays": lying}})
    tricks.deal_seed(7)  # West leads, from what legal_plays gave it
    assert type(tricks.current.led) is LyingText
    made = made_by(tricks.xray_panel.value)
    assert made.tags and {"script", "img", "svg"}.isdisjoint(made.tags)
    assert made.handlers == [] and made.hrefs == []


def classes_of(widget: Any) -> list[str]:
    """Every CSS class of ``widget`` and the widgets inside it."""
    return [*getattr(widget, "_dom_classes", ()),
            *(css for child in getattr(widget, "children", ()) for css in classes_of(child))]


def test_a_suit_of_any_text_leaves_each_css_class_one_word(parts: Any) -> None:
    """A card's suit names its class; a browser refuses a class holding a space (classList.add
    throws) and leaves the card without its later classes: lit, dimmed, selected. A suit not
    of the deck draws no suit class; the card shows its text as its label still."""
    from types import SimpleNamespace

    new_deck = parts["deck"]["new_deck"]

    def spaced() -> list[Any]:
        return [SimpleNamespace(rank=card.rank, suit=f"{card.suit} onclick=go()",
                                value=card.value) for card in new_deck()]

    deck = view("deck", {**parts, "deck": {**parts["deck"], "new_deck": spaced}})
    classes = classes_of(deck)
    assert "plaisante-selected" in classes and "plaisante-card" in classes
    assert all(css and not any(c.isspace() for c in css) for css in classes), classes
    assert not any(css.startswith("plaisante-suit-") for css in classes)
    assert shown(deck)[0].endswith("?")


class Unreadable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("not today")


def test_an_error_the_hall_cannot_read_or_a_page_long_one_is_one_short_line(parts: Any) -> None:
    """A student's error whose message raises is said to be unreadable, instead of the view
    failing to be built; a message as long as the demo's wire lets through (100,000 characters)
    is cut to a line in the message line and the x-ray."""
    for error, says in ((Unreadable(), "Unreadable: <the error's message could not be read>"),
                        (ValueError("z" * 100_000), "zzz…")):
        def legal_plays(cards: list[Any], led: Any, error: BaseException = error) -> list[Any]:
            raise error
        tricks = view("tricks", {**parts, "tricks": {**parts["tricks"],
                                                      "legal_plays": legal_plays}}, seed=7)
        assert says in text(tricks.message.value)
        tricks.deal_notation("7h 8h Ah 10s Kc")  # you lead: the x-ray asks legal_plays
        assert says in text(tricks.xray_panel.value)
        for shown in (tricks.message.value, tricks.xray_panel.value, tricks.live.value):
            assert len(text(shown)) < 2_000, shown[:200]


def test_a_page_long_name_or_key_is_clipped_on_the_hall_screen(parts: Any) -> None:
    """hand_name's name and sort_key's keys are shown as given, up to a line: a page of them
    would push the rest of the x-ray (the pay, the holds, the ordered hand) off the screen."""
    from plaisante.student_side.markup import NAME_TEXT

    poker = view("video_poker", {**parts, "video_poker": {
        **parts["video_poker"], "hand_name": lambda cards: "Pair of wonders " * 6000}})
    named = re.search(r'data-name="([^"]*)"[^>]*>([^<]*)<', poker.xray_panel.value)
    assert named and len(named[1]) == len(named[2]) == NAME_TEXT and named[2].endswith("…")
    assert len(poker.xray_panel.value) < 20_000
    deck = view("deck", {**parts, "deck": {**parts["deck"], "sort_key": lambda card: "k" * 9999}})
    keys = re.findall(r'data-key="([^"]*)"', deck.xray_panel.value)
    assert keys and all(len(key) == NAME_TEXT for key in keys)


def texts_of(widget: Any) -> list[str]:
    """Every text ``widget`` and the widgets inside it send to the page: an HTML's value, a
    button's label and tooltip."""
    own = [getattr(widget, name) for name in ("value", "description", "tooltip")
           if isinstance(getattr(widget, name, None), str)]
    inner = (shown for child in getattr(widget, "children", ()) for shown in texts_of(child))
    return [*own, *inner]


def test_a_lone_surrogate_in_a_rank_leaves_every_text_sendable(parts: Any) -> None:
    """The kernel sends a widget's text as UTF-8 (jupyter_client's json_packer), which a lone
    surrogate cannot be: setting such a text raises in a live kernel. A student's rank holding
    one (the demo's wire carries it, JSON escapes it) is shown with U+FFFD instead."""
    from types import SimpleNamespace

    from jupyter_client.session import json_packer

    new_deck = parts["deck"]["new_deck"]

    def odd() -> list[Any]:
        return [SimpleNamespace(rank=card.rank + "\ud800", suit=card.suit, value=card.value)
                for card in new_deck()]

    deck = view("deck", {**parts, "deck": {**parts["deck"], "new_deck": odd}})
    texts = texts_of(deck)
    assert any("\ufffd" in shown for shown in texts)
    json_packer(texts)  # raises UnicodeEncodeError for a lone surrogate



def card_buttons(presenter: Any, raised: bool | None = None) -> list[Any]:
    """The card buttons of ``presenter``'s stage, in order: only the raised (✓) ones when
    ``raised`` is True, only the others when False."""
    found: list[Any] = []

    def walk(widget: Any) -> None:
        classes = getattr(widget, "_dom_classes", ())
        if "plaisante-card" in classes and raised in (None, "plaisante-selected" in classes):
            found.append(widget)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(presenter.stage)
    return found


@pytest.mark.parametrize(("game", "word"), [("deck", "selected"), ("video_poker", "held"),
                                            ("holdem", "in the best five"),
                                            ("tricks", "playable")])
def test_a_raised_cards_mark_and_tooltip_say_what_it_means_in_its_game(
        game: str, word: str, parts: Any) -> None:
    """The ✓ on a raised card is read as the game's word for it, and its tooltip ends so: a
    card legal_plays allows is "playable" (as the tricks view says), Hold'em's best five
    are "in the best five", a held card "held"; deck's card lit for the x-ray "selected"."""
    presenter = view(game, parts)
    if game == "video_poker":
        presenter.hold(0)
    raised = card_buttons(presenter, raised=True)
    assert raised
    for button in raised:
        assert mark_read_as(presenter, button) == word
        assert button.tooltip.endswith(f", {word}"), button.tooltip
    others = card_buttons(presenter, raised=False)
    assert others and not any((button.tooltip or "").endswith(f", {word}") for button in others)


def test_tricks_says_playable_as_its_game_does_and_played_once_the_trick_is_down(
        parts: Any) -> None:
    """The tricks view calls a card legal_plays allows "playable"; the presenter's raised
    cards say the same, and once you play, the one raised is the card you "played"."""
    from plaisante.games.tricks import trick_table

    table = trick_table(seed=7, **parts["tricks"])
    legal = [b.tooltip for b in table.card_buttons if "tricks-legal" in b._dom_classes]
    assert legal and all(tip.endswith(", playable") for tip in legal)
    tricks = view("tricks", parts)
    tricks.deal_notation("7h 8h Ah 10s Kc | Kh 10h")
    assert [(b.description, mark_read_as(tricks, b), b.tooltip)
            for b in card_buttons(tricks, raised=True)] == [
        ("7♥", "playable", "7 of hearts, playable"),
        ("8♥", "playable", "8 of hearts, playable"),
        ("A♥", "playable", "Ace of hearts, playable")]
    tricks.play(3)
    assert [(b.description, mark_read_as(tricks, b), b.tooltip)
            for b in card_buttons(tricks, raised=True)] == [
        ("A♥", "played", "Ace of hearts, played")]
