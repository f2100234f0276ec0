"""The presenter view of Tricks (``plaisante demo tricks``): your eight cards (ordered by
``sort_hand``) beside a trick the seats before you have started, dealt from a seed (or written
in notation); the cards ``legal_plays`` allows are lit; a click on one plays it, the bots finish
the trick, and the x-ray (``xray.py``) shows why ``trick_winner``'s card wins on the
A 10 K Q J 9 8 7 ladder. Another card replays the trick; the played one, clicked
again, is taken back. It renders state
and forwards clicks; every answer comes from the parts.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ...student_side.card_widgets import card_label, restyle
from ...student_side.cards import SUIT_SYMBOLS, hand, label, labels
from ...student_side.markup import Child, html, tag
from ...student_side.presenting import FIRST_SEED, Presenter, section
from .rules import BOTS, SEATS, STRENGTH_ORDER
from .xray import TrickXRay, bots_play, deal, written, xray


class TricksPresenter(Presenter):
    """Your hand and a trick under way; click a lit card to play it, read why the winner wins.

    ``parts``: the keywords ``trick_table`` takes (trick_strength, sort_hand, legal_plays and
    trick_winner are asked; the bots are the kit's, on the parts' legal_plays). ``seed``: the
    deal and who leads."""

    game = "tricks"
    hint = "your hand | played before you: 7h Ah 10s Kc | Kh"
    notation_tip = "Your hand, then '|' and the cards played before you (0 to 3), in order"
    # as the game's view says of a card legal_plays allows; once the trick is down, the card
    # you played is the one raised
    mark_words = ("playable", "played")

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        self.hands: list[list[Any]] = [[], [], [], []]
        self.before: list[tuple[int, Any]] = []
        self.trick: list[tuple[int, Any]] = []
        self.mine: list[Any] = []
        self.row = widgets.HBox()
        self.slots: list[tuple[widgets.Button, widgets.VBox]] = []
        for _ in range(4):  # the trick's four cards, redrawn in place on every click
            button = widgets.Button(disabled=True).add_class("plaisante-card")
            caption = widgets.HTML().add_class("plaisante-hall-caption")
            self.slots.append((button, widgets.VBox([caption, button]).add_class(
                "tricks-hall-played")))
        self.played = widgets.HBox([box for _, box in self.slots]).add_class(
            "tricks-hall-trick").add_class("plaisante-hall-fan")
        super().__init__(parts, seed)

    def deal_seed(self, seed: int) -> None:
        """Deal the 32 cards by ``random.Random(seed)``; the seed also picks who leads; the
        bots before you play their cards."""
        hands, leader = deal(seed)
        self._start(hands, [], leader or None)
        self.say(f"Seed {seed}: {SEATS[leader]} lead{'' if leader == 0 else 's'}")

    def deal_notation(self, text: str) -> None:
        """Deal your hand and the cards played before you written as ``'7h Ah | Kh 10h'``.
        Raises ValueError for bad notation or counts."""
        mine, _, before = text.partition("|")
        hands, trick = written(hand(mine), hand(before), self.seed_box.value)
        self.hands, self.before = hands, trick
        self._show(f"Dealt {labels(hand(mine))}" + (f"; played before you: "
                                                     f"{labels(c for _, c in trick)}"
                                                     if trick else "; you lead"))

    def _start(self, hands: list[list[Any]], trick: list[tuple[int, Any]],
               leader: int | None) -> None:
        self.hands = hands
        if leader is not None:  # the leader and the seats after it play up to you
            first = hands[leader]
            legal = list(self.parts["legal_plays"](list(first), None))
            card = BOTS[leader - 1][1](legal, [], self.parts["trick_strength"])
            hands[leader] = [c for c in first if label(c) != label(card)]
            trick = [(leader, card)]
            bots_play(hands, trick, 0, self.parts)
        self.before = trick
        self._show("")

    def _show(self, said: str) -> None:
        self.mine = list(self.parts["sort_hand"](list(self.hands[0])))
        self.trick = list(self.before)
        self.row = self.card_row(self.mine, self.play, "tricks-hall-hand").add_class(
            "plaisante-hall-fan")
        self.stage.children = [widgets.HBox([self.row, self.played]).add_class(
            "tricks-hall-stage")]
        if said:
            self.say(said)
        self.render()

    def play(self, index: int) -> None:
        """Play your card at ``index`` (it must be lit: legal), then let the bots finish the
        trick; another card replays the trick from where it stood before you, the card you
        played takes it back."""
        card = self.mine[index]
        if len(self.trick) > len(self.before) and (0, card) in self.trick:
            self.trick = list(self.before)  # your played card, clicked again: taken back
            self.say(f"You take back {label(card)}")
            self.render()
            return
        shot = xray(self.mine, self.before, self.parts)
        if index not in shot.legal:
            suit = SUIT_SYMBOLS.get(shot.led or "", "?")
            raise ValueError(f"{label(self.mine[index])} does not follow {suit}: play one of "
                             "the lit cards")
        hands = [list(h) for h in self.hands]
        hands[0] = [c for c in hands[0] if label(c) != label(card)]
        trick = [*self.before, (0, card)]
        bots_play(hands, trick, None, self.parts)
        self.trick = trick
        self.say(f"You play {label(card)}")
        self.render()

    @property
    def current(self) -> TrickXRay:
        return xray(self.mine, self.trick, self.parts)

    def render(self) -> None:
        shot = self.current
        self.xray_panel.value = xray_html(shot)  # first: what the hall reads
        if len(self.trick) < 4:
            self.mark(self.row, self.mine, set(shot.legal), said="playable")
        else:
            self.mark(self.row, self.mine,
                      {i for i, c in enumerate(self.mine) if (0, c) in self.trick}, said="played")
        self.dim(self.row, set(xray(self.mine, self.before, self.parts).legal))
        for slot, (button, caption) in enumerate(self.slots):  # the same four widgets
            if slot >= len(shot.trick):
                caption.layout.display = "none"
                continue
            seat, card = shot.trick[slot]
            caption.layout.display = None
            button.description = card_label(card)
            restyle(button, card, False, False)
            if shot.winner == seat:
                button.add_class("tricks-win")
            elif "tricks-win" in button._dom_classes:
                button.remove_class("tricks-win")
            caption.children[0].value = html(tag("b", SEATS[seat]))


def xray_html(shot: TrickXRay) -> str:
    """Return the x-ray's HTML (a section labelled 'trick x-ray'): the led suit, the legal
    cards' count, the trick's cards on the ladder with their strengths (a card off the led suit
    struck through) and, once four are down, ``trick_winner``'s verdict and why."""
    led = SUIT_SYMBOLS.get(shot.led or "", "") if shot.led else None
    head = tag("div", f"led suit: {led or 'none: you lead, any card'}",
               class_=["plaisante-hall-big", "tricks-led"], data_led=shot.led or "")
    ladder = [(" " if position else None, tag("span", rank, class_="tricks-rung"))
              for position, rank in enumerate(STRENGTH_ORDER[::-1])]
    cards = []
    for (seat, card), strength in zip(shot.trick, shot.strengths):
        follows = card.suit == shot.led
        css = ("plaisante-hall-lit" if seat == shot.winner else "" if follows
               else "tricks-off")
        why = f"strength {strength}" if follows else "not the led suit: cannot win"
        cards.append(tag("tr", tag("th", SEATS[seat]), tag("td", tag("b", label(card))),
                         tag("td", why), class_=css, data_seat=seat, data_strength=strength))
    verdict: Child = None
    if shot.winner is not None:
        card = dict(shot.trick).get(shot.winner)
        rivals = [c for (s, c) in shot.trick if s != shot.winner and c.suit == shot.led]
        beaten = (f"above {labels(rivals)} in A 10 K Q J 9 8 7" if rivals
                  else "the only card of the led suit")
        verdict = (tag("div", tag("code", "trick_winner"),
                       f" → {shot.winner}: {SEATS[shot.winner]} "
                       f"{'win' if shot.winner == 0 else 'wins'} with "
                       f"{label(card) if card else '?'}",
                       class_=["plaisante-hall-big", "tricks-winner"], data_winner=shot.winner),
                   tag("div", beaten, class_="tricks-why"))
    elif shot.problem is None:
        verdict = tag("div", tag("code", "legal_plays"),
                      f" lit {len(shot.legal)} of your cards: click one to play it",
                      class_="tricks-hint")
    problem = (tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn")
               if shot.problem else None)
    return section("tricks", "trick x-ray",
                   tag("div", head, tag("h4", "in a suit, strongest first: ", ladder), verdict,
                       problem),
                   tag("table", cards, class_="tricks-cards"))


def presenter_view(*, seed: int | None = None, **parts: Any) -> TricksPresenter:
    """Return the presenter view on ``parts`` (the keywords ``trick_table`` takes), first
    dealt from ``seed`` (default 2026)."""
    return TricksPresenter(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["TricksPresenter", "presenter_view", "xray_html"]
