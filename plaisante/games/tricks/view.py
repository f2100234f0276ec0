"""The ipywidgets view of the trick-taking table: it renders a ``TrickTable`` and forwards clicks.

No rule lives here: which cards are playable, what a refused card is told, when a trick is won
and who leads come from ``plaisante.games.tricks.model`` (and through it, the student's code).
ipywidgets swallows exceptions raised in handlers, so the view catches the table's and shows
them in its message line. Cards are drawn as in every game of the kit
(``plaisante.student_side.card_widgets``, ``plaisante.student_side.style``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ...student_side.card_widgets import (
    LiveRegion,
    Table,
    card_button,
    card_name,
    chip,
    focusable_text,
)
from ...student_side.cards import SUIT_SYMBOLS, label, spoken_name
from ...student_side.markup import Child, html, tag
from ...student_side.style import game_style
from ..shell import StudentCodeError, act, stopped_message
from .model import TrickTable
from .rules import BOTS, CARDS_EACH, PLAYERS, SEATS


def seat_name(player: int) -> str:
    """Return how the table names ``player``: 'You', 'West', 'North' or 'East'."""
    return SEATS[player]


def pairs_text(plays: list[tuple[int, Any]]) -> str:
    """Return a trick as 'West 9♥, North K♥, …' (play order)."""
    return ", ".join(f"{seat_name(player)} {label(card)}" for player, card in plays)


class TrickView(Table):
    """The table: four seats (you and three bots) with the card each played to the trick,
    whose turn it is and the tricks each has won; the last trick and who won it; your hand,
    sorted, the cards you may play highlighted and the others dimmed (a click on one says why
    it is refused); New deal; a message line.

    Stable CSS classes for tests and styling: ``tricks-table`` (the whole view),
    ``tricks-seat`` (one per player, in play order; ``tricks-turn`` on the one to play,
    ``tricks-played`` holding its card, ``tricks-won`` its count in ``<b>``), ``tricks-last``
    (the last trick's line), ``tricks-yours`` (your cards, ``plaisante-card``, each
    ``tricks-legal`` or ``tricks-dimmed``), ``plaisante-message`` (just above your cards, where
    a refused card's reason shows), ``tricks-new-deal``, ``tricks-over`` (the end of a deal's
    panel, in the place of the seats and your hand: ``tricks-final`` its title naming who took
    most tricks, a row per seat in ``tricks-scores`` with its tricks and card points, one
    ``li`` per trick).
    """

    placeholder = "Tricks: run this cell to play a deal."

    def __init__(self, table: TrickTable) -> None:
        super().__init__()
        self.add_class("plaisante-table").add_class("tricks-table")
        self.table = table
        self._buttons: dict[Any, widgets.Button] = {}  # card -> its button in your hand
        self.status = widgets.HTML().add_class("plaisante-status")
        self.seats = [widgets.HTML().add_class("tricks-seat") for _ in range(PLAYERS)]
        seat_row = widgets.HBox(self.seats).add_class("tricks-seats")
        self.trick_title = widgets.HTML().add_class("plaisante-area-title")
        self.last_line = widgets.HTML().add_class("tricks-last")
        trick_area = widgets.VBox([self.trick_title, seat_row, self.last_line])
        trick_area.add_class("plaisante-area").add_class("plaisante-area-play")
        self.trick_area = trick_area
        self.yours_title = widgets.HTML().add_class("plaisante-area-title")
        self.your_row = widgets.HBox().add_class("plaisante-row").add_class("plaisante-held")
        self.your_row.add_class("tricks-yours")
        self.message = widgets.HTML().add_class("plaisante-message")
        yours = widgets.VBox([self.yours_title, self.message, self.your_row])
        yours.add_class("plaisante-area").add_class("plaisante-area-held")
        self.yours_area = yours
        self.over_panel = widgets.HTML().add_class("tricks-over")
        self.new_deal_button = widgets.Button(description="New deal", icon="refresh",
                                              tooltip="Deal 8 new cards to each player")
        self.new_deal_button.add_class("tricks-new-deal").add_class("plaisante-new-round")
        self.new_deal_button.on_click(lambda _: self.new_deal())
        actions = widgets.HBox([self.new_deal_button]).add_class("plaisante-actions")
        self.live = LiveRegion()
        self.children = [widgets.HTML(game_style("tricks")), self.status, self.over_panel,
                         trick_area, yours, actions, self.live]
        self.render()

    # ----------------------------------------------------------------------- handlers
    def click_card(self, card: Any) -> None:
        """Play ``card`` from your hand, as a click on it (or Enter on it) does."""
        before = len(self.table.tricks)
        self._act(lambda: self.table.play(card), after=card,
                  said=lambda: self._said_play(card, before))

    def new_deal(self) -> None:
        """Deal again, as the New deal button does."""
        self._act(self.table.start, said=lambda: (
            f"A new deal. {self._said_turn()}"))

    def _act(self, action: Callable[[], Any], after: Any = None,
             said: Callable[[], str] | None = None) -> None:
        message = act(action)
        self.message.value = focusable_text(message) if message else ""
        self.render()
        self._refocus(after)
        if not message and said:
            try:  # what is said asks your parts again (your hand, the playable cards)
                message = said()
            except StudentCodeError as error:
                message = stopped_message(error)
        self.live.say(message)

    def _said_turn(self) -> str:
        table = self.table
        hand = table.your_hand()
        if table.over:
            return ""
        playable = table.playable()
        on_table = ", ".join(f"{seat_name(p)} {spoken_name(c)}" for p, c in table.on_table)
        return ((f"On the table: {on_table}. " if on_table else "You lead. ")
                + f"Your turn: {len(hand)} cards, {len(playable)} playable.")

    def _said_play(self, card: Any, before: int) -> str:
        table = self.table
        words = [f"You play {spoken_name(card)}."]
        for plays, winner in table.tricks[before:]:
            words.append(f"Trick to {seat_name(winner)}: "
                         + ", ".join(f"{seat_name(p)} {spoken_name(c)}" for p, c in plays) + ".")
        if table.over:
            won = table.won
            words.append("Deal over: " + ", ".join(
                f"{seat_name(p)} {won[p]} tricks" for p in range(PLAYERS)) + ".")
        else:
            words.append(self._said_turn())
        return " ".join(words)

    def _refocus(self, card: Any) -> None:
        # A played card's button leaves the hand and would take the keyboard focus with it:
        # hand the focus to the first playable card (or New deal once the deal is over). A
        # refused card keeps it.
        if card is not None and card in self._buttons:
            self._buttons[card].focus()
        elif self.table.over or not self._buttons:
            self.new_deal_button.focus()
        else:
            playable = self.table.playable()
            first = next((b for c, b in self._buttons.items() if c in playable), None)
            (first or next(iter(self._buttons.values()))).focus()

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the table's state."""
        table = self.table
        done = len(table.tricks)
        led = table.led_suit
        self.status.value = focusable_text(
            chip("tricks-deal", "deal ", tag("b", table.deals)),
            chip("tricks-count",
                 ("trick ", tag("b", min(done + 1, CARDS_EACH)), f" of {CARDS_EACH}")
                 if not table.over else (tag("b", CARDS_EACH), " tricks played")),
            chip("tricks-yours-won", "you won ", tag("b", str(table.won[0]))))
        title: Child
        if table.over:
            title = tag("b", "The deal is over")
        elif not table.on_table:
            title = (tag("b", f"Trick {done + 1}"), f" · {seat_name(table.turn)} lead"
                     + ("" if table.turn == 0 else "s"))
        else:
            title = (tag("b", f"Trick {done + 1}"),
                     f" · {led} led {SUIT_SYMBOLS.get(led or '', '')} · follow suit if you can")
        self.trick_title.value = focusable_text(title)
        self._render_seats()
        self._render_last()
        self._render_over()
        try:
            self._render_hand()
        except StudentCodeError as error:  # your hand cannot be shown: say why, offer no card
            self.message.value = focusable_text(stopped_message(error))
            self._buttons = {}
            self.your_row.children = []

    def _render_seats(self) -> None:
        table = self.table
        played = dict(table.on_table)
        won = table.won
        for player, seat in enumerate(self.seats):
            card = played.get(player)
            if card is not None:
                red = card.suit in ("hearts", "diamonds")
                slot = tag("span", label(card),
                           class_=["tricks-played", "plaisante-red" if red else None],
                           title=spoken_name(card))
            else:
                slot = tag("span", class_="tricks-slot", aria_hidden="true")
            about = "you" if player == 0 else f"bot: {BOTS[player - 1][0]}"
            turn = not table.over and table.turn == player
            if turn:
                seat.add_class("tricks-turn")
            else:
                seat.remove_class("tricks-turn")
            seat.value = html(tag(
                "div",
                tag("b", seat_name(player), class_="tricks-name"),
                None if player == 0 else tag("span", about, class_="tricks-rule"),
                slot,
                chip("tricks-won", "tricks ", tag("b", str(won[player]))),
                tag("span", "▶ to play", class_="tricks-to-play") if turn else None,
                class_="tricks-seat-box", title=f"{seat_name(player)}, {about}"))

    def _render_last(self) -> None:
        last = self.table.last
        if last is None:
            self.last_line.value = focusable_text(
                "The strongest card of the led suit wins the trick: A 10 K Q J 9 8 7.")
            return
        plays, winner = last
        card = dict(plays)[winner]
        self.last_line.value = focusable_text(
            f"Last trick ({pairs_text(plays)}): ",
            tag("b", f"{seat_name(winner)} won it", class_="tricks-winner"),
            f" with {label(card)}",
            None if self.table.over else f" and lead{'' if winner == 0 else 's'} the next")

    def _render_over(self) -> None:
        # Once the deal is over, the panel takes the place of the (empty) seats and hand, its
        # list the eight tricks, so New deal comes right below it.
        table = self.table
        for area in (self.trick_area, self.yours_area):
            area.layout.display = "none" if table.over else None
        if not table.over:
            self.over_panel.value = ""
            self.over_panel.layout.display = "none"
            return
        won, points = table.won, table.points()
        best = max(won)
        leaders = [seat_name(p) for p in range(PLAYERS) if won[p] == best]
        title = (f"{' and '.join(leaders)} took most tricks ({best})" if len(leaders) > 1 else
                 f"{leaders[0]} took most tricks: {best} of {CARDS_EACH}")
        rows = (tag("tr", tag("th", seat_name(p), scope="row"),
                    tag("td", str(won[p]), class_="num"), tag("td", str(points[p]), class_="num"),
                    class_="tricks-best" if won[p] == best else "")
                for p in range(PLAYERS))
        tricks = (tag("li", tag("b", seat_name(winner)), f" with {label(dict(plays)[winner])} ",
                      tag("span", f"({pairs_text(plays)})", class_="tricks-list-plays"),
                      title=pairs_text(plays))
                  for plays, winner in table.tricks)
        self.over_panel.value = html(
            tag("h3", f"Deal over: {title}", class_="tricks-final"),
            tag("div",
                tag("table",
                    tag("thead", tag("tr", tag("th"), tag("th", "tricks", class_="num"),
                                     tag("th", "card points", class_="num"))),
                    tag("tbody", rows), class_="tricks-scores"),
                tag("ol", tricks, class_="tricks-list"), class_="tricks-over-body"),
            tag("div", "Card points (going further): A 11, 10 10, K 4, Q 3, J 2. Press ",
                tag("b", "New deal"), " to play again.", class_="tricks-over-hint"))
        self.over_panel.layout.display = None

    def _render_hand(self) -> None:
        table = self.table
        hand = table.your_hand()
        playable = table.playable()
        led = table.led_suit
        if table.over:
            hint = "no cards left"
        elif table.turn != 0:
            hint = "wait for your turn"
        elif led is None:
            hint = "you lead: play any card (click it, or Tab to it and press Enter)"
        elif all(card.suit != led for card in hand):
            hint = f"no {led}: you may play any card"
        else:
            hint = f"{led} led: play a bright card (you hold {led})"
        self.yours_title.value = focusable_text(
            tag("b", "Your hand"),
            f" ({len(hand)} card{'s' if len(hand) != 1 else ''}) \u00a0·\u00a0 {hint}")
        fresh: dict[Any, widgets.Button] = {}
        for card in hand:
            # A card keeps its button while it stays in the hand, so keyboard focus stays put.
            button = self._buttons.get(card)
            if button is None:
                button = card_button(card)
                button.on_click(lambda _, card=card: self.click_card(card))
            legal = card in playable
            button.remove_class("tricks-legal" if not legal else "tricks-dimmed")
            button.add_class("tricks-legal" if legal else "tricks-dimmed")
            button.tooltip = card_name(card) + (
                ", playable" if legal else
                f", not playable now (follow {led})" if led and table.turn == 0 else
                ", not playable now")
            fresh[card] = button
        self._buttons = fresh
        self.your_row.children = list(fresh.values())

    @property
    def card_buttons(self) -> list[widgets.Button]:
        """Your hand's buttons, in hand order."""
        return list(self.your_row.children)
