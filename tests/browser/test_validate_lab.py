"""nbgrader's Validate button in a real JupyterLab: on a notebook whose visible tests pass, its
dialog says so and that hidden tests run at grading (the kit's JupyterLab extension), never
"passes all the tests"; a failing notebook's dialog is nbgrader's own."""

from __future__ import annotations

import re

import harness
import pytest
from playwright.sync_api import Page, expect

from plaisante.intake.nbgrader_validate import NBGRADER_SAYS, PASSED

pytestmark = pytest.mark.browser

PASSING = "assignments/samples/plaisante/full_marks.ipynb"
FAILING = "assignments/samples/plaisante/has_pair_at_least_two.ipynb"
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


def test_a_failing_notebook_gets_nbgraders_own_failure_dialog(
        page: Page, lab: harness.Server) -> None:
    dialog = validate(page, lab, FAILING)
    message = dialog.locator("#validation-message")
    expect(message).to_have_class(re.compile(r"\bvalidation-failed\b"))
    expect(message).to_contain_text("The following cell failed:")
    expect(message).to_contain_text("has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True")
    expect(message).not_to_contain_text(PASSED)
