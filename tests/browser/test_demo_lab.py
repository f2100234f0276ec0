"""The demo notebook in JupyterLab, as `make demo` opens it: its first cell's presenter view
(built for a whole screen in Voila) fits the notebook's column at 1280 and at 800 px: its
cards, fanned after the round's own stylesheet, and its seed box whole, nothing scrolling
sideways."""

from __future__ import annotations

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 800])
def test_the_demo_presenter_fits_its_output_in_jupyterlab(page: Page, lab: harness.Server,
                                                          width: int) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})  # narrower hides the kernel's state
    harness.open_notebook(page, lab, "notebooks/demo.ipynb")
    harness.run_all(page)
    presenter = page.locator(f"{harness.ACTIVE_PANEL} .plaisante-presenter").first
    cards = presenter.locator(".plaisante-card")
    expect(cards.nth(7)).to_be_visible(timeout=60_000)
    harness.wait_queue_empty(page)
    page.set_viewport_size({"width": width, "height": 720})
    presenter.scroll_into_view_if_needed()
    room = presenter.locator("xpath=..").bounding_box()
    assert room is not None and room["width"] < width  # the column, not the window
    for index in range(cards.count()):
        box = cards.nth(index).bounding_box()
        assert box is not None
        assert room["x"] - 1 <= box["x"] and box["x"] + box["width"] <= room["x"] + room[
            "width"] + 1, (index, box, room)
    overflow = presenter.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the presenter scrolls {overflow} px sideways at {width}"
    seed = presenter.locator(".plaisante-seed input")
    assert seed.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the seed is cut"
    page.screenshot(path=str(harness.KIT / "build" / f"demo-lab-{width}.png"))
