"""The formgrader's Autograde button (Manage Assignments > an assignment > ⚡ on a submission row)
grades with ``plaisante grade`` in the sandbox: a submission whose code writes a file outside
its sandbox writes nothing, and the gradebook holds the judge's score for it. nbgrader's
Validate, which would run the submission in the server too, is not served there.

A flagged submission with no autograded notebook (its file was not a notebook) opens on
nbgrader's own "not found" page, answered 404, never a 500. nbgrader's own scripts work under
the pages' Content Security Policy: the grading page's keyboard navigation (which waits for
MathJax), and the "Add new assignment/student" links (``onClick=``), with no CSP violation.

Its own course copy, released; the submission is handed in and not graded before the click."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
from pathlib import Path

import harness
import nbformat
import pytest
from nbformat.v4 import new_code_cell
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.sandbox]

SAMPLE = "straight_ignores_duplicates"  # not full marks: the score says which grader ran
STUDENT = "mallory"
UNREADABLE = "eve"  # her file is not JSON: flagged, no autograded notebook
GRADED = ("ada", "grace")  # full marks, graded before the server starts


def marked_copy(source: Path, dest: Path, marker: Path) -> Path:
    """Write ``source`` with a first code cell that writes ``marker`` (outside any sandbox)."""
    notebook = nbformat.read(source, as_version=4)
    first_code = next(i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code")
    notebook.cells.insert(first_code + 1, new_code_cell(
        "try:\n"
        f"    open({str(marker)!r}, 'w').write('student code ran here')\n"
        "except OSError:\n"
        "    pass"))
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, dest)
    return dest


@pytest.fixture(scope="module")
def formgrader(tmp_path_factory: pytest.TempPathFactory):
    """``plaisante formgrader --no-browser`` on a released course copy with mallory's
    submission handed in (not graded) and eve's, not a notebook, graded (flagged); yields the
    server, the course and the marker's path."""
    tmp_path = tmp_path_factory.mktemp("autograde-button")
    course = harness.course_copy(tmp_path / "course")
    harness.run_course(course, "release", "plaisante")
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o777)  # whoever runs the student's code could write here
    marker = outside / "marker"
    samples = course / "assignments" / "samples" / "plaisante"
    handed = marked_copy(samples / f"{SAMPLE}.ipynb", tmp_path / "handed" / "plaisante.ipynb",
                         marker)
    harness.run_course(course, "submit", str(handed), "--student", STUDENT)
    unreadable = course / "assignments" / "submitted" / UNREADABLE / "plaisante"
    unreadable.mkdir(parents=True)
    (unreadable / "plaisante.ipynb").write_bytes(b'{"cells": [')
    for student in GRADED:
        harness.run_course(course, "submit", str(samples / "full_marks.ipynb"), "--student",
                           student)
    harness.run_course(course, "grade", "plaisante", "--student", UNREADABLE,
                       *[f"--student={student}" for student in GRADED])
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
        yield server.wait_ready(), course, marker
    finally:
        server.stop()


def test_the_autograde_button_grades_in_the_sandbox(
        page: Page, formgrader: tuple[harness.Server, Path, Path]) -> None:
    server, course, marker = formgrader
    manifest = json.loads((course / "assignments" / "samples" / "plaisante" / "manifest.json"
                           ).read_text(encoding="utf-8"))
    expected = manifest["samples"][SAMPLE]["expected"]["total"]
    assert expected < 100

    page.goto(server.url("/formgrader"))  # the token becomes the session's cookie
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)
    page.goto(server.base + "/formgrader/manage_submissions/plaisante")
    row = page.locator("#main-table tr", has=page.locator(
        "td.student-id", has_text=re.compile(f"^{STUDENT}$")))
    expect(row).to_have_count(1, timeout=60_000)
    with page.expect_response(lambda response: response.url.endswith(
            f"/formgrader/api/submission/plaisante/{STUDENT}/autograde"),
            timeout=900_000) as answered:
        row.locator("td.autograde a").click()
    assert answered.value.status == 200, answered.value.text()
    result = answered.value.json()
    assert result["success"] is True, result
    expect(page.locator("#success-modal")).to_contain_text(
        f"Successfully autograded 'plaisante' for student '{STUDENT}'.", timeout=30_000)

    # nbgrader's Validate would run the submission in the server: not served by the formgrader
    validate = page.request.post(server.base + "/assignments/validate",
                                 headers={"Authorization": f"token {server.token}"},
                                 form={"path": f"assignments/submitted/{STUDENT}/plaisante/"
                                               "plaisante.ipynb"})
    assert validate.status == 404, validate.text()

    assert not marker.exists(), "the student's code ran outside the sandbox"
    assert (course / "assignments" / "autograded" / STUDENT / "plaisante" / "plaisante.ipynb"
            ).is_file()
    graded = page.request.get(server.url(f"/formgrader/api/submission/plaisante/{STUDENT}"))
    assert graded.status == 200, graded.text()
    assert graded.json()["score"] == expected
    assert graded.json()["max_score"] == 100


def test_a_submission_with_no_autograded_notebook_opens_a_not_found_page(
        page: Page, formgrader: tuple[harness.Server, Path, Path]) -> None:
    server, course, _ = formgrader
    from nbgrader.api import Gradebook

    with Gradebook("sqlite:///" + str(course / "assignments" / "gradebook.db"),
                   "plaisante-kit") as gradebook:
        notebook = gradebook.find_submission_notebook("plaisante", "plaisante", UNREADABLE)
        submission_id, flagged = notebook.id, notebook.flagged
    assert flagged
    page.goto(server.url("/formgrader"))
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)
    answer = page.goto(server.base + f"/formgrader/submissions/{submission_id}/")
    assert answer is not None and answer.status == 404, answer and answer.text()
    expect(page.locator("#notebook-container")).to_contain_text(
        "Submission notebook file not found")
    expect(page.locator(".navbar")).to_be_visible()  # nbgrader's own page, with its menu


def csp_violations(page: Page) -> list[str]:
    """Collect the console's Content Security Policy messages of ``page`` from now on."""
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text)
            if "Content Security Policy" in message.text else None)
    return said


def test_the_grading_page_s_keyboard_navigation_works_under_the_policy(
        page: Page, formgrader: tuple[harness.Server, Path, Path]) -> None:
    server, course, _ = formgrader
    from nbgrader.api import Gradebook

    autograded = course / "assignments" / "autograded"
    with Gradebook("sqlite:///" + str(course / "assignments" / "gradebook.db"),
                   "plaisante-kit") as gradebook:
        ids = [notebook.id for notebook in gradebook.notebook_submissions("plaisante", "plaisante")
               if (autograded / notebook.student.id / "plaisante" / "plaisante.ipynb").is_file()]
    assert len(ids) >= len(GRADED)
    page.goto(server.url("/formgrader"))
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)
    violations = csp_violations(page)
    page.goto(server.base + f"/formgrader/submissions/{ids[0]}/?index=0")
    page.wait_for_function("() => window.formgrader && formgrader.loaded === true"
                           " && MathJax.loaded === true", timeout=60_000)
    # once MathJax has "started", formgrade.js focuses an input; Tab moves to the next one
    active = "() => [document.activeElement.className, document.activeElement.id]"
    page.wait_for_function("() => document.activeElement.classList.contains('tabbable')",
                           timeout=30_000)
    before = page.evaluate(active)
    page.keyboard.press("Tab")
    after = page.evaluate(active)
    assert "tabbable" in after[0] and after != before, (before, after)
    with page.expect_navigation(timeout=60_000):
        page.keyboard.press("Control+Period")
    # nbgrader's "next": the following submission's page, or after the last the notebook's list
    after_last = page.url.endswith("/formgrader/gradebook/plaisante/plaisante")
    assert after_last or any(f"/formgrader/submissions/{other}/" in page.url
                             for other in ids[1:]), (page.url, ids)
    if not after_last:
        page.wait_for_function("() => window.formgrader && formgrader.loaded === true",
                               timeout=60_000)
    assert violations == []


@pytest.mark.parametrize(("path", "link", "dialog"), [
    ("/formgrader/manage_assignments", "Add new assignment...", "#add-assignment-modal"),
    ("/formgrader/manage_students", "Add new student...", "#add-student-modal")])
def test_the_add_links_open_their_dialogs_under_the_policy(
        page: Page, formgrader: tuple[harness.Server, Path, Path], path: str, link: str,
        dialog: str) -> None:
    server, _, _ = formgrader
    page.goto(server.url("/formgrader"))
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)
    violations = csp_violations(page)
    page.goto(server.base + path)
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)
    page.get_by_role("link", name=link).click()
    expect(page.locator(dialog)).to_be_visible(timeout=30_000)
    assert violations == []
