"""HTML for what the student's kernel shows (tables, presenters, checklists, live regions), built
as elements so that every text, a student's or the kit's, is escaped in one place.

A view writes ``tag("b", pot)`` where it would write ``"<b>" + str(pot) + "</b>"``, and
``html(...)`` turns nodes into the string a widget shows. The standard library's ElementTree
does the escaping and the writing (``method="html"``): text and attribute values are escaped,
and there is no way to put a raw string into a tree. The one exception is a stylesheet (the
kit's own constant CSS): ``tag("style", css)`` keeps its text as it is, as HTML does.

Why not Jinja2, as the instructor's pages use: this runs in the student's kernel and in
JupyterLite's Pyodide, whose offline site has no MarkupSafe (a compiled wheel); ElementTree is
in every Python.

>>> html(tag("div", "pot ", tag("b", 12), " & more", class_=["chip", None, "pot"]))
'<div class="chip pot">pot <b>12</b> &amp; more</div>'
>>> html("<script>", tag("span", aria_label="5 < 6"))
'&lt;script&gt;<span aria-label="5 < 6"></span>'
"""

from __future__ import annotations

import copy
import html as _html
from collections.abc import Iterable
from xml.etree.ElementTree import Element, tostring

#: What a node's children may be: elements, texts and numbers (shown as text), ``None`` and
#: ``False`` (nothing: ``tag("b", x if shown else None)``), and iterables of these (a row's cells).
Child = Element | str | int | float | None | Iterable["Child"]


def tag(name: str, *children: Child, **attributes: object) -> Element:
    """Return the element ``<name …>children</name>``.

    ``attributes``: Python names for HTML ones: a trailing ``_`` is dropped (``class_``), other
    underscores become hyphens (``aria_label`` → ``aria-label``, ``data_said`` → ``data-said``).
    A value of ``None`` or ``False`` leaves the attribute out, ``True`` writes it empty, a list
    or tuple (for ``class_``) is joined by spaces, its ``None`` and empty items dropped; anything
    else is written as ``str(value)``, escaped. Children as ``Child``; an element used twice is
    copied, so each tree keeps its own.
    """
    element = Element(name, {_attribute_name(key): _attribute_value(value)
                             for key, value in attributes.items()
                             if value is not None and value is not False})
    _extend(element, children)
    return element


def html(*children: Child) -> str:
    """Return ``children`` (as for ``tag``) written as an HTML string, every text escaped."""
    holder = Element("holder")
    _extend(holder, children)
    text = _html.escape(holder.text, quote=False) if holder.text else ""
    return text + "".join(tostring(child, encoding="unicode", method="html") for child in holder)


def _extend(element: Element, children: Iterable[Child]) -> None:
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, Element):
            element.append(copy.deepcopy(child))
        elif isinstance(child, (str, int, float)):
            _append_text(element, str(child))
        else:
            _extend(element, child)


def _append_text(element: Element, text: str) -> None:
    if len(element):
        last = element[-1]
        last.tail = (last.tail or "") + text
    else:
        element.text = (element.text or "") + text


def _attribute_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _attribute_value(value: object) -> str:
    if value is True:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value if item)
    return str(value)
