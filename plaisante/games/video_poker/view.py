"""The ipywidgets view of the video-poker machine: it renders a ``MachinePlay`` and forwards
clicks. No rule lives here (they are the student's ``Machine``, read through
``plaisante.games.video_poker.model``); ipywidgets swallows exceptions raised in handlers, so
the view shows the machine's refusals and errors in its message line.

Stable CSS classes for tests and styling: ``vp-machine`` (the whole view), ``vp-paytable``
(``vp-lit`` on the current bet's column, ``vp-hit`` on the row just won), ``vp-credits``,
``vp-bet``, ``vp-games`` (each number in ``<b>``), ``vp-slot`` (a card with its HOLD toggle
``vp-hold``), ``vp-back`` (a card not dealt yet), ``vp-result``, ``vp-bet-button``,
``vp-bet-max``, ``vp-deal``, ``vp-draw``, ``vp-how`` (the line under the buttons that says
what each does, Bet max dealing too), ``plaisante-message``.

Order, top to bottom: the counters, the five cards, the hand's result, the buttons and what
they do, the message line, then the pay table: the cards and Deal / Draw stay above the fold
of a 1280×720 window and of one 800 px wide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ...student_side.card_widgets import (
    LiveRegion,
    Table,
    card_label,
    chip,
    keep_focus,
    restyle,
)
from ...student_side.cards import spoken_name
from ...student_side.markup import clipped, html, tag
from ...student_side.style import game_style
from ..shell import act
from .model import MachinePlay, Snapshot
from .rules import BETS, HAND_ORDER, HAND_SIZE, MAX_BET, MIN_BET, PAYS

#: what a raised card's ✓ and tooltip say, as its HOLD toggle does
HELD = "held"


def pay_table_html(bet: int, won: str | None) -> str:
    """Return the pay table: a row per hand, a column per bet (5, 10, 15), the column of
    ``bet`` lit and the row of ``won`` (a hand that paid) marked."""
    def column(b: int) -> list[str | None]:
        return ["num", "vp-lit" if b == bet else None]

    head = tag("tr", tag("th", "hand"),
               (tag("th", f"bet {b}", class_=column(b), scope="col") for b in BETS))
    rows = (tag("tr", tag("th", name, scope="row"),
                (tag("td", PAYS[name] * b, class_=column(b)) for b in BETS),
                class_="vp-hit" if name == won else None)
            for name in HAND_ORDER)
    return html(tag("table", tag("caption", "Pays (credits)"), tag("thead", head),
                    tag("tbody", rows), class_="vp-paytable"))


class MachineView(Table):
    """The machine: credits, bet and games, five cards each with a HOLD toggle (clicking the
    card toggles it too), the hand's name and win, Bet, Bet max (which deals too), Deal,
    Draw, a line saying what each does, the pay table."""

    placeholder = "Video poker: run this cell to play."

    def __init__(self, play: MachinePlay) -> None:
        super().__init__()
        self.add_class("plaisante-table").add_class("vp-machine")
        self.play = play
        self.pay_table = widgets.HTML().add_class("vp-pay")
        self.status = widgets.HTML().add_class("plaisante-status")
        self.card_buttons: list[widgets.Button] = []
        self.hold_buttons: list[widgets.ToggleButton] = []
        slots = []
        for position in range(HAND_SIZE):
            card = widgets.Button(description="", tooltip="not dealt yet")
            card.add_class("plaisante-card").add_class("vp-back")
            card.on_click(lambda _, p=position: self.toggle(p))
            hold = widgets.ToggleButton(description="HOLD", tooltip=f"hold card {position + 1}")
            hold.add_class("vp-hold")
            hold.observe(lambda change, p=position: self._hold_changed(p, change), "value")
            self.card_buttons.append(card)
            self.hold_buttons.append(hold)
            slots.append(widgets.VBox([card, hold]).add_class("vp-slot"))
        self.cards_row = widgets.HBox(slots).add_class("plaisante-row").add_class("vp-cards")
        self.result = widgets.HTML().add_class("vp-result")
        self.bet_button = widgets.Button(description=f"Bet +{MIN_BET}",
                                         tooltip=f"add {MIN_BET} to the bet (up to {MAX_BET})")
        self.bet_button.add_class("vp-bet-button")
        self.bet_max_button = widgets.Button(description=f"Bet max ({MAX_BET}) + deal",
                                             tooltip=f"bet {MAX_BET} and deal at once")
        self.bet_max_button.add_class("vp-bet-max")
        self.deal_button = widgets.Button(description="Deal", button_style="success",
                                          tooltip="take the bet and deal five cards")
        self.deal_button.add_class("vp-deal")
        self.draw_button = widgets.Button(description="Draw", button_style="warning",
                                          tooltip="replace the cards not held")
        self.draw_button.add_class("vp-draw")
        self.bet_button.on_click(lambda _: self.press("place_bet"))
        self.bet_max_button.on_click(lambda _: self.press("bet_max"))
        self.deal_button.on_click(lambda _: self.press("deal"))
        self.draw_button.on_click(lambda _: self.press("draw"))
        actions = widgets.HBox([self.bet_button, self.bet_max_button, self.deal_button,
                                self.draw_button]).add_class("plaisante-actions")
        actions.add_class("vp-actions")
        how = widgets.HTML(html(
            tag("b", f"Bet +{MIN_BET}"), f" adds {MIN_BET} (up to {MAX_BET}), then ",
            tag("b", "Deal"), " · ", tag("b", "Bet max"), f" bets {MAX_BET} and also deals · ",
            tag("b", "Draw"), " replaces the cards you do not hold")).add_class("vp-how")
        self.message = widgets.HTML().add_class("plaisante-message")
        self.live = LiveRegion()
        self.children = [widgets.HTML(game_style("video_poker", (HELD,))), self.status,
                         self.cards_row, self.result, actions, how, self.message, self.live,
                         self.pay_table]
        self._rendering = False
        notice = play.state.notice
        self.message.value = html(f"⚠ {notice}") if notice else ""
        self.render()

    # ----------------------------------------------------------------------- handlers
    def press(self, action: str) -> None:
        """Do ``action`` (place_bet, bet_max, deal, draw) as its button does."""
        self._act(lambda: self.play.act(action), said=self._said)
        pressed = {"place_bet": self.bet_button, "bet_max": self.bet_max_button,
                   "deal": self.deal_button, "draw": self.draw_button}[action]
        keep_focus(pressed, *self.card_buttons[:1], self.draw_button, self.deal_button,
                   self.bet_max_button, self.bet_button)

    def toggle(self, position: int) -> None:
        """Hold or release the card at ``position``, as its card or HOLD toggle does."""
        self._act(lambda: self.play.act("toggle_hold", position),
                  said=lambda: self._said_hold(position))

    def _hold_changed(self, position: int, change: dict[str, Any]) -> None:
        if self._rendering or change["new"] == self.play.state.held[position]:
            return
        self.toggle(position)

    def _act(self, action: Callable[[], Any], said: Callable[[], str] | None = None) -> None:
        self.message.value = html(act(action, "Your Machine stopped"))
        self.render()
        self.live.say(self.message.value or (said() if said else ""))

    def _said(self) -> str:
        state: Snapshot = self.play.state
        money = f"Bet {state.bet}, credits {state.credits}."
        if state.dealt:
            cards = ", ".join(spoken_name(card) for card in state.cards)
            return f"Dealt: {cards}. Hold the cards to keep, then Draw. {money}"
        if state.name is not None:
            return (f"{', '.join(spoken_name(card) for card in state.cards)}. "
                    f"{clipped(state.name)}: "
                    f"win {state.win}. {money}")
        return money

    def _said_hold(self, position: int) -> str:
        state: Snapshot = self.play.state
        if not state.cards:
            return ""
        held = bool(state.held[position])
        return (f"Card {position + 1}, {spoken_name(state.cards[position])}, "
                f"{'held' if held else 'not held'}")

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the machine's state."""
        state: Snapshot = self.play.state
        self._rendering = True
        try:
            won = state.name if (not state.dealt and state.name and state.win) else None
            self.pay_table.value = pay_table_html(state.bet, won)
            self.status.value = html(chip("vp-credits", "credits ", tag("b", state.credits)),
                                     chip("vp-bet", "bet ", tag("b", state.bet)),
                                     chip("vp-games", "games ", tag("b", state.games)))
            for position, (button, hold) in enumerate(zip(self.card_buttons,
                                                          self.hold_buttons)):
                held = bool(state.held[position]) if state.dealt else False
                if state.cards:
                    card = state.cards[position]
                    button.description = card_label(card)
                    restyle(button, card, held, False, said=HELD)
                    button.remove_class("vp-back")
                    if state.dealt and not held:
                        button.tooltip += ": click to hold"
                else:
                    button.description = ""
                    button.add_class("vp-back")
                    button.tooltip = "not dealt yet"
                button.disabled = not state.dealt
                hold.value = held
                hold.disabled = not state.dealt
                hold.description = "HELD" if held else "HOLD"
            if state.dealt:
                result = html("Hold the cards to keep (click a card or its HOLD, or Tab to it "
                              "and press Enter), then ", tag("b", "Draw"))
            elif state.name is not None:
                result = html(tag("span", clipped(state.name), class_="plaisante-hand-name"),
                              " \u00a0·\u00a0 win ", tag("b", state.win))
            else:
                result = html("Press ", tag("b", f"Bet +{MIN_BET}"), ", then ", tag("b", "Deal"),
                              "; or ", tag("b", "Bet max"), ", which deals at once")
            self.result.value = result
            self.bet_button.disabled = state.why_not("place_bet") is not None
            self.bet_max_button.disabled = state.why_not("bet_max") is not None
            self.deal_button.disabled = state.why_not("deal") is not None
            self.draw_button.disabled = state.why_not("draw") is not None
            self.deal_button.description = f"Deal ({state.bet})" if state.bet and \
                not state.dealt else "Deal"
        finally:
            self._rendering = False
