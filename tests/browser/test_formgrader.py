"""nbgrader's formgrader, opened from JupyterLab's Nbgrader menu on the kit's folder mapping,
lists the course's assignments, and the plaisante assignment's autograded sample submissions
with their scores."""

from __future__ import annotations

import json
import re

import harness
import pytest
from playwright.sync_api import Page, expect

from plaisante.games import COURSE

pytestmark = pytest.mark.browser


def test_the_formgrader_lists_the_assignment_and_its_graded_submissions(
        page: Page, lab: harness.Server, graded, course) -> None:
    samples = course / "assignments" / "samples" / "plaisante"
    manifest = json.loads((samples / "manifest.json").read_text())
    expected = {student: manifest["samples"][student]["expected"]["total"]
                for student in graded.students}
    page.goto(lab.url("/lab?reset"))
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.get_by_role("menuitem", name="Formgrader", exact=True).click()
    formgrader = page.frame_locator("iframe[src$='/formgrader']")

    assignments = formgrader.locator("#main-table tr", has=formgrader.locator("td.name"))
    expect(assignments.locator("td.name")).to_have_text(sorted(COURSE), timeout=30_000)
    assignment = assignments.filter(
        has=formgrader.locator("td.name", has_text=re.compile(r"^plaisante$")))
    expect(assignment.locator("td.num-submissions")).to_have_text(str(len(expected)))

    assignment.locator("td.num-submissions a").click()
    rows = formgrader.locator("#main-table tr", has=formgrader.locator("td.student-id"))
    expect(rows).to_have_count(len(expected))
    for student, total in expected.items():
        row = rows.filter(has=formgrader.locator("td.student-id", has_text=student))
        expect(row.locator("td.status")).to_have_text("graded")
        expect(row.locator("td.score")).to_have_text(f"{total:g} / 100")
