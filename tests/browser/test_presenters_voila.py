"""Every game's presenter view in Voila, as ``plaisante demo ID`` shows it, in one Voila
serving the four demo notebooks: at 1920×1080 the table fills the screen (85 % of each side)
with every text at least 32 px and every card at least 270 px wide (273 × 382), at 1280×720 and
1280×800 the same view scaled, cards at least 250 px tall, nothing cut or scrolled; a row of
more cards than the screen holds whole fans out, each card's index (its corner) uncovered and
its strip what a click lands on; a click changes the x-ray as the rule says, and a second load
with the same seed deals the same cards. The slow variants: 800 px wide and cards written in
notation, typed in the page."""

from __future__ import annotations

from collections.abc import Iterator

import harness
import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

GAMES = ("deck", "video_poker", "holdem", "tricks")
CARDS = ".plaisante-stage .plaisante-card"
#: how many cards each view deals at first (tricks: your hand; the trick beside it varies)
DEALT = {"deck": 12, "video_poker": 5, "holdem": 14, "tricks": 8}
#: every view's cards at 1920×1080 (wide) and at 1280 px wide (tall): 14.2 % of the width is
#: 273 × 382 px and 182 × 254 px (rows of more cards fan: deck's three seats, Hold'em's two
#: sevens side by side, tricks' hand and trick)
CARD_WIDE_1920, CARD_TALL_1280 = 270, 250


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Server]:
    tmp = tmp_path_factory.mktemp("presenters")
    root = harness.course_copy(tmp / "course")
    server = harness.start_demos(root, tmp / "home", GAMES, seed=11)
    try:
        yield server.wait_ready(timeout=120)
    finally:
        server.stop()


def open_demo(page: Page, demos: harness.Server, game: str) -> list[str]:
    """Open ``game``'s demo; return the labels of the cards it dealt."""
    # Voila runs the notebook before the page loads: on a busy machine that takes a while
    page.goto(demos.url(f"/voila/render/{game}.ipynb"), wait_until="commit", timeout=180_000)
    cards = page.locator(".tricks-hall-hand .plaisante-card" if game == "tricks" else CARDS)
    expect(cards).to_have_count(DEALT[game], timeout=180_000)
    return [text.strip() for text in cards.all_inner_texts()]


def fits(page: Page, width: int, height: int) -> None:
    """Nothing scrolls, and the table fills at least 85 % of the window each way, wholly in
    it, nothing of it overflowing."""
    size = page.evaluate("() => [document.scrollingElement.scrollWidth, "
                         "document.scrollingElement.scrollHeight]")
    assert size[0] <= width and size[1] <= height, f"the page is {size} in a {width}×{height}"
    table = page.locator(".plaisante-presenter")
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height + 1, box
    assert box["width"] >= 0.85 * width and box["height"] >= 0.85 * height, box
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth + 1 && "
                          "el.scrollHeight <= el.clientHeight + 1"), "the table overflows"


def cards_seen(page: Page) -> None:
    """Every card shows its corner: the point just inside its top left, where its index is,
    is the card itself (not a card over it), so a click there lands on it."""
    covered = page.evaluate("""() => [...document.querySelectorAll(
        '.plaisante-presenter .plaisante-card')].filter(c => c.offsetParent).filter(c => {
          const b = c.getBoundingClientRect();
          const hit = document.elementFromPoint(b.left + 0.08 * b.width, b.top + 0.15 * b.height);
          return !(hit === c || c.contains(hit)); }).map(c => c.textContent)""")
    assert covered == [], f"cards whose corner another covers: {covered}"


def press(card: Locator) -> None:
    """Click ``card`` on its corner (in a fan, the part of it that shows)."""
    box = card.bounding_box()
    assert box is not None
    card.click(position={"x": 0.08 * box["width"], "y": 0.15 * box["height"]})


def click_and_expect(page: Page, game: str) -> None:
    """Click what teaches the game's rule and check the x-ray says what follows."""
    panel = page.locator(".plaisante-xray-panel")
    before = panel.inner_html()
    if game == "deck":
        press(page.locator(".deck-hall-seat").nth(1).locator(".plaisante-card").nth(1))
        expect(panel.locator(".deck-xray-chosen")).to_contain_text(
            "turn 5, player 1's 2nd card, the 5th card from the top")
    elif game == "video_poker":
        press(page.locator(CARDS).nth(0))
        expect(panel.locator(".vp-held")).to_have_attribute("data-held", "0")
        page.locator(".vp-hall-draw").click()
        expect(panel.locator(".vp-drawn")).to_have_attribute("data-replaced", "1 2 3 4")
    elif game == "holdem":
        river = page.locator(".holdem-hall-seat").nth(0).locator(".plaisante-card").nth(6)
        old = river.inner_text().strip()
        press(river)
        expect(page.locator(".plaisante-message")).to_contain_text(f"{old} →")
        expect(page.locator(".holdem-hall-seat").nth(1).locator(".plaisante-card").nth(6)
               ).not_to_have_text(old)
    else:
        press(page.locator(".tricks-hall-hand .plaisante-card:not(.plaisante-dim)").first)
        expect(panel.locator(".tricks-winner")).to_contain_text("trick_winner →")
        expect(page.locator(".tricks-hall-played:visible")).to_have_count(4)
    assert panel.inner_html() != before


@pytest.mark.parametrize("game", GAMES)
def test_presenter_sizes_click_and_seed(page: Page, demos: harness.Server, game: str) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    first = open_demo(page, demos, game)
    widths = page.locator(CARDS).evaluate_all("cards => cards.filter(c => c.offsetParent)"
                                              ".map(c => c.getBoundingClientRect().width)")
    assert min(widths) >= CARD_WIDE_1920, f"{game}: cards {min(widths)} px wide at 1920"
    cards_seen(page)
    panel = page.locator(".plaisante-hall-xray")
    expect(panel).to_be_visible()
    fonts = panel.evaluate_all("els => els.flatMap(el => [...el.querySelectorAll('*')])"
                               ".filter(e => e.textContent.trim() && e.offsetParent)"
                               ".map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(fonts) >= 32 and panel.evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)") >= 32
    fits(page, 1920, 1080)
    click_and_expect(page, game)
    fits(page, 1920, 1080)
    cards_seen(page)
    for height in (720, 800):
        page.set_viewport_size({"width": 1280, "height": height})
        assert open_demo(page, demos, game) == first  # the same seed, the same cards
        heights = page.locator(CARDS).evaluate_all(
            "cards => cards.filter(c => c.offsetParent)"
            ".map(c => c.getBoundingClientRect().height)")
        assert min(heights) >= CARD_TALL_1280, f"{game}: cards {min(heights)} px tall at 1280"
        fits(page, 1280, height)
        cards_seen(page)
        click_and_expect(page, game)
        fits(page, 1280, height)
        cards_seen(page)



#: what each presenter's ✓ means, as its game's own view says it
MARK_WORD = {"deck": "selected", "video_poker": "held", "holdem": "in the best five",
             "tricks": "playable"}
#: what a raised card shows where it is not the ✓: video poker's hall view labels a held card
#: as its machine does (presenter.css)
MARK_SHOWN = {"video_poker": "HELD"}


@pytest.mark.parametrize("game", GAMES)
def test_presenter_mark_is_read_as_its_games_word(page: Page, demos: harness.Server,
                                                  game: str) -> None:
    """A raised card's ✓ (video poker's HELD badge) is read as the game's word for it (its CSS
    alternative text), so its accessible name is its label then that word, and its tooltip
    ends with the same word; the Deal button is read "Deal", its icon unread."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_demo(page, demos, game)
    if game == "video_poker":
        press(page.locator(CARDS).nth(0))
    word = MARK_WORD[game]
    raised = page.locator(f"{CARDS}.plaisante-selected")
    expect(raised.first).to_be_visible()
    for card in raised.all():
        label = card.inner_text().strip()
        expect(card).to_have_accessible_name(f"{label} {word}")
        assert card.get_attribute("title", timeout=5_000).endswith(f", {word}")
        mark = card.evaluate("el => getComputedStyle(el, '::after').content")
        shown = MARK_SHOWN.get(game, "\u2713")
        assert mark == f'"{shown}" / "{word}"', mark
    # the Deal button's icon is a glyph of the icon font, drawn and never read
    deal = page.locator(".plaisante-presenter-controls .jupyter-button").first
    expect(deal).to_have_accessible_name("Deal")


NOTATION = {"deck": ("Kh 3c 10s", ".deck-hall-seat .plaisante-card >> nth=0", "K♥"),
            "video_poker": ("Ah Kh Qh Jh 10h", ".vp-name", "Royal Flush"),
            "holdem": ("Ah Kd 7c 7d 2c 3c 4c 5h 9s", ".holdem-verdict", "You win"),
            "tricks": ("7h 8h Ah 10s Kc | Kh 10h", ".tricks-led", "♥")}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_presenter_notation_and_narrow(page: Page, demos: harness.Server, game: str) -> None:
    page.set_viewport_size({"width": 800, "height": 900})
    open_demo(page, demos, game)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 800
    written, where, says = NOTATION[game]
    box = page.locator(".plaisante-notation input")
    box.fill(written)
    box.press("Enter")
    expect(page.locator(where)).to_contain_text(says)
    fits(page, 800, 900)
    cards_seen(page)
    box.fill("Zz 9q")
    box.press("Enter")
    expect(page.locator(".plaisante-message")).to_contain_text("'Zz' is not a card")


def test_a_fanned_ten_keeps_its_index_whole_on_a_narrow_window(page: Page,
                                                               demos: harness.Server) -> None:
    """Hold'em's two sevens fan the narrowest strips (a third of a card): at 800 px wide a
    raised 10's index broke in two, "1" above "0", when the strip left out the card's borders.
    Every 10 of both fans, raised or not, keeps "10" on one line."""
    page.set_viewport_size({"width": 800, "height": 800})
    open_demo(page, demos, "holdem")
    box = page.locator(".plaisante-notation input")
    box.fill("10h 10d | 10c 2d | 10s 9h 8h 3c 2s")
    box.press("Enter")
    tens = page.locator(f"{CARDS}", has_text="10")
    expect(tens).to_have_count(5)  # 10♥ 10♦, 10♣, and the board's 10♠ in both sevens
    expect(page.locator(f"{CARDS}.plaisante-selected", has_text="10")).not_to_have_count(0)
    lines = tens.evaluate_all("""cards => cards.map(card => {
        const walk = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
        let node = walk.nextNode();
        while (node && !node.data.includes('10')) node = walk.nextNode();
        const range = document.createRange(), at = node.data.indexOf('10');
        range.setStart(node, at);
        range.setEnd(node, at + 2);
        return new Set([...range.getClientRects()].filter(r => r.width > 0)
                       .map(r => Math.round(r.top))).size; })""")
    assert lines == [1] * 5, f"lines each 10's index takes: {lines}"
