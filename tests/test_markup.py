"""What the kernel shows is built as elements and escaped in one place (student_side.markup):
a student's text can never become markup, and the package keeps few hand-written HTML
f-strings."""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

import pytest
from live_html import Live, LyingText

from plaisante.student_side import markup
from plaisante.student_side.card_widgets import LiveRegion, chip, focusable_text
from plaisante.student_side.markup import html, tag

PACKAGE = Path(markup.__file__).resolve().parents[1]
HOSTILE = "</b><script>alert('x')</script><img src=x onerror=\"go()\"> & co"


def test_the_doctests_hold() -> None:
    result = doctest.testmod(markup)
    assert result.attempted >= 2 and result.failed == 0


def test_a_hostile_text_stays_text_in_content_and_attributes() -> None:
    parsed = Live.read(html(tag("div", HOSTILE, title=HOSTILE, class_=["a", HOSTILE])))
    assert parsed.elements == [("div", {"title": HOSTILE, "class": "a " + HOSTILE})]
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
    parsed = Live.read(html(chip("pot", "pot ", tag("b", HOSTILE))))
    assert [name for name, _ in parsed.elements] == ["span", "b"]
    assert parsed.text == "pot " + HOSTILE
    parsed = Live.read(focusable_text(HOSTILE))
    assert parsed.elements == [("div", {"class": "plaisante-text", "tabindex": "-1"})]
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


class Loud(int):
    """A student's int (a score, a count) whose text is markup."""

    def __str__(self) -> str:
        return LyingText(HOSTILE)

    __repr__ = __str__


BREAKOUT = '" onmouseover="go()" x="'


def test_a_str_whose_methods_lie_is_escaped_as_any_text() -> None:
    lying = LyingText(HOSTILE)
    for shown in (html(lying), html(tag("b", lying)), html(tag("b", "x", lying)),
                  html(tag("b", tag("i"), lying)), focusable_text(lying)):
        parsed = Live.read(shown)
        assert [name for name, _ in parsed.elements] in ([], ["b"], ["b", "i"], ["div"]), shown
        assert parsed.text.endswith(HOSTILE), shown
    parsed = Live.read(html(tag("div", title=LyingText(BREAKOUT), class_=[LyingText(BREAKOUT)],
                             data_n=LyingText(BREAKOUT))))
    assert parsed.elements == [("div", {"title": BREAKOUT, "class": BREAKOUT, "data-n": BREAKOUT})]


def test_a_number_whose_text_is_markup_shows_its_value() -> None:
    parsed = Live.read(html(tag("b", Loud(12), data_n=Loud(5)), Loud(3)))
    assert parsed.elements == [("b", {"data-n": "5"})]
    assert parsed.text == "123"


def test_an_object_that_is_not_a_child_shows_as_its_text_never_as_its_items() -> None:
    from xml.etree.ElementTree import Element

    class Sneaky(Element):  # a student's element, as an int or a category would be
        pass

    class Hand:  # iterable, as a student's Card or Tableau may be
        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter([tag("script", "go()")])

        def __str__(self) -> str:
            return "<a hand>"

    class Cards(list):  # type: ignore[type-arg]
        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter([tag("img", src="x", onerror="go()")])

    for hostile in (Sneaky("script"), Hand(), Cards([1])):
        parsed = Live.read(html(tag("div", hostile)))
        assert [name for name, _ in parsed.elements] == ["div"], html(tag("div", hostile))


def test_lone_surrogates_and_nuls_leave_a_text_a_widget_can_send() -> None:
    shown = html(tag("b", "a\ud800b\x00c", title="\udcff"), "\udfff")
    shown.encode("utf-8")  # what the kernel's message does; a lone surrogate would raise
    parsed = Live.read(shown)
    assert parsed.elements == [("b", {"title": "\ufffd"})]
    assert parsed.text == "a\ufffdb\x00c\ufffd"  # a browser drops the NUL itself


def test_a_number_too_long_to_write_is_shown_short() -> None:
    shown = html(tag("b", 10 ** 5000), tag("i", -(10 ** 5000)))
    assert Live.read(shown).text == "1.000e5000-1.000e5000"


def test_a_class_that_claims_to_be_a_list_or_a_str_is_not_believed() -> None:
    class Claims(type):
        def __eq__(cls, other: object) -> bool:
            return True

        __hash__ = type.__hash__

    class Posing(metaclass=Claims):  # type(x) == list, and isinstance(x, str) by __class__
        __class__ = property(lambda self: str)  # type: ignore[assignment]

        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter([tag("script", "go()")])

        def __str__(self) -> str:
            return "posing"

    shown = html(tag("div", Posing(), class_=Posing()))
    assert Live.read(shown).elements == [("div", {"class": "posing"})]
    assert Live.read(shown).text == "posing"


def test_a_name_is_clipped_to_a_line_and_stays_text() -> None:
    from plaisante.student_side.markup import NAME_TEXT, clipped

    assert clipped("Pair") == "Pair" and clipped(LyingText("Pair")) == "Pair"
    long = clipped(LyingText("<b>" * 1000))
    assert type(long) is str and len(long) == NAME_TEXT and long.endswith("<b…")


def test_markup_itself_writes_no_raw_name_handler_script_or_stylesheet_end() -> None:
    """ElementTree writes an element's and an attribute's name as given and a stylesheet's text
    as it is: tag refuses what would let markup through those."""
    for name in ("b onclick=go()", "script", "SCRIPT", "img/", "", "b>"):
        with pytest.raises(ValueError, match="not an element it makes"):
            tag(name, "x")
    for attributes in ({"onclick": "go()"}, {"onmouseover_": "go()"}, {"x onclick": "1"},
                       {"title\"": "1"}):
        with pytest.raises(ValueError, match="not an attribute it writes"):
            tag("b", **attributes)
    for css in (".a {}</style><script>go()</script>", ".a {}</STYLE >"):
        with pytest.raises(ValueError, match="would end it early"):
            tag("style", css)
    assert html(tag("style", ".a > .b { content: '<'; }")) == \
        "<style>.a > .b { content: '<'; }</style>"
