"""What a student wrote shows as text on every page the kit writes itself
(``plaisante.page_templates``): a ``<script>`` or a ``"><img onerror>`` in their code, their
name, a reason the grader quotes or a line nbgrader said is read back, character for character,
from the page's text, and forms no element and no attribute. Each page is made by its own
module's function, as its command makes it, and read back with the standard library's HTML
parser (what a browser's tokenizer does with tags and attributes)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from live_html import Live

from plaisante import page_templates
from plaisante.course import CourseLayout
from plaisante.grading.feedback import write_missing_pages
from plaisante.live import board
from plaisante.live.demo import notice
from plaisante.lti.hub import picker_page
from plaisante.lti.landing import not_fetched_page
from plaisante.similarity import page as similarity_page
from plaisante.similarity.compare import Pair, Result, Skipped, StepCode, StepMatch, Work

HOSTILE = "<script>document.title='PWNED'</script>\"><img src=x onerror=\"alert(1)\">"


def assert_shown_as_text(page: str, scripts: int = 0) -> Live:
    """Assert that ``HOSTILE`` is in ``page``'s text and formed no element or handler (the
    page's own ``scripts`` are its only ones); return the page parsed."""
    parsed = Live.read(page)
    assert HOSTILE in parsed.text
    assert "img" not in parsed.tags
    assert parsed.tags.count("script") == scripts
    assert not [name for name, _ in parsed.attributes if name.startswith("on")]
    return parsed


def test_the_doctests_hold() -> None:
    assert doctest.testmod(page_templates).failed == 0


def test_every_template_renders_with_autoescape() -> None:
    env = page_templates.environment()
    names = env.list_templates()
    assert "class_report.html.j2" in names and "similarity.html.j2" in names
    for name in names:
        assert env.select_autoescape(name) if callable(env.autoescape) else env.autoescape


def test_hidden_controls_show_as_a_visible_mark() -> None:
    shown = page_templates.render("notice.html.j2", text="a\u202eb\x1bc\td")
    assert "a\ufffdb\ufffdc\td" in shown and "\u202e" not in shown


def test_the_similarity_page_shows_code_names_and_reasons_as_text() -> None:
    code = StepCode(f"# {HOSTILE}\ndef f(x):\n    return x\n", ((0, 3),))
    a = Work("ada", HOSTILE, {"step2": code})
    b = Work("bob", "", {"step2": code}, status="flagged", cut=HOSTILE)
    match = StepMatch("step2", 0.9, 0.9, ((5, 40),), ((5, 40),))
    result = Result("plaisante", 0.5, 25, [Pair(a, b, 0.9, 0.9, (match,))], [a, b],
                    [Skipped("cyd", HOSTILE)], 1)
    parsed = assert_shown_as_text(similarity_page.page(result, HOSTILE))
    text = parsed.text
    assert text.count(HOSTILE) >= 6  # title, heading, name, reason, cut, both sides' code
    assert "mark" in parsed.tags  # the match is still highlighted, around text


def test_the_board_shows_the_title_as_text() -> None:
    page = board.page("plaisante", HOSTILE, anonymous=False, xsrf=HOSTILE)
    parsed = assert_shown_as_text(page, scripts=1)
    assert ("content", HOSTILE) in parsed.attributes  # the token, whole, in its attribute


def test_the_lti_pages_show_what_they_quote_as_text() -> None:
    parsed = assert_shown_as_text(picker_page([("plaisante", HOSTILE, 100.0)], HOSTILE,
                                              HOSTILE, "/hub/lti13/deeplink"))
    assert ("value", HOSTILE) in parsed.attributes
    assert_shown_as_text(not_fetched_page("plaisante", HOSTILE))


def test_a_feedback_page_nbgrader_could_not_make_lists_the_reasons_as_text(
        tmp_path: Path) -> None:
    layout = CourseLayout(tmp_path)
    report = layout.report("plaisante", "ada")
    report.parent.mkdir(parents=True)
    report.write_text(json.dumps({"student": "ada", "total": 0, "max_total": 100,
                                  "reasons": [HOSTILE], "kernel_ran": False}))
    [page] = write_missing_pages(tmp_path, "plaisante")
    assert_shown_as_text(page.read_text(encoding="utf-8"))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_demo_s_notice_shows_its_text_as_text() -> None:
    assert_shown_as_text(notice(HOSTILE).value)
