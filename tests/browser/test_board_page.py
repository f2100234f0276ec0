"""The lab board (``plaisante.live.board``) in Chromium, with the ids a roster can hold: an id
made from a long LMS name with no space or hyphen stays within the window at 1280 and 800 px
(its "not submitted yet" chip wraps; the scores table scrolls within its own region), and is
shown whole, as text. The page and its ``board.json`` are served by Playwright's router at an
address of their own, as the grader's server would serve them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from plaisante.live import board

pytestmark = pytest.mark.browser

LONG = "hostile_" + "x" * 142  # the longest name an LMS lets a student choose, one word
HERE = "http://board.invalid/plaisante/"


def serve(page: Page) -> None:
    """Answer the board's page and its board.json at ``HERE``."""
    state = board.state("plaisante", {}, [LONG, "bob"], [], {}, now=0.0)
    page_html = board.page("plaisante", "Plaisante", anonymous=False)

    def answer(route: Route) -> None:
        if route.request.url.split("?")[0].endswith("board.json"):
            route.fulfill(status=200, content_type="application/json", body=json.dumps(state))
        else:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=page_html)
    page.route(f"{HERE}**", answer)


@pytest.mark.parametrize("width", [1280, 800])
def test_a_long_id_on_the_board_stays_within_the_window(page: Page, width: int,
                                                        tmp_path: Path) -> None:
    serve(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{HERE}index.html")
    chip = page.locator("#waiting .plaisante-chip").filter(has_text=LONG)
    expect(chip).to_have_text(LONG)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    box, frame = chip.bounding_box(), page.locator(".plaisante-board").bounding_box()
    assert box is not None and frame is not None
    assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 1  # within the page
    page.screenshot(path=str(tmp_path / f"board-{width}.png"), full_page=True)
