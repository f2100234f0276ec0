"""The presenter view of heads-up Hold'em (``plaisante demo holdem``): a showdown dealt from a
seed (or written in notation: your two, the bot's two, the board's five), each player's seven
cards in a row with the best five ``best_five`` chose raised, and the x-ray (``xray.py``): the
category, the house rule's tie-break as numbers and ``compare``'s verdict. A click on a card
replaces it with the deck's next card, so "what if the river were…" is one click. It renders
state and forwards clicks; every answer comes from the parts.
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

import ipywidgets as widgets

from ...student_side.cards import hand, label, labels, shuffled_deck
from ...student_side.markup import html, tag
from ...student_side.presenting import FIRST_SEED, Presenter, section
from .rules import CATEGORIES, value
from .xray import SEATS, ShowdownXRay, xray

VERDICTS = {1: "You win", -1: "The bot wins", 0: "Split pot"}


class HoldemPresenter(Presenter):
    """A showdown: two hole cards each and a board of five; click a card to change it.

    ``parts``: the keywords ``holdem_table`` takes (best_five and compare are asked).
    ``seed``: the first deal's shuffle."""

    game = "holdem"
    said_classes = ("holdem-compare", "plaisante-hall-big", "plaisante-xray-warn")
    hint = "Ah Kd | 7c 7d | 2c 3c 4c 5h 9s  (you | bot | board)"
    notation_tip = "Deal these nine: your two, the bot's two, then the board's five"
    mark_words = ("in the best five",)  # the game's view heads that column "best five"

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        self.hole: list[list[Any]] = [[], []]
        self.board: list[Any] = []
        self.deck: list[Any] = []
        self.rows: list[widgets.HBox] = []
        super().__init__(parts, seed)

    def deal_seed(self, seed: int) -> None:
        """Deal from the kit's deck shuffled by ``random.Random(seed)``: you, the bot, you, the
        bot from the top (end), then the board's five."""
        deck = shuffled_deck(seed)
        mine, bots = [deck.pop(), deck.pop()], [deck.pop(), deck.pop()]
        self._deal([[mine[0], bots[0]], [mine[1], bots[1]]], [deck.pop() for _ in range(5)],
                   deck, f"Seed {seed}: a showdown")

    def deal_notation(self, text: str) -> None:
        """Deal the nine cards written in ``text``: yours, the bot's, the board. Raises
        ValueError for bad notation or another count than nine."""
        cards = hand(text.replace("|", " "))
        if len(cards) != 9:
            raise ValueError(f"write 9 cards: your 2, the bot's 2, the board's 5, e.g. "
                             f"'Ah Kd | 7c 7d | 2c 3c 4c 5h 9s'; got {len(cards)}")
        written = {label(card) for card in cards}
        deck = [card for card in shuffled_deck(self.seed_box.value)
                if label(card) not in written]
        self._deal([cards[0:2], cards[2:4]], cards[4:9], deck, f"Dealt {labels(cards)}")

    def _deal(self, hole: list[list[Any]], board: list[Any], deck: list[Any], said: str
              ) -> None:
        self.hole, self.board, self.deck = [list(h) for h in hole], list(board), deck
        self._rows()
        self.say(said)
        self.render()

    def _rows(self) -> None:
        seats, self.rows = [], []
        for seat, name in enumerate(SEATS):
            row = self.card_row(self.seven(seat), lambda i, s=seat: self.replace(s, i),
                                "holdem-hall-seven").add_class("plaisante-hall-fan")
            self.rows.append(row)
            # each row is a player's two then the same board: the caption says so
            caption = html(tag("b", name), " ",
                           tag("span", f"· {'your' if seat == 0 else 'its'} 2 + the board's 5",
                               class_="holdem-hall-whose"))
            seats.append(widgets.HBox([widgets.HTML(caption).add_class(
                "plaisante-hall-caption").add_class("holdem-hall-name"), row]).add_class(
                "holdem-hall-seat"))
        self.stage.children = seats

    def seven(self, seat: int) -> list[Any]:
        """Player ``seat``'s seven: their two, then the board's five."""
        return [*self.hole[seat], *self.board]

    def replace(self, seat: int, index: int) -> None:
        """Replace the card at ``index`` of ``seat``'s seven (a hole card, or a board card:
        both players' rows change) with the deck's next card."""
        if not self.deck:
            raise ValueError("the deck is empty: Deal again")
        new = self.deck.pop()
        if index < 2:
            old, self.hole[seat][index] = self.hole[seat][index], new
        else:
            old, self.board[index - 2] = self.board[index - 2], new
        self.say(f"{label(old)} → {label(new)}")
        self.render()

    @property
    def current(self) -> ShowdownXRay:
        return xray(self.hole, self.board, self.parts)

    def render(self) -> None:
        shot = self.current
        self.xray_panel.value = xray_html(shot, self.board)  # first: what the hall reads
        for seat, row in enumerate(self.rows):
            showing = shot.players[seat] if seat < len(shot.players) else None
            self.mark(row, self.seven(seat), set(showing.lit) if showing else set())
            self.dim(row, set(showing.lit) if showing else None)


def xray_html(shot: ShowdownXRay, board: list[Any]) -> str:
    """Return the x-ray's HTML (a section labelled 'showdown x-ray'): the ``board``, a row per
    player (the category, its strength, the five values summed), the keys compared and the
    verdict."""
    rows = [tag("tr", tag("th"), tag("th", "best_five: category"), tag("th", "strength"),
                tag("th", "sum of the five (A = 1)"), tag("th", "the five"))]
    for name, showing in zip(SEATS, shot.players):
        if showing is None:
            rows.append(tag("tr", tag("th", name), tag("td", "…", colspan=4)))
            continue
        rows.append(tag("tr", tag("th", name),
                        tag("td", showing.category, class_="holdem-category"),
                        tag("td", showing.key[0], class_="holdem-num"),
                        tag("td", showing.sum_said, class_="holdem-sum"),
                        tag("td", labels(showing.five)),
                        data_seat=name, data_key=f"{showing.key[0]},{showing.key[1]}"))
    verdict: list[Element] = []
    if shot.verdict is not None:
        you, bot = (p.key for p in shot.players if p is not None)
        sign = ">" if you > bot else "<" if you < bot else "="
        reason = {"category": "the stronger category wins",
                  "sum": "same category: the higher sum wins",
                  "tie": "same category, same sum: the pot is split"}[shot.decided_by or "tie"]
        said = f"({you[0]}, {you[1]}) {sign} ({bot[0]}, {bot[1]}): {reason}"
        verdict = [tag("div", said, class_="holdem-compare"),
                   tag("div", tag("code", "compare"),
                       f" → {shot.verdict}: {VERDICTS[shot.verdict]}",
                       class_=["plaisante-hall-big", "holdem-verdict"],
                       data_verdict=shot.verdict)]
    ladder = tag("div", "strength: ", ", ".join(f"{name} {len(CATEGORIES) - 1 - i}"
                                                 for i, name in enumerate(CATEGORIES[:5])),
                 " … High Card 0", class_="holdem-ladder")
    problem = (tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn")
               if shot.problem else None)
    heading = tag("h4", f"board {labels(board)}. House rule: the stronger category, then the "
                        f"higher sum (the ace is {value_of_ace()})")
    return section("holdem", "showdown x-ray",
                   tag("div", heading, tag("table", rows, class_="holdem-keys"), verdict,
                       problem, ladder))


def value_of_ace() -> int:
    """The ace's house value (1), read from the rules."""
    from ...student_side.cards import KitCard

    return value(KitCard("A", "spades"))


def presenter_view(*, seed: int | None = None, **parts: Any) -> HoldemPresenter:
    """Return the presenter view on ``parts`` (the keywords ``holdem_table`` takes), first
    dealt from ``seed`` (default 2026)."""
    return HoldemPresenter(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["HoldemPresenter", "presenter_view", "xray_html"]
