"""Every game by keyboard alone, and axe-core on every game page, in headless Chromium.

One Voila serves each game's student notebook (the reference solution, as a student who has
finished it sees it) and each game's presenter (``plaisante demo ID``). For each game: axe
finds no serious or critical WCAG 2.0/2.1 A or AA violation, before and after a round; under
``prefers-reduced-motion`` no card moves; at 640 and 320 px wide (200 % zoom) nothing scrolls
sideways, no card or button leaves the table and no word is hidden; a round played with Tab,
Enter and Space only (no click) reaches its end, the live region saying each move's result,
the focus on the table after every move, every stop showing a ring of at least 3:1 against
what is behind it; a selected card is shown by more than its colour; Tab leaves the table
and Shift+Tab comes back (no trap). For each presenter: axe, then a card reached by Tab and
pressed with Enter makes the live region say the x-ray's verdict, and no trap. Axe needs npm's
axe-core, which ``make test`` installs (``a11y.py``).
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
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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
    """The focus is still on the table (on or next to what was acted on), not the page, and
    its ring shows."""
    expect(table.locator(":focus")).to_have_count(1)
    a11y.ring_shown(table.page)


# ------------------------------------------------------------------ each game's round

def no_trap(page: Page, table: Locator, limit: int = 80) -> None:
    """Tab from inside the table leaves it (no widget keeps the keyboard), and Shift+Tab
    comes back; every stop on the way shows its ring."""
    assert table.locator(":focus").count() == 1, "the focus is not on the table to begin with"
    for _ in range(limit):
        a11y.ring_shown(page)
        page.keyboard.press("Tab")
        if not table.locator(":focus").count():
            page.keyboard.press("Shift+Tab")
            expect(table.locator(":focus")).to_have_count(1)
            return
    raise AssertionError(f"the focus stayed on the table after {limit} Tabs")


def selection_not_by_colour(table: Locator, word: str = "selected") -> None:
    """Each selected (held, marked) card shows it by more than a colour: raised, a thicker
    border, a ✓ mark read as the game's ``word`` for it (the word its tooltip says), and its
    accessible name says so; an unselected card has none of them."""
    cards = table.locator(".plaisante-card")
    looks = cards.evaluate_all("""cards => cards.map(el => {
        const css = getComputedStyle(el), mark = getComputedStyle(el, '::after');
        return {selected: el.classList.contains('plaisante-selected'),
                raised: new DOMMatrix(css.transform).m42, border: parseFloat(css.borderTopWidth),
                mark: mark.content};
    })""")
    chosen = [look for look in looks if look["selected"]]
    others = [look for look in looks if not look["selected"]]
    assert chosen and others, looks
    for look in chosen:
        assert look["raised"] <= -10 and look["border"] >= 3, look
        assert look["mark"] == f'"✓" / "{word}"', look
    for look in others:
        assert look["raised"] == 0 and look["mark"] == "none", look
    expect(table.locator(".plaisante-card.plaisante-selected").first).to_have_accessible_name(
        re.compile(rf"\S {word}$"))


def no_motion_when_asked(page: Page, table: Locator) -> None:
    """With the OS asking for reduced motion no card moves (no deal animation, no transition
    of its position); without, they do (so this check can fail)."""
    moving = """table => [...table.querySelectorAll('.plaisante-card')].filter(el => {
        const css = getComputedStyle(el);
        const animated = css.animationName !== 'none' && parseFloat(css.animationDuration) > 0;
        const slides = css.transitionProperty.split(', ').some((p, i) =>
            ['all', 'transform'].includes(p) &&
            parseFloat(css.transitionDuration.split(', ')[i] ?? '0') > 0);
        return animated || slides;
    }).length"""
    page.emulate_media(reduced_motion="no-preference")
    assert table.evaluate(moving) > 0, "no card moves even without reduced motion"
    page.emulate_media(reduced_motion="reduce")  # as the suite's contexts have it (conftest)
    assert table.evaluate(moving) == 0, "cards still move under prefers-reduced-motion"


#: the table and every element around it that is wider inside than it shows (a scroll bar
#: sideways, or content cut)
WIDER = """el => { const wide = [];
    for (let node = el; node; node = node.parentElement)
        if (node.scrollWidth > node.clientWidth + 1)
            wide.push(`${node.tagName}.${node.className}: ` +
                      `${node.scrollWidth} > ${node.clientWidth}`);
    return wide; }"""


def reflows(page: Page, table: Locator, shot: str, widths: tuple[int, ...] = (640, 320)
            ) -> None:
    """At each width of ``widths`` (CSS px: 200 % zoom of a 1280 or a 640 px window; 320 is
    WCAG's reflow width) nothing scrolls sideways, every card and button lies inside the
    table and the window, and the table shows the very words it shows at 1280 px (nothing
    hidden). A screenshot of the table at each: ``build/screenshots/<shot>-<width>.png``."""
    words = "el => el.innerText.split(/\\s+/).filter(Boolean).join(' ')"
    wide = table.evaluate(words)
    for width in widths:
        # tall enough for a narrow table's screenshot to be whole (the height moves nothing)
        page.set_viewport_size({"width": width, "height": 1400})
        try:  # Voila's shell (Lumino) lays itself out again a moment after the resize
            page.wait_for_function(f"el => !({WIDER})(el).length", arg=table.element_handle(),
                                   timeout=10_000)
        except PlaywrightTimeout:
            pass  # said by the assertion below
        wider = table.evaluate(WIDER)
        assert not wider, f"at {width} px these scroll sideways or cut: {wider}"
        edge = table.bounding_box()
        assert edge and edge["x"] >= 0 and edge["x"] + edge["width"] <= width + 0.5, edge
        for item in table.locator(".plaisante-card, .jupyter-button, input").all():
            if not item.is_visible():
                continue
            box = item.bounding_box()
            assert box and edge["x"] <= box["x"] + 0.5 and \
                box["x"] + box["width"] <= edge["x"] + edge["width"] + 0.5, \
                (width, item.evaluate("el => el.outerHTML.slice(0, 120)"), box, edge)
        assert table.evaluate(words) == wide, f"words lost at {width} px"
        SHOTS.mkdir(parents=True, exist_ok=True)
        table.screenshot(path=str(SHOTS / f"{shot}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def play_plaisante(page: Page, table: Locator, said: Said) -> None:
    for hand in range(1, 5):
        a11y.tab_to(page, ".plaisante-held .plaisante-card")
        for picked in range(1, 6):
            assert said.after("Space", page).endswith(f"; {picked} of 5 selected")
            page.keyboard.press("Tab")
        if hand == 1:
            selection_not_by_colour(table)
        a11y.tab_to(page, "button.plaisante-play")
        words = said.after("Enter", page)
        assert re.match(rf"Hand {hand} of 4: .+, \d+ points\. Total \d+\.", words), words
        focus_kept(table)
        if hand == 1:
            asked_and_kept(page, table, said)
    total = table.locator(".plaisante-total b").inner_text()
    assert words.endswith(f"Round over: total {total}."), words
    expect(table.locator("button.plaisante-new-round:focus")).to_have_count(1)
    assert said.after("Enter", page) == "A new round: 8 cards dealt. Total 0."


def asked_and_kept(page: Page, table: Locator, said: Said) -> None:
    """New round mid-round asks first: the question is said, "No, keep playing" has the focus
    and its ring on the question's light box; Enter on it gives the focus back to New round."""
    a11y.tab_to(page, "button.plaisante-new-round")
    assert said.after("Enter", page).endswith("Yes, or No to keep playing.")
    expect(table.locator("button.plaisante-confirm-no:focus")).to_have_count(1)
    a11y.ring_shown(page)
    page.keyboard.press("Enter")
    expect(table.locator(".plaisante-confirm")).to_be_hidden()
    expect(table.locator("button.plaisante-new-round:focus")).to_have_count(1)
    a11y.tab_to(page, ".plaisante-held .plaisante-card:first-child", key="Shift+Tab")


def play_deck(page: Page, table: Locator, said: Said) -> None:
    a11y.tab_to(page, ".deck-yours .plaisante-card")
    assert said.after("Enter", page).endswith(", marked; 1 marked")
    page.keyboard.press("Tab")
    assert said.after("Space", page).endswith(", marked; 2 marked")
    selection_not_by_colour(table, "marked")
    a11y.tab_to(page, "button.deck-replace")
    words = said.after("Enter", page)
    assert words.startswith("Discarded 2 and drew 2. Your hand: "), words
    focus_kept(table)
    a11y.tab_to(page, "button.deck-deal")
    assert said.after("Enter", page).startswith("Dealt 4 hands. Your hand: ")
    focus_kept(table)


def play_video_poker(page: Page, table: Locator, said: Said) -> None:
    holds = table.locator(".vp-hold")
    for position in range(5):  # five toggles, each named for its card
        expect(holds.nth(position)).to_have_accessible_name(f"HOLD card {position + 1}")
    a11y.tab_to(page, "button.vp-bet-max")
    assert said.after("Enter", page).startswith("Dealt: ")
    expect(table.locator(".vp-cards .plaisante-card:focus")).to_have_count(1)
    assert re.fullmatch(r"Card 1, .+, held", said.after("Space", page))
    selection_not_by_colour(table, "held")
    a11y.tab_to(page, "button.vp-draw")
    words = said.after("Enter", page)
    name = table.locator(".vp-result").inner_text()
    credits = table.locator(".vp-credits b").inner_text()
    assert re.search(rf": win \d+\. Bet \d+, credits {credits}\.$", words), words
    assert name.split("·")[0].strip() in words, (name, words)
    focus_kept(table)


def play_holdem(page: Page, table: Locator, said: Said) -> None:
    words = ""
    for _ in range(12):
        a11y.tab_to(page, "button.holdem-check:enabled, button.holdem-call:enabled")
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
    a11y.tab_to(page, ".tricks-yours .plaisante-card.tricks-legal")
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
    no_motion_when_asked(page, table)
    reflows(page, table, f"{game}-student")
    ROUNDS[game](page, table, Said(table))
    reflows(page, table, f"{game}-student-after", (320,))
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
    a11y.tab_to(page, card)
    for _ in range(presses):
        words = said.after("Enter", page)
        focus_kept(table)
        page.keyboard.press("Tab")
    assert re.search(says, words), words
    no_trap(page, table)
