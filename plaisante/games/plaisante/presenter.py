"""The presenter view of the lecture-hall demo: eight cards dealt by seed or written
in notation, and beside them the scoring x-ray of the selected cards (``xray.py``), sized from
the window so the back row can read it. It renders state and forwards clicks; every number
comes from the parts handed in (``xray``), the cards from their ``Card`` class.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ...student_side.card_widgets import LiveRegion, card_button, restyle
from ...student_side.cards import hand, labels, shuffled_deck
from ...student_side.markup import html, tag
from ...student_side.presenting import presenter_style, said_after, xray_words
from ...student_side.wire import described
from .rules import HAND_SIZE, MAX_SELECTED
from .xray import ROWS, XRay, xray

FIRST_SEED = 2026


class PresenterView(widgets.VBox):
    """Deal (a seed, or a hand in notation), select up to five cards, read the x-ray.

    ``parts``: the keywords ``play`` takes (Card, count_values, the has-checks, evaluate,
    total_value, base_mult, score; Tableau is not used). ``seed``: the first deal."""

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        super().__init__()
        self.parts = parts
        self.cards: list[Any] = []
        self.selected: list[Any] = []
        self.add_class("plaisante-table").add_class("plaisante-presenter")
        self.seed_box = widgets.IntText(value=seed, description="Seed")
        self.seed_box.add_class("plaisante-seed")
        self.deal_button = widgets.Button(description="Deal", icon="refresh",
                                          tooltip="Deal eight cards from this seed")
        self.notation = widgets.Text(placeholder="K♥ K♦ 3♣ 7♠ 9♥  or  Kh Kd 3c 7s 9h",
                                     description="Hand").add_class("plaisante-notation")
        self.notation_button = widgets.Button(description="Deal this hand",
                                              tooltip="Deal exactly the cards written here")
        self.deal_button.on_click(lambda _: self.guarded(self.deal_seed, self.seed_box.value))
        self.notation_button.on_click(
            lambda _: self.guarded(self.deal_notation, self.notation.value))
        self.notation.continuous_update = False
        self.notation.observe(lambda change: self.guarded(self.deal_notation, change["new"]),
                              "value")
        controls = widgets.HBox([self.seed_box, self.deal_button, self.notation,
                                 self.notation_button]).add_class("plaisante-presenter-controls")
        self.message = widgets.HTML().add_class("plaisante-message")
        self.card_row = widgets.HBox().add_class("plaisante-row")
        self.card_row.add_class("plaisante-presenter-cards").add_class("plaisante-hall-fan")
        self.xray_panel = widgets.HTML().add_class("plaisante-xray-panel")
        self.live = LiveRegion()
        self.children = [widgets.HTML(presenter_style("plaisante")), controls, self.card_row,
                         self.xray_panel, self.message, self.live]
        self.guarded(self.deal_seed, seed)  # the parts' Card may fail even to be shown

    # ----------------------------------------------------------------------- actions
    def deal_seed(self, seed: int) -> None:
        """Deal the first eight cards of the deck ``seed`` shuffles (the same seed, the same
        cards), built by the parts' ``Card``."""
        try:
            deck = shuffled_deck(seed, card_class=self.parts["Card"])
        except Exception as error:  # the Card class is the student's
            self._say(f"⚠ Card could not build the deck: {described(error)}")
            return
        self._deal(deck[:HAND_SIZE], f"Seed {seed}: {labels(deck[:HAND_SIZE])}")

    def deal_notation(self, text: str) -> None:
        """Deal the cards written in ``text`` (up to eight, 'K♥ K♦' or 'Kh Kd'); five or fewer
        are selected at once. Bad notation leaves the table as it was and says why."""
        if not text.strip():
            return
        try:
            cards = hand(text, card_class=self.parts["Card"])
        except ValueError as error:
            self._say(f"⚠ {described(error, named=False)}")
            return
        except Exception as error:  # the Card class is the student's
            self._say(f"⚠ Card could not build these cards: {described(error)}")
            return
        if not 1 <= len(cards) <= HAND_SIZE:
            self._say(f"⚠ write 1 to {HAND_SIZE} cards, e.g. 'K♥ K♦ 3♣ 7♠ 9♥'; "
                      f"got {len(cards)}")
            return
        self._deal(cards, f"Dealt {labels(cards)}")
        if len(cards) <= MAX_SELECTED:
            self.selected = list(cards)
            self.render()

    def guarded(self, action: Any, *args: Any) -> None:
        """Run a click's ``action``; whatever stops it (the student's cards or parts, or their
        process, gone) is said in the message line: ipywidgets would swallow it."""
        try:
            action(*args)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # noqa: B036  the student's code, or its process
            self._say(f"⚠ {described(error)}")
        self.live.say(said_after(self.message.value, xray_words(self.xray_panel.value, (
            "plaisante-xray-cards", "plaisante-xray-name", "plaisante-xray-formula",
            "plaisante-xray-warn"))))

    def click_card(self, card: Any) -> None:
        """Select or deselect ``card``, as a click on it does (at most five selected)."""
        if any(card is chosen for chosen in self.selected):
            self.selected = [chosen for chosen in self.selected if chosen is not card]
        elif len(self.selected) >= MAX_SELECTED:
            self._say(f"⚠ at most {MAX_SELECTED} cards are scored: deselect one first")
            return
        else:
            self.selected.append(card)
        self.message.value = ""
        self.render()

    # ----------------------------------------------------------------------- drawing
    @property
    def card_buttons(self) -> list[widgets.Button]:
        return list(self.card_row.children)

    @property
    def current(self) -> XRay:
        """The x-ray of the selected cards, in the order they were selected."""
        return xray(self.selected, self.parts)

    def _deal(self, cards: list[Any], said: str) -> None:
        self.cards, self.selected = list(cards), []
        buttons = []
        for card in self.cards:
            button = card_button(card)
            button.on_click(lambda _, card=card: self.guarded(self.click_card, card))
            buttons.append(button)
        self.card_row.children = buttons
        self._say(said)
        self.render()

    def _say(self, text: str) -> None:
        self.message.value = html(text)

    def render(self) -> None:
        for card, button in zip(self.cards, self.card_buttons):
            restyle(button, card, any(card is chosen for chosen in self.selected), False)
        self.xray_panel.value = xray_html(self.current)


def xray_html(shot: XRay) -> str:
    """Return the x-ray panel's HTML (a section labelled 'scoring x-ray'): the counts as bars,
    each has-check's answer top-down, the hand's name and the score's formula."""
    if not shot.cards:
        return html(tag("section", tag("p", "Select up to five cards: their counts, the checks "
                                            "and the score appear here.",
                                       class_="plaisante-xray-hint"),
                        class_="plaisante-xray", aria_label="scoring x-ray"))
    # count_values is the student's: only its ints of 0 or more make a bar; anything else it
    # put in the list is shown as text.
    heights = [n if type(n) is int and n > 0 else 0 for n in shot.counts or []]
    top = max(heights or [0]) or 1
    bars = []
    for value in range(2, 15):
        n = shot.counts[value] if shot.counts and len(shot.counts) > value else 0
        height = heights[value] if len(heights) > value else 0
        said = str(n) if n else ""
        rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(value, str(value))
        bars.append(tag(
            "div",
            tag("span", said, class_="plaisante-bar-n"),
            tag("span", class_="plaisante-bar-fill", style=f"height:{100 * height / top:.0f}%"),
            tag("span", rank, class_="plaisante-bar-slot"),
            class_=["plaisante-bar", "plaisante-bar-some" if n else None], data_slot=value,
            data_count=said or 0))
    answers = dict(shot.answers)
    rows = []
    for name, check in ROWS:
        answer = answers.get(check) if check else None
        first = name == shot.first
        state = ("plaisante-check-first" if first else
                 "plaisante-check-yes" if answer else "plaisante-check-no")
        said = "—" if check is None else ("yes" if answer else "no") if check in answers else "…"
        rows.append(tag("li", tag("span", check or "otherwise"), tag("b", said),
                        tag("span", f"→ {name}", class_="plaisante-check-hand"),
                        class_=state, data_check=check or "", data_answer=said))
    result = [tag("div", labels(shot.cards), class_="plaisante-xray-cards")]
    if shot.name is not None:
        result.append(tag("div", shot.name, class_="plaisante-xray-name"))
        if shot.first is not None and shot.name != shot.first:
            result.append(tag("div", f"evaluate says {shot.name}; the first check that holds "
                                     f"says {shot.first}", class_="plaisante-xray-warn"))
    if shot.formula:
        values = " + ".join(str(card.value) for card in shot.cards)
        result.append(tag("div", f"total = {values}", class_="plaisante-xray-sum"))
        result.append(tag("div", shot.formula, class_="plaisante-xray-formula"))
    if shot.problem:
        result.append(tag("div", f"⚠ {shot.problem}", class_="plaisante-xray-warn"))
    return html(tag(
        "section",
        tag("div", tag("h4", tag("code", "count_values"), ": value → how many"),
            tag("div", bars, class_="plaisante-bars"), class_="plaisante-xray-counts"),
        tag("div", tag("h4", "checks, top-down: the first yes names it"), tag("ol", rows),
            class_="plaisante-xray-checks"),
        tag("div", tag("h4", "score = total × multiplier"), result,
            class_="plaisante-xray-result"),
        class_="plaisante-xray", aria_label="scoring x-ray"))


def presenter_view(*, seed: int | None = None, **parts: Any) -> PresenterView:
    """Return the presenter view on ``parts`` (the keywords ``play`` takes), first dealt from
    ``seed`` (default 2026)."""
    return PresenterView(parts, seed=FIRST_SEED if seed is None else seed)


__all__ = ["PresenterView", "presenter_view", "xray_html"]
