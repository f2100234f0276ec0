"""Shared machinery for driving JupyterLab and Voila in headless Chromium.

Used by the browser tests (``tests/browser``), ``bench/browser.py`` and
``bench/screenshots.py``. Recipe: ``../shared/guides/browser-testing.md`` — Debian's chromium
driven by Playwright's Python package, never ``playwright install``.

Every server runs on 127.0.0.1 on a free port with a random token, in a temporary copy of the
course, with its own JUPYTER_CONFIG_DIR, JUPYTER_RUNTIME_DIR and IPYTHONDIR, so nothing here
reads or writes the instructor's files or settings.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# Each phase's report of a test, on its item (conftest's hook): fixtures keep a trace on failure
REPORTS = pytest.StashKey[dict]()
KIT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
SOURCE = KIT / "solutions" / "plaisante" / "plaisante.ipynb"
STARTER = KIT / "starter" / "plaisante" / "plaisante.ipynb"
DEMO = KIT / "notebooks" / "demo.ipynb"
SAMPLES = KIT / "assignments" / "samples"

# Debian's browser; the inner binary skips the shell wrapper's harmless /dev/shm warning.
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 720}  # a classroom projector

# has_straight that ignores duplicate values (a classic mistake): 5♣ 5♦ 6♥ 7♠ 9♣ passes.
STRAIGHT_GOOD = "len(values) == 5 and len(set(values)) == 5 and "
STRAIGHT_BAD = "len(values) == 5 and "


def chromium_path() -> str:
    """Return Debian's Chromium binary (or $PLAISANTE_CHROMIUM when set).

    Raises FileNotFoundError when it is missing: the browser tests then fail, never skip.
    """
    wanted = os.environ.get("PLAISANTE_CHROMIUM")
    for path in [wanted] if wanted else CHROMIUM_CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        f"Chromium is missing: no executable {wanted or ' or '.join(CHROMIUM_CANDIDATES)}; "
        "the browser tests need it: `apt-get install -y chromium` (`make test` as root does it)")


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ------------------------------------------------------------------------------ course copy

def course_copy(dest: Path) -> Path:
    """Copy the course (config, solutions, starter, notebooks, samples) into ``dest``; return it.

    The gradebook and nbgrader's generated folders are not copied: the copy starts clean.
    """
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(KIT / "nbgrader_config.py", dest / "nbgrader_config.py")
    for folder in ("solutions", "starter", "notebooks"):
        shutil.copytree(KIT / folder, dest / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    if SAMPLES.is_dir():
        shutil.copytree(SAMPLES, dest / "assignments" / "samples",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (dest / "assignments").mkdir(exist_ok=True)
    return dest


def straight_mistake(source: Path, dest: Path) -> Path:
    """Write a copy of the filled-in notebook whose has_straight ignores duplicate values.

    Raises AssertionError if the reference's has_straight no longer reads as expected.
    """
    text = source.read_text(encoding="utf-8")
    good = json.dumps(STRAIGHT_GOOD)[1:-1]
    assert text.count(good) == 1, f"{source}: has_straight no longer contains {STRAIGHT_GOOD!r}"
    dest.write_text(text.replace(good, json.dumps(STRAIGHT_BAD)[1:-1]), encoding="utf-8")
    return dest


def straight_samples(root: Path) -> list[Path]:
    """The course's sample submissions whose has_straight ignores duplicate values, if any."""
    folder = root / "assignments" / "samples" / "plaisante"
    return sorted(folder.glob("*straight*duplicate*.ipynb")) if folder.is_dir() else []


def student_copy(source: Path, dest: Path) -> Path:
    """Copy a notebook for a student run (outputs and nbgrader marks kept as they are)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, dest)
    return dest


# ---------------------------------------------------------------------------------- servers

def jupyter_env(home: Path) -> dict[str, str]:
    """Return an environment with private Jupyter folders and this venv first on PATH."""
    env = dict(os.environ)
    for name, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                      ("IPYTHONDIR", "ipython")):
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / sub)
    env["PATH"] = str(VENV_BIN) + os.pathsep + env.get("PATH", "")
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("NBGRADER_EXECUTION", None)
    env.pop("PLAISANTE_COURSE", None)
    return env


@dataclass
class Server:
    """A Jupyter server process (JupyterLab or Voila) started in its own process group."""

    name: str
    port: int
    token: str
    process: subprocess.Popen[bytes]
    log: Path
    ready_path: str
    started: float = field(default_factory=time.monotonic)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        """Return the URL of ``path`` with the token (if any) appended."""
        if not self.token:
            return self.base + path
        return self.base + path + ("&" if "?" in path else "?") + f"token={self.token}"

    def wait_ready(self, timeout: float = 60) -> Server:
        """Block until the server answers 200 on its ready path; raise with its log otherwise."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n"
                                   + self.log.read_text(errors="replace")[-3000:])
            try:
                with urllib.request.urlopen(self.url(self.ready_path), timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.1)  # polling a starting server, not waiting on the browser
        raise TimeoutError(f"{self.name} not ready after {timeout}s:\n"
                           + self.log.read_text(errors="replace")[-3000:])

    def terminate(self) -> None:
        """Ask the server's whole process group to stop (it shuts its kernels down)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def stop(self, timeout: float = 15) -> None:
        """Stop the server's process group; SIGKILL it if it is not gone after ``timeout``."""
        self.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _lab_settings(home: Path) -> Path:
    settings = home / "settings"
    notify = settings / "@jupyterlab" / "apputils-extension"
    notify.mkdir(parents=True, exist_ok=True)
    (notify / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # Keep every cell in the DOM (prompts readable by textContent) but skip rendering the
    # cells out of view: "full" windowing drops them, "none" makes each click lay out them all.
    tracker = settings / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "contentVisibility"}))
    return settings


def start_lab(root: Path, home: Path) -> Server:
    """Start JupyterLab serving ``root`` (also its working folder); return without waiting."""
    port, token = free_port(), secrets.token_hex(16)
    settings = _lab_settings(home)
    log = home / "lab.log"
    cmd = [str(VENV_BIN / "jupyter"), "lab", "--no-browser", "--allow-root",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.extension_manager=readonly", f"--LabApp.workspaces_dir={home / 'workspaces'}",
           f"--LabApp.user_settings_dir={settings}"]
    process = subprocess.Popen(cmd, cwd=root, env=jupyter_env(home), stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return Server("JupyterLab", port, token, process, log, "/api/status")


def start_voila(notebook: Path, home: Path) -> Server:
    """Start Voila on one notebook (cwd: its course copy's root); return without waiting."""
    port = free_port()
    log = home / "voila.log"
    root = notebook.parent.parent
    cmd = [str(VENV_BIN / "voila"), str(notebook.relative_to(root)), "--no-browser",
           f"--port={port}", "--Voila.ip=127.0.0.1"]
    process = subprocess.Popen(cmd, cwd=root, env=jupyter_env(home), stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return Server("Voila", port, "", process, log, "/voila/static/voila.js")


def start_demo(root: Path, home: Path, *args: str) -> Server:
    """Start ``plaisante demo ARGS… --no-browser`` (Voila on the presenter view) in the course
    copy ``root``; return without waiting."""
    port = free_port()
    log = home / "demo.log"
    cmd = [str(VENV_BIN / "plaisante"), "--course", str(root), "demo", *args, "--no-browser",
           f"--port={port}"]
    process = subprocess.Popen(cmd, cwd=root, env=jupyter_env(home), stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return Server("plaisante demo", port, "", process, log, "/voila/static/voila.js")


def start_demos(root: Path, home: Path, games: tuple[str, ...], seed: int | None = None
                ) -> Server:
    """Start one Voila on a folder of the demo notebooks ``plaisante demo`` runs (one per game
    of ``games``, each ``show(ID, seed=seed)``) in the course copy ``root``; game ``ID`` is at
    ``/voila/render/ID.ipynb``. Returns without waiting."""
    from plaisante.live.demo import demo_notebook

    folder = root / "demos"
    folder.mkdir(exist_ok=True)
    for game in games:
        (folder / f"{game}.ipynb").write_text(json.dumps(demo_notebook(game, seed)),
                                              encoding="utf-8")
    port = free_port()
    log = home / "demos.log"
    home.mkdir(parents=True, exist_ok=True)
    cmd = [str(VENV_BIN / "voila"), str(folder), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", "--theme=dark"]
    env = dict(jupyter_env(home), PLAISANTE_COURSE=str(root))
    process = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return Server("Voila demos", port, "", process, log, "/voila/static/voila.js")


def start_voila_folder(folder: Path, root: Path, home: Path) -> Server:
    """Start one Voila on every notebook of ``folder`` (dark theme, as ``plaisante demo``
    shows), with the course copy ``root`` as its course; a notebook ``NAME`` is at
    ``/voila/render/NAME.ipynb``. Returns without waiting."""
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    log = home / "voila-folder.log"
    cmd = [str(VENV_BIN / "voila"), str(folder), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", "--theme=dark"]
    env = dict(jupyter_env(home), PLAISANTE_COURSE=str(root))
    process = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return Server("Voila folder", port, "", process, log, "/voila/static/voila.js")


def run_course(root: Path, *args: str, timeout: float = 300,
               nice: int = 0) -> subprocess.CompletedProcess[str]:
    """Run ``plaisante --course ROOT ARGS…`` with this venv first on PATH (nbgrader needs it).

    ``nice`` > 0 lowers its CPU priority (background work beside a browser test).
    """
    env = dict(os.environ)
    env["PATH"] = str(VENV_BIN) + os.pathsep + env.get("PATH", "")
    env.pop("NBGRADER_EXECUTION", None)
    prefix = ["nice", "-n", str(nice)] if nice > 0 else []
    return subprocess.run([*prefix, str(VENV_BIN / "plaisante"), "--course", str(root), *args],
                          cwd=root, env=env, text=True, capture_output=True, timeout=timeout,
                          check=True)


# ------------------------------------------------------------------------ JupyterLab pages
# Selectors belong to JupyterLab 4.6 (requirements.txt pins it).

ACTIVE_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
KERNEL_IDLE = re.compile(r"\| Idle$")


def open_notebook(page: Any, lab: Server, relpath: str, timeout: float = 60_000) -> None:
    """Open ``relpath`` in a fresh JupyterLab workspace and wait until its kernel is idle."""
    from playwright.sync_api import expect

    page.goto(lab.url(f"/lab/tree/{relpath}?reset"))
    status = page.locator(".jp-StatusBar-TextItem", has_text=KERNEL_IDLE)
    expect(status).to_have_count(1, timeout=timeout)
    expect(status).not_to_contain_text("No Kernel")
    expect(page.locator(f"{ACTIVE_PANEL} .jp-Notebook-ExecutionIndicator[data-status=idle]")
           ).to_have_count(1, timeout=timeout)


def run_all(page: Any) -> None:
    """Run every cell through the Run menu, as a student does."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator("#jp-mainmenu-run li[data-command='runmenu:run-all']").click()


def last_output(page: Any) -> Any:
    """The output area of the active notebook's last cell."""
    return page.locator(f"{ACTIVE_PANEL} .jp-Notebook .jp-Cell").last.locator(
        ".jp-OutputArea-output")


def save_and_reopen(page: Any, lab: Server, relpath: str) -> dict[str, Any]:
    """Save the open notebook ``relpath`` (File ▸ Save Notebook), shut its kernel down and open
    it again: a new kernel starts and the cells show their saved outputs, every widget's model
    gone with the old kernel (a student's notebook reopened the next day). Return the saved
    last cell (nbformat JSON, as the server holds it)."""
    from playwright.sync_api import expect

    page.get_by_role("menuitem", name="File", exact=True).click()
    page.locator("#jp-mainmenu-file li[data-command='docmanager:save']").click()
    expect(page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty")).to_have_count(0)
    answer = page.request.get(lab.url(f"/api/contents/{relpath}?content=1"))
    assert answer.ok, answer.status
    saved = answer.json()["content"]["cells"][-1]
    sessions = page.request.get(lab.url("/api/sessions"))
    assert sessions.ok, sessions.status
    ours = [s for s in sessions.json() if s["path"] == relpath]
    assert ours, f"no kernel session for {relpath}: {sessions.json()}"
    for session in ours:
        assert page.request.delete(lab.url(f"/api/sessions/{session['id']}")).ok
    open_notebook(page, lab, relpath)
    return saved


def expect_stand_in(page: Any, line: str) -> None:
    """Assert what the reopened notebook's last cell shows of its game: the stand-in ``line``
    ("… run this cell to play"), while ipywidgets' "Error displaying widget: model not found"
    is there but hidden (so the widget's model really is gone)."""
    from playwright.sync_api import expect

    cell = page.locator(f"{ACTIVE_PANEL} .jp-Notebook .jp-Cell").last
    dead = cell.locator(".jp-OutputArea-output.jupyter-widgets",
                        has_text="Error displaying widget: model not found")
    expect(dead).to_have_count(1)
    expect(dead).to_be_hidden()
    stand_in = cell.locator(".plaisante-fallback-line")
    stand_in.scroll_into_view_if_needed()
    expect(stand_in).to_be_visible()
    expect(stand_in).to_contain_text(line)
    assert "Error displaying widget" not in cell.locator(".jp-OutputArea").inner_text()


def expect_live(page: Any) -> None:
    """Assert that the last cell's game is drawn and its stand-in hidden beside it, and that
    axe finds no serious or critical violation in what the kit draws (JupyterLab's own chrome
    has upstream gaps: ``a11y.py``)."""
    import a11y
    from playwright.sync_api import expect

    cell = page.locator(f"{ACTIVE_PANEL} .jp-Notebook .jp-Cell").last
    expect(cell.locator(".plaisante-live")).to_be_visible()
    expect_stand_in_hidden(cell.locator(".plaisante-fallback-line"))
    a11y.assert_accessible(page, include=f"{ACTIVE_PANEL} .plaisante-live",
                           where="the kit's output in JupyterLab")


def expect_stand_in_hidden(stand_ins: Any) -> None:
    """Assert that every stand-in line of ``stand_ins`` (at least one) takes no room on the
    page: its output is ``display: none``, not merely not shown yet (it shows a second late)."""
    from playwright.sync_api import expect

    expect(stand_ins).not_to_have_count(0)
    rooms = stand_ins.evaluate_all("els => els.map(el => el.getClientRects().length)")
    assert rooms == [0] * len(rooms), rooms


def kernel_idle(page: Any, timeout: float = 60_000) -> None:
    """Wait until the active notebook's kernel has finished every queued cell."""
    from playwright.sync_api import expect

    expect(page.locator(f"{ACTIVE_PANEL} .jp-Notebook-ExecutionIndicator[data-status=idle]")
           ).to_have_count(1, timeout=timeout)


# ----------------------------------------------------------------------- the round's table
# Hooks: the stable CSS classes RoundView adds (see plaisante/view.py).

SELECTED = re.compile(r"\bplaisante-selected\b")
DEALT = re.compile(r"\bplaisante-new\b")


class Table:
    """Locators for one rendered RoundView inside ``scope`` (a Page or a Locator)."""

    def __init__(self, scope: Any):
        self.root = scope.locator(".plaisante-table:not(.plaisante-presenter)")
        self.held = self.root.locator(".plaisante-held .plaisante-card")
        self.selected = self.root.locator(".plaisante-held .plaisante-card.plaisante-selected")
        self.played = self.root.locator(".plaisante-play-area .plaisante-card")
        self.play = self.root.locator("button.plaisante-play")
        self.discard = self.root.locator("button.plaisante-discard")
        self.new_round = self.root.locator("button.plaisante-new-round")
        self.message = self.root.locator(".plaisante-message")
        self.hand_number = self.root.locator(".plaisante-hand-number")
        self.hand_name = self.root.locator(".plaisante-hand-name")
        self.hand_score = self.root.locator(".plaisante-hand-score b")
        self.over = self.root.locator(".plaisante-over")
        self.final_total = self.root.locator(".plaisante-over .plaisante-final-total")
        self.history_scores = self.root.locator(".plaisante-over .plaisante-history-score")

    def counter(self, name: str) -> Any:
        """The number shown by a status chip: total, hands-left, discards-left or deck."""
        return self.root.locator(f".plaisante-{name} b")

    def value(self, name: str) -> int:
        return int(self.counter(name).inner_text())

    def held_card(self, text: str) -> Any:
        """The held card whose label is exactly ``text`` (e.g. '10♥')."""
        return self.root.locator(".plaisante-held .plaisante-card",
                                 has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))

    def labels(self, cards: Any) -> list[str]:
        return [text.strip() for text in cards.all_inner_texts()]


def expect_fresh_round(table: Table) -> None:
    """Assert the table shows a round as dealt: 8 cards, 4 hands, 4 discards, total 0."""
    from playwright.sync_api import expect

    expect(table.held).to_have_count(8)
    expect(table.selected).to_have_count(0)
    expect(table.played).to_have_count(0)
    expect(table.counter("total")).to_have_text("0")
    expect(table.counter("hands-left")).to_have_text("4")
    expect(table.counter("discards-left")).to_have_text("4")
    expect(table.counter("deck")).to_have_text("44")
    expect(table.over).to_be_hidden()
    expect(table.play).to_be_disabled()
    expect(table.discard).to_be_disabled()


def select(table: Table, positions: list[int]) -> list[str]:
    """Click the held cards at ``positions`` and wait until each is raised; return their labels."""
    from playwright.sync_api import expect

    chosen = []
    for position in positions:
        card = table.held.nth(position)
        chosen.append(card.inner_text().strip())
        card.click()
        expect(card).to_have_class(SELECTED)
    return chosen


def play_hand(table: Table, chosen: list[str], ref: Any) -> tuple[str, int]:
    """Press Play with ``chosen`` selected; check what the play area and counters show.

    Returns the (name, score) shown. The shown name and score must be the reference
    solution's for the cards shown in the play area, and the total must grow by that score.
    """
    from playwright.sync_api import expect

    from plaisante.student_side.cards import hand

    total, hands_left = table.value("total"), table.value("hands-left")
    number = 4 - hands_left + 1
    table.play.click()
    expect(table.hand_number).to_have_text(str(number))
    expect(table.played).to_have_text(chosen)
    name, score = table.hand_name.inner_text(), int(table.hand_score.inner_text())
    cards = hand(" ".join(chosen), ref.Card)
    assert (name, score) == (ref.evaluate(cards), ref.score(cards)), (chosen, name, score)
    expect(table.counter("total")).to_have_text(str(total + score))
    expect(table.counter("hands-left")).to_have_text(str(hands_left - 1))
    expect(table.selected).to_have_count(0)
    if hands_left > 1:
        expect(table.held).to_have_count(8)
        for text in chosen:
            expect(table.held_card(text)).to_have_count(0)
    return name, score


def discard(table: Table, positions: list[int]) -> None:
    """Discard the held cards at ``positions``; check nothing is scored and the hand refills."""
    from playwright.sync_api import expect

    total, hands_left = table.value("total"), table.value("hands-left")
    discards_left, deck = table.value("discards-left"), table.value("deck")
    gone = select(table, positions)
    table.discard.click()
    expect(table.counter("discards-left")).to_have_text(str(discards_left - 1))
    expect(table.counter("deck")).to_have_text(str(deck - len(gone)))
    expect(table.counter("total")).to_have_text(str(total))
    expect(table.counter("hands-left")).to_have_text(str(hands_left))
    expect(table.held).to_have_count(8)
    expect(table.selected).to_have_count(0)
    for text in gone:
        expect(table.held_card(text)).to_have_count(0)


def play_whole_round(page: Any, table: Table, ref: Any) -> list[int]:
    """Play a whole round by clicking, checking every rule the view shows.

    Select five, a sixth is refused, deselect one, select one more by keyboard (Tab, Enter);
    Play; four discards (then Discard is disabled); three more hands; the round-over panel's
    total is the sum of the scores shown; New round deals fresh. Returns the scores shown.
    """
    from playwright.sync_api import expect

    expect_fresh_round(table)
    first_deal = table.labels(table.held)
    for name in ("Play", "Discard", "New round"):  # named for screen readers
        expect(table.root.get_by_role("button", name=name, exact=True)).to_have_count(1)

    chosen = select(table, [0, 1, 2, 3, 4])
    expect(table.selected).to_have_count(5)
    # a screen reader hears the card and its state, not a colour
    expect(table.held.nth(0)).to_have_accessible_name(f"{chosen[0]} selected")
    expect(table.held.nth(5)).to_have_accessible_name(table.held.nth(5).inner_text().strip())
    sixth = table.held.nth(5)
    sixth.click()
    expect(table.message).to_contain_text("at most 5 cards")
    expect(sixth).not_to_have_class(SELECTED)
    expect(table.selected).to_have_count(5)
    table.held.nth(0).click()
    expect(table.held.nth(0)).not_to_have_class(SELECTED)
    expect(table.selected).to_have_count(4)
    expect(table.message).to_have_text("")
    table.held.nth(4).focus()  # the keyboard: Tab to the next card, Enter selects it
    page.keyboard.press("Tab")
    expect(sixth).to_be_focused()
    chosen = chosen[1:] + [sixth.inner_text().strip()]
    page.keyboard.press("Enter")
    expect(sixth).to_have_class(SELECTED)
    expect(table.selected).to_have_count(5)
    scores = [play_hand(table, chosen, ref)[1]]

    for positions in ([0, 1], [2], [0, 3, 5], [7]):
        discard(table, positions)
    select(table, [0])
    expect(table.discard).to_be_disabled()
    expect(table.play).to_be_enabled()
    table.held.nth(0).click()
    expect(table.selected).to_have_count(0)

    for positions in ([3, 4, 5, 6, 7], [0, 2, 4, 6, 7], [1, 2, 3, 4, 5]):
        scores.append(play_hand(table, select(table, positions), ref)[1])

    expect(table.over).to_be_visible()
    expect(table.final_total).to_have_text(f"Round over: total {sum(scores)}")
    expect(table.history_scores).to_have_text([str(score) for score in scores])
    expect(table.counter("total")).to_have_text(str(sum(scores)))
    expect(table.counter("hands-left")).to_have_text("0")
    expect(table.play).to_be_disabled()
    expect(table.discard).to_be_disabled()
    for position in range(8):
        expect(table.held.nth(position)).to_be_disabled()
    expect(table.root.locator(".plaisante-area-held")).to_be_hidden()
    expect(table.new_round).to_be_in_viewport()

    table.new_round.click()
    expect_fresh_round(table)
    expect(table.root.locator(".plaisante-area-held")).to_be_visible()
    for position in range(8):
        expect(table.held.nth(position)).to_have_class(DEALT)
        expect(table.held.nth(position)).to_be_enabled()
    again = table.labels(table.held)
    assert len(set(again)) == 8
    assert again != first_deal, "New round dealt the very same cards"  # seeded too: seed + 1
    return scores


# ------------------------------------------------------------------------ cells and prompts

CODE_PROMPTS = f"{ACTIVE_PANEL} .jp-Notebook .jp-CodeCell .jp-InputPrompt"


def wait_queue_empty(page: Any, timeout: float = 60_000) -> None:
    """Wait until no cell of the active notebook is queued or running ('[*]:')."""
    from playwright.sync_api import expect

    expect(page.locator(CODE_PROMPTS, has_text="[*]")).to_have_count(0, timeout=timeout)
    kernel_idle(page, timeout)


def prompts(page: Any) -> list[str]:
    """The execution prompts of the active notebook's code cells, e.g. ['[1]:', '[ ]:']."""
    return [text.strip() for text in page.locator(CODE_PROMPTS).all_text_contents()]
