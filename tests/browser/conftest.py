"""Fixtures for the browser tests: one course copy, one JupyterLab, one Voila per session.

Everything runs in a temporary copy of the course on 127.0.0.1 (free ports, a random token,
private JUPYTER_CONFIG_DIR / JUPYTER_RUNTIME_DIR / IPYTHONDIR): see ``harness.py``. The servers
and the samples' autograding start together at the beginning of the session, so their start-up
overlaps; each fixture waits only for what it needs.

Chromium is Debian's (``/usr/bin/chromium``). When it is missing the tests error out, never
skip: a skipped browser suite would look green. On failure a screenshot (pytest-playwright's) and
a trace (``context`` below) are kept under ``build/browser-artifacts/``; open a trace with
``playwright show-trace build/browser-artifacts/…/trace.zip``.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import harness
import pytest
from playwright.sync_api import expect

ARTIFACTS = harness.KIT / "build" / "browser-artifacts"
# Submissions for the formgrader test: a few samples, each a student (id: the sample's name).
SUBMITTED_SAMPLES = ("full_marks", "straight_ignores_duplicates")


def pytest_configure(config: pytest.Config) -> None:
    """Keep a screenshot of every failing browser test (and our light trace), under build/."""
    option = config.option
    if getattr(option, "screenshot", None) == "off":
        option.screenshot = "only-on-failure"
    if getattr(option, "output", None) == "test-results":
        option.output = str(ARTIFACTS)
    # Web-first assertions wait up to 15 s (Playwright's default is 5 s): on a loaded 2-core
    # machine a kernel round trip can take seconds; a passing check returns at once anyway.
    expect.set_options(timeout=15_000)


REPORTS = harness.REPORTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Remember each phase's report on the test item, for the trace fixture below."""
    report = yield
    item.stash.setdefault(REPORTS, {})[report.when] = report
    return report


@pytest.fixture
def context(new_context: Any, request: pytest.FixtureRequest, output_path: str,
            pytestconfig: pytest.Config) -> Iterator[Any]:
    """pytest-playwright's context, with a trace kept when the test fails.

    The trace has the actions, their logs and a screenshot film strip, not DOM snapshots:
    snapshotting JupyterLab's DOM costs ~150 ms an action and made this suite 3-5 times
    slower. ``--tracing retain-on-failure`` gives pytest-playwright's full trace instead.
    """
    context = new_context()
    ours = pytestconfig.getoption("--tracing") == "off"
    if ours:
        context.tracing.start(title=request.node.nodeid, screenshots=True, snapshots=False,
                              sources=True)
    yield context
    if ours:
        reports = request.node.stash.get(REPORTS, {})
        if any(report.failed for report in reports.values()):
            Path(output_path).mkdir(parents=True, exist_ok=True)
            context.tracing.stop(path=str(Path(output_path) / "trace.zip"))
        else:
            context.tracing.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the formgrader test last: the samples' autograding (started with the session, at a
    lower CPU priority) then has the other tests' time to finish in."""
    items.sort(key=lambda item: item.path.parent.name == "browser"
               and item.path.name.startswith("test_formgrader"))


# --------------------------------------------------------------------------- the browser

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless; FileNotFoundError (an error, not a skip) without it."""
    return {**browser_type_launch_args, "executable_path": harness.chromium_path(),
            "headless": True, "args": harness.CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A projector-sized window; reduced motion, so no click waits for a card to stop moving
    (the deal animation is checked by its class; ``make screenshots`` shows it moving)."""
    return {**browser_context_args, "viewport": harness.VIEWPORT, "reduced_motion": "reduce"}


# ------------------------------------------------------------------- the course and servers

@dataclass
class Grading:
    """The samples' release, submission and autograde, run in a background thread."""

    root: Path
    students: tuple[str, ...]
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def run(self) -> None:
        try:
            # Plaisante alone (the formgrader test's assignment), with room for a busy machine
            harness.run_course(self.root, "release", "plaisante", nice=10, timeout=900)
            for student in self.students:
                notebook = self.root / "assignments" / "samples" / "plaisante" / f"{student}.ipynb"
                harness.run_course(self.root, "submit", str(notebook), "--student", student,
                                   nice=10)
            harness.run_course(self.root, "autograde", "plaisante", nice=10, timeout=900)
        except subprocess.CalledProcessError as error:
            self.error = AssertionError(f"{' '.join(error.cmd)} failed:\n{error.stdout}\n"
                                        f"{error.stderr}")
        except BaseException as error:  # reported to the test that waits, not lost in a thread
            self.error = error
        finally:
            self.done.set()

    def wait(self, timeout: float = 240) -> None:
        assert self.done.wait(timeout), f"autograding the samples took over {timeout}s"
        if self.error is not None:
            raise self.error


@dataclass
class Session:
    root: Path
    lab: harness.Server | None
    voila: harness.Server | None
    grading: Grading | None


def _needed(session: pytest.Session) -> set[str]:
    """The fixture names the selected tests use (so `-k voila` starts no JupyterLab)."""
    return {name for item in session.items for name in getattr(item, "fixturenames", ())}


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory,
            request: pytest.FixtureRequest) -> Iterator[Session]:
    """Copy the course, then start what the selected tests need, all at once: JupyterLab,
    Voila, and the samples' release, submission and autograding (in the background)."""
    harness.chromium_path()  # fail at once, before starting anything, when Chromium is missing
    needed = _needed(request.session)
    tmp = tmp_path_factory.mktemp("browser")
    root = harness.course_copy(tmp / "course")
    students = root / "students"
    harness.student_copy(harness.SOURCE, students / "reference.ipynb")
    harness.student_copy(harness.STARTER, students / "starter.ipynb")
    harness.straight_mistake(harness.SOURCE, students / "has_straight_duplicates.ipynb")
    for sample in harness.straight_samples(root):
        harness.student_copy(sample, students / "samples" / sample.name)
    grading, thread = None, None
    if "graded" in needed:
        samples = root / "assignments" / "samples" / "plaisante"
        present = tuple(s for s in SUBMITTED_SAMPLES if (samples / f"{s}.ipynb").is_file())
        assert present, "no sample submissions in assignments/samples/plaisante"
        grading = Grading(root, present)
        thread = threading.Thread(target=grading.run, name="autograde", daemon=True)
        thread.start()
    lab = harness.start_lab(root, tmp / "lab-home") if "lab" in needed else None
    voila = (harness.start_voila(root / "notebooks" / "demo.ipynb", tmp / "voila-home")
             if "voila" in needed else None)
    try:
        yield Session(root, lab, voila, grading)
    finally:
        running = [server for server in (lab, voila) if server is not None]
        for server in running:  # both shut down at once
            server.terminate()
        for server in running:
            server.stop()
        if thread is not None:
            thread.join(timeout=120)


@pytest.fixture(scope="session")
def course(servers: Session) -> Path:
    """The temporary course copy the servers run in."""
    return servers.root


@pytest.fixture(scope="session")
def lab(servers: Session) -> harness.Server:
    """The session's JupyterLab, ready."""
    assert servers.lab is not None, "JupyterLab was not started: no selected test needed it"
    return servers.lab.wait_ready()


@pytest.fixture(scope="session")
def voila(servers: Session) -> harness.Server:
    """The session's Voila on notebooks/demo.ipynb, ready."""
    assert servers.voila is not None, "Voila was not started: no selected test needed it"
    return servers.voila.wait_ready()


@pytest.fixture(scope="session")
def graded(servers: Session) -> Grading:
    """The samples, released, submitted and autograded in the course copy."""
    assert servers.grading is not None, "grading was not started: no selected test needed it"
    servers.grading.wait()
    return servers.grading
