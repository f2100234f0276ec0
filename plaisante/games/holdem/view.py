"""The ipywidgets view of a heads-up match: it renders a ``Match`` and forwards clicks.

No rule lives here: which buttons are enabled and how far the amount slider goes come from the
student's ``legal_actions`` (through ``Match.options``); every action goes to ``Match.act``.
ipywidgets swallows exceptions raised in handlers, so the view catches the match's and shows
them in its message line. Cards are drawn as in every game of the kit
(``plaisante.student_side.card_widgets``, ``plaisante.student_side.style``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.etree.ElementTree import Element

import ipywidgets as widgets

from ...student_side.card_widgets import LiveRegion, Table, card_button, chip, keep_focus
from ...student_side.cards import labels
from ...student_side.markup import html, tag
from ...student_side.style import game_style
from ..shell import StudentCodeError, act, stopped_message
from .model import BOT, YOU, Match
from .rules import strength, value

ACTION_LABELS = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise"}
#: the result panel's lines read aloud once a hand is over (its table is read as a table)
SAID_RESULT = ("holdem-winner", "holdem-why", "holdem-match-over")


def _numbers(category: str, five: list[Any]) -> tuple[int, int] | None:
    """(strength, sum of values) by the house rule, or None when ``best_five`` gave a
    category or a card the rules do not know."""
    try:
        return strength(category), sum(value(card) for card in five)
    except (ValueError, AttributeError):
        return None


def showdown_result(shown: list[tuple[str, list[Any]]], result: Any, pot: int
                    ) -> list[Element]:
    """Return the result panel of a showdown as elements: who won the pot (``result``: 1 you,
    -1 the bot, 0 a split, as the student's ``compare`` said; a ``div.holdem-winner``), a row per
    player of ``shown`` (category, its strength 0–8, the best five, their sum with the ace 1;
    ``table.holdem-tiebreak``) and why by the house rule (``div.holdem-why``)."""
    amount = tag("b", pot)
    head = {1: ("You win the pot of ", amount), -1: ("The bot wins the pot of ", amount),
            0: ("A tie: the pot of ", amount, " is split")}.get(result, "The pot is paid")
    numbers = [_numbers(category, five) for category, five in shown]
    rows = []
    for player, (category, five) in ((YOU, shown[YOU]), (BOT, shown[BOT])):
        key = numbers[player]
        won = (result == 1 and player == YOU) or (result == -1 and player == BOT)
        rows.append(tag("tr",
                        tag("th", "You" if player == YOU else "The bot", scope="row"),
                        tag("td", category),
                        tag("td", key[0] if key else "?", class_="num"),
                        tag("td", labels(five), class_="holdem-five"),
                        tag("td", key[1] if key else "?", class_="num"),
                        class_="holdem-won" if won else None))
    you, bot = numbers
    if you is None or bot is None:
        why = "best_five gave a category or card the house rules do not know"
    elif you[0] != bot[0]:
        (high, hi), (low, lo) = sorted(((YOU, you[0]), (BOT, bot[0])), key=lambda p: -p[1])
        why = f"{shown[high][0]} ({hi}) beats {shown[low][0]} ({lo}): the stronger category wins"
    elif you[1] != bot[1]:
        aces = any(getattr(card, "rank", None) == "A" for _, five in shown for card in five)
        why = (f"both {shown[YOU][0]}: the higher sum wins, {max(you[1], bot[1])} "
               f"beats {min(you[1], bot[1])}" + (" (an ace counts 1)" if aces else ""))
    else:
        why = f"both {shown[YOU][0]} with a sum of {you[1]}: a split"
    heading = tag("tr", tag("th"), tag("th", "category"), tag("th", "strength", class_="num"),
                  tag("th", "best five"), tag("th", "sum", class_="num"))
    return [tag("div", head, class_="holdem-winner"),
            tag("table", tag("thead", heading), tag("tbody", rows), class_="holdem-tiebreak"),
            tag("div", f"Why: {why}.", class_="holdem-why")]


def _area_title(name: str, bet: int, category: str | None) -> str:
    """A player's area title: ``name`` in bold, the ``bet`` of this round when there is one
    and the hand's ``category`` once shown."""
    return html(tag("b", name), (" · bet ", tag("b", bet), " this round") if bet else None,
                f" · {category}" if category is not None else None)


class HoldemView(Table):
    """The heads-up table: both stacks and the pot, the bot's cards (face down until a
    showdown), the board, your two cards, Fold / Check / Call / Bet / Raise and an amount
    slider bounded by your ``legal_actions``, Next hand, and the hand's log.

    Stable CSS classes for tests and styling: ``holdem-table`` (the whole view),
    ``holdem-stack-you``, ``holdem-stack-bot``, ``holdem-pot``, ``holdem-street`` (each a chip,
    its number in ``<b>``), ``holdem-bot`` / ``holdem-board`` / ``holdem-you`` (rows of
    ``plaisante-card``; a face-down card is ``holdem-back``), ``holdem-fold``,
    ``holdem-check``, ``holdem-call``, ``holdem-bet``, ``holdem-raise``, ``holdem-amount``,
    ``holdem-next``, ``holdem-log`` (``log_view``), ``plaisante-message``, ``holdem-result``
    (the hand's outcome, between your cards and the buttons once a hand is over:
    ``holdem-winner`` its first line; at a showdown ``holdem-tiebreak``, a row per player with
    its category, strength, best five and sum, and ``holdem-why``, the house rule deciding).
    """

    placeholder = "Heads-up Hold'em: run this cell to play."

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.add_class("plaisante-table").add_class("holdem-table")
        self.match = match
        self.status = widgets.HTML().add_class("plaisante-status")
        self.bot_title = widgets.HTML().add_class("plaisante-area-title")
        self.bot_row = widgets.HBox().add_class("plaisante-row").add_class("holdem-bot")
        self.board_title = widgets.HTML().add_class("plaisante-area-title")
        self.board_row = widgets.HBox().add_class("plaisante-row").add_class("holdem-board")
        self.you_title = widgets.HTML().add_class("plaisante-area-title")
        self.you_row = widgets.HBox().add_class("plaisante-row").add_class("holdem-you")
        self.buttons: dict[str, widgets.Button] = {}
        for name, text in ACTION_LABELS.items():
            button = widgets.Button(description=text, tooltip=text)
            button.add_class(f"holdem-{name}").add_class("holdem-action")
            button.on_click(lambda _, name=name: self.press(name))
            self.buttons[name] = button
        self.buttons["fold"].button_style = "danger"
        self.buttons["bet"].button_style = self.buttons["raise"].button_style = "warning"
        # A number box, not a slider: ipywidgets' slider handle has no accessible name, and
        # a box takes a typed amount as well as the arrow keys.
        self.amount = widgets.BoundedIntText(value=0, min=0, max=0, step=1,
                                             description="Amount",
                                             tooltip="the amount to bet or raise to")
        self.amount.add_class("holdem-amount")
        self.next_button = widgets.Button(description="Next hand", icon="refresh",
                                          tooltip="Deal the next hand")
        self.next_button.add_class("holdem-next").add_class("plaisante-new-round")
        self.next_button.on_click(lambda _: self.next_hand())
        actions = widgets.HBox([*self.buttons.values(), self.amount, self.next_button])
        actions.add_class("plaisante-actions").add_class("holdem-actions")
        self.log_view = widgets.HTML().add_class("holdem-log")
        self.result_panel = widgets.HTML().add_class("holdem-result")
        self.result: list[Element] = []  # the result panel's elements
        self.message = widgets.HTML().add_class("plaisante-message")
        self.live = LiveRegion()
        areas = {}
        for title, row, css in ((self.bot_title, self.bot_row, "holdem-area-bot"),
                                (self.board_title, self.board_row, "holdem-area-board"),
                                (self.you_title, self.you_row, "holdem-area-you")):
            areas[css] = widgets.VBox([title, row]).add_class("plaisante-area").add_class(css)
        players = widgets.HBox([areas["holdem-area-you"], areas["holdem-area-bot"]])
        players.add_class("holdem-players")
        self.children = [widgets.HTML(game_style("holdem")), self.status,
                         areas["holdem-area-board"], players, self.result_panel, actions,
                         self.message, self.live,
                         self.log_view]
        self._act(self.match.new_hand)

    # ----------------------------------------------------------------------- handlers
    def press(self, action: str) -> None:
        """Do ``action`` for you (bet and raise to the slider's amount), as its button does."""
        legal = self._options()
        amount = self.amount.value if legal.get(action) is not None else None
        self._act(lambda: self.match.act(action, amount))
        self._keep_focus(self.buttons[action])

    def next_hand(self) -> None:
        """Deal the next hand, as the Next hand button does."""
        self._act(self.match.new_hand)
        self._keep_focus(self.next_button)

    def _keep_focus(self, pressed: widgets.Button) -> None:
        order = ("check", "call", "bet", "raise", "fold")
        keep_focus(pressed, *(self.buttons[name] for name in order), self.next_button)

    def _act(self, action: Callable[[], Any]) -> None:
        hand, seen = self.match.hand_number, len(self.match.log)
        self.message.value = html(act(action))
        self.render()
        if self.message.value:
            self.live.say(self.message.value)
            return
        new = self.match.log[seen if self.match.hand_number == hand else 0:]
        words = " ".join(new)
        if self.match.phase != "betting" and self.result:
            words += " " + " ".join(html(line) for line in self.result
                                    if line.get("class") in SAID_RESULT)
        elif self.match.phase == "betting":
            legal = self._options()
            words += " Your turn: " + ", ".join(ACTION_LABELS[name] for name in legal) + "."
        self.live.say(words)

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the match's state."""
        match = self.match
        state = match.state
        stacks = state.get("stacks", match.stacks) if match.phase == "betting" else match.stacks
        dealer = " (dealer)"
        self.status.value = html(
            chip("holdem-stack-you", f"you{dealer if match.dealer == YOU else ''} ",
                 tag("b", stacks[YOU])),
            chip("holdem-stack-bot", f"bot{dealer if match.dealer == BOT else ''} ",
                 tag("b", stacks[BOT])),
            chip("holdem-pot", "pot ", tag("b", match.pot)),
            chip("holdem-street", "hand ", tag("b", match.hand_number),
                 f" · {state.get('street', '')}"))
        bets = state.get("bets", [0, 0]) if match.phase == "betting" else [0, 0]
        shown = match.showdown
        self.bot_title.value = _area_title("The bot", bets[BOT], shown[BOT][0] if shown else None)
        bot_cards = match.shown_cards(BOT)
        if bot_cards:
            self.bot_row.children = [self._card(card) for card in bot_cards]
        else:
            self.bot_row.children = [self._back() for _ in match.hole[BOT]]
        self.board_title.value = html(tag("b", "The board"),
                                      None if match.board else " · no cards yet",
                                      " · ", tag("span", "the ace counts 1",
                                                 class_="holdem-ace-rule"))
        self.board_row.children = [self._card(card) for card in match.board]
        self.you_title.value = _area_title("Your cards", bets[YOU],
                                           shown[YOU][0] if shown else None)
        self.you_row.children = [self._card(card) for card in match.shown_cards(YOU)]
        legal = self._options()
        for name, button in self.buttons.items():
            button.disabled = name not in legal
        to_call = (max(bets) - bets[YOU]) if "call" in legal else 0
        self.buttons["call"].description = f"Call {min(to_call, stacks[YOU])}" if to_call \
            else "Call"
        span = legal.get("raise") or legal.get("bet")
        if span:
            least, most = span
            with self.amount.hold_trait_notifications():
                self.amount.min = 0
                self.amount.max = most
                self.amount.min = least
                self.amount.value = least
            self.amount.disabled = False
            self.amount.layout.visibility = "visible"
        else:  # no bet or raise now: no amount to choose (hidden, its place kept)
            self.amount.disabled = True
            self.amount.layout.visibility = "hidden"
        self.next_button.disabled = match.phase == "betting" or match.phase == "match over"
        self._render_result()
        self.log_view.value = html(
            tag("div", tag("b", "This hand"), class_="holdem-log-title"),
            tag("ol", (tag("li", line) for line in match.log)))

    def _options(self) -> dict[str, Any]:
        """Your ``legal_actions`` now (``Match.options``); when it fails, {} (no button) and the
        message line says why: the table stays, waiting for the step to be fixed."""
        try:
            return self.match.options()
        except StudentCodeError as error:
            self.message.value = html(stopped_message(error))
            return {}

    def _render_result(self) -> None:
        match = self.match
        state = match.state
        if match.phase == "betting" or "put_in" not in state:
            self.result = []
            self.result_panel.value = ""
            self.result_panel.layout.display = "none"
            return
        pot = sum(state["put_in"])
        if state.get("folded") is not None or not match.showdown:
            winner = 1 - state["folded"]
            self.result = [tag("div", "You win" if winner == YOU else "The bot wins",
                               " the pot of ", tag("b", pot),
                               f": {'the bot' if winner == YOU else 'you'} folded.",
                               class_="holdem-winner")]
        else:
            self.result = showdown_result(match.showdown, state.get("showdown"), pot)
        if match.phase == "match over":
            self.result.append(tag("div", match.log[-1], class_="holdem-match-over"))
        else:
            self.result.append(tag("div", "Press ", tag("b", "Next hand"), " to deal again.",
                                   class_="holdem-next-hint"))
        self.result_panel.value = html(self.result)
        self.result_panel.layout.display = None

    @staticmethod
    def _card(card: Any) -> widgets.Button:
        button = card_button(card)
        button.disabled = True
        return button

    @staticmethod
    def _back() -> widgets.Button:
        button = widgets.Button(description="?", tooltip="a face-down card", disabled=True)
        button.add_class("plaisante-card").add_class("holdem-back")
        return button
