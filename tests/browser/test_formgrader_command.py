"""``plaisante formgrader``: JupyterLab on the course opens on nbgrader's formgrader,
the students appear with the roster's names, and the server logs no CRITICAL line (the exchange
is the course's own) while the formgrader and JupyterLab's assignment list are used.

Its own course copy, released, with a roster: nothing needs grading for names to show."""

from __future__ import annotations

import re
import secrets
import subprocess

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NAMES = {"full_marks": ("Ada", "Lovelace"), "straight_ignores_duplicates": ("Grace", "Hopper")}


@pytest.fixture
def formgrader(tmp_path):
    """``plaisante formgrader --no-browser`` on a released course copy, roster imported."""
    course = harness.course_copy(tmp_path / "course")
    harness.run_course(course, "release", "plaisante")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,first_name,last_name,email\n" + "".join(
        f"{student},{first},{last},{student}@example.edu\n"
        for student, (first, last) in NAMES.items()), encoding="utf-8")
    harness.run_course(course, "roster", "import", str(roster))
    home = tmp_path / "home"
    settings = harness._lab_settings(home)
    port, token = harness.free_port(), secrets.token_hex(16)
    log = home / "formgrader.log"
    cmd = [str(harness.VENV_BIN / "plaisante"), "--course", str(course), "formgrader",
           "--no-browser", f"--port={port}", "--", "--ServerApp.ip=127.0.0.1",
           f"--IdentityProvider.token={token}", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.extension_manager=readonly",
           f"--LabApp.workspaces_dir={home / 'workspaces'}",
           f"--LabApp.user_settings_dir={settings}"]
    process = subprocess.Popen(cmd, cwd=tmp_path, env=harness.jupyter_env(home),
                               stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               start_new_session=True)
    server = harness.Server("plaisante formgrader", port, token, process, log, "/api/status")
    try:
        yield server.wait_ready(), course
    finally:
        server.stop()


def test_formgrader_opens_with_roster_names_and_logs_no_critical_line(
        page: Page, formgrader: tuple[harness.Server, object]) -> None:
    server, course = formgrader
    page.goto(server.url("/"))  # the server's default page is the formgrader
    expect(page).to_have_url(re.compile(r"/formgrader"), timeout=30_000)
    expect(page.locator("#main-table td.name", has_text=re.compile(r"^plaisante$"))
           ).to_have_count(1, timeout=30_000)
    page.get_by_role("link", name="Manage Students").click()
    rows = page.locator("#main-table tr", has=page.locator("td.id"))
    expect(rows).to_have_count(len(NAMES), timeout=30_000)
    for student, (first, last) in NAMES.items():
        row = rows.filter(has=page.locator("td.id", has_text=re.compile(f"^{student}$")))
        expect(row.locator("td.name")).to_have_text(f"{last}, {first}")
        expect(row.locator("td.email")).to_have_text(f"{student}@example.edu")
    expect(page.locator("#main-table")).not_to_contain_text("None")

    # JupyterLab on the same server; its assignment list asks nbgrader's exchange for the
    # courses (where the CRITICAL line came from): the answer comes after the server logged
    page.goto(server.url("/lab?reset"))
    with page.expect_response(lambda response: "/courses?" in response.url, timeout=60_000):
        page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
        page.get_by_role("menuitem", name="Assignment List", exact=True).click()
    log = server.log.read_text(errors="replace")
    assert "Released assignments" in log  # the exchange was listed
    assert "CRITICAL" not in log and "Unwritable" not in log, \
        [line for line in log.splitlines() if "[C " in line or "CRITICAL" in line]
    assert (course / "assignments" / "exchange").is_dir()
