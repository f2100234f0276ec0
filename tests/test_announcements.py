"""What each game's live region says after a move (the words a screen reader reads, the same
facts the table shows), driven headless by clicking the widgets as a player does; and what a
screen reader reads of the checklists and of a failing test cell's line: every mark as a word,
in order."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from assignment_support import unit

from plaisante.games import load
from plaisante.games.deck.setup import play as deck_play
from plaisante.games.holdem.setup import play as holdem_play
from plaisante.games.plaisante.setup import play as plaisante_play
from plaisante.games.tricks.setup import play as tricks_play
from plaisante.games.video_poker.setup import play as vp_play
from plaisante.student_side.assignment import StepResult, checklist_html
from plaisante.student_side.card_widgets import LiveRegion, spoken
from plaisante.student_side.presenting import presenter_checklist_html
from plaisante.student_side.tracebacks import FAILS, TO_DO


def parts(game: str) -> dict[str, object]:
    module = unit(game).load_reference()
    return {name: getattr(module, name) for name in load(game).parts}


def region(view) -> str:
    """The live region's words, checked to sit in a polite status element."""
    live = view.live
    assert isinstance(live, LiveRegion) and live in view.children
    found = re.fullmatch(r'<div role="status" aria-live="polite" aria-atomic="true" '
                         r'data-said="\d+">(.*)</div>', live.value, re.S)
    assert found, live.value
    return found[1]


def test_spoken_says_the_tables_marks_as_words() -> None:
    assert spoken("⚠ <b>no</b> &amp; ✔ ✎ ✘") == "Warning: no & passes: to do: fails:"
    live = LiveRegion()
    live.say("Pair")
    first = live.value
    live.say("Pair")  # the same words again are a change, so they are read again
    assert live.value != first and live.said == "Pair"


def test_plaisante_says_each_selection_each_hand_and_the_round_over() -> None:
    view = plaisante_play(**parts("plaisante"), seed=1)
    first = view.card_buttons[0]
    first.click()
    assert region(view).endswith(", selected; 1 of 5 selected")
    for button in view.card_buttons[1:6]:
        button.click()
    assert region(view).startswith("Warning: at most 5 cards")
    view.play_button.click()
    played = view.round.last_hand
    assert region(view) == (f"Hand 1 of 4: {played.name}, {played.score} points. "
                            f"Total {view.round.total}.")
    view.card_buttons[0].click()
    view.discard_button.click()
    assert region(view) == "Discarded 1 card and drew as many; 3 discards left"
    for _ in range(3):
        for button in view.card_buttons[:5]:
            button.click()
        view.play_button.click()
    assert view.round.is_over
    assert region(view).endswith(f"Round over: total {view.round.total}.")


def test_deck_says_the_deal_the_marks_and_the_draw() -> None:
    view = deck_play(**parts("deck"), seed=1)
    view.deal_button.click()
    assert region(view).startswith("Dealt 4 hands. Your hand: ")
    assert region(view).endswith(f"{len(view.table.deck)} cards left in the deck.")
    view.card_buttons[1].click()
    assert region(view).endswith(", marked; 1 marked")
    view.replace_button.click()
    assert region(view).startswith("Discarded 1 and drew 1. Your hand: ")


def test_video_poker_says_the_deal_the_holds_and_the_hand_won(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the machine saves its credits beside the notebook
    view = vp_play(**parts("video_poker"), seed=4)
    view.bet_max_button.click()
    assert region(view).startswith("Dealt: ") and "then Draw" in region(view)
    view.hold_buttons[2].value = True
    assert re.fullmatch(r"Card 3, .+ of .+, held", region(view))
    view.draw_button.click()
    state = view.play.state
    assert region(view).endswith(f"{state.name}: win {state.win}. Bet {state.bet}, "
                                 f"credits {state.credits}.")


def test_holdem_says_each_action_and_who_wins_the_pot() -> None:
    view = holdem_play(**parts("holdem"), seed=3)
    assert region(view).startswith("Hand 1:") and "Your turn: " in region(view)
    for _ in range(12):
        if view.match.phase != "betting":
            break
        name = "check" if not view.buttons["check"].disabled else "call"
        view.buttons[name].click()
        assert region(view).startswith("You: ")
    said = region(view)
    assert re.search(r"(You win|The bot wins) the pot of \d+|A tie", said), said
    assert "Why: " in said and "<" not in said
    assert "the ace counts 1" in view.board_title.value


def test_tricks_says_your_card_each_trick_and_the_deal_over() -> None:
    view = tricks_play(**parts("tricks"), seed=3)
    for _ in range(8):
        playable = view.table.playable()
        card = next(b for c, b in view._buttons.items() if c in playable)
        card.click()
        assert region(view).startswith(f"You play {card.tooltip.split(',')[0]}.")
        assert "Trick to " in region(view)
    assert view.table.over
    assert re.search(r"Deal over: You \d+ tricks, West \d+ tricks", region(view))



def test_each_presenter_says_the_xrays_verdict_after_a_click() -> None:
    from plaisante.games.holdem.presenter import presenter_view as holdem_view
    from plaisante.games.plaisante.presenter import presenter_view as plaisante_view

    view = plaisante_view(seed=7, **parts("plaisante"))
    for button in view.card_buttons[:5]:
        button.click()
    shot = view.current
    said = view.live.said
    assert said.endswith(f"{shot.name}. {shot.formula}."), said
    hall = holdem_view(seed=11, **parts("holdem"))
    hall.rows[0].children[6].click()
    verdict = hall.current.verdict
    assert " gives " in hall.live.said  # the message line: old card → new card
    assert f"compare gives {verdict}:" in hall.live.said, hall.live.said


class Heard(HTMLParser):
    """The text of each ``li`` of an HTML page as a screen reader reaches it: what is inside
    ``aria-hidden='true'`` or a ``style`` is skipped, spaces squeezed."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.rows: list[str] = []
        self._open: list[tuple[str, bool]] = []
        self.feed(page)

    def _skipping(self) -> bool:
        return any(hidden for _, hidden in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            self.rows.append("")
        self._open.append((tag, tag == "style" or dict(attrs).get("aria-hidden") == "true"))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(tag == "li" for tag, _ in self._open) and not self._skipping():
            self.rows[-1] = " ".join((self.rows[-1] + " " + data).split())


STEPS = [StepResult(1, "Card", "pass"),
         StepResult(2, "count_values", "fail", "count_values([K♥]): expected [1], got [0]"),
         StepResult(3, "the has-checks", "todo", "has_pair still raises NotImplementedError")]


def test_a_checklist_reads_each_step_in_order_its_mark_as_a_word() -> None:
    assert Heard(checklist_html(STEPS)).rows == [
        "Step 1: Card — passes",
        "Step 2: count_values — fails count_values([K♥]): expected [1], got [0]",
        "Step 3: the has-checks — to do has_pair still raises NotImplementedError"]
    assert Heard(presenter_checklist_html(STEPS, "Plaisante")).rows == [
        "Step 1: Card — passes", "Step 2: count_values — fails",
        "Step 3: the has-checks — not finished"]
    # a part whose cell failed (a SyntaxError) is written: the presenter says what happened
    broken = [STEPS[0], StepResult(2, "count_values", "todo", "count_values (step 2) is not "
                                   "defined yet: run the cell that defines it; if that cell "
                                   "shows an error, fix it first")]
    page = html.unescape(presenter_checklist_html(broken, "Plaisante"))
    assert "cannot start: step 2 (count_values) not finished" in page
    assert "count_values (step 2) is not defined yet" in page and "written" not in page
    for page in (checklist_html(STEPS), presenter_checklist_html(STEPS, "Plaisante")):
        hidden = re.findall(r"""aria-hidden=["']true["']""", page)
        assert len(hidden) == 3  # the marks, each beside its word


def test_a_failing_test_cells_line_says_its_mark_as_a_word() -> None:
    assert (TO_DO, FAILS) == ("✎ to do: ", "✘ fails: ")
