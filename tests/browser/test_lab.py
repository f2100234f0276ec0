"""The round and the gate in a real JupyterLab, driven by clicks in headless Chromium; the
round's notebook saved and reopened with a new kernel reads a line asking to run the cell."""

from __future__ import annotations

import re
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Samples shipped with the course whose has_straight ignores duplicates (none yet is fine:
# the test builds its own from the reference solution).
STRAIGHT_NOTEBOOKS = ["students/has_straight_duplicates.ipynb"] + [
    f"students/samples/{path.name}" for path in harness.straight_samples(harness.KIT)]


def test_a_whole_round_by_clicking_in_jupyterlab(page: Page, lab: harness.Server, ref,
                                                 course: Path) -> None:
    notebook = "students/plaisante_reopened.ipynb"
    harness.student_copy(course / "students" / "reference.ipynb", course / notebook)
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    table = harness.Table(harness.last_output(page))
    expect(table.held).to_have_count(8, timeout=30_000)
    harness.wait_queue_empty(page)
    assert harness.prompts(page)[-1] == f"[{len(harness.prompts(page))}]:"
    scores = harness.play_whole_round(page, table, ref)
    assert len(scores) == 4 and all(score > 0 for score in scores)
    harness.expect_live(page)
    harness.save_and_reopen(page, lab, notebook)
    harness.expect_stand_in(page, "Plaisante: run this cell to play a round.")


def run_all_to_the_checklist(page: Page, lab: harness.Server, notebook: str):
    """Open ``notebook``, Run All, and return the last cell's checklist once every cell ran in
    order: unanswered and failing cells carry raises-exception, so Run All never stops."""
    harness.open_notebook(page, lab, notebook)
    harness.run_all(page)
    checklist = harness.last_output(page).locator(".plaisante-checklist")
    expect(checklist).to_be_visible(timeout=30_000)
    harness.wait_queue_empty(page)
    ran = harness.prompts(page)
    assert ran == [f"[{n}]:" for n in range(1, len(ran) + 1)], ran
    return checklist


def test_the_untouched_starter_shows_the_checklist_naming_step_1(
        page: Page, lab: harness.Server) -> None:
    checklist = run_all_to_the_checklist(page, lab, "students/starter.ipynb")
    expect(checklist.locator("h3")).to_have_text(
        "Not yet: step 1 (Card) needs work before the game can start")
    expect(checklist.locator(".plaisante-step-first")).to_contain_text(
        "Step 1: Card — to do")
    expect(checklist.locator(".plaisante-step-first")).to_contain_text(
        "finish step 1: Card still raises NotImplementedError")
    for step, title in ((2, "count_values"), (3, "the has-checks"), (4, "scoring"),
                        (5, "Tableau")):
        expect(checklist).to_contain_text(f"Step {step}: {title} — to do")
    expect(page.locator(".plaisante-table")).to_have_count(0)


@pytest.mark.parametrize("notebook", STRAIGHT_NOTEBOOKS)
def test_a_has_straight_ignoring_duplicates_shows_the_checklist_naming_has_straight(
        page: Page, lab: harness.Server, notebook: str) -> None:
    checklist = run_all_to_the_checklist(page, lab, notebook)
    expect(checklist.locator("h3")).to_have_text(
        "Not yet: step 3 (the has-checks) needs work before the game can start")
    for step, title in ((1, "Card"), (2, "count_values"), (4, "scoring"), (5, "Tableau")):
        expect(checklist).to_contain_text(f"Step {step}: {title} — passes")
    expect(checklist).to_contain_text("Step 3: the has-checks — fails")
    expect(checklist).to_contain_text(re.compile(r"has_straight\(.*\): expected False, got True"))
    expect(page.locator(".plaisante-table")).to_have_count(0)
