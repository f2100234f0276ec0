"""The course in JupyterLite, in headless Chromium, offline: the site ``plaisante lite`` built
(once a session, from the tree's starters), served on loopback by ``python -m http.server``,
every request to anything but loopback aborted and recorded (none may be needed).

A student's path, per assignment: the untouched starter's Run All shows the checklist; step 1
written (the reference's code from the tree's solutions, as ``plaisante.authoring.samples`` writes
it), its visible test cells say what JupyterLab's kernel says of the same cells (run by nbclient and
ipykernel, before and after); the whole reference pasted in, Run All shows the game and one move
changes it; the downloaded notebook grades to the reference's score with ``plaisante grade``.
``make test`` runs it for Plaisante; the four other assignments are ``slow``.

Accessibility in JupyterLite (axe scoped to the kit's output: JupyterLab's own chrome has
upstream gaps): the checklist reads each step in order, its marks as words, with no serious or
critical axe violation; and a hand of Plaisante is played by keyboard: from the cell Run All
leaves active, Tab to a card (each stop showing its focus ring), Space selects it, the live
region says so, the focus stays on the card; four more, Tab to Play, Enter: the live region
names and scores the hand; axe finds nothing serious.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import a11y
import harness
import nbformat
import pytest
from course_cli import cli, new_course
from nbclient import NotebookClient
from playwright.sync_api import Page, expect

from plaisante.authoring import samples
from plaisante.course import CourseLayout
from plaisante.games import COURSE

ANSI = re.compile(r"\x1b\[[0-9;]*m")

pytestmark = pytest.mark.browser
KERNEL = 360_000  # Pyodide's first start: 1.5-2.7 min seen on this 2-core machine at load 20+
# the game's first element, per assignment: the reference's Run All shows it
GAME = {"plaisante": ".plaisante-table", "deck": ".deck-table", "video_poker": ".vp-machine",
        "holdem": ".holdem-table", "tricks": ".tricks-table"}
CELLS = f"{harness.ACTIVE_PANEL} .jp-Notebook .jp-Cell"
COUNT = re.compile(r"\[\d+\]:")
STEP = "step1_"  # the step the student writes first


class Background:
    """``work()`` run in a thread from now; ``result()`` waits for it and re-raises its error."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            self._value = work()
        except BaseException as error:  # handed to the test that waits, not lost in a thread
            self._error = error

    def result(self, timeout: float = 900) -> Any:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"background work took over {timeout} s"
        if self._error is not None:
            raise self._error
        return self._value


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site of the five starters, built once a session by the real verb, served on
    127.0.0.1."""
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
def context(new_context: Any, request: pytest.FixtureRequest, output_path: str) -> Iterator[Any]:
    """A context traced without the screenshot film strip (the suite's ``context`` keeps one):
    while Pyodide starts, encoding those frames took the CPU a loaded machine had left."""
    context = new_context()
    context.tracing.start(title=request.node.nodeid, screenshots=False, snapshots=False)
    yield context
    if any(report.failed for report in request.node.stash.get(harness.REPORTS, {}).values()):
        Path(output_path).mkdir(parents=True, exist_ok=True)
        context.tracing.stop(path=str(Path(output_path) / "trace.zip"))
    else:
        context.tracing.stop()


def outside(site: str) -> re.Pattern[str]:
    """Every URL but the site's: matched by Playwright's driver itself, so the site's own
    requests (hundreds: JupyterLab's chunks, Pyodide, its wheels) are not routed through this
    process (routing them all made the first load ~1.8 times slower)."""
    return re.compile(f"^(?!{re.escape(site)})")


@pytest.fixture
def offline(context: Any, lite_site: str) -> Iterator[list[str]]:
    """Abort every request not to the site; the list of aborted URLs must stay empty."""
    aborted: list[str] = []

    def route(request_route: Any) -> None:
        aborted.append(request_route.request.url)
        request_route.abort()
    context.route(outside(lite_site), route)
    yield aborted
    assert aborted == [], f"the site asked for something outside itself: {aborted[:5]}"


# ------------------------------------------------------------------ the notebooks, from the tree

def starter(assignment: str) -> Any:
    """The tree's starter of ``assignment`` (what the site holds)."""
    return nbformat.read(CourseLayout(harness.KIT).release(assignment), 4)


def reference(assignment: str) -> Any:
    """The starter with every solution cell holding the tree's reference code, as a student
    leaves it (``plaisante.authoring.samples``: markers removed, ungraded sections as the starter
    has them)."""
    kept = samples.catalogue(assignment, harness.KIT).keep_starter
    built = samples.build_samples(harness.KIT, assignment, {samples.FULL_MARKS: {}}, kept)
    return built[samples.FULL_MARKS]


def full_marks(assignment: str) -> float:
    """The reference's total, computed from the tree's source notebook's points."""
    manifest = samples.manifest(harness.KIT, assignment)
    return manifest["samples"][samples.FULL_MARKS]["expected"]["total"]


def grade_id(cell: Any) -> str:
    return str(cell.metadata.get("nbgrader", {}).get("grade_id", ""))


def step_cells(notebook: Any, prefix: str = STEP) -> tuple[list[int], list[int]]:
    """The indexes of the step's solution cells and of its graded (test) cells."""
    answers, tests = [], []
    for index, cell in enumerate(notebook.cells):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and grade_id(cell).startswith(prefix):
            (answers if meta.get("solution") else tests if meta.get("grade") else []).append(index)
    return answers, tests


def said(outputs: list[Any]) -> tuple[str, str | None]:
    """What a cell's outputs say: its printed text (stripped), and the last line its error
    shows (the kit's one line, ``✎ to do: …``, or IPython's traceback's ``ename: evalue``),
    or None."""
    printed = "".join(o.get("text", "") for o in outputs
                      if o.output_type == "stream" and o.name == "stdout")
    errors = [ANSI.sub("", "\n".join(o.traceback)) for o in outputs if o.output_type == "error"]
    return printed.strip(), errors[-1].strip().splitlines()[-1] if errors else None


def jupyterlab_says(assignment: str, tmp: Path) -> dict[str, list[tuple[str, str | None]]]:
    """What ipykernel (JupyterLab's kernel, through nbclient) says of step 1's test cells, in
    the untouched starter (``"before"``) and with step 1's reference code (``"after"``)."""
    plain, solved = starter(assignment), reference(assignment)
    answers, tests = step_cells(plain)
    setup = [i for i, c in enumerate(plain.cells) if grade_id(c) == "setup"]
    order = sorted(setup + answers + tests)
    before = [copy.deepcopy(plain.cells[i]) for i in order]
    after = [copy.deepcopy((solved if i in answers else plain).cells[i]) for i in order]
    notebook = copy.deepcopy(plain)
    notebook.cells = before + after
    NotebookClient(notebook, kernel_name="python3", allow_errors=True, timeout=120,
                   resources={"metadata": {"path": str(tmp)}}).execute()
    return {"before": [said(before[order.index(i)].outputs) for i in tests],
            "after": [said(after[order.index(i)].outputs) for i in tests]}


def released_course(root: Path, assignment: str) -> Path:
    """A new course from the tree's solutions with ``assignment`` released (nbgrader)."""
    new_course(root)
    cli("release", assignment, cwd=root)
    return root


# ------------------------------------------------------------------------------ in the browser

def open_in_lite(page: Page, site: str, assignment: str) -> Any:
    """Open ``ID.ipynb`` in the site and wait until its Pyodide kernel is idle, the notice
    that Python is starting shown meanwhile and gone then; return its cells."""
    page.goto(f"{site}lab/index.html?path={assignment}.ipynb")
    starting = page.get_by_role("status").filter(has_text="Python is starting in your browser")
    expect(starting).to_be_visible(timeout=KERNEL)
    expect(starting).to_contain_text(re.compile(r"takes up to a minute or two .*\(\d+ s\)"))
    status = page.locator(".jp-StatusBar-TextItem", has_text=harness.KERNEL_IDLE)
    expect(status).to_have_count(1, timeout=KERNEL)
    expect(status).to_contain_text("Pyodide")
    expect(starting).to_have_count(0)
    return page.locator(CELLS)


def prompt(cells: Any, index: int) -> Any:
    return cells.nth(index).locator(".jp-InputPrompt")


def run_cell(page: Page, cells: Any, index: int) -> None:
    """Run cell ``index`` (Ctrl+Enter) and wait for its new execution count."""
    before = prompt(cells, index).inner_text()
    cells.nth(index).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    expect(prompt(cells, index)).to_have_text(COUNT, timeout=KERNEL)
    expect(prompt(cells, index)).not_to_have_text(before)


def run_all(page: Page, cells: Any) -> None:
    """Run All from the Run menu and wait until the last cell has run and nothing is queued."""
    last = cells.count() - 1
    before = prompt(cells, last).inner_text()
    harness.run_all(page)
    expect(prompt(cells, last)).to_have_text(COUNT, timeout=KERNEL)
    expect(prompt(cells, last)).not_to_have_text(before)
    harness.wait_queue_empty(page, timeout=KERNEL)


def type_into(page: Page, cells: Any, index: int, source: str) -> None:
    """Replace cell ``index``'s code with ``source``, as typed by the student."""
    cells.nth(index).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(source)
    page.keyboard.press("Escape")


def paste_reference(page: Page, cells: Any, assignment: str) -> None:
    """Write the reference's code into every answer cell that differs from the starter."""
    plain, solved = starter(assignment), reference(assignment)
    assert cells.count() == len(plain.cells)
    for index, (mine, ref) in enumerate(zip(plain.cells, solved.cells)):
        if mine.cell_type == "code" and mine.source != ref.source:
            type_into(page, cells, index, ref.source)
    page.keyboard.press("Control+S")


def lite_says(cells: Any, index: int) -> tuple[str, str | None]:
    """What cell ``index`` shows, as ``said`` reads a cell's outputs: its printed text, and the
    last line of its error (JupyterLab renders errors as stderr), or None."""
    area = cells.nth(index).locator(".jp-OutputArea-output")
    printed, error = [], None
    for output in area.all():
        mime = output.get_attribute("data-mime-type")
        text = output.text_content() or ""
        if mime == "application/vnd.jupyter.stdout":
            printed.append(text)
        elif mime == "application/vnd.jupyter.stderr":
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            error = lines[-1] if lines else error
    return "".join(printed).strip(), error


def assert_says(cells: Any, tests: list[int], expected: list[tuple[str, str | None]]) -> None:
    """Each test cell of ``tests`` shows what ``expected`` (``said``, from ipykernel) says."""
    for index, says in zip(tests, expected):
        cells.nth(index).scroll_into_view_if_needed()
        assert lite_says(cells, index) == says, (index, lite_says(cells, index), says)


def checklist_heard(page: Page, checklist: Any) -> None:
    """The checklist as a screen reader has it: each step in order, "Step N: title — word",
    no mark read as a symbol; and no serious or critical axe violation in it."""
    tree = checklist.aria_snapshot()
    assert not re.search("[✔✎✘]", tree), tree
    steps = re.findall(r"Step (\d+): [^\n]+? — (passes|to do|fails)", tree)
    assert [int(n) for n, _ in steps] == list(range(1, len(steps) + 1)) and steps, tree
    assert tree.count("- listitem") == len(steps), tree
    a11y.assert_accessible(page, include=".plaisante-checklist", where="the checklist in Lite")


def keyboard_move(page: Page, game: Any) -> None:
    """Plaisante's table by keyboard: from the cell Run All left active (JupyterLab's command
    mode), Tab passes the cell's toolbar to the first card, each stop on the table showing its
    focus ring; Space selects the card, the live region says so, the focus stays on it; four
    more cards (Tab, Space), then Tab to Play and Enter: the live region names and scores the
    hand and the focus is on the new hand's first card; axe finds nothing serious in the
    table."""
    region = game.locator(".plaisante-live-region [role=status][aria-live=polite]")
    said = int(region.get_attribute("data-said") or 0) if region.count() else 0
    a11y.tab_to(page, ".plaisante-held .plaisante-card", limit=10)
    card = game.locator(".plaisante-held .plaisante-card:focus")
    label = card.inner_text().strip()
    page.keyboard.press("Space")
    expect(region).to_have_attribute("data-said", str(said + 1))
    expect(region).to_have_text(re.compile(r", selected; 1 of 5 selected$"))
    expect(card).to_have_class(re.compile(r"\bplaisante-selected\b"))
    expect(card).to_have_text(label)
    a11y.ring_shown(page)
    for picked in range(2, 6):
        page.keyboard.press("Tab")
        page.keyboard.press("Space")
        expect(region).to_have_attribute("data-said", str(said + picked))
        expect(region).to_have_text(re.compile(rf", selected; {picked} of 5 selected$"))
    a11y.tab_to(page, "button.plaisante-play", limit=10)
    page.keyboard.press("Enter")
    expect(region).to_have_attribute("data-said", str(said + 6))
    expect(region).to_have_text(re.compile(r"^Hand 1 of 4: .+, \d+ points\. Total \d+\.$"))
    expect(game.locator(".plaisante-held .plaisante-card").first).to_be_focused()
    a11y.ring_shown(page)
    a11y.assert_accessible(page, include=GAME["plaisante"], where="Plaisante in Lite")


def one_move(page: Page, game: Any, assignment: str) -> None:
    """Play the game once and see it change: Plaisante plays a hand by keyboard
    (``keyboard_move``) and selects a card of the next by a click; any other game's first
    enabled button, clicked, changes what the game shows."""
    if assignment == "plaisante":
        table = harness.Table(harness.last_output(page))
        expect(table.held).to_have_count(8)
        keyboard_move(page, game)
        table.held.nth(1).click()
        expect(table.selected).to_have_count(1)
        return
    before = game.inner_html()
    game.locator("button:not([disabled])").first.click()
    page.wait_for_function("([el, html]) => el.innerHTML !== html",
                           arg=[game.element_handle(), before], timeout=15_000)


def student_path(page: Page, site: str, assignment: str, tmp_path: Path,
                 aborted: list[str]) -> None:
    cells = open_in_lite(page, site, assignment)
    # What JupyterLab says of step 1, and the release to grade in, made meanwhile (not while
    # Pyodide starts: the kernel's first start is the slowest step on a loaded machine).
    said_by_lab = Background(lambda: jupyterlab_says(assignment, tmp_path))
    course = Background(lambda: released_course(tmp_path / "course", assignment))
    page.evaluate("fetch('https://cdn.jsdelivr.net/npm/pyodide/').catch(() => null)")
    assert aborted == ["https://cdn.jsdelivr.net/npm/pyodide/"], aborted  # the guard holds
    aborted.clear()
    # The untouched starter: Run All goes past every unfinished step to the checklist.
    run_all(page, cells)
    checklist = harness.last_output(page).locator(".plaisante-checklist")
    expect(checklist).to_be_visible()
    expect(checklist.locator("h3")).to_contain_text("Not yet")
    checklist_heard(page, checklist)
    answers, tests = step_cells(starter(assignment))
    expected = said_by_lab.result()
    assert tests and [error for _, error in expected["before"]] != [None] * len(tests)
    assert [error for _, error in expected["after"]] == [None] * len(tests), expected["after"]
    assert_says(cells, tests, expected["before"])
    # Step 1 written: its test cells pass (or fail) as in JupyterLab.
    solved = reference(assignment)
    for index in answers:
        type_into(page, cells, index, solved.cells[index].source)
    for index in sorted(answers + tests):
        run_cell(page, cells, index)
    assert_says(cells, tests, expected["after"])
    # The whole reference: Run All shows the game, and it plays.
    paste_reference(page, cells, assignment)
    run_all(page, cells)
    game = harness.last_output(page).locator(GAME[assignment]).first
    expect(game).to_be_visible()
    one_move(page, game, assignment)
    # Download it, hand it in, grade it.
    page.get_by_role("menuitem", name="File", exact=True).click()
    with page.expect_download() as download:
        page.locator("#jp-mainmenu-file li[data-command='docmanager:download']").click()
    saved = tmp_path / f"{assignment}.ipynb"
    download.value.save_as(saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["cells"]
    root = course.result()
    cli("submit", str(saved), "--student", "lite", cwd=root)
    cli("grade", assignment, "--workers", "1", cwd=root)
    report = json.loads(CourseLayout(root).report(assignment, "lite").read_text(encoding="utf-8"))
    assert report["total"] == full_marks(assignment), report


def test_plaisante_in_jupyterlite_offline(page: Page, lite_site: str, offline: list[str],
                                         tmp_path: Path) -> None:
    student_path(page, lite_site, "plaisante", tmp_path, offline)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", [a for a in COURSE if a != "plaisante"])
def test_every_other_assignment_in_jupyterlite_offline(page: Page, lite_site: str,
                                                       offline: list[str], tmp_path: Path,
                                                       assignment: str) -> None:
    student_path(page, lite_site, assignment, tmp_path, offline)
