"""The lecture-hall demo in Voila: ``plaisante demo plaisante`` at 1920×1080 and
1280×720, measured (card width, the x-ray's type size, nothing to scroll), then five cards
selected by click and the x-ray's counts, check answers and score compared with the
reference solution's; on a student's submission, the presenter, the checklist of a failing
step, and the checklist of an ``evaluate`` that names hands with markup (shown as text, its
script never run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import harness
import hostile_pages
import nbformat
import pytest
from nbformat.v4 import new_code_cell
from playwright.sync_api import Page, expect

from plaisante.authoring import reference
from plaisante.games.plaisante.xray import ROWS
from plaisante.student_side.cards import hand

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Server]:
    tmp = tmp_path_factory.mktemp("demo")
    root = harness.course_copy(tmp / "course")
    server = harness.start_demo(root, tmp / "home", "plaisante", "--seed", "7")
    try:
        yield server.wait_ready(timeout=120)
    finally:
        server.stop()


def xray_of(ref, texts: list[str]) -> dict:
    cards = hand(" ".join(texts), ref.Card)
    return {"counts": ref.count_values(cards),
            "answers": {check: ("yes" if getattr(ref, check)(cards) else "no")
                        for _, check in ROWS if check},
            "score": f"{ref.total_value(cards)} × {ref.base_mult(cards)} = {ref.score(cards)}"}


@pytest.mark.parametrize(("width", "height", "min_card", "min_font"),
                         [(1920, 1080, 270, 32), (1280, 720, 180, 21), (1280, 800, 180, 21)])
def test_presenter_scales_and_scores_five_clicked_cards(page: Page, demo: harness.Server,
                                                        width: int, height: int,
                                                        min_card: int, min_font: int) -> None:
    ref = reference.load("plaisante", Path(harness.SOURCE))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(demo.url("/"))
    cards = page.locator(".plaisante-presenter-cards .plaisante-card")
    expect(cards).to_have_count(8, timeout=90_000)
    panel = page.get_by_label("scoring x-ray")
    expect(panel).to_be_visible()
    assert cards.first.bounding_box()["width"] >= min_card
    assert cards.first.bounding_box()["height"] >= 1.4 * min_card  # 250 px tall at 1280
    # the eight fan out: each card's corner, its index, is the card itself, not the next one
    assert cards.evaluate_all("""cards => cards.every(c => { const b = c.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + 0.08 * b.width, b.top + 0.15 * b.height);
        return hit === c || c.contains(hit); })""")
    font = panel.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert font >= min_font
    assert page.evaluate("() => document.scrollingElement.scrollHeight") <= height
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    texts = [cards.nth(i).inner_text().strip() for i in (0, 2, 3, 5, 7)]
    for i in (0, 2, 3, 5, 7):
        cards.nth(i).click()
    expected = xray_of(ref, texts)
    formula = panel.locator(".plaisante-xray-formula")
    expect(formula).to_have_text(expected["score"], timeout=10_000)
    counts = {int(value): int(n) for value, n in panel.locator(".plaisante-bar").evaluate_all(
        "bars => bars.map(b => [b.dataset.slot, b.dataset.count])")}
    assert counts == {value: expected["counts"][value] for value in range(2, 15)}
    answers = dict(panel.locator("li[data-check]:not([data-check=''])").evaluate_all(
        "rows => rows.map(r => [r.dataset.check, r.dataset.answer])"))
    assert answers == expected["answers"]
    assert page.evaluate("() => document.scrollingElement.scrollHeight") <= height
    box = page.locator(".plaisante-presenter").bounding_box()  # the screen filled, not spilled
    assert box["height"] >= 0.85 * height and box["y"] + box["height"] <= height + 1, box


def evaluate_says_markup(sample: Path, dest: Path) -> Path:
    """Write ``sample`` with a cell after its ``evaluate`` that makes it name every hand with
    markup that would run script in the demo's page (``hostile_pages``)."""
    notebook = nbformat.read(sample, as_version=4)
    at = next(i for i, cell in enumerate(notebook.cells) if "def evaluate(cards)" in cell.source)
    markup = f'<img src="x" onerror="{hostile_pages.action("demo")}">'
    notebook.cells.insert(at + 1, new_code_cell(f"def evaluate(cards):\n    return {markup!r}"))
    nbformat.write(notebook, dest)
    return dest


@pytest.mark.sandbox
@pytest.mark.parametrize(("sample", "shows"), [("full_marks", "presenter"),
                                               ("straight_ignores_duplicates", "checklist"),
                                               ("full_marks", "markup")])
def test_demo_on_a_students_submission(page: Page, tmp_path: Path, sample: str,
                                       shows: str) -> None:
    root = harness.course_copy(tmp_path / "course")
    notebook = root / "assignments" / "samples" / "plaisante" / f"{sample}.ipynb"
    if shows == "markup":
        notebook = evaluate_says_markup(notebook, tmp_path / "plaisante.ipynb")
    harness.run_course(root, "submit", str(notebook), "--student", "ada")
    server = harness.start_demo(root, tmp_path, "plaisante", "--student", "ada")
    try:
        server.wait_ready(timeout=120)
        page.goto(server.url("/"))
        if shows in ("checklist", "markup"):
            checklist = page.locator(".plaisante-hall-checklist")
            expect(checklist).to_be_visible(timeout=90_000)
            failing = "step 3 (the has-checks)" if shows == "checklist" else "step 4 (scoring)"
            expect(checklist.locator("h2")).to_contain_text(failing)
            if shows == "markup":  # what evaluate said is shown as text, and does nothing
                expect(checklist).to_contain_text('<img src="x" onerror=')
                assert page.title() != hostile_pages.TITLE
                assert page.evaluate(f"() => window.{hostile_pages.MARK}") is None
                assert not list(root.rglob(f"{hostile_pages.MARK}-*"))
            return
        cards = page.locator(".plaisante-presenter-cards .plaisante-card")
        expect(cards).to_have_count(8, timeout=90_000)
        page.locator(".plaisante-notation input").fill("Kh Kd 3c 7s 9h")
        page.locator(".plaisante-notation input").press("Enter")
        expect(page.locator(".plaisante-xray-formula")).to_have_text("45 × 2 = 90",
                                                                     timeout=10_000)
    finally:
        server.stop()
