"""nbgrader's Validate button in a real JupyterLab: on a notebook whose visible tests pass, its
dialog says so and that hidden tests run at grading (the kit's JupyterLab extension), never
"passes all the tests"; on a failing or half-done notebook it says one line a failing test cell,
the lines ``plaisante validate`` says, never a traceback (the course's nbgrader_config.py and
the same extension)."""

from __future__ import annotations

import re
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

from plaisante.intake.nbgrader_validate import NBGRADER_SAYS, PASSED
from plaisante.intake.validate import run

pytestmark = pytest.mark.browser

PASSING = "assignments/samples/plaisante/full_marks.ipynb"
FAILING = "assignments/samples/plaisante/has_pair_at_least_two.ipynb"
HALF_DONE = "assignments/samples/plaisante/steps_1_to_3_only.ipynb"
SHOTS = harness.KIT / "build" / "screenshots"


def validate(page: Page, lab: harness.Server, notebook: str):
    """Open ``notebook``, click Validate and return the dialog once its results are in."""
    harness.open_notebook(page, lab, notebook)
    page.locator(f"{harness.ACTIVE_PANEL} .validate-button").click()
    dialog = page.locator(".jp-Dialog", has_text="Validation Results")
    expect(dialog.locator("#validation-message")).to_be_visible(timeout=240_000)
    return dialog


def test_validate_says_the_visible_tests_pass_and_hidden_ones_run_at_grading(
        page: Page, lab: harness.Server) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    dialog = validate(page, lab, PASSING)
    message = dialog.locator("#validation-message")
    expect(message).to_have_class(re.compile(r"\bvalidation-success\b"))
    expect(message).to_have_text(PASSED)
    assert NBGRADER_SAYS not in message.inner_text()
    page.screenshot(path=str(SHOTS / "validate-1280.png"))
    page.set_viewport_size({"width": 800, "height": 800})
    expect(message).to_have_text(PASSED)
    page.screenshot(path=str(SHOTS / "validate-800.png"))
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)


def test_a_failing_notebook_says_its_failing_check_in_one_line(
        page: Page, lab: harness.Server) -> None:
    dialog = validate(page, lab, FAILING)
    message = dialog.locator("#validation-message")
    expect(message).to_have_class(re.compile(r"\bvalidation-failed\b"))
    expect(message.locator("p")).to_have_text(["1 test cell fails its visible tests:"])
    expect(message.locator("li")).to_have_text(
        ["step3_has_pair: has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True"])
    expect(message).not_to_contain_text(PASSED)
    expect(message).not_to_contain_text("The following cell failed:")


def test_a_half_done_notebook_says_what_is_not_done_one_line_a_cell_as_plaisante_validate(
        page: Page, lab: harness.Server, course: Path) -> None:
    """Steps 4 and 5 not started: their trace answers unset (a NameError in the test cell,
    the normal state of a student's work) and their parts still the starter's stubs."""
    said = [f"{r.grade_id}: {r.error}" for r in run(course / HALF_DONE) if r.error is not None]
    assert any("is not set yet" in line for line in said), said  # the NameError case is in it
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    dialog = validate(page, lab, HALF_DONE)
    message = dialog.locator("#validation-message")
    expect(message).to_have_class(re.compile(r"\bvalidation-failed\b"))
    expect(message.locator("p")).to_have_text([f"{len(said)} test cells fail their visible tests:"])
    expect(message.locator("li")).to_have_text(said)
    for raw in ("Traceback", "NameError", "The following cell failed:", "check_shape("):
        expect(message).not_to_contain_text(raw)
    page.screenshot(path=str(SHOTS / "validate-half-done-1280.png"))
    page.set_viewport_size({"width": 800, "height": 800})
    expect(message.locator("li")).to_have_text(said)
    last = message.locator("li").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    page.screenshot(path=str(SHOTS / "validate-half-done-800.png"))
    # by keyboard: the dialog's Ok has the focus, and Enter closes it
    expect(dialog.get_by_role("button", name="Ok")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
