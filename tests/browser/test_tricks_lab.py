"""The trick-taking table in a real JupyterLab, driven by clicks and keys in headless Chromium:
the reference plays a whole deal of 8 tricks against the kit's bots, a dimmed card is refused
with its reason, the end of the deal shows in a result panel in the hand's place (inside a
1280×720 window and one 800 px wide; screenshots in build/screenshots/), the table fits a window
800 px wide, and the notebook saved and reopened with a new kernel reads a line asking to run
the last cell."""

from __future__ import annotations

import json
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PLAY = "Trick=Trick, my_trick_winner_tests=my_trick_winner_tests)"
SEATS = ["You", "West", "North", "East"]
SHOTS = harness.KIT / "build" / "screenshots"


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
    notebook = seeded(course, 3)
    harness.open_notebook(page, lab, notebook)
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
    won = [int(text) for text in table.locator(".tricks-won b").all_inner_texts()]
    assert len(won) == 4 and sum(won) == 8
    expect(table.locator(".tricks-new-deal")).to_be_focused()  # the keyboard goes on
    # the end of the deal: a panel in the hand's place, its rows the seats' counts
    over = table.locator(".tricks-over")
    expect(over).to_be_visible()
    expect(table.locator(".plaisante-area-held")).to_be_hidden()
    expect(table.locator(".tricks-seats")).to_be_hidden()
    leaders = [seat for seat, n in zip(SEATS, won) if n == max(won)]
    expect(over.locator(".tricks-final")).to_contain_text(
        f"Deal over: {' and '.join(leaders)} took most tricks")
    rows = over.locator(".tricks-scores tbody tr")
    assert [rows.nth(i).locator("th, td").all_inner_texts()[:2] for i in range(4)] == [
        [seat, str(n)] for seat, n in zip(SEATS, won)]
    expect(over.locator(".tricks-list li")).to_have_count(8)
    expect(over.locator(".tricks-scores tr.tricks-best th")).to_have_text(leaders)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 720})
        table.evaluate("el => el.scrollIntoView({block: 'start'})")
        fold = page.locator("#jp-main-statusbar").bounding_box()
        for element in (over, table.locator(".tricks-new-deal")):
            box = element.bounding_box()
            assert box is not None and fold is not None and box["y"] >= 0, box
            assert box["y"] + box["height"] <= fold["y"], (width, box, fold)
        page.screenshot(path=str(SHOTS / f"tricks-deal-over-{width}.png"))
    page.set_viewport_size(harness.VIEWPORT)
    expect(table.locator(".tricks-new-deal")).to_be_focused()
    page.keyboard.press("Enter")  # Enter on New deal deals again
    expect(yours).to_have_count(8)
    expect(over).to_be_hidden()
    harness.expect_live(page)
    harness.save_and_reopen(page, lab, notebook)
    harness.expect_stand_in(page, "Tricks: run this cell to play a deal.")


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
