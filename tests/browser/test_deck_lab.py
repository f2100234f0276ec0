"""Deck and deal's dealer's table in a real JupyterLab, driven by clicks and keys in headless
Chromium: the reference deals, marks, discards and draws; a sample with one failing step shows
the checklist naming that step. Each saved and reopened with a new kernel shows, in place of
ipywidgets' error, a line asking to run the last cell."""

from __future__ import annotations

from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

REFERENCE = "solutions/deck/deck.ipynb"
FAILING = "assignments/samples/deck/discard_ascending_positions.ipynb"


def test_deal_mark_discard_and_draw_in_jupyterlab(page: Page, lab: harness.Server,
                                                   course: Path) -> None:
    notebook = "students/deck_reopened.ipynb"
    harness.student_copy(course / REFERENCE, course / notebook)
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    table = harness.last_output(page).locator(".deck-table")
    yours = table.locator(".deck-yours .plaisante-card")
    expect(yours).to_have_count(5, timeout=60_000)
    harness.wait_queue_empty(page)
    expect(table.locator(".deck-count b")).to_have_text("32")
    expect(table.locator(".deck-player")).to_have_count(3)
    kept = [yours.nth(i).inner_text() for i in (0, 2, 4)]
    yours.nth(1).click()
    yours.nth(3).focus()
    page.keyboard.press("Enter")  # the keyboard marks a card too
    expect(table.locator(".deck-yours .plaisante-selected")).to_have_count(2)
    expect(yours.nth(3)).to_be_focused()
    table.locator(".deck-replace").click()
    expect(table.locator(".deck-count b")).to_have_text("30")
    expect(table.locator(".deck-yours .plaisante-selected")).to_have_count(0)
    after = [yours.nth(i).inner_text() for i in range(5)]
    assert all(card in after for card in kept)
    numbers = table.locator(".deck-controls input")
    numbers.nth(0).fill("8")
    numbers.nth(0).press("Enter")
    numbers.nth(1).fill("6")
    numbers.nth(1).press("Enter")
    table.locator(".deck-deal").click()
    expect(table.locator(".deck-count b")).to_have_text("4")
    expect(table.locator(".deck-player")).to_have_count(7)
    harness.expect_live(page)
    harness.save_and_reopen(page, lab, notebook)
    harness.expect_stand_in(page, "Deck and deal: run this cell to deal.")


def test_a_failing_discard_shows_the_checklist_naming_step_4(page: Page, lab: harness.Server,
                                                             course: Path) -> None:
    notebook = "students/deck_failing_reopened.ipynb"
    harness.student_copy(course / FAILING, course / notebook)
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    checklist = harness.last_output(page).locator(".plaisante-checklist")
    expect(checklist).to_be_visible(timeout=60_000)
    expect(checklist.locator("h3")).to_have_text(
        "Not yet: step 4 (draw and discard) needs work before the game can start")
    expect(checklist.locator(".plaisante-step-first")).to_contain_text("[3, 0]")
    expect(page.locator(".deck-table")).to_have_count(0)
    harness.expect_live(page)
    harness.save_and_reopen(page, lab, notebook)
    harness.expect_stand_in(page, "Not yet: run this cell to see which step needs work.")
