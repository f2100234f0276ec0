"""Cards drawn as ipywidgets buttons, shared by every game's view: a card's CSS classes (suit
colour, four-colour deck, selected), a button that shows it and speaks its name, and a chip of
the status line; the gate's checklist as a widget. Styles: ``plaisante.style``."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from .cards import RED_SUITS, label, spoken_name


def card_classes(card: Any, selected: bool, four_colour: bool) -> list[str]:
    """Return the CSS classes that draw ``card``: colour by suit, raised when selected."""
    classes = ["plaisante-card", f"plaisante-suit-{card.suit}"]
    if card.suit in RED_SUITS:
        classes.append("plaisante-red")
    if four_colour:
        classes.append("plaisante-four")
    if selected:
        classes.append("plaisante-selected")
    return classes


def card_button(card: Any, *, selected: bool = False, four_colour: bool = False,
                small: bool = False) -> widgets.Button:
    """Return a Button drawn as ``card``; its tooltip gives the card's spoken name."""
    button = widgets.Button(description=label(card),
                            tooltip=spoken_name(card) + (", selected" if selected else ""))
    for css in card_classes(card, selected, four_colour) + (["plaisante-small"] if small else []):
        button.add_class(css)
    return button


def restyle(button: widgets.Button, card: Any, selected: bool, four_colour: bool) -> None:
    """Redraw ``button`` as ``card`` (selected or not) without building a new widget."""
    wanted = set(card_classes(card, selected, four_colour))
    for css in set(button._dom_classes) - wanted - {"plaisante-new", "plaisante-small"}:
        button.remove_class(css)
    for css in wanted - set(button._dom_classes):
        button.add_class(css)
    button.tooltip = spoken_name(card) + (", selected" if selected else "")


def focusable_text(html: str) -> str:
    """Return ``html`` in a block a click can focus but Tab skips (``tabindex=-1``).

    JupyterLab gives a click on plain output to its cell, and Tab from a cell goes to the cell's
    toolbar; with the focus on this block instead, Tab goes on to the table's next card or
    button.
    """
    return f"<div class='plaisante-text' tabindex='-1'>{html}</div>"


def chip(css: str, html: str) -> str:
    """Return one chip of a status line: ``html`` in a span of class ``css``."""
    return f"<span class='plaisante-chip {css}'>{html}</span>"


class Table(widgets.VBox):
    """A game's table: a VBox whose plain-text stand-in is one line asking to run the cell.

    A saved notebook keeps that text beside the widget; it is what shows where the widget
    cannot be drawn (a reopened or untrusted notebook, a kernel gone, a notebook viewer), in
    place of ipywidgets' ``VBox(children=(HTML(value='<style>…`` repr.
    """

    placeholder = "Run this cell to play."

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.placeholder
        return bundle


class Checklist(widgets.HTML):
    """The gate's checklist (``plaisante.assignment.checklist_html``) as an ipywidgets HTML that
    a saved notebook keeps as plain HTML too, so a reopened notebook shows the checklist, not
    ``HTML(value='<style>…')``."""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.value
        bundle["text/plain"] = "Not yet: run this cell to see which step needs work."
        return bundle
