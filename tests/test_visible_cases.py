"""Visible cases as data, for every assignment of COURSE (docs/course.md): a visible test cell
spells out its cases as ``expect_*`` calls with literal data, never an opaque ``check_X(part)``,
and the checklist's checks of each step (the ones ``ASSIGNMENT``'s steps name, run by the last
cell) make exactly the same ``expect_*`` calls, in the same order, with the same arguments.

Both sides run on the reference solution, in this process: the visible lines of each test cell
(hidden regions left out) with the setup cells' names, and each check with the reference's
parts. Every ``expect_*`` function of the game's checks module is swapped for a recorder, in
the cell's names and in the module's globals; the outermost calls are recorded (one a helper
makes inside another is not), each argument reduced to what can be compared: data as it is,
a named function or class by its name, a lambda as ``<lambda>`` (its call-string, the first
argument, names it), any other object by its type."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import nbformat
import pytest
from assignment_support import unit
from loopback_judge import kernel_namespace

from plaisante.games import COURSE
from plaisante.grading.execute import is_test
from plaisante.grading.judge import hidden_lines, setup_namespace
from plaisante.grading.submission import setup_sources
from plaisante.results.scores import step_of
from plaisante.student_side.cards import KitCard
from plaisante.student_side.checking import Always


def reduced(value: Any, depth: int = 0) -> Any:
    """Return ``value`` as compared (module doc)."""
    if depth > 8:
        return "…"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, KitCard):
        return ("card", value.rank, value.suit)
    if isinstance(value, Always):
        return ("Always", reduced(value.answer, depth + 1))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *(reduced(v, depth + 1) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", *sorted((reduced(v, depth + 1) for v in value), key=repr))
    if isinstance(value, dict):
        return ("dict", *sorted(((str(k), reduced(v, depth + 1)) for k, v in value.items()),
                                key=repr))
    if callable(value):
        name = getattr(value, "__name__", None)
        return "<lambda>" if name in (None, "<lambda>") else name
    if hasattr(value, "rank") and hasattr(value, "suit"):  # a card of the student's class
        return ("card", value.rank, value.suit)
    return f"<{type(value).__name__}>"


class Recorder:
    """Swaps a checks module's ``expect_*`` functions for recording ones (``swapped``)."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.names = sorted(name for name in vars(module)
                            if name.startswith("expect_") and callable(getattr(module, name)))
        self.calls: list[tuple[Any, ...]] = []
        self.depth = 0

    def recording(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def record(*args: Any, **kwargs: Any) -> Any:
            if self.depth == 0:
                self.calls.append((name, reduced(args), reduced(kwargs)))
            self.depth += 1
            try:
                return real(*args, **kwargs)
            finally:
                self.depth -= 1
        return record

    @contextmanager
    def swapped(self, namespace: dict[str, Any]) -> Iterator[list[tuple[Any, ...]]]:
        """While the block runs, the module's and ``namespace``'s ``expect_*`` record; yield
        the list of calls (it fills as the block runs)."""
        saved = {name: getattr(self.module, name) for name in self.names}
        self.calls = []
        try:
            for name, real in saved.items():
                setattr(self.module, name, self.recording(name, real))
                if name in namespace:
                    namespace[name] = getattr(self.module, name)
            yield self.calls
        finally:
            for name, real in saved.items():
                setattr(self.module, name, real)


def visible_part(source: str) -> str:
    """Return a test cell's source without its hidden regions (their lines blanked)."""
    hidden = hidden_lines(source)
    return "\n".join("" if number in hidden or "HIDDEN TESTS" in line else line
                     for number, line in enumerate(source.splitlines(), start=1))


def step_cells(assignment: str) -> dict[str, list[tuple[str, str]]]:
    """Return {step: [(grade_id, visible source)]} of the source notebook's test cells that
    are not a student's own tests, in notebook order."""
    notebook = nbformat.read(unit(assignment).source, as_version=4)
    cells: dict[str, list[tuple[str, str]]] = {}
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if is_test(cell) and not grade_id.endswith("_my_tests"):
            cells.setdefault(step_of(grade_id), []).append((grade_id, visible_part(cell.source)))
    return cells


def own_tests_cells(notebook: Any) -> list[str]:
    """Return the grade ids of ``notebook``'s cells that grade a student's own tests."""
    return [grade_id for cell in notebook.cells
            if (grade_id := cell.metadata.get("nbgrader", {}).get("grade_id", ""))
            .endswith("_my_tests")]


def opaque_checks(source: str, checks: set[str]) -> list[str]:
    """Return the names of the step checks ``source`` calls (an opaque check_X(part))."""
    return sorted({node.func.id for node in ast.walk(ast.parse(source))
                   if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                   and node.func.id in checks})


@pytest.mark.parametrize("assignment", COURSE)
def test_visible_cells_spell_out_the_cases_their_checklist_check_makes(assignment: str) -> None:
    found = unit(assignment)
    game = importlib.import_module(f"plaisante.games.{assignment}")
    checks = importlib.import_module(f"plaisante.games.{assignment}.checks")
    recorder = Recorder(checks)
    source = nbformat.read(found.source, as_version=4)
    release = nbformat.read(found.release, as_version=4)
    reference = kernel_namespace(source)
    setup = setup_namespace(setup_sources(release))
    names = {name for name, value in vars(checks).items()
             if callable(value) and name.startswith("check_") and name != "check_shape"}
    cells = step_cells(assignment)
    own_tests_only = {step_of(grade_id) for grade_id in own_tests_cells(source)} - set(cells)
    for step in game.ASSIGNMENT.steps:
        if f"step{step.number}" in own_tests_only:
            continue  # its check only asks that the tests are written: nothing to spell out
        in_cells: list[tuple[Any, ...]] = []
        for grade_id, visible in cells.get(f"step{step.number}", []):
            assert opaque_checks(visible, names) == [], (
                f"{grade_id} calls a check instead of spelling out its cases")
            namespace = {**setup, **reference, "__name__": "__visible__"}
            with recorder.swapped(namespace) as calls:
                exec(compile(visible, grade_id, "exec"), namespace)  # noqa: S102  the kit's
            in_cells += calls
        in_checks: list[tuple[Any, ...]] = []
        for part, check in step.checks:
            with recorder.swapped({}) as calls:
                check(reference[part])
            in_checks += calls
        assert in_checks, f"step {step.number}'s checks make no expect_* call"
        assert in_cells == in_checks, f"step {step.number}"


def test_the_comparison_tells_another_case_and_another_part_apart() -> None:
    from plaisante.games.plaisante import checks

    recorder = Recorder(checks)
    namespace: dict[str, Any] = {"expect_has": checks.expect_has}

    def has_pair(cards: list[Any]) -> bool:
        values = [card.value for card in cards]
        return any(values.count(v) == 2 for v in values)

    def has_flush(cards: list[Any]) -> bool:
        return len(cards) == 5 and len({card.suit for card in cards}) == 1

    runs = []
    for part, text in ((has_pair, "K♥ K♦ 3♣"), (has_pair, "K♥ K♦ 4♣"), (has_flush, "K♥ K♦ 3♣")):
        with recorder.swapped(namespace) as calls:
            namespace["expect_has"](part, text, part is has_pair)
        runs.append(list(calls))
    assert runs[0] == [("expect_has", ("tuple", "has_pair", "K♥ K♦ 3♣", True), ("dict",))]
    assert runs[0] != runs[1] and runs[0][0][1][1:] != runs[2][0][1][1:]
    assert len(runs[0]) == 1  # expect_value inside expect_has is not recorded again
