"""The trick-taking table in a real JupyterLab, driven by clicks and keys in headless Chromium:
the reference plays a whole deal of 8 tricks against the kit's bots, a dimmed card is refused
with its reason, and the table fits a window 800 px wide."""

from __future__ import annotations

import json
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PLAY = "trick_winner=trick_winner, Trick=Trick)"


def seeded(course: Path, seed: int) -> str:
    """Write the reference notebook with its table dealt from ``seed``; return its path in the
    course (the same deal every run)."""
    text = (harness.KIT / "solutions" / "tricks" / "tricks.ipynb").read_text(encoding="utf-8")
    play = json.dumps(PLAY)[1:-1]
    assert text.count(play) == 1, "the play cell no longer ends with " + PLAY
    path = course / "students" / f"tricks_seed_{seed}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(play, json.dumps(PLAY[:-1] + f", seed={seed})")[1:-1]),
                    encoding="utf-8")
    return str(path.relative_to(course))


def test_a_whole_deal_of_8_tricks_with_a_refused_card(page: Page, lab: harness.Server,
                                                      course: Path) -> None:
    harness.open_notebook(page, lab, seeded(course, 3))
    harness.run_all(page)
    table = harness.last_output(page).locator(".tricks-table")
    yours = table.locator(".tricks-yours .plaisante-card")
    expect(yours).to_have_count(8, timeout=60_000)
    harness.wait_queue_empty(page)
    expect(table.locator(".tricks-seat")).to_have_count(4)
    message = table.locator(".plaisante-message")
    refused = False
    for trick in range(8):
        expect(table.locator(".tricks-count b")).to_have_text(str(trick + 1))
        dimmed = table.locator(".tricks-yours .tricks-dimmed")
        if not refused and dimmed.count():
            name = dimmed.first.inner_text()
            dimmed.first.click()
            expect(message).to_contain_text(f"{name} refused:")
            expect(message).to_contain_text("were led and you hold")
            expect(yours).to_have_count(8 - trick)  # nothing was played
            refused = True
        legal = table.locator(".tricks-yours .tricks-legal").first
        if trick == 2:  # by keyboard: Tab to a card, Enter plays it
            legal.focus()
            page.keyboard.press("Enter")
        else:
            legal.click()
        expect(yours).to_have_count(7 - trick)
        expect(table.locator(".tricks-last")).to_contain_text("won it")
        if refused:
            expect(message).to_have_text("")
    assert refused, "no trick of this deal had a card to refuse: pick another seed"
    expect(table.locator(".tricks-last")).to_contain_text("Deal over")
    won = [int(text) for text in table.locator(".tricks-won b").all_inner_texts()]
    assert len(won) == 4 and sum(won) == 8
    expect(table.locator(".tricks-new-deal")).to_be_focused()  # the keyboard goes on
    page.keyboard.press("Enter")
    expect(yours).to_have_count(8)


def test_the_table_fits_a_window_800_px_wide(page: Page, lab: harness.Server,
                                             course: Path) -> None:
    # opened wide: at 800 px the toolbar hides the kernel indicator open_notebook waits for
    harness.open_notebook(page, lab, seeded(course, 5))
    harness.run_all(page)
    table = harness.last_output(page).locator(".tricks-table")
    expect(table.locator(".tricks-yours .plaisante-card")).to_have_count(8, timeout=60_000)
    harness.wait_queue_empty(page)
    files = page.locator("#jp-left-stack")
    page.set_viewport_size({"width": 800, "height": harness.VIEWPORT["height"]})
    for browsing in (True, False):
        if files.is_visible() != browsing:
            page.locator(".jp-SideBar.jp-mod-left li[data-id='filebrowser']").click()
        expect(files).to_be_visible() if browsing else expect(files).to_be_hidden()
        table.evaluate("el => el.scrollIntoView({block: 'start'})")
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 800, box
        for element in [*table.locator(".plaisante-card").all(),
                        *table.locator(".tricks-seat").all(), table.locator(".tricks-new-deal")]:
            inner = element.bounding_box()
            assert inner is not None and inner["x"] >= box["x"] - 1, (browsing, inner, box)
            assert inner["x"] + inner["width"] <= box["x"] + box["width"] + 1, (browsing, inner)
    page.set_viewport_size(harness.VIEWPORT)
