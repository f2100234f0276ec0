"""Shared fixtures (the reference solution and its parts) and the sandbox policy.

The sandbox policy: a test that needs the grading sandbox (marked ``sandbox``; every test of
``SANDBOX_MODULES`` is marked here) never skips silently. When such a test is collected and the
sandbox cannot run on this machine (``plaisante.grading.sandbox.sandbox_problem()`` gives the
reason), the run stops before any test runs, with that reason. Only with
``PLAISANTE_ALLOW_NO_SANDBOX=1`` are those tests skipped instead, and then the header, the
closing summary line ("N skipped without sandbox") and a section above it say so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from plaisante.authoring import reference

OPT_OUT = "PLAISANTE_ALLOW_NO_SANDBOX"
# Modules whose every test needs the sandbox (a test elsewhere carries @pytest.mark.sandbox)
SANDBOX_MODULES = ("test_hostile.py",)
NO_SANDBOX = "skipped without sandbox"  # the closing line's word for those tests under the opt-out
PROBLEM = pytest.StashKey[str]()  # why the sandbox cannot run, once sandbox tests were collected

# One hypothesis profile for the whole suite, loaded before any test module sets its own
# max_examples (a test's @settings inherits the rest from it). Timing says nothing about
# correctness here: on a loaded 2-core machine (CI runs beside other work, two xdist workers
# share the cores) an example can take seconds, so no deadline and no too_slow health check.
settings.register_profile(
    "plaisante", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("plaisante")


@pytest.fixture(scope="session")
def ref() -> types.ModuleType:
    """The reference solution, loaded from solutions/plaisante/plaisante.ipynb."""
    return reference.load("plaisante")


@pytest.fixture(scope="session")
def ref_parts(ref: types.ModuleType) -> dict[str, object]:
    """The keyword arguments play() takes, all from the reference solution."""
    return reference.parts(ref, "plaisante")


# --------------------------------------------- a notebook's test cells under the loopback judge
# For test modules that name the notebooks they are about: SOURCE (solutions) and RELEASE
# (starter). Helpers: tests/loopback_judge.py.

@pytest.fixture(scope="session")
def shared_course(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The course graded both ways once a session (``shared_course.py``): a
    ``differential.GradedCourses``."""
    from differential import grade_both_ways
    from shared_course import PLAIN_CASES, SHARED_CASES

    return grade_both_ways(tmp_path_factory.mktemp("shared"), SHARED_CASES, PLAIN_CASES)


@pytest.fixture(scope="module")
def source(request: pytest.FixtureRequest) -> Any:
    """The module's source notebook (solutions/<id>/<id>.ipynb)."""
    import nbformat

    return nbformat.read(request.module.SOURCE, as_version=4)


@pytest.fixture(scope="module")
def release(request: pytest.FixtureRequest) -> Any:
    """The module's release notebook (starter/<id>/<id>.ipynb)."""
    import nbformat

    return nbformat.read(request.module.RELEASE, as_version=4)


@pytest.fixture(scope="module")
def tests(source: Any) -> dict[str, str]:
    """{grade_id: source} of every test cell of the source notebook, hidden tests included."""
    from plaisante.grading.execute import is_test

    return {cell.metadata.nbgrader["grade_id"]: cell.source for cell in source.cells
            if is_test(cell)}


@pytest.fixture(scope="module")
def setup(release: Any) -> dict[str, Any]:
    """The judge's namespace after the release's setup cell (one cell, not the play cell)."""
    from plaisante.grading.judge import setup_namespace
    from plaisante.grading.submission import setup_sources

    sources = setup_sources(release)
    assert len(sources) == 1 and "play(" not in sources[0]
    return setup_namespace(sources)


@pytest.fixture(scope="module")
def names(release: Any) -> set[str]:
    """The names the student defines in the release's answer cells."""
    from plaisante.grading.submission import student_names

    return set(student_names(release))


# ------------------------------------------------------------------ the run's temporary folders
# As root, tests hand courses under pytest's temporary folders to the grading user
# (grader_user.prepare_course opens every folder above them to it). pytest's own root for them,
# /tmp/pytest-of-root, is closed again (chmod go-rwx) by every other pytest process of root
# that asks for a temporary folder: another run beside this one, another checkout's tests. The
# grading user then cannot enter the course in the middle of a test (nbgrader, finding no
# nbgrader_config.py, looks for the defaults' source/ folder). So as root the run's temporary
# folders live in a folder of its own that no other pytest touches.
OWN_TEMP = pytest.StashKey[Path]()


@pytest.hookimpl(tryfirst=True)  # before pytest's tmpdir plugin reads --basetemp
def pytest_configure(config: pytest.Config) -> None:
    if (os.geteuid() != 0 or config.option.basetemp is not None
            or hasattr(config, "workerinput")):  # an xdist worker is given its own basetemp
        return
    folder = Path(tempfile.mkdtemp(prefix="plaisante-tests-"))
    config.stash[OWN_TEMP] = folder
    config.option.basetemp = str(folder / "basetemp")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run's own temporary folder goes when every test passed; else it stays, for a look."""
    folder = session.config.stash.get(OWN_TEMP, None)
    if folder is not None and exitstatus == pytest.ExitCode.OK:
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------- parallel runs (pytest-xdist)
# `make test` runs the suite in two worker processes (`-n 2 --dist loadgroup`): a group's tests
# all run in one worker, in order. Every test is put in a group here, so that what it shares
# with other tests is made once, in one worker:
# - a test that uses a session fixture made for several modules (SHARED_SESSION) joins that
#   fixture's group: the graded course is graded once, Chromium and the lab start once;
# - any other test, its module's group: its module-scoped fixtures are made once.
# A new test file needs nothing here; a new session fixture shared by several modules that is
# costly to make belongs in SHARED_SESSION.
#: fixture name -> group, first match wins
SHARED_SESSION = {
    "shared_course": "shared-course",
    "page": "browser",  # pytest-playwright's: one Chromium (browser tests use `page`)
    "browser": "browser",
    "servers": "browser",  # tests/browser/conftest.py: one course copy, JupyterLab, Voila
}


def xdist_group(item: pytest.Item) -> str:
    """The group ``item`` runs in under `--dist loadgroup`."""
    names = set(getattr(item, "fixturenames", ()))
    for fixture, group in SHARED_SESSION.items():
        if fixture in names:
            return group
    if item.path.parent.name == "browser":  # their harness starts servers that take ports
        return "browser"
    if item.path.stem == "test_hub_exchange":  # the hub class's Unix accounts, as the hub tests
        return "browser"
    return item.path.relative_to(item.config.rootpath / "tests").with_suffix("").as_posix()


def name_groups(items: list[pytest.Item]) -> None:
    """In an xdist worker, append "@group" to each test's id: the name the controller groups
    by. pytest-xdist 3.8 does it itself by setting ``item._nodeid``, which pytest 9 no longer
    reads (it keeps the id as a ``NodeId`` in ``item._id``), so without this every test ran
    wherever the scheduler sent it, and each worker made the shared fixtures again."""
    from _pytest.nodeid import coerce_node_id

    for item in items:
        marks = item.iter_markers("xdist_group")
        group = "_".join(sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                                 for m in marks}))
        if group and not item.nodeid.endswith(f"@{group}"):
            item._id = coerce_node_id(f"{item.nodeid}@{group}")  # type: ignore[attr-defined]


# ------------------------------------------------------------------------- the sandbox policy

def opted_out() -> bool:
    return os.environ.get(OPT_OUT, "") not in ("", "0")


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = []
    if opted_out():
        lines.append(f"{OPT_OUT}=1: tests that need the grading sandbox are skipped if it "
                     "cannot run here")
    if OWN_TEMP in config.stash:
        lines.append(f"temporary folders: {config.stash[OWN_TEMP]} (kept if a test fails)")
    if os.geteuid() == 0 and os.environ.get("PLAISANTE_GRADER_USER"):
        lines.append(f"grading user: {os.environ['PLAISANTE_GRADER_USER']} "
                     f"({os.environ.get('PLAISANTE_GRADER_PYTHON', '?')})")
    return lines


@pytest.hookimpl(tryfirst=True)  # before -m selects, so that `-m "not sandbox"` works
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SANDBOX_MODULES and not item.get_closest_marker("sandbox"):
            item.add_marker(pytest.mark.sandbox)
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(xdist_group(item)))
    if hasattr(config, "workerinput") and config.getvalue("loadgroup"):
        name_groups(items)


def _stop_without_sandbox(problem: str, needing: str) -> None:
    pytest.exit(
        f"{needing} need the grading sandbox, and it cannot run here: {problem}. Make it work "
        "(as root, `make test` installs bubblewrap) or, on a machine that cannot have a "
        f"sandbox, set {OPT_OUT}=1 to skip those tests (the summary then says so).",
        returncode=pytest.ExitCode.TESTS_FAILED)


def distributing(config: pytest.Config) -> bool:
    """True in the controller of an xdist run (`-n`): it collects nothing itself."""
    return bool(getattr(config.option, "numprocesses", None)) and not hasattr(
        config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under xdist the workers collect, and a worker that stops the run buries the reason in
    an internal error: the controller checks the sandbox first, before any worker starts, for
    every run (`make test` always selects sandbox tests). It also keeps the problem, for the
    closing line's count of the tests the workers skipped under the opt-out."""
    if not distributing(session.config) or session.config.option.collectonly:
        return
    from plaisante.grading.sandbox import sandbox_problem

    problem = sandbox_problem()
    if problem is None:
        return
    if not opted_out():
        _stop_without_sandbox(problem, "Tests of this run (with -n: checked before collection)")
    session.config.stash[PROBLEM] = problem


def pytest_collection_finish(session: pytest.Session) -> None:
    needing = [item for item in session.items if item.get_closest_marker("sandbox")]
    if not needing or session.config.option.collectonly:
        return
    from plaisante.grading.sandbox import sandbox_problem

    problem = sandbox_problem()
    if problem is None:
        return
    if not opted_out():
        _stop_without_sandbox(problem, f"{len(needing)} of the collected tests")
    session.config.stash[PROBLEM] = problem
    skip = pytest.mark.skip(reason=f"no grading sandbox ({OPT_OUT}=1): {problem}")
    for item in needing:
        item.add_marker(skip)


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    """Count the sandbox tests skipped under the opt-out apart: the closing line says
    "N skipped without sandbox", not a plain "skipped"."""
    if (report.skipped and PROBLEM in config.stash and "sandbox" in report.keywords
            and report.when == "setup"):
        return NO_SANDBOX, "s", ("SKIPPED (no sandbox)", {"yellow": True})
    return None


def group_seconds(reports: Iterable[Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds spent (set-up, call, teardown) per xdist group and per worker, from the
    controller's test reports; empty without xdist."""
    groups: dict[str, float] = {}
    workers: dict[str, float] = {}
    for report in reports:
        node = getattr(report, "node", None)
        duration = getattr(report, "duration", None)
        nodeid = getattr(report, "nodeid", "")
        if node is None or duration is None or "@" not in nodeid:
            continue
        group = nodeid.rsplit("@", 1)[1]
        groups[group] = groups.get(group, 0.0) + duration
        worker = node.gateway.id
        workers[worker] = workers.get(worker, 0.0) + duration
    return groups, workers


def summarize_groups(terminalreporter: Any) -> None:
    """The longest groups and each worker's busy time: what balances the two workers (the
    run lasts as long as the busier one)."""
    groups, workers = group_seconds(report for reports in terminalreporter.stats.values()
                                    for report in reports)
    if not workers:
        return
    terminalreporter.section("xdist groups", sep="=")
    for name, seconds in sorted(groups.items(), key=lambda item: -item[1])[:10]:
        terminalreporter.line(f"{seconds:8.1f}s  {name}")
    terminalreporter.line("busy: " + ", ".join(f"{worker} {seconds:.0f}s"
                                               for worker, seconds in sorted(workers.items())))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    summarize_groups(terminalreporter)
    if PROBLEM not in config.stash:
        return
    count = len(terminalreporter.stats.get(NO_SANDBOX, []))
    terminalreporter.section("no grading sandbox", sep="!", yellow=True, bold=True)
    terminalreporter.line(
        f"{count} tests that need the grading sandbox were SKIPPED because {OPT_OUT} is set: "
        f"{config.stash[PROBLEM]}", yellow=True)
    terminalreporter.line("The hostile-submission and sandboxed-grading tests did not run: "
                          "this run proves nothing about grading safety.", yellow=True)
