"""The presenter view of Deck and deal (``plaisante demo deck``): the parts' deck shuffled by a
seed (or its top written in notation) dealt to three players, four cards each, and beside the
hands the x-ray of the deal (``xray.py``): who got which card in which turn, from which end of
the deck, and each card's sort key with the hand ``order_hand`` makes. A click on a card lights
its turn and its key. It renders state and forwards clicks; every number comes from the parts.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ...student_side.cards import label, labels
from ...student_side.markup import clipped, html, tag
from ...student_side.presenting import FIRST_SEED, Presenter, section
from .xray import CARDS_EACH, PLAYERS, DealXRay, shuffled, stacked, xray


def ordinal(n: int) -> str:
    """Return '1st', '2nd', '3rd', '4th', … '11th', '12th', '13th', '21st'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class DeckPresenter(Presenter):
    """Deal three hands of four from a seed (or from a deck whose top is written), click a
    card to light where it came from and its sort key.

    ``parts``: the keywords ``dealer_table`` takes (new_deck, shuffle, deal, sort_key,
    order_hand; draw and discard are not used). ``seed``: the first deal's shuffle."""

    game = "deck"
    said_classes = ("deck-xray-chosen", "plaisante-xray-warn")
    hint = "the deck's top, dealt first: Kh 3c 10s …"
    notation_tip = "Put these cards on top of the deck (the first written is the top) and deal"

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        self.shot = DealXRay()
        self.chosen: tuple[int, int] | None = None
        self.rows: list[widgets.HBox] = []
        super().__init__(parts, seed)

    def deal_seed(self, seed: int) -> None:
        """Shuffle the parts' deck with ``random.Random(seed)`` and deal."""
        self._deal(shuffled(self.parts, seed), f"Seed {seed}: the shuffled deck, dealt")

    def deal_notation(self, text: str) -> None:
        """Deal a deck whose top cards are written in ``text``, the rest shuffled by the seed
        under them. Bad notation leaves the table as it was and says why (ValueError)."""
        deck = stacked(self.parts, text, self.seed_box.value)
        self._deal(deck, f"On top: {labels(parse_top(text))}")

    def click_card(self, player: int, nth: int) -> None:
        """Light ``player``'s ``nth`` card (1-based) in the x-ray, or unlight it."""
        self.chosen = None if self.chosen == (player, nth) else (player, nth)
        self.message.value = ""
        self.render()

    def _deal(self, deck: list[Any], said: str) -> None:
        self.shot = xray(deck, self.parts, PLAYERS, CARDS_EACH)
        self.chosen = (0, 1) if self.shot.order else None
        groups, self.rows = [], []
        for player, cards in enumerate(self.shot.hands):
            row = self.card_row(list(cards), lambda i, p=player: self.click_card(p, i + 1),
                                "deck-hall-hand").add_class("plaisante-hall-fan")
            self.rows.append(row)
            title = widgets.HTML(html(tag("b", f"Player {player}")))
            title.add_class("plaisante-hall-caption")
            groups.append(widgets.VBox([title, row]).add_class("deck-hall-seat"))
        self.stage.children = [widgets.HBox(groups).add_class("deck-hall-seats")]
        self.say(said)
        self.render()

    def render(self) -> None:
        self.xray_panel.value = xray_html(self.shot, self.chosen)  # first: what the hall reads
        for player, (row, cards) in enumerate(zip(self.rows, self.shot.hands)):
            lit = {self.chosen[1] - 1} if self.chosen and self.chosen[0] == player else set()
            self.mark(row, list(cards), lit)


def parse_top(text: str) -> list[Any]:
    """The cards written in ``text`` (kit cards, for the message line)."""
    from ...student_side.cards import hand

    return hand(text)


def xray_html(shot: DealXRay, chosen: tuple[int, int] | None) -> str:
    """Return the x-ray's HTML (a section labelled 'deal x-ray'): the deal as a grid of turns
    (one column per player, one row per round; each cell the card and how far from the top it
    was), the chosen card's line, and the chosen player's sort keys and ordered hand."""
    if shot.problem and not shot.order:
        return section("deck", "deal x-ray",
                       tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn"))
    players = len(shot.hands)
    rows = []
    for nth in range(1, (len(shot.order) // max(players, 1)) + 1):
        cells = []
        for player in range(players):
            dealt = shot.of(player, nth)
            if dealt is None:
                cells.append(tag("td"))
                continue
            top = "top" if dealt.from_top == 1 else f"{ordinal(dealt.from_top)} from top"
            cells.append(tag("td", tag("span", dealt.turn, class_="deck-turn"), " ",
                             tag("b", label(dealt.card)), " ",
                             tag("span", top, class_="deck-where"),
                             class_="deck-lit" if chosen == (player, nth) else None,
                             data_turn=dealt.turn, data_from_top=dealt.from_top))
        rows.append(tag("tr", cells))
    end = ("every turn takes the deck's top card: round the table, player 0 first"
           if shot.from_the_top else
           "⚠ a turn did not take the deck's top card: look where each card came from")
    grid = tag("div",
               tag("h4", f"deal: turn by turn, from the top (the list's end) of "
                         f"{shot.deck_size} cards; {shot.left} left"),
               tag("table", tag("tr", (tag("th", f"Player {p}") for p in range(players))), rows,
                   class_="deck-deal-grid"),
               tag("div", end, class_=["deck-xray-rule",
                                       None if shot.from_the_top else "plaisante-xray-warn"]),
               class_="deck-xray-deal")
    keys = None
    if chosen and shot.keys:
        player, nth = chosen
        dealt = shot.of(player, nth)
        cards = shot.hands[player]
        lines = (tag("li", tag("b", label(card)), " → ", tag("code", clipped(key)),
                     class_="deck-lit" if i == nth - 1 else None, data_key=clipped(key))
                 for i, (card, key) in enumerate(zip(cards, shot.keys[player])))
        said = (f"{label(dealt.card)}: turn {dealt.turn}, player {player}'s {ordinal(nth)} card, "
                f"the {ordinal(dealt.from_top)} card from the top" if dealt else "")
        ordered = labels(shot.ordered[player]) if shot.ordered else "…"
        keys = tag("div",
                   tag("div", said, class_="deck-xray-chosen"),
                   tag("h4", f"player {player}: ", tag("code", "sort_key"), " = (suit, value)"),
                   tag("ol", lines),
                   tag("div", tag("code", "order_hand"), " → ", tag("b", ordered),
                       class_="deck-xray-ordered"),
                   class_="deck-xray-keys")
    problem = (tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn")
               if shot.problem else None)
    return section("deck", "deal x-ray", grid, keys, problem)


def presenter_view(*, seed: int | None = None, **parts: Any) -> DeckPresenter:
    """Return the presenter view on ``parts`` (the keywords ``dealer_table`` takes), first
    dealt from ``seed`` (default 2026)."""
    return DeckPresenter(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["DeckPresenter", "ordinal", "presenter_view", "xray_html"]
