"""The pages the kit makes for a course (each student's feedback, the class report, the
similarity page) load nothing from off the machine: opened in Chromium, every request they
make is to a file of the course (or data the page holds), as the students' JupyterLite site
is held to in test_lite.py. A feedback page once asked a public CDN for MathJax, twice.
And a feedback page's failing test cell reads as failing at a glance (it once looked like a
passing one, its message in a grey box apart), at 1280 and 800 px
(``build/screenshots/feedback-failing-*.png``); its code and messages wrap between words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from course_cli import KIT, cli, new_course
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.sandbox]

SAMPLES = KIT / "assignments" / "samples" / "plaisante"
HANDED = {"ada": "full_marks", "bob": "straight_before_flush", "cyd": "untouched"}
LOCAL = ("file://", "data:", "blob:", "about:")


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course where three students handed in Plaisante, graded, with feedback, the
    similarity page and the class report made."""
    root = new_course(tmp_path_factory.mktemp("offline") / "course")
    cli("release", "plaisante", cwd=root)
    for student, sample in HANDED.items():
        cli("submit", str(SAMPLES / f"{sample}.ipynb"), "--student", student, cwd=root)
    cli("grade", "plaisante", "--workers", "1", cwd=root)
    cli("feedback", "plaisante", cwd=root)
    cli("similarity", "plaisante", cwd=root)
    cli("report", "plaisante", cwd=root)
    return root


@pytest.fixture
def asked(page: Page) -> Iterator[list[str]]:
    """Every URL the page asks for that is not on this machine; it must stay empty. Such
    requests are aborted, so a test on a machine with a network sees what one without it
    would."""
    off: list[str] = []

    def route(request_route: Any) -> None:
        off.append(request_route.request.url)
        request_route.abort()
    page.route(lambda url: not url.startswith(LOCAL), route)
    yield off


def open_page(page: Page, path: Path) -> None:
    assert path.is_file(), path
    page.goto(path.as_uri())
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("student", sorted(HANDED))
def test_a_feedback_page_loads_nothing_from_off_the_machine(
        page: Page, course: Path, asked: list[str], student: str) -> None:
    open_page(page, course / "assignments" / "feedback" / student / "plaisante"
              / "plaisante.html")
    expect(page.locator("#toc")).to_contain_text("Step 1")
    assert asked == []
    assert page.locator("script[src]").count() == 0


def test_the_class_report_and_similarity_page_load_nothing_from_off_the_machine(
        page: Page, course: Path, asked: list[str]) -> None:
    reports = course / "assignments" / "reports" / "plaisante"
    open_page(page, reports / "index.html")
    expect(page.locator("h1")).to_contain_text("class report")
    assert page.locator("img").evaluate_all("images => images.every(i => i.naturalWidth)")
    open_page(page, reports / "similarity.html")
    expect(page.locator("body")).to_contain_text("ada")
    assert asked == []


@pytest.mark.parametrize("width", [1280, 800])
def test_a_failing_test_cell_reads_as_failing_at_a_glance(
        page: Page, course: Path, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    open_page(page, course / "assignments" / "feedback" / "bob" / "plaisante"
              / "plaisante.html")
    failed = page.locator(".plaisante-test[data-state=failed]")
    expect(failed).to_have_count(1)  # straight_before_flush: evaluate's cell
    heading = failed.locator(".panel-heading")
    expect(heading).to_contain_text("✘ failed test cell step4_evaluate")
    passed = page.locator(".plaisante-test[data-state=passed]").first
    expect(passed.locator(".panel-heading")).to_contain_text("✔ passed")
    colour = "e => getComputedStyle(e).backgroundColor"
    assert heading.evaluate(colour) == "rgb(163, 0, 27)"
    assert passed.locator(".panel-heading").evaluate(colour) == "rgb(27, 110, 53)"
    said = page.locator("div.cell", has=failed).locator(".plaisante-test-output .output_wrapper")
    expect(said).to_contain_text("✘ fails: evaluate(")  # the notebook's words, no class name
    expect(said).not_to_contain_text("CheckFailed")
    assert said.evaluate(colour) == "rgb(253, 236, 238)"
    frame, box = failed.bounding_box(), said.bounding_box()
    assert frame and box
    # the message is inside the cell's frame: the same width, right under its code
    assert abs(box["x"] - frame["x"]) <= 1 and abs(box["width"] - frame["width"]) <= 1, (frame,
                                                                                       box)
    assert -3 <= box["y"] - (frame["y"] + frame["height"]) <= 1, (frame, box)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    said.scroll_into_view_if_needed()
    failed.evaluate("e => e.scrollIntoView()")
    shots = KIT / "build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"feedback-failing-{width}.png"))


def test_code_and_messages_wrap_between_words(page: Page, course: Path) -> None:
    """A long line of a feedback page wraps at a space, as the notebook does; Bootstrap's
    ``pre`` once cut every word at the edge ("fix that line and ru|n the cell again")."""
    page.set_viewport_size({"width": 800, "height": 800})
    open_page(page, course / "assignments" / "feedback" / "bob" / "plaisante"
              / "plaisante.html")
    code = page.locator("div.input_area pre", has_text="# Step 2, trace:").first
    said = page.locator(".plaisante-test-output div.output_area pre").first
    for pre in (code, said):
        assert pre.evaluate("e => getComputedStyle(e).wordBreak") == "normal"
        assert pre.evaluate("e => getComputedStyle(e).overflowWrap") == "anywhere"
    # a long comment line of the code wraps: its first row ends at a space, not mid-word
    rows = code.evaluate("""e => {
        const range = document.createRange(), text = e.innerText, ends = [];
        const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        let top = null, last = '';
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.length; i++) {
            range.setStart(node, i); range.setEnd(node, i + 1);
            const box = range.getClientRects()[0];
            if (!box) continue;
            if (top !== null && box.top > top + 2 && last !== '\\n' && node.data[i] !== '\\n')
              ends.push(last + node.data[i]);
            top = box.top; last = node.data[i];
          }
        }
        return ends;
    }""")
    cut = [pair for pair in rows if pair[0].isalnum() and pair[1].isalnum()]
    assert rows and not cut, (rows, cut)

