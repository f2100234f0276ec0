"""The course in JupyterLite, in headless Chromium, offline: the site ``plaisante lite`` built
(once a session), served on loopback by ``python -m http.server``, every request to anything
but loopback aborted and recorded (none may be needed). Per assignment: the starter shows its
checklist; the reference solution pasted into the starter shows the game and one move works;
the downloaded notebook grades to the reference's score with ``plaisante grade``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import nbformat
import pytest
from course_cli import cli, new_course
from playwright.sync_api import Page, expect

from plaisante.course import CourseLayout
from plaisante.games import COURSE

pytestmark = pytest.mark.browser
KERNEL = 240_000  # Pyodide's first start on a loaded 2-core machine: a minute or more
# the game's first element, per assignment: the reference's Run All shows it
GAME = {"plaisante": ".plaisante-table", "deck": ".deck-table", "video_poker": ".vp-machine",
        "holdem": ".holdem-table", "tricks": ".tricks-table"}


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site of the five starters, built by the real verb, served on 127.0.0.1."""
    out = tmp_path_factory.mktemp("lite") / "site"
    cli("--course", str(harness.KIT), "lite", *COURSE, "--out", str(out), cwd=harness.KIT)
    port = harness.free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                               "127.0.0.1", "--directory", str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        harness.Server("http.server", port, "", server, out / "none.log", "/").wait_ready()
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def offline(context: Any, lite_site: str) -> Iterator[list[str]]:
    """Abort every request not to the site; the list of aborted URLs must stay empty."""
    aborted: list[str] = []

    def route(request_route: Any) -> None:
        if request_route.request.url.startswith(lite_site):
            request_route.continue_()
        else:
            aborted.append(request_route.request.url)
            request_route.abort()
    context.route("**/*", route)
    yield aborted
    assert aborted == [], f"the site asked for something outside itself: {aborted[:5]}"


def open_in_lite(page: Page, site: str, assignment: str) -> Any:
    page.goto(f"{site}lab/index.html?path={assignment}.ipynb")
    status = page.locator(".jp-StatusBar-TextItem", has_text=harness.KERNEL_IDLE)
    expect(status).to_have_count(1, timeout=KERNEL)
    expect(status).to_contain_text("Pyodide")
    return page.locator(f"{harness.ACTIVE_PANEL} .jp-Cell")


def run_cell(page: Page, cell: Any) -> None:
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    expect(cell.locator(".jp-InputPrompt")).not_to_have_text("[*]:", timeout=KERNEL)


def paste_reference(page: Page, cells: Any, assignment: str) -> None:
    """Replace each answer cell's code with the reference's (the full-marks sample)."""
    starter = nbformat.read(harness.KIT / "starter" / assignment / f"{assignment}.ipynb", 4)
    full = nbformat.read(harness.SAMPLES / assignment / "full_marks.ipynb", 4)
    assert len(starter.cells) == len(full.cells)
    for index, (mine, ref) in enumerate(zip(starter.cells, full.cells)):
        if mine.cell_type == "code" and mine.source != ref.source:
            cells.nth(index).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Control+A")
            page.keyboard.insert_text(ref.source)
            page.keyboard.press("Escape")
    page.keyboard.press("Control+S")


def student_path(page: Page, site: str, assignment: str, tmp_path: Path) -> None:
    cells = open_in_lite(page, site, assignment)
    # The untouched starter: its setup cell, then its last cell, show the checklist.
    run_cell(page, cells.nth(1))
    run_cell(page, cells.last)
    checklist = harness.last_output(page).locator(".plaisante-checklist")
    expect(checklist).to_be_visible(timeout=KERNEL)
    expect(checklist.locator("h3")).to_contain_text("Not yet")
    # The reference pasted in: Run All shows the game.
    paste_reference(page, cells, assignment)
    harness.run_all(page)
    game = harness.last_output(page).locator(GAME[assignment])
    expect(game.first).to_be_visible(timeout=KERNEL)
    if assignment == "plaisante":
        table = harness.Table(harness.last_output(page))
        expect(table.held).to_have_count(8)
        table.held.nth(0).click()
        expect(table.selected).to_have_count(1)
    # Download it, hand it in, grade it.
    page.get_by_role("menuitem", name="File", exact=True).click()
    with page.expect_download() as download:
        page.locator("#jp-mainmenu-file li[data-command='docmanager:download']").click()
    saved = tmp_path / f"{assignment}.ipynb"
    download.value.save_as(saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["cells"]
    root = new_course(tmp_path / "course")
    cli("release", assignment, cwd=root)
    cli("submit", str(saved), "--student", "lite", cwd=root)
    cli("grade", assignment, "--workers", "1", cwd=root)
    manifest = json.loads((harness.SAMPLES / assignment / "manifest.json").read_text())
    report = json.loads(CourseLayout(root).report(assignment, "lite").read_text(encoding="utf-8"))
    assert report["total"] == manifest["samples"]["full_marks"]["expected"]["total"], report


def test_plaisante_in_jupyterlite_offline(page: Page, lite_site: str, offline: list[str],
                                         tmp_path: Path) -> None:
    student_path(page, lite_site, "plaisante", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", [a for a in COURSE if a != "plaisante"])
def test_every_other_assignment_in_jupyterlite_offline(page: Page, lite_site: str,
                                                       offline: list[str], tmp_path: Path,
                                                       assignment: str) -> None:
    student_path(page, lite_site, assignment, tmp_path)
