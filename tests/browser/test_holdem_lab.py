"""Heads-up Hold'em's table in a real JupyterLab, played with clicks and keys in headless
Chromium on the reference solution: one hand to a showdown (the bot's cards turn over), the
next ended by a fold; each outcome in the result panel between the cards and the buttons (at a
showdown each player's category, strength, best five and sum by the house rule), inside a
1280×720 window and one 800 px wide; the table fits a window 800 px wide. Saved and reopened
with a new kernel, the last cell reads a line asking to run it. Screenshots of both widths go
to build/screenshots/holdem-*.png for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

from plaisante.games.holdem.rules import strength, value
from plaisante.student_side.cards import hand, label

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


def in_window(page: Page, table, element) -> None:
    """With the table's top at the top of the notebook, ``element`` is wholly inside the
    window, above JupyterLab's status bar."""
    table.evaluate("el => el.scrollIntoView({block: 'start'})")
    box, fold = element.bounding_box(), page.locator("#jp-main-statusbar").bounding_box()
    assert box is not None and fold is not None and box["y"] >= 0, box
    assert box["y"] + box["height"] <= fold["y"], (page.viewport_size, box, fold)


def showdown_rows(table) -> list[list[str]]:
    """The result panel's rows at a showdown: [who, category, strength, best five, sum]."""
    rows = table.locator(".holdem-tiebreak tbody tr")
    return [rows.nth(i).locator("th, td").all_inner_texts() for i in range(rows.count())]


def test_a_hand_to_showdown_then_a_hand_ended_by_a_fold(page: Page, lab: harness.Server,
                                                        course: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    notebook = "students/holdem_reopened.ipynb"
    harness.student_copy(course / REFERENCE, course / notebook)
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    table = harness.last_output(page).locator(".holdem-table")
    expect(table.locator(".holdem-you .plaisante-card")).to_have_count(2, timeout=60_000)
    harness.wait_queue_empty(page)
    expect(table.locator(".holdem-bot .holdem-back")).to_have_count(2)
    expect(table.locator(".holdem-next")).to_be_disabled()
    harness.expect_live(page)
    expect(table.locator(".holdem-result")).to_be_hidden()  # no outcome while a hand is on
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
    # the outcome where the eye is: the winner as the log says it, then the numbers
    panel = table.locator(".holdem-result")
    won = log.locator("li").last.inner_text()  # "You win the pot of 40." or the bot's, a tie
    expect(panel.locator(".holdem-winner")).to_have_text(won.rstrip("."))
    shown = set(table.locator(".holdem-board .plaisante-card, .holdem-you .plaisante-card, "
                              ".holdem-bot .plaisante-card").all_inner_texts())
    rows = showdown_rows(table)
    assert [row[0] for row in rows] == ["You", "The bot"]
    for who, category, rank, five, total in rows:
        cards = hand(five)
        assert {label(c) for c in cards} <= shown, (five, shown)  # of the cards on the table
        assert int(rank) == strength(category) and int(total) == sum(map(value, cards))
        assert f"{who} show" in log.inner_text() and category in log.inner_text()
    expect(panel.locator(".holdem-why")).to_contain_text("Why: ")
    in_window(page, table, panel)
    page.screenshot(path=str(SHOTS / "holdem-showdown-1280.png"))
    page.set_viewport_size({"width": 800, "height": 720})
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the table scrolls"
    in_window(page, table, panel)
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
    expect(panel.locator(".holdem-winner")).to_have_text(re.compile(
        r"^The bot wins the pot of \d+: you folded\.$"))
    expect(table.locator(".holdem-tiebreak")).to_have_count(0)
    in_window(page, table, panel)
    page.screenshot(path=str(SHOTS / "holdem-fold-800.png"))
    page.set_viewport_size(harness.VIEWPORT)
    harness.save_and_reopen(page, lab, notebook)
    harness.expect_stand_in(page, "Heads-up Hold'em: run this cell to play.")
