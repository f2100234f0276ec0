"""The formgrader's Autograde button (Manage Assignments > an assignment > ⚡ on a submission row)
grades with ``plaisante grade`` in the sandbox: a submission whose code writes a file outside
its sandbox writes nothing, and the gradebook holds the judge's score for it. nbgrader's
Validate, which would run the submission in the server too, is not served there.

A flagged submission with no autograded notebook (its file was not a notebook) opens on
nbgrader's own "not found" page, answered 404, never a 500.

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
    harness.run_course(course, "grade", "plaisante", "--student", UNREADABLE)
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
