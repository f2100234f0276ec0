"""The video-poker machine in a real JupyterLab, driven by clicks and keys in headless Chromium
on the reference: bet, deal, hold two cards (a click and the keyboard), draw and see the credits
change; reload the page, run the notebook again and find the credits kept (the save file). At
1280 and 800 px wide the machine fits without a horizontal scroll bar; screenshots of both go to
build/screenshots/."""

from __future__ import annotations

import re

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

REFERENCE = "solutions/video_poker/video_poker.ipynb"
SHOTS = harness.KIT / "build" / "screenshots"


def machine(page: Page):
    found = harness.last_output(page).locator(".vp-machine")
    expect(found).to_be_visible(timeout=60_000)
    harness.wait_queue_empty(page)
    return found


def number(view, css: str) -> int:
    return int(view.locator(f".{css} b").inner_text())


def fits(page: Page, view) -> None:
    """The machine is no wider than its output area: nothing to scroll sideways."""
    box = view.bounding_box()
    area = harness.last_output(page).filter(has=page.locator(".vp-machine")).bounding_box()
    assert box is not None and area is not None
    assert box["x"] >= area["x"] - 1 and box["x"] + box["width"] <= area["x"] + area["width"] + 1


def test_bet_deal_hold_draw_then_reload_keeps_the_credits(page: Page, lab: harness.Server
                                                          ) -> None:
    harness.open_notebook(page, lab, REFERENCE)
    harness.run_all(page)
    view = machine(page)
    start, games = number(view, "vp-credits"), number(view, "vp-games")
    view.locator(".vp-bet-button").click()
    view.locator(".vp-bet-button").click()
    expect(view.locator(".vp-bet b")).to_have_text("10")
    expect(view.locator(".vp-paytable thead th.vp-lit")).to_have_text("bet 10")
    view.locator(".vp-deal").click()
    expect(view.locator(".vp-credits b")).to_have_text(str(start - 10))
    cards = view.locator(".vp-slot .plaisante-card")
    expect(view.locator(".vp-slot .vp-back")).to_have_count(0)
    kept = [cards.nth(i).inner_text() for i in (0, 3)]
    cards.nth(0).click()
    view.locator(".vp-hold").nth(3).focus()
    page.keyboard.press("Enter")  # the keyboard holds a card too
    expect(view.locator(".vp-hold.mod-active")).to_have_count(2)
    expect(view.locator(".vp-slot .plaisante-selected")).to_have_count(2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    view.screenshot(path=str(SHOTS / "video_poker-1280.png"))
    fits(page, view)
    view.locator(".vp-draw").click()
    expect(view.locator(".vp-games b")).to_have_text(str(games + 1))
    expect(view.locator(".vp-result")).to_contain_text(re.compile(r"win \d+"))
    assert [cards.nth(i).inner_text() for i in (0, 3)] == kept
    win = int(re.search(r"win (\d+)", view.locator(".vp-result").inner_text()).group(1))
    after = number(view, "vp-credits")
    assert after == (start - 10 + win if start - 10 + win >= 5 else 100)
    page.set_viewport_size({"width": 800, "height": 900})
    view.screenshot(path=str(SHOTS / "video_poker-800.png"))
    fits(page, view)

    page.set_viewport_size({"width": 1280, "height": 720})
    page.on("dialog", lambda dialog: dialog.accept())  # leave the page, unsaved outputs and all
    harness.open_notebook(page, lab, REFERENCE)  # the page loads anew; the notebook runs again
    harness.run_all(page)
    view = machine(page)
    expect(view.locator(".vp-credits b")).to_have_text(str(after))
    expect(view.locator(".vp-games b")).to_have_text(str(games + 1))
