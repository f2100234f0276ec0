"""The video-poker machine in a real JupyterLab, driven by clicks and keys in headless Chromium
on the reference: bet, deal, hold two cards (a click and the keyboard), draw and see the credits
change; save, reopen with a new kernel and read the line asking to run the cell (not
ipywidgets' error), run the notebook again and find the credits kept (the save file). At 1280
and 800 px wide the machine fits without a horizontal scroll bar and, at 720 px high, its cards
and Deal / Draw are above the fold; screenshots of both go to build/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

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


def above_the_fold(page: Page, view) -> None:
    """With the machine's top at the top of the notebook, its five cards and Deal and Draw are
    all inside the window, above JupyterLab's status bar."""
    view.evaluate("el => el.scrollIntoView({block: 'start'})")
    fold = page.locator("#jp-main-statusbar").bounding_box()
    assert fold is not None
    for element in [*view.locator(".vp-slot .plaisante-card").all(), view.locator(".vp-deal"),
                    view.locator(".vp-draw")]:
        box = element.bounding_box()
        assert box is not None and box["y"] >= 0, box
        assert box["y"] + box["height"] <= fold["y"], (page.viewport_size, box, fold)


def test_bet_deal_hold_draw_then_reload_keeps_the_credits(page: Page, lab: harness.Server,
                                                          course: Path) -> None:
    notebook = "students/video_poker_reopened.ipynb"
    harness.student_copy(course / REFERENCE, course / notebook)
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    view = machine(page)
    harness.expect_live(page)
    expect(view.locator(".vp-how")).to_contain_text("Bet max bets 15 and also deals")
    above_the_fold(page, view)
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
    fits(page, view)
    view.locator(".vp-draw").click()
    expect(view.locator(".vp-games b")).to_have_text(str(games + 1))
    harness.expect_live(page)
    expect(view.locator(".vp-result")).to_contain_text(re.compile(r"win \d+"))
    assert [cards.nth(i).inner_text() for i in (0, 3)] == kept
    win = int(re.search(r"win (\d+)", view.locator(".vp-result").inner_text()).group(1))
    after = number(view, "vp-credits")
    assert after == (start - 10 + win if start - 10 + win >= 5 else 100)
    above_the_fold(page, view)
    page.screenshot(path=str(SHOTS / "video_poker-result-1280.png"))
    page.set_viewport_size({"width": 800, "height": 720})
    fits(page, view)
    above_the_fold(page, view)
    page.screenshot(path=str(SHOTS / "video_poker-result-800.png"))
    page.set_viewport_size({"width": 1280, "height": 720})

    saved = harness.save_and_reopen(page, lab, notebook)
    assert "run this cell to play" in "".join(saved["outputs"][-2]["data"]["text/html"])
    harness.expect_stand_in(page, "Video poker: run this cell to play.")
    page.screenshot(path=str(SHOTS / "video_poker-reopened-1280.png"))
    harness.run_all(page)  # the notebook runs again on the new kernel
    view = machine(page)
    expect(view.locator(".vp-credits b")).to_have_text(str(after))
    expect(view.locator(".vp-games b")).to_have_text(str(games + 1))
    harness.expect_live(page)
