"""Cards drawn as ipywidgets buttons, shared by every game's view: a card's CSS classes (suit
colour, four-colour deck, selected), a button that shows it and speaks its name, and a chip of
the status line; the gate's checklist as a widget. Styles: ``plaisante.student_side.style``."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from xml.etree.ElementTree import Element

import ipywidgets as widgets

from .cards import RED_SUITS, SUITS, label, spoken_name
from .markup import Child, html, tag, text
from .style import SELECTED, mark_class


def drawn_suit(card: Any) -> str | None:
    """Return ``card.suit`` when it is one of SUITS (as an exact str), else None: a class is
    one word, and a browser refuses (DOMException) a class holding a space, which would leave
    the card drawn without the rest of its classes."""
    suit = card.suit
    if not issubclass(type(suit), str):
        return None
    suit = str.__str__(suit)
    return suit if suit in SUITS else None


def card_classes(card: Any, selected: bool, four_colour: bool,
                 said: str = SELECTED) -> list[str]:
    """Return the CSS classes that draw ``card``: colour by suit (none for a suit not of the
    deck), raised when selected, its ✓ read ``said`` (a word ``style.mark_css`` styled, unless
    it is ``SELECTED``)."""
    suit = drawn_suit(card)
    classes = ["plaisante-card"]
    if suit is not None:
        classes.append(f"plaisante-suit-{suit}")
    if suit in RED_SUITS:
        classes.append("plaisante-red")
    if four_colour:
        classes.append("plaisante-four")
    if selected:
        classes.append("plaisante-selected")
        if said != SELECTED:
            classes.append(mark_class(said))
    return classes


def card_label(card: Any) -> str:
    """Return ``label(card)`` as a widget's text can hold it: a lone surrogate in a student's
    rank (which the kernel's UTF-8 message cannot carry, so setting the text would raise) is
    U+FFFD (``markup.text``)."""
    return text(label(card))


def card_name(card: Any) -> str:
    """Return ``spoken_name(card)`` as a widget's text can hold it (see ``card_label``)."""
    return text(spoken_name(card))


def card_button(card: Any, *, selected: bool = False, four_colour: bool = False,
                small: bool = False) -> widgets.Button:
    """Return a Button drawn as ``card``; its tooltip gives the card's spoken name."""
    button = widgets.Button(description=card_label(card),
                            tooltip=card_name(card) + (", selected" if selected else ""))
    for css in card_classes(card, selected, four_colour) + (["plaisante-small"] if small else []):
        button.add_class(css)
    return button


def restyle(button: widgets.Button, card: Any, selected: bool, four_colour: bool,
            said: str = SELECTED) -> None:
    """Redraw ``button`` as ``card`` (raised with its ✓ or not) without building a new widget;
    a raised card's tooltip ends with ``said`` too, what its ✓ is read as (``card_classes``)."""
    wanted = set(card_classes(card, selected, four_colour, said))
    for css in set(button._dom_classes) - wanted - {"plaisante-new", "plaisante-small"}:
        button.remove_class(css)
    for css in wanted - set(button._dom_classes):
        button.add_class(css)
    button.tooltip = card_name(card) + (f", {said}" if selected else "")


def focusable_text(*children: Child) -> str:
    """Return the HTML of ``children`` (``markup.Child``) in a block a click can focus but Tab
    skips (``tabindex=-1``).

    JupyterLab gives a click on plain output to its cell, and Tab from a cell goes to the cell's
    toolbar; with the focus on this block instead, Tab goes on to the table's next card or
    button.
    """
    return html(tag("div", children, class_="plaisante-text", tabindex=-1))


#: How a mark the table shows is read aloud (a screen reader skips or misnames most of them).
SPOKEN_MARKS = {"⚠": "Warning:", "✔": "passes:", "✎": "to do:", "✘": "fails:", "▶": "",
                "→": "gives", "·": ",", "\u00a0": " "}


def spoken(text_or_html: str) -> str:
    """Return the words a screen reader should hear for ``text_or_html``: tags dropped,
    entities decoded, the table's marks (⚠ ✔ ✎ ✘ → ·) said as words, spaces squeezed.

    >>> spoken("⚠ at most <b>5</b> cards &amp; no more")
    'Warning: at most 5 cards & no more'
    """
    text = unescape(re.sub(r"<[^>]*>", " ", text_or_html))
    for mark, words in SPOKEN_MARKS.items():
        text = text.replace(mark, f" {words} ")
    return re.sub(r"\s+([,.:;])", r"\1", re.sub(r"\s+", " ", text)).strip()


class LiveRegion(widgets.HTML):
    """The table's polite live region: what the last move did, in words (``say``), for a
    screen reader; drawn off screen (class ``plaisante-live-region``), since a sighted player
    reads the same on the table.

    ipywidgets has no way to put ARIA attributes on a widget's own element, so the region
    (``role=status``, ``aria-live=polite``, ``aria-atomic``) is the HTML inside it; a counter
    in it makes every ``say`` a change, so the same words twice are read twice."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("plaisante-live-region")
        self.said = ""
        self._count = 0

    def say(self, text_or_html: str) -> None:
        """Announce ``text_or_html`` (see ``spoken``); empty words leave the region as it is."""
        words = spoken(text_or_html)
        if not words:
            return
        self.said, self._count = words, self._count + 1
        self.value = html(tag("div", words, role="status", aria_live="polite",
                              aria_atomic="true", data_said=self._count))


def keep_focus(pressed: widgets.Button | None, *then: widgets.Widget) -> None:
    """After a move, keep the keyboard where the player is: ``pressed`` keeps the focus while
    it is enabled; once a move disables it (a disabled button drops the focus to the page) the
    first enabled widget of ``then`` takes it."""
    if pressed is not None and not pressed.disabled:
        return
    for widget in then:
        if not getattr(widget, "disabled", False):
            widget.focus()
            return


def chip(css: str, *children: Child) -> Element:
    """Return one chip of a status line: ``children`` in a span of classes ``plaisante-chip``
    and ``css``."""
    return tag("span", children, class_=["plaisante-chip", css])


#: How a saved notebook's game looks once its widget is gone. JupyterLab with ipywidgets 8
#: draws a widget output through @jupyter-widgets/jupyterlab-manager's ``WidgetRenderer``:
#: it writes "Loading widget...", asks the kernel's widget manager for the output's model and,
#: once the manager has restored whatever the (new) kernel holds and the model is not among
#: it, replaces the text with "Error displaying widget: model not found" (class
#: ``jupyter-widgets``, no element inside). A trusted notebook never falls back to the
#: output's ``text/plain``, so the game's stand-in is an output of its own, just before the
#: widget: this stylesheet hides the stand-in while the widget next to it is drawn (its
#: root has ``plaisante-live``) and hides the widget's output while it is not (loading, or
#: its model gone). The stand-in shows after a second, so running the cell does not flash
#: it. Elsewhere (an untrusted notebook, nbviewer, GitHub) the stand-in is shown as it is
#: and the widget's output is an empty line.
FALLBACK_CSS = """
.jp-OutputArea-child:has(.plaisante-fallback):has(+ .jp-OutputArea-child .plaisante-live),
.jp-OutputArea-child:has(.plaisante-fallback) + .jp-OutputArea-child:not(:has(.plaisante-live))
{ display: none; }
.plaisante-fallback { animation: plaisante-fallback-late 0s linear 1s both; }
.plaisante-fallback-line { font-size: 15px; padding: 6px 12px; border-left: 4px solid #2f7d4f;
  background: #eef6f0; color: #1b1b1b; border-radius: 4px; }
@keyframes plaisante-fallback-late { from { visibility: hidden; } to { visibility: visible; } }
"""


def fallback_html(inner: Child) -> str:
    """Return the stand-in output's HTML: ``FALLBACK_CSS`` and ``inner`` in a
    ``plaisante-fallback`` block."""
    return html(tag("style", FALLBACK_CSS), tag("div", inner, class_="plaisante-fallback"))


class ShownWithFallback:
    """Mixin (before the ipywidgets class) of a widget that IPython shows as two outputs: a
    stand-in (``fallback()``, HTML) then the widget, whose ``text/plain`` is empty so that
    only the stand-in shows where the widget cannot be drawn (see ``FALLBACK_CSS``). The
    widget's root gets the class ``plaisante-live``; ``placeholder`` is the stand-in's line."""

    placeholder = "Run this cell to play."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_class("plaisante-live")  # type: ignore[attr-defined]

    def fallback(self) -> Child:
        """Return the stand-in's inside: ``placeholder`` as one line."""
        return tag("div", "▶ ", self.placeholder, class_="plaisante-fallback-line")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        bundle["text/plain"] = ""
        return bundle

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display({"text/html": fallback_html(self.fallback())}, raw=True)
        display(self._repr_mimebundle_(), raw=True)


class Table(ShownWithFallback, widgets.VBox):
    """A game's table: a VBox shown after a one-line stand-in asking to run the cell
    (``placeholder``, each game its own).

    The stand-in is what shows where the widget cannot be drawn: a saved notebook reopened
    (its kernel new), an untrusted notebook, a notebook viewer. It takes the place of
    ipywidgets' "Error displaying widget: model not found" and of the ``VBox(children=…``
    repr.
    """


class Checklist(ShownWithFallback, widgets.HTML):
    """The gate's checklist (``plaisante.student_side.assignment.checklist_html``) as an ipywidgets
    HTML, shown after a line asking to run the cell (``placeholder``). Its output keeps the
    checklist as ``text/html`` too, which is what shows where widgets are not drawn at all
    (an untrusted notebook, nbviewer), instead of ``HTML(value='<style>…')``."""

    placeholder = "Not yet: run this cell to see which step needs work."

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.value
        return bundle
