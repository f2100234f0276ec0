"""Heads-up Hold'em's table in a real JupyterLab, played with clicks and keys in headless
Chromium on the reference solution: one hand to a showdown (the bot's cards turn over), the
next ended by a fold; the table fits a window 800 px wide. Screenshots of both widths go to
build/screenshots/holdem-*.png for a person to look at."""

from __future__ import annotations

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

REFERENCE = "solutions/holdem/holdem.ipynb"
SHOTS = harness.KIT / "build" / "screenshots"


def log_lines(table) -> int:
    return table.locator(".holdem-log li").count()


def act(page: Page, table, name: str, keyboard: bool = False) -> None:
    """Press the action ``name`` (by a click, or Tab-focus and Enter) and wait for the log."""
    before = log_lines(table)
    button = table.locator(f".holdem-{name}")
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    expect(table.locator(".holdem-log li")).not_to_have_count(before)


def test_a_hand_to_showdown_then_a_hand_ended_by_a_fold(page: Page, lab: harness.Server) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    harness.open_notebook(page, lab, REFERENCE)
    harness.run_all(page)
    table = harness.last_output(page).locator(".holdem-table")
    expect(table.locator(".holdem-you .plaisante-card")).to_have_count(2, timeout=60_000)
    harness.wait_queue_empty(page)
    expect(table.locator(".holdem-bot .holdem-back")).to_have_count(2)
    expect(table.locator(".holdem-next")).to_be_disabled()
    table.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "holdem-1280.png"))
    # Hand 1: check or call to the end (the first action from the keyboard): a showdown.
    first = True
    for _ in range(12):
        if "show" in table.locator(".holdem-log").inner_text():
            break
        name = "check" if table.locator(".holdem-check").is_enabled() else "call"
        act(page, table, name, keyboard=first)
        first = False
    log = table.locator(".holdem-log")
    expect(log).to_contain_text("You show")
    expect(log).to_contain_text("The bot shows")
    expect(table.locator(".holdem-bot .plaisante-card:not(.holdem-back)")).to_have_count(2)
    expect(table.locator(".holdem-board .plaisante-card")).to_have_count(5)
    expect(table.locator(".holdem-pot b")).to_have_text("0")
    you = int(table.locator(".holdem-stack-you b").inner_text())
    bot = int(table.locator(".holdem-stack-bot b").inner_text())
    assert you + bot == 2000
    table.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "holdem-showdown-1280.png"))
    page.set_viewport_size({"width": 800, "height": 900})
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the table scrolls"
    table.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "holdem-showdown-800.png"))
    # Hand 2: fold at once: the bot takes the pot.
    table.locator(".holdem-next").click()
    expect(table.locator(".holdem-street")).to_contain_text("hand 2")
    expect(table.locator(".holdem-bot .holdem-back")).to_have_count(2)
    act(page, table, "fold")
    expect(log).to_contain_text("You: fold")
    expect(log).to_contain_text("The bot wins the pot")
    expect(table.locator(".holdem-next")).to_be_enabled()
    assert int(table.locator(".holdem-stack-bot b").inner_text()) > bot
    table.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / "holdem-fold-800.png"))
