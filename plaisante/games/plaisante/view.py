"""The ipywidgets view of a Plaisante round: it renders a ``Round`` and forwards clicks.

No rule lives here: whether Play or Discard is allowed, what a hand scores and when the round
ends all come from the model (``Round``). A click calls the round, then ``render()`` redraws
from the round's state. ipywidgets swallows exceptions raised in handlers, so the view catches
them and shows them in its message line instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ...student_side.card_widgets import (
    LiveRegion,
    Table,
    card_button,
    chip,
    focusable_text,
    restyle,
)
from ...student_side.cards import labels, spoken_name
from ...student_side.markup import html, tag
from ...student_side.style import game_style
from ..shell import IllegalAction, act
from .model import Round
from .rules import DISCARDS_PER_ROUND, HANDS_PER_ROUND, MAX_SELECTED

#: What parts an area title's words: a middle dot, kept off both line ends.
DOT = "\u00a0·\u00a0"


class RoundView(Table):
    """A playable round: the play area, the held cards, Play, Discard, New round (which asks
    first when the round is underway), the counters and a round-over panel.

    ``new_round`` makes a fresh ``Round`` (called now and on New round). ``four_colour`` draws
    clubs green and diamonds blue for students who tell red from black poorly.

    Stable CSS classes for tests and styling: ``plaisante-table`` (the whole view),
    ``plaisante-status`` with ``plaisante-total``, ``plaisante-hands-left``,
    ``plaisante-discards-left`` and ``plaisante-deck`` (each holding its number in ``<b>``),
    ``plaisante-held`` (held cards, in ``plaisante-area-held``, hidden once the round is over),
    ``plaisante-play-area`` (the last hand's cards) under ``plaisante-play-title``
    (``plaisante-hand-name``, ``plaisante-hand-score``, ``plaisante-formula``),
    ``plaisante-card`` (+ ``plaisante-selected``, ``plaisante-new`` when just dealt),
    ``plaisante-play``, ``plaisante-discard``, ``plaisante-new-round``, ``plaisante-message``,
    ``plaisante-confirm`` (New round's question: ``plaisante-confirm-yes``,
    ``plaisante-confirm-no``), ``plaisante-over`` (``plaisante-final-total``, one ``li`` per
    hand, its score in ``plaisante-history-score``).
    """

    placeholder = "Plaisante: run this cell to play a round."

    def __init__(self, new_round: Callable[[], Round], *, four_colour: bool = False):
        super().__init__()
        self.add_class("plaisante-table")
        self._new_round, self.four_colour = new_round, four_colour
        self.round = new_round()
        self._buttons: dict[Any, widgets.Button] = {}
        self.status = widgets.HTML().add_class("plaisante-status")
        self.held_row = widgets.HBox().add_class("plaisante-row").add_class("plaisante-held")
        self.play_button = widgets.Button(description="Play", button_style="success",
                                          icon="play", tooltip="Play the selected cards")
        self.discard_button = widgets.Button(description="Discard", button_style="warning",
                                             icon="trash", tooltip="Discard the selected cards")
        self.new_round_button = widgets.Button(description="New round", icon="refresh",
                                               tooltip="Deal a new round")
        self.play_button.add_class("plaisante-play")
        self.discard_button.add_class("plaisante-discard")
        self.new_round_button.add_class("plaisante-new-round")
        self.message = widgets.HTML().add_class("plaisante-message")
        self.live = LiveRegion()
        self.last_hand_title = widgets.HTML().add_class("plaisante-area-title")
        self.last_hand_title.add_class("plaisante-play-title")
        self.last_hand_row = widgets.HBox().add_class("plaisante-row")
        self.last_hand_row.add_class("plaisante-play-area")
        self.over_panel = widgets.VBox().add_class("plaisante-over")
        self.play_button.on_click(lambda _: self._act(self.round.play, refocus=True,
                                                      said=self._said_play))
        self.discard_button.on_click(lambda _: self.discard())
        self.new_round_button.on_click(lambda _: self.ask_new_round())
        actions = widgets.HBox([self.play_button, self.discard_button, self.new_round_button])
        actions.add_class("plaisante-actions")
        self.confirm_question = widgets.HTML()
        self.confirm_yes = widgets.Button(description="Yes, deal a new round",
                                          button_style="danger", icon="refresh")
        self.confirm_no = widgets.Button(description="No, keep playing")
        self.confirm_yes.add_class("plaisante-confirm-yes")
        self.confirm_no.add_class("plaisante-confirm-no")
        self.confirm_yes.on_click(lambda _: self._act(self._replace_round, refocus=True,
                                                      said=self._said_deal))
        self.confirm_no.on_click(lambda _: self.keep_playing())
        self.confirm = widgets.HBox([self.confirm_question, self.confirm_yes, self.confirm_no])
        self.confirm.add_class("plaisante-confirm").add_class("plaisante-actions")
        play_area = widgets.VBox([self.last_hand_title, self.last_hand_row])
        play_area.add_class("plaisante-area").add_class("plaisante-area-play")
        held_title = widgets.HTML(focusable_text(
            tag("b", "Your cards"), f" {DOT} click up to {MAX_SELECTED} (or Tab to one and press "
            "Space), then Play or Discard"))
        self.held_area = widgets.VBox([held_title.add_class("plaisante-area-title"),
                                       self.held_row])
        self.held_area.add_class("plaisante-area").add_class("plaisante-area-held")
        self.children = [widgets.HTML(game_style("plaisante")), self.status, self.over_panel,
                         play_area, self.held_area, actions, self.confirm, self.message,
                         self.live]
        self.render()

    # ----------------------------------------------------------------------- handlers
    def click_card(self, card: Any) -> None:
        """Toggle ``card``'s selection, as a click on it does."""
        self._act(lambda: self._toggle(card), said=lambda: (
            f"{spoken_name(card)}, {'selected' if card in self.round.selected else 'deselected'}"
            f"; {len(self.round.selected)} of {MAX_SELECTED} selected"))

    def discard(self) -> None:
        """Discard the selected cards and draw as many, as the Discard button does."""
        count = len(self.round.selected)
        self._act(self.round.discard, refocus=True, said=lambda: (
            f"Discarded {count} card{'s' if count != 1 else ''} and drew as many; "
            f"{self.round.discards_left} discards left"))

    def ask_new_round(self) -> None:
        """Press New round: deal at once when nothing would be lost, else ask first."""
        if not self.round.is_underway:
            self.start_new_round()
            return
        self.render()
        game = self.round
        question = ("Throw this round away? Its total of ", tag("b", game.total),
                    f" and its {game.hands_left} hand{'s' if game.hands_left != 1 else ''} "
                    "left are lost.")
        self.confirm_question.value = html(question)
        self.confirm.layout.display = None
        self.live.say(html(question, " Yes, or No to keep playing."))
        self.confirm_no.focus()

    def keep_playing(self) -> None:
        """Answer New round's question with No: the round goes on untouched."""
        self.render()
        self.new_round_button.focus()

    def start_new_round(self) -> None:
        """Deal a fresh round at once, as New round (confirmed) does."""
        self._act(self._replace_round, said=self._said_deal)

    def _replace_round(self) -> None:
        self.round = self._new_round()
        self._buttons.clear()

    def _toggle(self, card: Any) -> None:
        if not self.round.toggle(card):
            raise IllegalAction(f"at most {MAX_SELECTED} cards can be selected: "
                                "click a selected card to deselect it first")

    def _act(self, action: Callable[[], Any], refocus: bool = False,
             said: Callable[[], str] | None = None) -> None:
        self.message.value = html(act(action, "Your code stopped the game"))
        self.render()
        if refocus:
            self._refocus()
        self.live.say(self.message.value or (said() if said else ""))

    def _said_play(self) -> str:
        game = self.round
        played = game.last_hand
        if played is None:
            return ""
        words = (f"Hand {len(game.history)} of {HANDS_PER_ROUND}: {played.name}, "
                 f"{played.score} points. Total {game.total}.")
        return words + (f" Round over: total {game.total}." if game.is_over else "")

    def _said_deal(self) -> str:
        return f"A new round: {len(self.round.held_cards)} cards dealt. Total {self.round.total}."

    def _refocus(self) -> None:
        # Play and Discard disable themselves once nothing is selected, and a disabled button
        # drops keyboard focus to the page: hand it to the next thing to press instead.
        if self.round.is_over:
            self.new_round_button.focus()
        elif self.card_buttons:
            self.card_buttons[0].focus()

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the round's state (New round's question put away)."""
        game = self.round
        self.confirm.layout.display = "none"
        self._render_last_hand()
        self._render_over_panel()
        self.status.value = focusable_text(
            chip("plaisante-total", "Total ", tag("b", game.total)),
            chip("plaisante-hands-left",
                 "hands left ", tag("b", game.hands_left), f"/{HANDS_PER_ROUND}"),
            chip("plaisante-discards-left",
                 "discards left ", tag("b", game.discards_left), f"/{DISCARDS_PER_ROUND}"),
            chip("plaisante-deck", "deck ", tag("b", len(game.deck)), " cards"))
        self.held_row.children = self._held_buttons()
        self.play_button.disabled = game.why_not_play() is not None
        self.discard_button.disabled = game.why_not_discard() is not None

    def _held_buttons(self) -> list[widgets.Button]:
        selected = self.round.selected
        fresh: dict[Any, widgets.Button] = {}
        for card in self.round.held_cards:
            button = self._buttons.get(card)
            if button is None:
                button = card_button(card, four_colour=self.four_colour).add_class("plaisante-new")
                button.on_click(lambda _, card=card: self.click_card(card))
            else:
                button.remove_class("plaisante-new")
            restyle(button, card, card in selected, self.four_colour)
            button.disabled = self.round.is_over
            fresh[card] = button
        self._buttons = fresh
        return list(fresh.values())

    def _render_last_hand(self) -> None:
        played = self.round.last_hand
        if played is None:
            self.last_hand_title.value = focusable_text(
                tag("b", "Play area"), f" {DOT} the hand you play is named and scored here")
            self.last_hand_row.children = []
            return
        number = len(self.round.history)
        self.last_hand_title.value = focusable_text(
            tag("b", "Play area"), f" {DOT} hand ",
            tag("span", number, class_="plaisante-hand-number"), f" of {HANDS_PER_ROUND}: ",
            tag("span", played.name, class_="plaisante-hand-name"), " \u00a0→\u00a0 ",
            tag("span", tag("b", played.score), " points", class_="plaisante-hand-score"),
            tag("br"),
            tag("span", "total_value × base_mult = score:", class_="plaisante-formula-caption"),
            " ", tag("span", played.formula, class_="plaisante-formula"))
        self.last_hand_row.children = [
            card_button(card, four_colour=self.four_colour, small=True) for card in played.cards]
        for button in self.last_hand_row.children:
            button.disabled = True

    def _render_over_panel(self) -> None:
        # Once over, the panel takes the held cards' place, so New round stays in view.
        self.held_area.layout.display = "none" if self.round.is_over else None
        if not self.round.is_over:
            self.over_panel.children = []
            self.over_panel.layout.display = "none"
            return
        lines = [tag("li", f"{labels(p.cards)}: {p.name}, {p.formula[:p.formula.rindex(' ')]} ",
                     tag("b", p.score, class_="plaisante-history-score"))
                 for p in self.round.history]
        self.over_panel.layout.display = None
        self.over_panel.children = [widgets.HTML(html(
            tag("h3", f"Round over: total {self.round.total}", class_="plaisante-final-total"),
            tag("ol", lines), "Press ", tag("b", "New round"), " to deal again."))]

    @property
    def card_buttons(self) -> list[widgets.Button]:
        """The held cards' buttons, in held order."""
        return list(self.held_row.children)
