"""What the kernel shows is built as elements and escaped in one place (student_side.markup):
a student's text can never become markup, and the package keeps few hand-written HTML
f-strings."""

from __future__ import annotations

import ast
import doctest
import re
from html.parser import HTMLParser
from pathlib import Path

from plaisante.student_side import markup
from plaisante.student_side.card_widgets import LiveRegion, chip, focusable_text
from plaisante.student_side.markup import html, tag

PACKAGE = Path(markup.__file__).resolve().parents[1]
HOSTILE = "</b><script>alert('x')</script><img src=x onerror=\"go()\"> & co"


def test_the_doctests_hold() -> None:
    result = doctest.testmod(markup)
    assert result.attempted >= 2 and result.failed == 0


class Parsed(HTMLParser):
    """What a browser's HTML parser makes of a string: its start tags (with attributes), in
    order, and its text."""

    def __init__(self, shown: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""
        self.feed(shown)
        self.close()

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((name, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def test_a_hostile_text_stays_text_in_content_and_attributes() -> None:
    parsed = Parsed(html(tag("div", HOSTILE, title=HOSTILE, class_=["a", HOSTILE])))
    assert parsed.tags == [("div", {"title": HOSTILE, "class": "a " + HOSTILE})]
    assert parsed.text == HOSTILE


def test_text_before_and_after_children_keeps_its_order() -> None:
    assert html("a", tag("b", 1), "c", tag("i", "d"), "e", 2.5) == "a<b>1</b>c<i>d</i>e2.5"
    assert html(tag("ul", (tag("li", n) for n in range(3)))) == \
        "<ul><li>0</li><li>1</li><li>2</li></ul>"


def test_nothing_and_false_add_nothing_and_attributes_are_spelled_as_html() -> None:
    assert html(None, False, tag("p", None, "x", False)) == "<p>x</p>"
    assert html(tag("div", aria_label="L", data_said=3, class_="k", hidden=True,
                    title=None, tabindex=False)) == \
        '<div aria-label="L" data-said="3" class="k" hidden=""></div>'


def test_an_element_used_twice_keeps_each_tree_its_own_text() -> None:
    bold = tag("b", 1)
    first = tag("p", bold, " first")
    second = tag("p", bold, " second")
    assert html(first, second) == "<p><b>1</b> first</p><p><b>1</b> second</p>"
    assert html(bold) == "<b>1</b>"


def test_a_stylesheet_is_kept_as_written() -> None:
    assert html(tag("style", ".a > .b { content: '&'; }")) == \
        "<style>.a > .b { content: '&'; }</style>"


def test_the_shared_widgets_escape_what_they_are_given() -> None:
    parsed = Parsed(html(chip("pot", "pot ", tag("b", HOSTILE))))
    assert [name for name, _ in parsed.tags] == ["span", "b"]
    assert parsed.text == "pot " + HOSTILE
    parsed = Parsed(focusable_text(HOSTILE))
    assert parsed.tags == [("div", {"class": "plaisante-text", "tabindex": "-1"})]
    region = LiveRegion()
    region.say("you & <b>me</b>")
    assert region.said == "you & me"
    assert ">you &amp; me</div>" in region.value and 'role="status"' in region.value


TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:[\s>/]|$)")


def html_fstrings() -> dict[str, int]:
    """Return, per module of the package, its f-strings whose literal text holds an HTML tag."""
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                text = "".join(part.value for part in node.values
                               if isinstance(part, ast.Constant) and isinstance(part.value, str))
                if TAG.search(text):
                    name = str(path.relative_to(PACKAGE.parent))
                    found[name] = found.get(name, 0) + 1
    return found


def test_the_package_writes_at_most_twenty_html_fstrings() -> None:
    found = html_fstrings()
    assert sum(found.values()) <= 20, found
