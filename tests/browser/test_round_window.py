"""The round in narrow JupyterLab windows and played with the keyboard alone.

At 800 px (file browser open and closed) and 600 px wide, 720 px high: every card and button
lies inside the notebook, fully in view once scrolled to, and takes a click. A whole round is
played by keyboard: a click on the table's text, then Tab to a card, Space or Enter selects,
Tab to Play, Enter plays.
"""

from __future__ import annotations

import re

import harness
import pytest
from playwright.sync_api import Page, expect

from plaisante.student_side.cards import hand

pytestmark = pytest.mark.browser

FOCUS_BLUE = "rgb(92, 200, 255)"
FORMULA = re.compile(r"^\((\d+)( \+ \d+)*\) × \d \= \d+$")


def open_round(page: Page, lab: harness.Server) -> harness.Table:
    """Run the reference notebook (in a wide window: the toolbar's kernel indicator is hidden
    when narrow) and return its table, the kernel idle."""
    harness.open_notebook(page, lab, "students/reference.ipynb")
    harness.run_all(page)
    table = harness.Table(harness.last_output(page))
    expect(table.held).to_have_count(8, timeout=60_000)
    harness.wait_queue_empty(page)
    return table


def file_browser(page: Page, shown: bool) -> None:
    panel = page.locator("#jp-left-stack")
    if panel.is_visible() != shown:
        page.locator(".jp-SideBar.jp-mod-left li[data-id='filebrowser']").click()
    expect(panel).to_be_visible() if shown else expect(panel).to_be_hidden()


def expect_usable(page: Page, target, notebook: dict) -> None:
    """``target`` lies within the notebook's width, is fully in view once scrolled to, and is
    what a click at its centre hits (nothing covers it)."""
    target.evaluate("el => el.scrollIntoView({block: 'center'})")
    expect(target).to_be_in_viewport(ratio=1)
    box = target.bounding_box()
    assert box is not None
    assert notebook["x"] <= box["x"] and box["x"] + box["width"] <= notebook["x"] + notebook[
        "width"], (box, notebook)
    target.click(trial=True, timeout=15_000)  # Playwright's hit test: the click would land here


@pytest.mark.parametrize("width, browser_open", [(800, True), (800, False), (600, False)],
                         ids=["800-file-browser-open", "800-file-browser-closed", "600"])
def test_every_card_and_button_is_in_view_and_takes_clicks(page: Page, lab: harness.Server, ref,
                                                           width: int,
                                                           browser_open: bool) -> None:
    table = open_round(page, lab)
    page.set_viewport_size({"width": width, "height": 720})
    file_browser(page, browser_open)
    notebook = page.locator(f"{harness.ACTIVE_PANEL} .jp-Notebook").bounding_box()
    assert notebook is not None
    for position in range(8):
        expect_usable(page, table.held.nth(position), notebook)
    last = table.held.nth(7)
    chosen = [last.inner_text().strip()]
    last.click()
    expect(last).to_have_class(harness.SELECTED)
    for button in (table.play, table.discard, table.new_round):
        expect_usable(page, button, notebook)
    name, score = harness.play_hand(table, chosen, ref)
    card = hand(chosen[0], ref.Card)[0]
    formula = table.root.locator(".plaisante-formula")
    expect(formula).to_have_text(f"({card.value}) × {ref.base_mult([card])} = {score}")
    expect_usable(page, formula, notebook)
    expect_usable(page, table.new_round, notebook)


def test_a_whole_round_by_keyboard(page: Page, lab: harness.Server, ref) -> None:
    table = open_round(page, lab)
    keys = page.keyboard
    table.root.locator(".plaisante-status").click()  # the table's text, not a card
    keys.press("Tab")
    expect(table.held.nth(0)).to_be_focused()
    focused = table.held.nth(0)
    assert focused.evaluate("el => getComputedStyle(el).outlineColor") == FOCUS_BLUE
    expect(focused).not_to_have_class(harness.SELECTED)  # focused is not selected
    scores = []
    for number, key in enumerate(("Space", "Enter", "Space", "Enter"), start=1):
        expect(table.held.nth(0)).to_be_focused()  # after each Play the focus is back here
        chosen = []
        for position in range(3):  # select the first three: key, Tab, key, Tab, key
            card = table.held.nth(position)
            expect(card).to_be_focused()
            chosen.append(card.inner_text().strip())
            keys.press(key)
            expect(card).to_have_class(harness.SELECTED)
            keys.press("Tab")
        for _ in range(5):  # past the other five cards to Play
            keys.press("Tab")
        expect(table.play).to_be_focused()
        outline = table.play.evaluate(
            "el => [getComputedStyle(el).outlineStyle, getComputedStyle(el.parentElement)"
            ".overflow]")
        assert outline == ["solid", "visible"], outline  # the ring shows, not clipped
        total = table.value("total")
        keys.press("Enter")
        expect(table.hand_number).to_have_text(str(number))
        expect(table.played).to_have_text(chosen)
        cards = hand(" ".join(chosen), ref.Card)
        score = ref.score(cards)
        expect(table.counter("total")).to_have_text(str(total + score))
        expect(table.root.locator(".plaisante-formula")).to_have_text(FORMULA)
        scores.append(score)
        if number == 1:  # New round mid-round asks; No keeps the round
            expect(table.held.nth(0)).to_be_focused()
            table.new_round.focus()
            keys.press("Enter")
            confirm = table.root.locator(".plaisante-confirm")
            expect(confirm).to_contain_text("Throw this round away?")
            expect(table.root.locator(".plaisante-confirm-no")).to_be_focused()
            keys.press("Enter")
            expect(confirm).to_be_hidden()
            expect(table.counter("total")).to_have_text(str(score))
            expect(table.new_round).to_be_focused()
            table.root.locator(".plaisante-status").click()
            keys.press("Tab")
    expect(table.final_total).to_have_text(f"Round over: total {sum(scores)}")
    expect(table.new_round).to_be_focused()
    keys.press("Enter")  # the round is over: New round deals at once
    harness.expect_fresh_round(table)
