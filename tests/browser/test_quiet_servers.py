"""``plaisante demo`` and ``plaisante formgrader`` say nothing an instructor cannot act on,
with a browser on their pages: no warning that the kernel talks over TCP unencrypted, none of
tornado's about the websocket's ping, no traitlets DeprecationWarning, no "Jupyter news"
question over the formgrader's lab. ``demo --no-browser`` prints its address once Voila
answers, and SIGTERM to ``plaisante formgrader`` ends its JupyterLab."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import harness
import pytest
from course_cli import new_course
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

#: What the servers used to log on every start or page, none of it an instructor's to act on.
NOISE = ("WARNING", "DeprecationWarning", "without encryption", "websocket_ping_timeout",
         "Traceback")


def answers(url: str) -> int | None:
    """Return the HTTP status ``url`` answers with, None when nothing listens."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (urllib.error.URLError, OSError):
        return None


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return new_course(tmp_path_factory.mktemp("quiet") / "course")


def test_demo_prints_its_address_once_voila_answers_and_logs_no_warning(
        page: Page, course: Path, tmp_path: Path) -> None:
    port = harness.free_port()
    errors = tmp_path / "demo.err"
    demo = subprocess.Popen(
        [str(harness.VENV_BIN / "plaisante"), "demo", "plaisante", "--no-browser",
         f"--port={port}"], cwd=course, env=harness.jupyter_env(tmp_path / "home"),
        stdout=subprocess.PIPE, stderr=errors.open("wb"), text=True, start_new_session=True)
    try:
        assert demo.stdout is not None
        line = demo.stdout.readline()
        assert line.startswith("plaisante demo: plaisante on the reference solution at "
                               f"http://127.0.0.1:{port}/"), line
        assert answers(f"http://127.0.0.1:{port}/voila/static/voila.js") == 200  # already
        page.goto(f"http://127.0.0.1:{port}/")
        cards = page.locator(".plaisante-presenter-cards .plaisante-card")
        expect(cards).to_have_count(8, timeout=90_000)
        cards.nth(0).click()  # the kernel's websocket in use
        expect(page.get_by_label("scoring x-ray")).to_be_visible()
    finally:
        os.killpg(demo.pid, signal.SIGTERM)
        demo.wait(timeout=30)
    said = errors.read_text(encoding="utf-8")
    assert not [word for word in NOISE if word in said], said
    assert said == "", said


def test_the_formgrader_shows_no_news_logs_no_warning_and_ends_with_sigterm(
        page: Page, course: Path, tmp_path: Path) -> None:
    port, token = harness.free_port(), "quiet-token"
    errors = tmp_path / "formgrader.err"
    env = harness.jupyter_env(tmp_path / "home")  # no settings of ours: the kit's own lab
    formgrader = subprocess.Popen(
        [str(harness.VENV_BIN / "plaisante"), "formgrader", "--no-browser", f"--port={port}",
         "--", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}"],
        cwd=course, env=env, stdout=subprocess.DEVNULL, stderr=errors.open("wb"),
        start_new_session=True)
    server = harness.Server("plaisante formgrader", port, token, formgrader, errors,
                            "/api/status")
    try:
        server.wait_ready(timeout=120)
        page.goto(server.url("/lab"))
        expect(page.locator(".jp-LauncherCard").first).to_be_visible(timeout=60_000)
        config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
        assert "@jupyterlab/apputils-extension:announcements" in config["disabledExtensions"]
        expect(page.get_by_text("official Jupyter news")).to_have_count(0)
        page.goto(server.url("/formgrader"))
        expect(page.get_by_text("Manage Assignments").first).to_be_visible(timeout=60_000)
        formgrader.send_signal(signal.SIGTERM)  # to plaisante alone, as `kill PID` does
        assert formgrader.wait(timeout=60) == 0
        assert answers(server.url("/api/status")) is None  # its JupyterLab ended with it
    finally:
        server.stop()
    said = errors.read_text(encoding="utf-8")
    assert not [word for word in NOISE if word in said], said
    assert not [line for line in said.splitlines() if line.startswith("[W ")], said
