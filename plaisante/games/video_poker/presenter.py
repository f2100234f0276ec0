"""The presenter view of video poker (``plaisante demo video_poker``): five cards dealt from a
seed's deck (or written in notation, the draw's cards after them), a click holds a card, Draw
replaces exactly the unheld positions from the deck's top; beside them the x-ray
(``xray.py``): the hand's name from ``hand_name`` and why, the pay table with its row and the
bet's column lit, ``payout``'s answer, the holds and what the draw replaced. It renders state
and forwards clicks; every answer comes from the parts.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from ...student_side.cards import hand, label, labels, shuffled_deck
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
    holds = (f"<div class='vp-held' data-held='{' '.join(map(str, held))}'>held: "
             f"<b>{html.escape(labels_at(game.cards, held))}</b></div>")
    unheld = [p for p in range(HAND_SIZE) if p not in held]
    if game.drawn is None:
        moves = (f"{holds}<div>Draw replaces: "
                 f"<b>{html.escape(labels_at(game.cards, unheld))}</b></div>")
        when = "dealt"
    else:
        swaps = ", ".join(f"{p}: {label(old)} → {label(new)}" for p, old, new in game.drawn)
        replaced = " ".join(str(p) for p, _, _ in game.drawn)
        moves = (f"{holds}<div class='vp-drawn' data-replaced='{replaced}'>replaced: "
                 f"<b>{html.escape(swaps or 'nothing (all held)')}</b></div>")
        when = "after the draw"
    counts = " ".join(f"{RANK_OF_VALUE.get(v, v)}×{n}" for v, n in shot.counts)
    name = html.escape(shot.name or "…")
    result = (f"<h4>{when}: <code>hand_name</code></h4>"
              f"<div class='plaisante-hall-big vp-name' data-name='{name}'>{name}</div>"
              f"<div class='vp-why'>why: {html.escape(shot.why)}</div>"
              f"<div class='vp-counts'><code>frequencies</code>, rank×how many: "
              f"{counts or '…'}</div>"
              f"<div class='vp-pay'><code>payout(cards, {shot.bet})</code> = "
              f"<b>{'…' if shot.win is None else shot.win}</b></div>{moves}")
    if shot.problem:
        result += f"<div class='plaisante-xray-warn'>⚠ {html.escape(shot.problem)}</div>"
    head = "".join(f"<th class='{'plaisante-hall-lit' if bet == shot.bet else ''}'>×{bet}</th>"
                   for bet in BETS)
    rows = []
    for row in HAND_ORDER:
        lit = row == shot.name
        cells = "".join(
            f"<td class='{'plaisante-hall-lit' if lit or bet == shot.bet else ''}'>"
            f"{PAYS[row] * bet}</td>" for bet in BETS)
        rows.append(f"<tr class='{'plaisante-hall-lit' if lit else ''}' "
                    f"data-hand='{html.escape(row, True)}'><th>{html.escape(row)}</th>{cells}"
                    "</tr>")
    table = (f"<div class='vp-xray-table'><h4>pay table: PAYS × bet</h4><table><tr><th></th>"
             f"{head}</tr>{''.join(rows)}</table></div>")
    return section("vp", "video poker x-ray",
                   f"{table}<div class='vp-xray-result'>{result}</div>")


def presenter_view(*, seed: int | None = None, **parts: Any) -> PokerPresenter:
    """Return the presenter view on ``parts`` (the keywords ``machine_view`` takes), first
    dealt from ``seed`` (default 2026)."""
    return PokerPresenter(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["PokerPresenter", "presenter_view", "xray_html"]
