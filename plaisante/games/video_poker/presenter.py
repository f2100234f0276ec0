"""The presenter view of video poker (``plaisante demo video_poker``): five cards dealt from a
seed's deck (or written in notation, the draw's cards after them), a click holds a card, Draw
replaces exactly the unheld positions from the deck's top; beside them the x-ray
(``xray.py``): the hand's name from ``hand_name`` and why, the pay table with its row and the
bet's column lit, ``payout``'s answer, the holds and what the draw replaced. It renders state
and forwards clicks; every answer comes from the parts.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ...student_side.cards import hand, label, labels, shuffled_deck
from ...student_side.markup import clipped, tag
from ...student_side.presenting import FIRST_SEED, Presenter, section
from .rules import BETS, HAND_ORDER, HAND_SIZE, PAYS
from .xray import RANK_OF_VALUE, Hand, PokerXRay, dealt, labels_at, xray


class PokerPresenter(Presenter):
    """Deal five (a seed, or cards in notation), hold by click, Draw, read the x-ray.

    ``parts``: the keywords ``machine_view`` takes (frequencies, hand_name, payout are asked;
    the dealing is the presenter's own so that notation can set every card). ``seed``: the
    first deal's shuffle."""

    game = "video_poker"
    said_classes = ("vp-held", "plaisante-hall-big", "vp-pay", "plaisante-xray-warn")
    mark_words = ("held",)  # as the game's view says of a held card
    hint = "Kh Kd 3c 7s 9h, then the draw's cards"
    notation_tip = ("Deal these five; any cards after them are the draw's, top first")

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        self.hand = Hand([], [])
        self.bet = BETS[0]
        self.row = widgets.HBox()
        self.draw_button = widgets.Button(description="Draw", tooltip=(
            "Replace every card not held with the deck's top card"))
        self.draw_button.add_class("vp-hall-draw")
        self.bet_button = widgets.Button(description=f"Bet {self.bet}",
                                         tooltip="Cycle the bet: 5, 10, 15")
        self.bet_button.add_class("vp-hall-bet")
        self.draw_button.on_click(lambda _: self.guarded(self.draw))
        self.bet_button.on_click(lambda _: self.guarded(self.next_bet))
        super().__init__(parts, seed)

    def deal_seed(self, seed: int) -> None:
        """Deal five from the top of the kit's deck shuffled by ``random.Random(seed)``."""
        self._deal(dealt(shuffled_deck(seed)), f"Seed {seed}: dealt five")

    def deal_notation(self, text: str) -> None:
        """Deal the first five cards written in ``text``; any after them (up to five more) are
        the draw's, in order; the rest of the deck is the seed's. Raises ValueError for bad
        notation or fewer than five cards."""
        cards = hand(text)
        if not HAND_SIZE <= len(cards) <= 2 * HAND_SIZE:
            raise ValueError(f"write 5 cards to deal (and up to 5 more for the draw), e.g. "
                             f"'Kh Kd 3c 7s 9h Qs'; got {len(cards)}")
        written = {label(card) for card in cards}
        rest = [card for card in shuffled_deck(self.seed_box.value)
                if label(card) not in written]
        self._deal(Hand(cards[:HAND_SIZE], rest + cards[HAND_SIZE:][::-1]),
                   f"Dealt {labels(cards[:HAND_SIZE])}"
                   + (f"; the draw's cards: {labels(cards[HAND_SIZE:])}"
                      if len(cards) > HAND_SIZE else ""))

    def hold(self, position: int) -> None:
        """Hold or release the card at ``position``, as a click on it does."""
        self.hand.toggle(position)
        self.message.value = ""
        self.render()

    def draw(self) -> None:
        """Draw: every card not held is replaced from the deck's top."""
        self.hand.draw()
        self.say(f"Drew {len(self.hand.drawn or [])}: "
                 f"{', '.join(f'{label(new)} at {p}' for p, _, new in self.hand.drawn or [])}")
        self.render()

    def next_bet(self) -> None:
        """Bet the next of 5, 10, 15 (the pay table's columns)."""
        self.bet = BETS[(BETS.index(self.bet) + 1) % len(BETS)]
        self.bet_button.description = f"Bet {self.bet}"
        self.render()

    @property
    def current(self) -> PokerXRay:
        return xray(self.hand.cards, self.bet, self.parts)

    def _deal(self, game: Hand, said: str) -> None:
        self.hand = game
        self.row = self.card_row(self.hand.cards, self.hold, "vp-hall-cards")
        actions = widgets.HBox([self.bet_button, self.draw_button])
        actions.add_class("vp-hall-actions")
        self.stage.children = [widgets.HBox([self.row, actions]).add_class("vp-hall-stage")]
        self.say(said)
        self.render()

    def render(self) -> None:
        self.xray_panel.value = xray_html(self.current, self.hand)  # first: what the hall reads
        self.mark(self.row, self.hand.cards,
                  {p for p, held in enumerate(self.hand.held) if held}, "vp-hall-held")
        self.draw_button.disabled = self.hand.drawn is not None


def xray_html(shot: PokerXRay, game: Hand) -> str:
    """Return the x-ray's HTML (a section labelled 'video poker x-ray'): the name and why, the
    pay table (rows by hand, columns by bet; the name's row and the bet's column lit), the
    holds, and after the draw which positions it replaced."""
    held = [p for p, h in enumerate(game.held) if h]
    holds = tag("div", "held: ", tag("b", labels_at(game.cards, held)), class_="vp-held",
                data_held=" ".join(map(str, held)))
    unheld = [p for p in range(HAND_SIZE) if p not in held]
    if game.drawn is None:
        moves = tag("div", "Draw replaces: ", tag("b", labels_at(game.cards, unheld)))
        when = "dealt"
    else:
        swaps = ", ".join(f"{p}: {label(old)} → {label(new)}" for p, old, new in game.drawn)
        moves = tag("div", "replaced: ", tag("b", swaps or "nothing (all held)"),
                    class_="vp-drawn", data_replaced=" ".join(str(p) for p, _, _ in game.drawn))
        when = "after the draw"
    counts = " ".join(f"{RANK_OF_VALUE.get(v, v)}×{n}" for v, n in shot.counts)
    name = clipped(shot.name) if shot.name else "…"
    result = tag(
        "div",
        tag("h4", f"{when}: ", tag("code", "hand_name")),
        tag("div", name, class_="plaisante-hall-big vp-name", data_name=name),
        tag("div", f"why: {shot.why}", class_="vp-why"),
        tag("div", tag("code", "frequencies"), f", rank×how many: {counts or '…'}",
            class_="vp-counts"),
        tag("div", tag("code", f"payout(cards, {shot.bet})"), " = ",
            tag("b", "…" if shot.win is None else shot.win), class_="vp-pay"),
        holds, moves,
        tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn") if shot.problem else None,
        class_="vp-xray-result")

    def lit(on: bool) -> str | None:
        return "plaisante-hall-lit" if on else None

    head = tag("tr", tag("th"),
               (tag("th", f"×{bet}", class_=lit(bet == shot.bet)) for bet in BETS))
    rows = (tag("tr", tag("th", row),
                (tag("td", PAYS[row] * bet, class_=lit(row == shot.name or bet == shot.bet))
                 for bet in BETS),
                class_=lit(row == shot.name), data_hand=row)
            for row in HAND_ORDER)
    table = tag("div", tag("h4", "pay table: PAYS × bet"), tag("table", head, rows),
                class_="vp-xray-table")
    return section("vp", "video poker x-ray", table, result)


def presenter_view(*, seed: int | None = None, **parts: Any) -> PokerPresenter:
    """Return the presenter view on ``parts`` (the keywords ``machine_view`` takes), first
    dealt from ``seed`` (default 2026)."""
    return PokerPresenter(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["PokerPresenter", "presenter_view", "xray_html"]
