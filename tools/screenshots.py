"""Screenshots of the games and the gate as a student sees them, on a 1280×720 projector.

    python tools/screenshots.py [--out build/screenshots]      (or: make screenshots)

Starts JupyterLab and Voila in a temporary copy of the course (tests/browser/harness.py) and
writes, in headless Chromium:

    1-round-start.png       the reference solution after Run All: a fresh deal
    2-selection.png         three cards selected (raised, with a check mark)
    3-after-play.png        the play area after Play: the hand's name and score
    4-round-over.png        after the fourth hand: the round-over panel
    5-checklist-starter.png the untouched starter's last cell: every step still to do
    6-checklist-straight.png  a has_straight that ignores duplicates: step 3 fails
    7-voila-demo.png        notebooks/demo.ipynb in Voila, the instructor's full-screen demo
    8-four-colour.png       the optional four-colour deck (play(..., four_colour=True))
    9-deck-table.png        Deck and deal's dealer's table on its reference: two cards marked
    10-deck-table-800.png   the same table in a window 800 px wide
    11-deck-checklist.png   a deck sample whose discard fails: the checklist names step 4
    12-presenter-1920.png   `plaisante demo plaisante` (Voila) at 1920×1080, five cards selected
    13-presenter-1280.png   the same presenter view at 1280×720
    14-round-800-files.png  the round after one hand (its formula) and two cards selected, the
                            window 800 px wide with the file browser open: cards 4 and 4
    15-round-800.png        the same, the file browser closed: 8 cards in a row
    16-round-600.png        the same in a window 600 px wide
    17-round-focus.png      keyboard focus on a card (a blue ring) beside a selected one (gold)
    18-new-round-confirm.png  New round mid-round asks before throwing the round away
    20-presenter-GAME-W.png  `plaisante demo GAME` (Voila) for deck, video_poker, holdem and
                            tricks, at W = 1920 (×1080), 1280 (×720) and 800 (×900) wide, after a
                            click that teaches the rule (a card lit, held and drawn, a card
                            swapped, a trick played)
    21-presenter-failing-W.png  `plaisante demo holdem --student ada` on a submission whose
                            best_five fails: the projector's checklist, 1920 and 1280 wide

    22-first-run-all.png    the untouched starter after Run All: each test cell that fails says
                            one line (✎ to do: …), never a traceback through the kit
    23-failing-check.png    the has_straight that ignores duplicates: its test cell's one line,
                            ✘ the input, expected and got

    24-feedback-failing-W.png  that submission's feedback page (plaisante grade, feedback) at its
                            failing test cell, 1280 and 800 wide: a red heading, the message
                            inside the cell's frame

    python tools/screenshots.py --presenters    only the 20- and 21- pictures

Animations are frozen at their end state in the pictures (``animations="disabled"``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests" / "browser"))

import harness  # noqa: E402

FOUR_COLOUR_CELL = ("from plaisante.authoring import reference\n"
                    "from plaisante.games.plaisante.setup import play\n"
                    "ref = reference.load('plaisante')\n"
                    "play(**reference.parts(ref, 'plaisante'), seed=3, four_colour=True)")


def four_colour_notebook(path: Path) -> Path:
    """Write a one-cell notebook that deals a four-colour round on the reference solution."""
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "id": "four-colour",
                           "metadata": {}, "outputs": [], "source": FOUR_COLOUR_CELL}],
                "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                            "language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def show_table(page, table: harness.Table) -> None:
    """Scroll the notebook so the whole table is in view, its top near the window's top."""
    table.root.evaluate("el => el.scrollIntoView({block: 'start'})")


def shoot(page, out: Path, name: str) -> None:
    path = out / name
    page.screenshot(path=str(path), animations="disabled")
    print(path)


def lab_round(page, lab, out: Path) -> None:
    from playwright.sync_api import expect

    from plaisante.authoring import reference

    ref = reference.load("plaisante", harness.SOURCE)

    harness.open_notebook(page, lab, "students/reference.ipynb")
    harness.run_all(page)
    table = harness.Table(harness.last_output(page))
    expect(table.held).to_have_count(8, timeout=60_000)
    harness.wait_queue_empty(page)
    show_table(page, table)
    shoot(page, out, "1-round-start.png")
    harness.select(table, [1, 3, 6])
    page.mouse.move(0, 0)
    shoot(page, out, "2-selection.png")
    chosen = ([table.held.nth(p).inner_text().strip() for p in (1, 3, 6)]
              + harness.select(table, [0, 2]))
    harness.play_hand(table, chosen, ref)
    page.mouse.move(0, 0)
    show_table(page, table)
    shoot(page, out, "3-after-play.png")
    for _ in range(3):
        harness.play_hand(table, harness.select(table, [0, 1, 2, 3, 4]), ref)
    expect(table.over).to_be_visible()
    page.mouse.move(0, 0)
    show_table(page, table)
    shoot(page, out, "4-round-over.png")


def lab_round_narrow(page, lab, out: Path) -> None:
    """The round in narrow windows, at the bottom of the table where the buttons are."""
    from playwright.sync_api import expect

    from plaisante.authoring import reference

    ref = reference.load("plaisante", harness.SOURCE)
    harness.open_notebook(page, lab, "students/reference.ipynb")  # wide: the kernel indicator
    harness.run_all(page)
    table = harness.Table(harness.last_output(page))
    expect(table.held).to_have_count(8, timeout=60_000)
    harness.wait_queue_empty(page)
    harness.play_hand(table, harness.select(table, [0, 1, 2, 3, 4]), ref)
    harness.select(table, [1, 6])
    files = page.locator("#jp-left-stack")
    for name, width, browsing in (("14-round-800-files.png", 800, True),
                                  ("15-round-800.png", 800, False),
                                  ("16-round-600.png", 600, False)):
        page.set_viewport_size({"width": width, "height": harness.VIEWPORT["height"]})
        if files.is_visible() != browsing:
            page.locator(".jp-SideBar.jp-mod-left li[data-id='filebrowser']").click()
        page.mouse.move(0, 0)
        table.root.evaluate("el => el.scrollIntoView({block: 'end'})")
        shoot(page, out, name)
    page.set_viewport_size({"width": 800, "height": harness.VIEWPORT["height"]})
    table.held.nth(1).focus()
    page.keyboard.press("Tab")
    table.root.evaluate("el => el.scrollIntoView({block: 'end'})")
    shoot(page, out, "17-round-focus.png")
    table.new_round.click()
    expect(table.root.locator(".plaisante-confirm")).to_be_visible()
    page.mouse.move(0, 0)
    table.root.evaluate("el => el.scrollIntoView({block: 'end'})")
    shoot(page, out, "18-new-round-confirm.png")
    page.set_viewport_size(harness.VIEWPORT)


def lab_checklist(page, lab, notebook: str, out: Path, name: str) -> None:
    from playwright.sync_api import expect

    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    checklist = harness.last_output(page).locator(".plaisante-checklist")
    expect(checklist).to_be_visible(timeout=60_000)
    checklist.evaluate("el => el.scrollIntoView({block: 'start'})")
    shoot(page, out, name)


def one_line(page, out: Path, text: str, name: str) -> None:
    """The notebook in view after Run All, scrolled to the test cell whose one line starts
    with ``text``."""
    from playwright.sync_api import expect

    line = page.locator(".jp-OutputArea-output", has_text=text).first
    expect(line).to_be_visible()
    line.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.mouse.move(0, 0)
    shoot(page, out, name)


DECK_REFERENCE = "solutions/deck/deck.ipynb"
DECK_FAILING = "assignments/samples/deck/discard_ascending_positions.ipynb"


def lab_deck(page, lab, out: Path) -> None:
    """Deck and deal's table on the reference (marked cards) at 1280 and 800 px wide, and the
    checklist of a sample whose step 4 fails."""
    from playwright.sync_api import expect

    for name, width in (("9-deck-table.png", 1280), ("10-deck-table-800.png", 800)):
        # opened wide: at 800 px the toolbar hides the kernel indicator open_notebook waits for
        page.set_viewport_size(harness.VIEWPORT)
        harness.open_notebook(page, lab, DECK_REFERENCE)
        harness.run_all(page)
        table = harness.last_output(page).locator(".deck-table")
        yours = table.locator(".deck-yours .plaisante-card")
        expect(yours).to_have_count(5, timeout=60_000)
        harness.wait_queue_empty(page)
        page.set_viewport_size({"width": width, "height": harness.VIEWPORT["height"]})
        yours.nth(1).click()
        yours.nth(3).click()
        page.mouse.move(0, 0)
        table.evaluate("el => el.scrollIntoView({block: 'start'})")
        shoot(page, out, name)
    page.set_viewport_size(harness.VIEWPORT)
    lab_checklist(page, lab, DECK_FAILING, out, "11-deck-checklist.png")


def presenter(browser, demo, out: Path) -> None:
    """The lecture-hall presenter view at 1920×1080 and 1280×720, five cards selected."""
    from playwright.sync_api import expect

    for width, height in ((1920, 1080), (1280, 720)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(demo.url("/"))
        cards = page.locator(".plaisante-presenter-cards .plaisante-card")
        expect(cards).to_have_count(8, timeout=60_000)
        for position in (0, 2, 3, 5, 7):
            corner_click(cards.nth(position))
        expect(page.locator(".plaisante-xray-formula")).to_be_visible()
        page.mouse.move(0, 0)
        shoot(page, out, f"{12 if width == 1920 else 13}-presenter-{width}.png")
        page.close()


PRESENTERS = ("deck", "video_poker", "holdem", "tricks")
#: the sample whose failing step the projector's checklist shows
FAILING = ("holdem", "ace_high")


def corner_click(card) -> None:
    """Click a card on its corner: in a fanned row, the part of it that shows."""
    box = card.bounding_box()
    card.click(position={"x": 0.08 * box["width"], "y": 0.15 * box["height"]})


def presenter_click(page, game: str) -> None:
    """Click what teaches ``game``'s rule (as the browser test does)."""
    stage = page.locator(".plaisante-stage")
    if game == "deck":
        corner_click(page.locator(".deck-hall-seat").nth(1).locator(".plaisante-card").nth(1))
    elif game == "video_poker":
        for position in (0, 2):
            corner_click(stage.locator(".plaisante-card").nth(position))
        page.locator(".vp-hall-draw").click()
        page.locator(".vp-drawn").wait_for()
    elif game == "holdem":
        corner_click(page.locator(".holdem-hall-seat").nth(0).locator(".plaisante-card").nth(6))
    else:
        corner_click(page.locator(".tricks-hall-hand .plaisante-card:not(.plaisante-dim)").first)
        page.locator(".tricks-winner").wait_for()
    page.mouse.move(0, 0)


def presenters(browser, demos, out: Path) -> None:
    """Each game's presenter at 1920×1080, 1280×720 and 800×900, after a teaching click."""
    for game in PRESENTERS:
        for width, height in ((1920, 1080), (1280, 720), (800, 900)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(demos.url(f"/voila/render/{game}.ipynb"), wait_until="commit",
                      timeout=180_000)
            page.locator(".plaisante-xray-panel section").wait_for(timeout=90_000)
            presenter_click(page, game)
            page.wait_for_timeout(300)
            shoot(page, out, f"20-presenter-{game}-{width}.png")
            page.close()


def failing_presenter(browser, root: Path, home: Path, out: Path) -> None:
    """The demo on a failing submission (the sandbox runs it): the projector's checklist."""
    game, sample = FAILING
    harness.run_course(root, "submit", str(root / "assignments" / "samples" / game /
                                           f"{sample}.ipynb"), "--student", "ada")
    demo = harness.start_demo(root, home, game, "--student", "ada")
    try:
        demo.wait_ready(timeout=120)
        for width, height in ((1920, 1080), (1280, 720)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(demo.url("/"))
            page.locator(".plaisante-hall-checklist").wait_for(timeout=120_000)
            shoot(page, out, f"21-presenter-failing-{width}.png")
            page.close()
    finally:
        demo.stop()


def failing_feedback(browser, root: Path, out: Path) -> None:
    """The feedback page of the submission ``failing_presenter`` handed in, graded, at its
    first failing test cell."""
    game, _ = FAILING
    harness.run_course(root, "release", game)
    harness.run_course(root, "grade", game, "--student", "ada", "--workers", "1")
    harness.run_course(root, "feedback", game, "--student", "ada")
    page_path = root / "assignments" / "feedback" / "ada" / game / f"{game}.html"
    for width in (1280, 800):
        page = browser.new_page(viewport={"width": width, "height": 800})
        page.goto(page_path.as_uri())
        failing = page.locator(".plaisante-test-lost").first
        failing.evaluate("e => e.scrollIntoView()")
        shoot(page, out, f"24-feedback-failing-{width}.png")
        page.close()


def presenters_only(out: Path) -> int:
    """Only the presenters' pictures (``--presenters``)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="plaisante-shots-") as tmp:
        root = harness.course_copy(Path(tmp) / "course")
        demos = harness.start_demos(root, Path(tmp) / "demos-home", PRESENTERS)
        try:
            demos.wait_ready(timeout=120)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=harness.chromium_path(),
                                            headless=True, args=harness.CHROMIUM_ARGS)
                presenters(browser, demos, out)
                failing_presenter(browser, root, Path(tmp) / "failing-home", out)
                browser.close()
        finally:
            demos.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=KIT / "build" / "screenshots")
    parser.add_argument("--presenters", action="store_true",
                        help="only the presenter views (20-, 21-)")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.presenters:
        return presenters_only(out)
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory(prefix="plaisante-shots-") as tmp:
        root = harness.course_copy(Path(tmp) / "course")
        students = root / "students"
        harness.student_copy(harness.SOURCE, students / "reference.ipynb")
        harness.student_copy(harness.STARTER, students / "starter.ipynb")
        harness.straight_mistake(harness.SOURCE, students / "has_straight_duplicates.ipynb")
        four_colour_notebook(students / "four_colour.ipynb")
        lab = harness.start_lab(root, Path(tmp) / "lab-home")
        voila = harness.start_voila(root / "notebooks" / "demo.ipynb", Path(tmp) / "voila-home")
        demo = harness.start_demo(root, Path(tmp), "plaisante")
        demos = harness.start_demos(root, Path(tmp) / "demos-home", PRESENTERS)
        try:
            lab.wait_ready()
            voila.wait_ready()
            demo.wait_ready(timeout=120)
            demos.wait_ready(timeout=120)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=harness.chromium_path(),
                                            headless=True, args=harness.CHROMIUM_ARGS)
                page = browser.new_page(viewport=harness.VIEWPORT)
                lab_round(page, lab, out)
                lab_round_narrow(page, lab, out)
                lab_checklist(page, lab, "students/starter.ipynb", out,
                              "5-checklist-starter.png")
                one_line(page, out, "✎ to do: has_pair still raises NotImplementedError",
                         "22-first-run-all.png")
                lab_checklist(page, lab, "students/has_straight_duplicates.ipynb", out,
                              "6-checklist-straight.png")
                one_line(page, out, "✘ fails: has_straight(", "23-failing-check.png")
                page.goto(voila.url("/"))
                table = harness.Table(page)
                expect(table.held).to_have_count(8, timeout=60_000)
                harness.select(table, [0, 2])
                page.mouse.move(0, 0)
                shoot(page, out, "7-voila-demo.png")
                harness.open_notebook(page, lab, "students/four_colour.ipynb")
                harness.run_all(page)
                table = harness.Table(harness.last_output(page))
                expect(table.held).to_have_count(8, timeout=60_000)
                harness.select(table, [0, 1])
                page.mouse.move(0, 0)
                show_table(page, table)
                shoot(page, out, "8-four-colour.png")
                lab_deck(page, lab, out)
                presenter(browser, demo, out)
                presenters(browser, demos, out)
                failing_presenter(browser, root, Path(tmp) / "failing-home", out)
                failing_feedback(browser, root, out)
                browser.close()
        finally:
            lab.stop()
            voila.stop()
            demo.stop()
            demos.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
