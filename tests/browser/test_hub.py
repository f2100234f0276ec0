"""The class live on a real JupyterHub with nbgrader's file-system exchange
(``tests/hub_class.py``; slow: ``make test`` runs the hub once, with the exchange service,
``test_hub_service.py``, and the file-system exchange's watch without a hub,
``tests/test_board_flood.py``): Unix accounts for an
instructor, a TA and three students, the hub with its proxy and LocalProcessSpawner,
nbgrader's exchange in a shared folder, and ``plaisante watch`` running as the instructor.

One student works in JupyterLab through the hub, in Chromium: fetches the assignment from the
Assignments panel, writes a step, submits, fetches the feedback nbgrader's fetch_feedback
brings (the score; no hidden test's code), submits again with one more step and gets the new
grade; the lab board, open in another tab, follows each submission.

Root only (it makes Unix accounts): as another user it is skipped, saying why; as root a
missing hub, proxy or browser fails it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="LOUD SKIP: the hub test makes Unix "
                                 "accounts (useradd) and must run as root, as `make test-slow` "
                                 "in CI")]

KIT = Path(__file__).resolve().parents[2]
SHOTS = KIT / "build" / "screenshots"


def student_code(grade_id: str) -> str:
    """The source notebook's answer for ``grade_id``, as a student would type it."""
    source = nbformat.read(KIT / "solutions" / "plaisante" / "plaisante.ipynb", as_version=4)
    cell = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade_id")
                == grade_id)
    return "\n".join(line for line in cell.source.split("\n")
                     if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)


def hidden_lines() -> list[str]:
    source = nbformat.read(KIT / "solutions" / "plaisante" / "plaisante.ipynb", as_version=4)
    lines = []
    for cell in source.cells:
        inside = False
        for line in cell.source.split("\n"):
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) > 20:
                lines.append(line.strip())
    return lines


@pytest.fixture(scope="module")
def hub() -> Iterator[Any]:
    import hub_class

    with hub_class.HubClass() as made:
        made.start_watch(wait=False)  # gets ready while the student logs in
        yield made


def log_in(page: Any, hub: Any, user: str) -> None:
    page.goto(f"{hub.url}/hub/login")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", hub.password)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_selector(".jp-LabShell", timeout=120_000)


def assignments_panel(page: Any) -> None:
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.get_by_role("menuitem", name="Assignment List").click()


def write_cell(page: Any, index: int, code: str) -> None:
    """Replace cell ``index``'s source with ``code`` as typed text, and save."""
    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)
    cell.scroll_into_view_if_needed()
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    page.keyboard.press("Control+s")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="Saving completed")).to_be_visible()


def submit(page: Any) -> float:
    """Submit from the Assignments tab; return the time (time.time()) nbgrader listed the new
    submission."""
    page.get_by_role("tab", name="Assignments").click()
    rows = page.locator("#submitted_assignments_list .nested_list_item")
    before = rows.count()
    page.get_by_role("button", name="Submit", exact=True).click()
    expect(rows).to_have_count(before + 1, timeout=60_000)
    return time.time()


def fetched_feedback(hub: Any, student: str) -> list[Path]:
    return sorted((hub.home(student) / "plaisante" / "feedback").glob("*/plaisante.html"))


def fetch_feedback(page: Any, hub: Any, student: str, count: int) -> None:
    """Once the watcher has released ``count`` feedback pages of ``student``'s, press Fetch
    Feedback and wait for the ``count``-th page in their home (60 s at most each)."""
    deadline = time.time() + 60
    while hub.watch_said().count(f"{student}: ") < count or \
            "feedback released" not in hub.watch_said().rsplit(f"{student}: ", 1)[-1]:
        assert time.time() < deadline, hub.watch_said()
        time.sleep(0.2)
    page.get_by_role("button", name="Fetch Feedback").first.click()
    deadline = time.time() + 60
    while len(fetched_feedback(hub, student)) < count:
        assert time.time() < deadline, hub.watch_said()
        time.sleep(0.2)


def score_of(page_html: str) -> float:
    found = re.search(r"plaisante: ([\d.]+) / ([\d.]+) points", page_html)
    assert found, page_html[:2000]
    return float(found.group(1))


def test_a_class_on_jupyterhub(hub: Any, context: Any) -> None:
    import hub_class

    alice = hub_class.STUDENTS[0]
    page = context.new_page()
    log_in(page, hub, alice)
    assignments_panel(page)
    page.get_by_role("button", name="Fetch", exact=True).click()
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_visible(timeout=60_000)
    notebook = hub.home(alice) / "plaisante" / "plaisante.ipynb"
    assert notebook.is_file()

    page.goto(f"{hub.url}/user/{alice}/lab/tree/plaisante/plaisante.ipynb")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell",
                           timeout=60_000)
    cells = nbformat.read(notebook, as_version=4).cells
    index = {c.metadata.get("nbgrader", {}).get("grade_id"): n for n, c in enumerate(cells)}
    write_cell(page, index["step1_card_code"], student_code("step1_card_code"))

    hub.wait_watch()
    board = context.new_page()
    board.goto(hub.board_url)
    expect(board.locator("#submitted")).to_have_text("0 / 3")
    expect(board.locator("#waiting .plaisante-chip")).to_have_count(3)

    assignments_panel(page)
    submitted_at = submit(page)
    expect(board.locator("#submitted")).to_have_text("1 / 3", timeout=90_000)
    board_seconds = time.time() - submitted_at
    first = hub.board()["students"][0]
    assert first["student"] == alice and first["status"] == "graded", hub.watch_said()
    assert 0 < first["total"] < first["max_total"]
    expect(board.locator(f"#students tr[data-student='{alice}'] td").nth(1)).to_have_text(
        f"{first['total']:g} / {first['max_total']:g}")
    expect(board.locator("#waiting .plaisante-chip")).to_have_count(2)
    expect(board.locator("#failing tr").first).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 800):
        board.set_viewport_size({"width": width, "height": 900})
        board.screenshot(path=str(SHOTS / f"hub-board-{width}.png"), full_page=True)

    fetch_feedback(page, hub, alice, 1)
    pages = fetched_feedback(hub, alice)
    assert len(pages) == 1, hub.watch_said()
    text = pages[0].read_text(encoding="utf-8")
    assert score_of(text) == first["total"]
    assert not [line for line in hidden_lines() if line in text]

    # a second submission, one more step done: graded again, replacing the first
    page.goto(f"{hub.url}/user/{alice}/lab/tree/plaisante/plaisante.ipynb")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell",
                           timeout=60_000)
    write_cell(page, index["step2_count_values_code"], student_code("step2_count_values_code"))
    assignments_panel(page)
    submit(page)
    expect(board.locator(f"#students tr[data-student='{alice}'] td").nth(1)).not_to_have_text(
        f"{first['total']:g} / {first['max_total']:g}", timeout=90_000)
    second = hub.board()
    assert second["submitted"] == 1 and second["students"][0]["total"] > first["total"]
    page.get_by_role("tab", name="Assignments").click()
    fetch_feedback(page, hub, alice, 2)
    newest = fetched_feedback(hub, alice)[-1]
    assert score_of(newest.read_text(encoding="utf-8")) == second["students"][0]["total"]
    print(f"submit → board updated: {board_seconds:.1f} s")
