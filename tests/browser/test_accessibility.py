"""Every game by keyboard alone, and axe-core on every game page, in headless Chromium.

One Voila serves each game's student notebook (the reference solution, as a student who has
finished it sees it) and each game's presenter (``plaisante demo ID``). For each game: axe
finds no serious or critical WCAG 2.0/2.1 A or AA violation, before and after a round; a round
played with Tab, Enter and Space only (no click) reaches its end, the live region saying each
move's result, and the focus stays on the table after every move. For each presenter: axe, then
a card reached by Tab and pressed with Enter makes the live region say the x-ray's verdict.
Axe needs npm's axe-core, which ``make test`` installs (``a11y.py``).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator

import a11y
import harness
import pytest
from playwright.sync_api import Locator, Page, expect

from plaisante.live.demo import demo_notebook

pytestmark = pytest.mark.browser

GAMES = ("plaisante", "deck", "video_poker", "holdem", "tricks")
STUDENT = ".plaisante-table:not(.plaisante-presenter)"
PRESENTER = ".plaisante-presenter"
SHOTS = harness.KIT / "build" / "screenshots"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Server]:
    tmp = tmp_path_factory.mktemp("a11y")
    root = harness.course_copy(tmp / "course")
    folder = root / "a11y"
    folder.mkdir()
    for game in GAMES:
        shutil.copyfile(root / "solutions" / game / f"{game}.ipynb",
                        folder / f"student_{game}.ipynb")
        (folder / f"demo_{game}.ipynb").write_text(json.dumps(demo_notebook(game, 11)),
                                                  encoding="utf-8")
    server = harness.start_voila_folder(folder, root, tmp / "home")
    try:
        yield server.wait_ready(timeout=120)
    finally:
        server.stop()


def open_page(page: Page, pages: harness.Server, name: str, scope: str) -> Locator:
    """Open ``name`` (a notebook of the folder) and return its table, once its cards show."""
    # Voila runs the notebook before the page loads: on a busy machine that takes a while
    page.goto(pages.url(f"/voila/render/{name}.ipynb"), wait_until="commit", timeout=180_000)
    table = page.locator(scope).first
    expect(table.locator(".plaisante-card").first).to_be_visible(timeout=180_000)
    return table


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focused element matches ``selector`` (CSS); fail after ``limit``."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector!r} in {limit} presses")


class Said:
    """The table's live region: what it says, and a wait for the next thing it says."""

    def __init__(self, table: Locator) -> None:
        self.region = table.locator(".plaisante-live-region [role=status][aria-live=polite]")
        self.count = self.current()

    def current(self) -> int:
        if not self.region.count():
            return 0
        return int(self.region.get_attribute("data-said") or 0)

    def after(self, key: str, page: Page) -> str:
        """Press ``key`` on the focused element; return the live region's next words."""
        page.keyboard.press(key)
        self.count += 1
        expect(self.region).to_have_attribute("data-said", str(self.count))
        return self.region.inner_text()


def focus_kept(table: Locator) -> None:
    """The focus is still on the table (on or next to what was acted on), not the page."""
    expect(table.locator(":focus")).to_have_count(1)


# ------------------------------------------------------------------ each game's round

def no_trap(page: Page, table: Locator, limit: int = 80) -> None:
    """Tab from inside the table leaves it: no widget keeps the keyboard."""
    assert table.locator(":focus").count() == 1, "the focus is not on the table to begin with"
    for _ in range(limit):
        page.keyboard.press("Tab")
        if not table.locator(":focus").count():
            return
    raise AssertionError(f"the focus stayed on the table after {limit} Tabs")


def play_plaisante(page: Page, table: Locator, said: Said) -> None:
    for hand in range(1, 5):
        tab_to(page, ".plaisante-held .plaisante-card")
        for picked in range(1, 6):
            assert said.after("Space", page).endswith(f"; {picked} of 5 selected")
            page.keyboard.press("Tab")
        tab_to(page, "button.plaisante-play")
        words = said.after("Enter", page)
        assert re.match(rf"Hand {hand} of 4: .+, \d+ points\. Total \d+\.", words), words
        focus_kept(table)
    total = table.locator(".plaisante-total b").inner_text()
    assert words.endswith(f"Round over: total {total}."), words
    expect(table.locator("button.plaisante-new-round:focus")).to_have_count(1)
    assert said.after("Enter", page) == "A new round: 8 cards dealt. Total 0."


def play_deck(page: Page, table: Locator, said: Said) -> None:
    tab_to(page, ".deck-yours .plaisante-card")
    assert said.after("Enter", page).endswith(", marked; 1 marked")
    page.keyboard.press("Tab")
    assert said.after("Space", page).endswith(", marked; 2 marked")
    tab_to(page, "button.deck-replace")
    words = said.after("Enter", page)
    assert words.startswith("Discarded 2 and drew 2. Your hand: "), words
    focus_kept(table)
    tab_to(page, "button.deck-deal")
    assert said.after("Enter", page).startswith("Dealt 4 hands. Your hand: ")
    focus_kept(table)


def play_video_poker(page: Page, table: Locator, said: Said) -> None:
    tab_to(page, "button.vp-bet-max")
    assert said.after("Enter", page).startswith("Dealt: ")
    expect(table.locator(".vp-cards .plaisante-card:focus")).to_have_count(1)
    assert re.fullmatch(r"Card 1, .+, held", said.after("Space", page))
    tab_to(page, "button.vp-draw")
    words = said.after("Enter", page)
    name = table.locator(".vp-result").inner_text()
    credits = table.locator(".vp-credits b").inner_text()
    assert re.search(rf": win \d+\. Bet \d+, credits {credits}\.$", words), words
    assert name.split("·")[0].strip() in words, (name, words)
    focus_kept(table)


def play_holdem(page: Page, table: Locator, said: Said) -> None:
    words = ""
    for _ in range(12):
        tab_to(page, "button.holdem-check:enabled, button.holdem-call:enabled")
        words = said.after("Enter", page)
        focus_kept(table)
        if "the pot" in words and "Why" in words or "folded" in words:
            break
    assert re.search(r"(You win|The bot wins) the pot of \d+|A tie", words), words
    expect(table.locator(".holdem-area-board")).to_contain_text("The board · the ace counts 1")
    in_a_column(page, table)
    expect(table.locator("button.holdem-next:focus")).to_have_count(1)
    assert said.after("Enter", page).startswith("Hand 2:")
    focus_kept(table)


def in_a_column(page: Page, table: Locator) -> None:
    """In a 300 px column the board shows its five cards and the outcome's table is whole."""
    page.set_viewport_size({"width": 300, "height": 800})
    cards = table.locator(".holdem-board .plaisante-card")
    expect(cards).to_have_count(5)
    edge = table.bounding_box()
    for box in (cards.nth(i).bounding_box() for i in range(5)):
        assert box and edge and edge["x"] <= box["x"] and \
            box["x"] + box["width"] <= edge["x"] + edge["width"], (box, edge)
    for part in (table, table.locator(".holdem-result .widget-html-content")):
        assert part.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "cut at 300 px"
    table.locator(".holdem-result").scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "holdem-showdown-300.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def play_tricks(page: Page, table: Locator, said: Said) -> None:
    tab_to(page, ".tricks-yours .plaisante-card.tricks-legal")
    for trick in range(8):
        expect(table.locator(".tricks-yours .plaisante-card.tricks-legal:focus")
               ).to_have_count(1)
        words = said.after("Enter", page)
        assert words.startswith("You play ") and "Trick to " in words, words
        if trick < 7:
            focus_kept(table)
    assert re.search(r"Deal over: You \d+ tricks, West \d+ tricks, North \d+ tricks, "
                     r"East \d+ tricks\.", words), words
    expect(table.locator("button.tricks-new-deal:focus")).to_have_count(1)


ROUNDS = {"plaisante": play_plaisante, "deck": play_deck, "video_poker": play_video_poker,
          "holdem": play_holdem, "tricks": play_tricks}


@pytest.mark.parametrize("game", GAMES)
def test_a_round_by_keyboard_alone_is_announced_and_axe_finds_nothing_serious(
        page: Page, pages: harness.Server, game: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    table = open_page(page, pages, f"student_{game}", STUDENT)
    a11y.assert_accessible(page, where=f"{game}'s student view")
    ROUNDS[game](page, table, Said(table))
    no_trap(page, table)
    a11y.assert_accessible(page, where=f"{game}'s student view after a round")


# ---------------------------------------------------------------------- the presenters

#: what Tab reaches first in each presenter and what the live region says once it is pressed
PRESS = {"plaisante": (".plaisante-presenter-cards .plaisante-card", 5, r"= \d+\.$"),
         "deck": (".deck-hall-seat:nth-child(2) .plaisante-card", 1,
                  r"player 1's 1st card, the \w+ card from the top\.$"),
         "video_poker": (".plaisante-stage .plaisante-card", 1,
                         r"^.+\. payout\(cards, \d+\) = \d+\. held: \S+ at 0\.$"),
         "holdem": (".holdem-hall-seat .plaisante-card", 1, r"compare gives -?[01]: "),
         "tricks": (".tricks-hall-hand .plaisante-card:not(.plaisante-dim)", 1,
                    r"trick_winner gives ")}


@pytest.mark.parametrize("game", GAMES)
def test_a_presenter_card_pressed_by_keyboard_says_the_verdict_and_axe_finds_nothing_serious(
        page: Page, pages: harness.Server, game: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    table = open_page(page, pages, f"demo_{game}", PRESENTER)
    a11y.assert_accessible(page, where=f"{game}'s presenter")
    said = Said(table)
    card, presses, says = PRESS[game]
    tab_to(page, card)
    for _ in range(presses):
        words = said.after("Enter", page)
        focus_kept(table)
        page.keyboard.press("Tab")
    assert re.search(says, words), words
