"""HTML for what the student's kernel shows (tables, presenters, checklists, live regions), built
as elements so that every text, a student's or the kit's, is escaped in one place.

A view writes ``tag("b", pot)`` where it would write ``"<b>" + str(pot) + "</b>"``, and
``html(...)`` turns nodes into the string a widget shows. The standard library's ElementTree
does the escaping and the writing (``method="html"``): text and attribute values are escaped,
and there is no way to put a raw string into a tree. The one exception is a stylesheet (the
kit's own constant CSS): ``tag("style", css)`` keeps its text as it is, as HTML does, so a text
that would end it (``</``) is refused. ElementTree writes a name as it is given: ``tag`` takes
only plain names, no ``script`` and no ``on…`` handler.

A student's value reaches a tree as an exact ``str`` (``text``), whatever its class: ElementTree
escapes with the text's own methods (``in``, ``replace``), which a ``str`` subclass may answer
with anything, and a number's ``__str__`` may be a student's. An object that is not a child
(a student's element subclass, card or list subclass) is written as its text, never walked.

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
import math
import re
from collections.abc import Iterable
from types import GeneratorType
from xml.etree.ElementTree import Element, tostring

#: What a node's children may be: elements, texts and numbers (shown as text), ``None`` and
#: ``False`` (nothing: ``tag("b", x if shown else None)``), and lists, tuples or generators of
#: these (a row's cells). Anything else is shown as its ``str()``.
Child = Element | str | int | float | None | Iterable["Child"]

#: A lone surrogate: a Python str may hold one, but the kernel's message (UTF-8) cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: What an element's or attribute's name may be (ElementTree writes it as it is given).
_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def tag(name: str, *children: Child, **attributes: object) -> Element:
    """Return the element ``<name …>children</name>``.

    ``attributes``: Python names for HTML ones: a trailing ``_`` is dropped (``class_``), other
    underscores become hyphens (``aria_label`` → ``aria-label``, ``data_said`` → ``data-said``).
    A value of ``None`` or ``False`` leaves the attribute out, ``True`` writes it empty, a list
    or tuple (for ``class_``) is joined by spaces, its ``None`` and empty items dropped; anything
    else is written as ``text(value)``, escaped. Children as ``Child``; an element used twice is
    copied, so each tree keeps its own.

    Raises ValueError for a name that is not a plain lowercase one, for ``script`` and an
    ``on…`` attribute (markup makes nothing that runs), and for a ``style`` whose text holds
    ``</`` (it would end the stylesheet early: what follows would be markup).
    """
    if type(name) is not str or not _NAME.fullmatch(name) or name == "script":
        raise ValueError(f"markup.tag: {name!r} is not an element it makes: a lowercase HTML "
                         "name, never script")
    names = {key: _attribute_name(key) for key in attributes}
    for key, written in names.items():
        if not _NAME.fullmatch(written) or written.startswith("on"):
            raise ValueError(f"markup.tag: {key!r} is not an attribute it writes: a lowercase "
                             "HTML name (class_, aria_label, data_…), never an on… handler")
    element = Element(name, {names[key]: _attribute_value(value)
                             for key, value in attributes.items()
                             if value is not None and value is not False})
    _extend(element, children)
    if name == "style" and "</" in "".join(element.itertext()):
        raise ValueError("markup.tag: a stylesheet's text holds '</', which would end it early")
    return element


def html(*children: Child) -> str:
    """Return ``children`` (as for ``tag``) written as an HTML string, every text escaped."""
    holder = Element("holder")
    _extend(holder, children)
    opening = _html.escape(holder.text, quote=False) if holder.text else ""
    return opening + "".join(tostring(child, encoding="unicode", method="html") for child in holder)


def text(value: object) -> str:
    """Return ``value`` as an exact ``str`` whose methods are str's own, with no lone
    surrogate (each is U+FFFD): a str (or subclass) its characters, an int or float (or
    subclass) its digits (an int too long for ``str`` as ``1.234e5000``), anything else
    ``str(value)``, which may raise what the value's ``__str__`` raises."""
    kind = type(value)  # not isinstance: an object's __class__ may claim to be a str
    if issubclass(kind, str):
        written = str.__str__(value)
    elif kind is bool:
        written = "True" if value else "False"
    elif issubclass(kind, int):
        written = _digits(value)  # type: ignore[arg-type]
    elif issubclass(kind, float):
        written = float.__repr__(value)
    else:
        written = str.__str__(str(value))
    return _SURROGATE.sub("\ufffd", written)


#: Most characters of a name or key a student's part gave that a table or an x-ray shows.
NAME_TEXT = 60


def clipped(value: object, limit: int = NAME_TEXT) -> str:
    """Return ``text(value)`` cut to ``limit`` characters (the last one "…"): a hand's name or a
    sort key as a student's part gave it, where a page-long one would push the rest of the
    table off the screen. Raises what ``text`` raises."""
    written = text(value)
    return written if len(written) <= limit else written[: limit - 1] + "…"


def _digits(number: int) -> str:
    try:
        return int.__repr__(number)
    except ValueError:  # past sys.get_int_max_str_digits(): its first digits and its size
        size = int.__abs__(number)
        power = int(math.log10(size))
        first = size // 10 ** (power - 3)
        if first >= 10_000:  # log10 rounded up a digit
            power, first = power + 1, first // 10
        return f"{'-' if int.__lt__(number, 0) else ''}{first // 1000}.{first % 1000:03d}e{power}"


def _extend(element: Element, children: Iterable[Child]) -> None:
    for child in children:
        if child is None or child is False:
            continue
        kind = type(child)  # by identity: a class's metaclass may answer == with anything
        if type(child) is Element:
            element.append(copy.deepcopy(child))
        elif kind is list or kind is tuple or kind is GeneratorType:
            _extend(element, child)  # type: ignore[arg-type]
        else:
            _append_text(element, text(child))


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
    if type(value) is list or type(value) is tuple:
        return " ".join(filter(None, (text(item) for item in value
                                      if item is not None and item is not False)))
    return text(value)
