"""The ipywidgets view of a Plaisante round: it renders a ``Round`` and forwards clicks.

No rule lives here: whether Play or Discard is allowed, what a hand scores and when the round
ends all come from ``plaisante.game.Round``. A click calls the round, then ``render()`` redraws
from the round's state. ipywidgets swallows exceptions raised in handlers, so the view catches
them and shows them in its message line instead.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from .cards import RED_SUITS, label, labels, spoken_name
from .game import IllegalAction, Round, StudentCodeError
from .rules import DISCARDS_PER_ROUND, HANDS_PER_ROUND, MAX_SELECTED

STYLE = """
<style>
.plaisante-table { background: #1f6f43; border-radius: 14px; padding: 14px 18px;
  color: #fdfdf8; font-size: 17px; max-width: 1100px; }
.plaisante-table .widget-html, .plaisante-table .widget-label { color: #fdfdf8; }
.plaisante-status { font-size: 18px; }
.plaisante-status b { font-size: 22px; }
.plaisante-row { gap: 10px; min-height: 118px; align-items: flex-end; padding: 6px 0; }
.plaisante-area { background: rgba(0,0,0,0.18); border-radius: 10px; padding: 8px 12px;
  min-height: 100px; }
.plaisante-card.jupyter-button, .plaisante-card { width: 72px; height: 100px;
  background: #ffffff; color: #111111; border: 2px solid #333; border-radius: 9px;
  font-size: 26px; font-weight: 700; box-shadow: 0 3px 6px rgba(0,0,0,0.35);
  transition: transform 120ms ease-out; margin: 0; padding: 0; }
.plaisante-card.plaisante-red { color: #c8102e; }
.plaisante-card.plaisante-suit-clubs.plaisante-four { color: #137a2a; }
.plaisante-card.plaisante-suit-diamonds.plaisante-four { color: #1450b8; }
.plaisante-card.plaisante-selected { transform: translateY(-16px);
  border: 3px solid #f5c518; box-shadow: 0 10px 14px rgba(0,0,0,0.45); }
.plaisante-card:focus-visible { outline: 4px solid #f5c518; outline-offset: 2px; }
.plaisante-card.plaisante-small { width: 56px; height: 78px; font-size: 21px; }
.plaisante-new { animation: plaisante-deal 320ms ease-out; }
@keyframes plaisante-deal { from { transform: translateY(-40px) rotate(-6deg); opacity: 0; }
  to { transform: none; opacity: 1; } }
.plaisante-actions .jupyter-button { font-size: 17px; height: 40px; min-width: 140px; }
.plaisante-message { color: #ffe28a; min-height: 1.5em; }
.plaisante-over { background: #fdfdf8; color: #111; border-radius: 10px; padding: 10px 16px; }
.plaisante-over .widget-html { color: #111; }
</style>
"""


def card_classes(card: Any, selected: bool, four_colour: bool) -> list[str]:
    """Return the CSS classes that draw ``card``: colour by suit, raised when selected."""
    classes = ["plaisante-card", f"plaisante-suit-{card.suit}"]
    if card.suit in RED_SUITS:
        classes.append("plaisante-red")
    if four_colour:
        classes.append("plaisante-four")
    if selected:
        classes.append("plaisante-selected")
    return classes


def card_button(card: Any, *, selected: bool = False, four_colour: bool = False,
                small: bool = False) -> widgets.Button:
    """Return a Button drawn as ``card``; its tooltip gives the card's spoken name."""
    button = widgets.Button(description=label(card),
                            tooltip=spoken_name(card) + (", selected" if selected else ""))
    for css in card_classes(card, selected, four_colour) + (["plaisante-small"] if small else []):
        button.add_class(css)
    return button


def _restyle(button: widgets.Button, card: Any, selected: bool, four_colour: bool) -> None:
    wanted = set(card_classes(card, selected, four_colour))
    for css in set(button._dom_classes) - wanted - {"plaisante-new", "plaisante-small"}:
        button.remove_class(css)
    for css in wanted - set(button._dom_classes):
        button.add_class(css)
    button.tooltip = spoken_name(card) + (", selected" if selected else "")


class RoundView(widgets.VBox):
    """A playable round: held cards, Play, Discard, counters, the last hand and a round-over panel.

    ``new_round`` makes a fresh ``Round`` (called now and on New round). ``four_colour`` draws
    clubs green and diamonds blue for students who tell red from black poorly.
    """

    def __init__(self, new_round: Callable[[], Round], *, four_colour: bool = False):
        super().__init__()
        self.add_class("plaisante-table")
        self._new_round, self.four_colour = new_round, four_colour
        self.round = new_round()
        self._buttons: dict[Any, widgets.Button] = {}
        self.status = widgets.HTML().add_class("plaisante-status")
        self.held_row = widgets.HBox().add_class("plaisante-row")
        self.play_button = widgets.Button(description="Play", button_style="success",
                                          icon="play", tooltip="Play the selected cards")
        self.discard_button = widgets.Button(description="Discard", button_style="warning",
                                             icon="trash", tooltip="Discard the selected cards")
        self.new_round_button = widgets.Button(description="New round", icon="refresh",
                                               tooltip="Deal a new round")
        self.message = widgets.HTML().add_class("plaisante-message")
        self.last_hand_title = widgets.HTML()
        self.last_hand_row = widgets.HBox().add_class("plaisante-row")
        self.over_panel = widgets.VBox().add_class("plaisante-over")
        self.play_button.on_click(lambda _: self._act(self.round.play))
        self.discard_button.on_click(lambda _: self._act(self.round.discard))
        self.new_round_button.on_click(lambda _: self.start_new_round())
        actions = widgets.HBox([self.play_button, self.discard_button, self.new_round_button])
        actions.add_class("plaisante-actions")
        last_hand = widgets.VBox([self.last_hand_title, self.last_hand_row])
        last_hand.add_class("plaisante-area")
        self.children = [widgets.HTML(STYLE), self.status, last_hand,
                         widgets.HTML("<b>Held cards</b> (click to select up to 5)"),
                         self.held_row, actions, self.message, self.over_panel]
        self.render()

    # ----------------------------------------------------------------------- handlers
    def click_card(self, card: Any) -> None:
        """Toggle ``card``'s selection, as a click on it does."""
        self._act(lambda: self._toggle(card))

    def start_new_round(self) -> None:
        """Deal a fresh round, as the New round button does."""
        self._act(self._replace_round)

    def _replace_round(self) -> None:
        self.round = self._new_round()
        self._buttons.clear()

    def _toggle(self, card: Any) -> None:
        if not self.round.toggle(card):
            raise IllegalAction(f"at most {MAX_SELECTED} cards can be selected: "
                                "click a selected card to deselect it first")

    def _act(self, action: Callable[[], Any]) -> None:
        try:
            action()
            self.message.value = ""
        except IllegalAction as rule:
            self.message.value = f"⚠ {rule}"
        except StudentCodeError as error:
            self.message.value = (f"⚠ Your code stopped the game (step {error.step}, "
                                  f"{error.function}): {error}. Fix it and run the cells again.")
        self.render()

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the round's state."""
        game = self.round
        self.status.value = (
            f"Total <b>{game.total}</b> &nbsp;·&nbsp; hands left <b>{game.hands_left}</b>/"
            f"{HANDS_PER_ROUND} &nbsp;·&nbsp; discards left <b>{game.discards_left}</b>/"
            f"{DISCARDS_PER_ROUND} &nbsp;·&nbsp; deck <b>{len(game.deck)}</b> cards")
        self.held_row.children = self._held_buttons()
        self.play_button.disabled = game.why_not_play() is not None
        self.discard_button.disabled = game.why_not_discard() is not None
        self._render_last_hand()
        self._render_over_panel()

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
            _restyle(button, card, card in selected, self.four_colour)
            button.disabled = self.round.is_over
            fresh[card] = button
        self._buttons = fresh
        return list(fresh.values())

    def _render_last_hand(self) -> None:
        played = self.round.last_hand
        if played is None:
            self.last_hand_title.value = "<b>Play area</b>: play 1 to 5 cards to score them"
            self.last_hand_row.children = []
            return
        self.last_hand_title.value = (
            f"<b>Last hand</b>: {played.name} &nbsp;→&nbsp; <b>{played.score}</b> points")
        self.last_hand_row.children = [
            card_button(card, four_colour=self.four_colour, small=True) for card in played.cards]
        for button in self.last_hand_row.children:
            button.disabled = True

    def _render_over_panel(self) -> None:
        if not self.round.is_over:
            self.over_panel.children = []
            self.over_panel.layout.display = "none"
            return
        lines = "".join(f"<li>{labels(p.cards)}: {p.name}, {p.score}</li>"
                        for p in self.round.history)
        self.over_panel.layout.display = None
        self.over_panel.children = [widgets.HTML(
            f"<h3>Round over: total {self.round.total}</h3><ol>{lines}</ol>")]

    @property
    def card_buttons(self) -> list[widgets.Button]:
        """The held cards' buttons, in held order."""
        return list(self.held_row.children)
