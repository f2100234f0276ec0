"""The ipywidgets view of the dealer's table: it renders a ``DealerTable`` and forwards clicks.

No rule lives here: what can be dealt, what Discard and draw does and when it is allowed come
from ``plaisante.games.deck.model``. ipywidgets swallows exceptions raised in handlers, so the
view catches the table's and shows them in its message line. Cards are drawn as in every
game of the kit (``plaisante.student_side.card_widgets``, ``plaisante.student_side.style``).
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
    keep_focus,
    restyle,
)
from ...student_side.cards import spoken_name
from ...student_side.markup import html, tag
from ...student_side.style import game_style
from ..shell import act
from .model import MAX_PLAYERS, DealerTable

#: what a raised card's ✓ and tooltip say: the word of the count and the Discard button
MARKED = "marked"


class TableView(Table):
    """The dealer's table: players and cards each, Deal, every hand in order, your hand's cards
    clickable to mark them, Discard and draw, and the deck count.

    Stable CSS classes for tests and styling: ``deck-table`` (the whole view), ``deck-count``
    (its number in ``<b>``), ``deck-yours`` (player 0's cards, ``plaisante-card``, marked ones
    ``plaisante-selected``), ``deck-player`` (one row per other player), ``deck-deal``,
    ``deck-replace``, ``plaisante-message``.
    """

    placeholder = "Deck and deal: run this cell to deal."

    def __init__(self, table: DealerTable, *, players: int = 4, cards_each: int = 5) -> None:
        super().__init__()
        self.add_class("plaisante-table").add_class("deck-table")
        self.table = table
        self._buttons: dict[Any, widgets.Button] = {}  # card -> its button in your hand
        self.players = widgets.BoundedIntText(value=players, min=1, max=MAX_PLAYERS,
                                              description="Players", tooltip="1 to 8 players")
        self.cards_each = widgets.BoundedIntText(value=cards_each, min=1, max=52,
                                                 description="Cards each")
        self.deal_button = widgets.Button(description="Deal", icon="refresh",
                                          tooltip="Shuffle a new deck and deal")
        self.deal_button.add_class("deck-deal").add_class("plaisante-new-round")
        self.replace_button = widgets.Button(description="Discard and draw", icon="trash",
                                             button_style="warning",
                                             tooltip="Replace the marked cards from the deck")
        self.replace_button.add_class("deck-replace")
        self.deal_button.on_click(lambda _: self.deal())
        self.replace_button.on_click(lambda _: self.replace())
        controls = widgets.HBox([self.players, self.cards_each, self.deal_button])
        controls.add_class("deck-controls").add_class("plaisante-actions")
        self.status = widgets.HTML().add_class("plaisante-status")
        self.yours_title = widgets.HTML().add_class("plaisante-area-title")
        self.your_row = widgets.HBox().add_class("plaisante-row").add_class("deck-hand")
        self.your_row.add_class("deck-yours")
        yours = widgets.VBox([self.yours_title, self.your_row])
        yours.add_class("plaisante-area").add_class("plaisante-area-held")
        actions = widgets.HBox([self.replace_button]).add_class("plaisante-actions")
        self.others = widgets.HBox().add_class("deck-others")
        others_area = widgets.VBox([widgets.HTML(html(tag("b", "The other players"))).add_class(
            "plaisante-area-title"), self.others])
        others_area.add_class("plaisante-area").add_class("plaisante-area-play")
        self.others_area = others_area
        self.message = widgets.HTML().add_class("plaisante-message")
        self.live = LiveRegion()
        self.children = [widgets.HTML(game_style("deck", (MARKED,))), controls, self.status, yours,
                         actions, others_area, self.message, self.live]
        self.deal()

    # ----------------------------------------------------------------------- handlers
    def deal(self) -> None:
        """Shuffle and deal with the chosen numbers, as the Deal button does."""
        self._act(lambda: self.table.start(int(self.players.value), int(self.cards_each.value)),
                  said=lambda: (f"Dealt {len(self.table.hands)} hands. Your hand: "
                                f"{self._your_cards()}. {len(self.table.deck)} cards left in "
                                "the deck."))

    def click_card(self, position: int) -> None:
        """Mark or unmark the card at ``position`` of your hand, as a click on it does."""
        self._act(lambda: self.table.toggle(position), said=lambda: self._said_mark(position))

    def _click(self, card: Any) -> None:
        hand = self.table.hands[0] if self.table.hands else []
        position = next((i for i, held in enumerate(hand) if held == card), -1)
        self.click_card(position)

    def replace(self) -> None:
        """Discard the marked cards and draw as many, as the Discard and draw button does."""
        count = len(self.table.marked)
        self._act(self.table.replace_marked, said=lambda: (
            f"Discarded {count} and drew {count}. Your hand: {self._your_cards()}. "
            f"{len(self.table.deck)} cards left in the deck."))
        keep_focus(self.replace_button, *self.card_buttons[:1], self.deal_button)

    def _act(self, action: Callable[[], Any], said: Callable[[], str] | None = None) -> None:
        self.message.value = html(act(action))
        self.render()
        self.live.say(self.message.value or (said() if said else ""))

    def _your_cards(self) -> str:
        hand = self.table.hands[0] if self.table.hands else []
        return ", ".join(spoken_name(card) for card in hand) or "no cards"

    def _said_mark(self, position: int) -> str:
        hand = self.table.hands[0] if self.table.hands else []
        if not 0 <= position < len(hand):
            return ""
        marked = position in self.table.marked
        return (f"{spoken_name(hand[position])}, {'marked' if marked else 'unmarked'}; "
                f"{len(self.table.marked)} marked")

    # ------------------------------------------------------------------------- render
    def render(self) -> None:
        """Redraw every widget from the table's state."""
        table = self.table
        self.status.value = html(
            chip("deck-count", "deck ", tag("b", len(table.deck)), " cards"),
            chip("deck-players", "players ", tag("b", len(table.hands))),
            chip("deck-deals", "deal ", tag("b", table.deals)))
        hand = table.hands[0] if table.hands else []
        marked = len(table.marked)
        self.yours_title.value = html(
            tag("b", "Your hand"), f" (player 0, {len(hand)} cards) \u00a0·\u00a0 click cards "
            "(or Tab to one and press Enter) to mark them, then Discard and draw",
            [" \u00a0·\u00a0 ", tag("b", marked), " marked"] if marked else None)
        buttons = []
        fresh: dict[Any, widgets.Button] = {}
        for position, card in enumerate(hand):
            # A card keeps its button while it stays in the hand, so keyboard focus stays put.
            button = self._buttons.get(card)
            if button is None:
                button = card_button(card)
                button.on_click(lambda _, card=card: self._click(card))
            restyle(button, card, position in table.marked, False, said=MARKED)
            fresh[card] = button
            buttons.append(button)
        self._buttons = fresh
        self.your_row.children = buttons
        self.replace_button.disabled = table.why_not_replace() is not None
        self.replace_button.description = (f"Discard and draw {marked}" if marked else
                                           "Discard and draw")
        rows = []
        for player, cards in enumerate(table.hands[1:], start=1):
            name = widgets.HTML(html(tag("b", f"Player {player}"))).add_class("deck-player-name")
            small = [card_button(card, small=True) for card in cards]
            for button in small:
                button.disabled = True
            row = widgets.HBox(small).add_class("plaisante-row").add_class("deck-hand")
            rows.append(widgets.VBox([name, row]).add_class("deck-player"))
        self.others.children = rows
        self.others_area.layout.display = None if rows else "none"

    @property
    def card_buttons(self) -> list[widgets.Button]:
        """Your hand's buttons, in hand order."""
        return list(self.your_row.children)
