"""A small AST mutator for the five assignments' reference solutions, and the run that judges
each mutant with the notebook's own test cells through the loopback judge.

Only the code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` in each assignment's
answer cells (``answer_cells``) is mutated: what a student writes. Each mutant changes one
thing (operators below); the notebook's answer cells are run with that one cell changed, and
the mutated step's test cells are judged once: a test cell that fails in its visible lines
kills the mutant for the visible tests, one that fails anywhere kills it for all tests. Each
mutant runs in a forked process with a time limit, so a mutant that loops or breaks the
process's state is judged alone. ``reference_mutants`` gives the mutants alone, as the
differential test (tests/differential.py) grades them both ways.

    .venv/bin/python tests/mutation.py [ASSIGNMENT]  # the per-step table and the survivors

Operators (one change each): a comparison flipped at its boundary or negated (== !=, < <=,
> >=, in / not in, is / is not); + and - swapped, * and / swapped; += made -= or =; an int
constant one more or one less; True / False swapped; and / or swapped; a ``not`` removed; an
``if``'s condition negated; a returned value replaced by None; a simple statement (call,
assignment, raise) deleted; two statements in a row swapped; a copy dropped (``list(x)``,
``dict(x)``, ``set(x)``, ``x.copy()``, ``copy.copy(x)``, ``copy.deepcopy(x)`` made ``x``, so
the code changes what it was given); a name confused with the next
of its family (the hand names, in the table's order; RANKS / SUITS; the Tableau's lists).
Strings are not mutated: the spec fixes what a message names (the allowed ranks), not its
words.
"""

from __future__ import annotations

import ast
import json
import os
import re
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from plaisante.games import COURSE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

ASSIGNMENTS = tuple(COURSE)  # a new game of the course is mutated too
SOURCE = ROOT / "solutions" / "plaisante" / "plaisante.ipynb"
RELEASE = ROOT / "starter" / "plaisante" / "plaisante.ipynb"
#: Solution cells that are not answer cells: the trace-it-by-hand answers (a value the
#: visible test checks only for shape, by design), the *_my_tests cells (the reference's own
#: tests: they are tests, graded against buggy versions already) and the optional
#: going-further cell (no points).
NOT_ANSWERS = re.compile(r"_trace_answer$|_my_tests_code$|^going_further$")
STEP = re.compile(r"^step(\d+)_")
TIME_LIMIT = 60.0  # seconds for one mutant's cells; a mutant past it is killed (a timeout)

COMPARE_SWAPS: dict[type, type] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
    ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
    ast.IsNot: ast.Is}
#: Names a solution may confuse with the next one of its family (a constant swapped).
NAME_FAMILIES = (("FOUR_OF_A_KIND", "FULL_HOUSE", "FLUSH", "STRAIGHT", "THREE_OF_A_KIND",
                  "TWO_PAIR", "PAIR", "HIGH_CARD"), ("RANKS", "SUITS"),
                 ("held_cards", "selected", "play_area"))
NAMES = {name for family in NAME_FAMILIES for name in family}
BINOP_SWAPS: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div,
                                 ast.Div: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    """One change to one cell: ``id`` is 'cell:line: before -> after' (line in the cell)."""

    step: int
    cell: str
    line: int
    before: str
    after: str
    source: str = field(repr=False, compare=False)

    @property
    def id(self) -> str:
        return f"{self.cell}:{self.line}: {self.before} -> {self.after}"


def solution_lines(source: str) -> set[int]:
    """Return the numbers (from 1) of the lines between BEGIN and END SOLUTION markers."""
    inside, found = False, set()
    for number, line in enumerate(source.splitlines(), start=1):
        if "### BEGIN SOLUTION" in line:
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif inside:
            found.add(number)
    return found


def _changes(node: ast.AST, parent: ast.AST | None) -> Iterator[tuple[str, Callable[[], None]]]:
    """Yield (what the change is, a function making it in place) for every mutation of
    ``node``; ``parent`` holds it (for statement deletion)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAPS:
                new = COMPARE_SWAPS[type(op)]
                yield new.__name__, lambda i=i, new=new: node.ops.__setitem__(i, new())
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
        new = BINOP_SWAPS[type(node.op)]
        yield new.__name__, lambda: setattr(node, "op", new())
    elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
        flipped = ast.Sub if isinstance(node.op, ast.Add) else ast.Add
        yield "flip", lambda: setattr(node, "op", flipped())
        yield "assign", lambda: _replace(parent, node, ast.Assign(targets=[node.target],
                                                                 value=node.value))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            yield f"{delta:+d}", lambda delta=delta: setattr(node, "value", node.value + delta)
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield "not", lambda: setattr(node, "value", not node.value)
    elif isinstance(node, ast.BoolOp):
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield other.__name__, lambda: setattr(node, "op", other())
    elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in NAMES:
        family = next(f for f in NAME_FAMILIES if node.id in f)
        other = family[(family.index(node.id) + 1) % len(family)]
        yield other, lambda: setattr(node, "id", other)
    elif isinstance(node, ast.Attribute) and node.attr in NAMES:
        family = next(f for f in NAME_FAMILIES if node.attr in f)
        other = family[(family.index(node.attr) + 1) % len(family)]
        yield other, lambda: setattr(node, "attr", other)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "drop not", lambda: _replace(parent, node, node.operand)
    elif (copied := _copied(node)) is not None:
        yield "drop copy", lambda: _replace(parent, node, copied)
    if isinstance(node, ast.If) and not _negation_is_a_swap(node.test):
        yield "negate if", lambda: setattr(node, "test", ast.UnaryOp(ast.Not(), node.test))
    if isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        yield "return None", lambda: setattr(node, "value", ast.Constant(None))
    if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.Raise)) and not (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        yield "delete", lambda: _replace(parent, node, ast.Pass())


def _copied(node: ast.AST) -> ast.expr | None:
    """What ``node`` copies when it is a copy of one value (``copy.copy(x)``,
    ``copy.deepcopy(x)``, ``list(x)``, ``dict(x)``, ``set(x)``, ``x.copy()``), else None:
    dropping the copy makes the code change the value it was given."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    if len(node.args) == 1 and (
            isinstance(func, ast.Name) and func.id in ("list", "dict", "set")
            or isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "copy" and func.attr in ("copy", "deepcopy")):
        return node.args[0]
    if not node.args and isinstance(func, ast.Attribute) and func.attr == "copy":
        return func.value
    return None


def _swapper(body: list[Any], i: int) -> Callable[[], None]:
    def swap() -> None:
        body[i], body[i + 1] = body[i + 1], body[i]
    swap.swaps = True  # type: ignore[attr-defined]
    return swap


def _negation_is_a_swap(test: ast.expr) -> bool:
    """True when negating ``test`` is already one of the other changes (dropping its ``not``,
    or flipping its single == != in not-in is is-not): the same mutant is not counted twice."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return True
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(
        test.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot))


def _replace(parent: ast.AST | None, old: ast.AST, new: ast.AST) -> None:
    """Put ``new`` where ``old`` is among ``parent``'s fields."""
    assert parent is not None
    for name, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, name, new)
            return
        if isinstance(value, list) and any(item is old for item in value):
            value[[id(item) for item in value].index(id(old))] = new
            return
    raise AssertionError(f"{ast.dump(old)} is not a child of {ast.dump(parent)}")


def _walk(tree: ast.AST) -> list[tuple[ast.AST, ast.AST | None]]:
    """Every node with its parent, in a fixed order."""
    found: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    for node, _ in found:
        found.extend((child, node) for child in ast.iter_child_nodes(node))
    return found


def _shown(node: ast.AST) -> str:
    text = ast.unparse(node).splitlines()[0]
    return text if len(text) <= 200 else text[:199] + "…"


def mutants_of(step: int, cell: str, source: str) -> list[Mutant]:
    """Every one-change mutant of the solution lines of ``source`` (a cell's code)."""
    lines = solution_lines(source)

    def points(tree: ast.AST) -> list[tuple[ast.AST, Callable[[], None], tuple[Any, ...]]]:
        found = []
        places = _statement_places(tree)
        for node, parent in _walk(tree):
            if getattr(node, "lineno", None) in lines:
                where = places[id(node)]
                found.extend((node, make, where) for _name, make in _changes(node, parent))
            for name, body in ast.iter_fields(node):  # two solution statements swapped
                if isinstance(body, list):
                    for i in range(len(body) - 1):
                        if isinstance(body[i], ast.stmt) and isinstance(body[i + 1], ast.stmt) \
                                and {body[i].lineno, body[i + 1].lineno} <= lines:
                            found.append((body[i], _swapper(body, i), (node, name, i)))
        return found

    mutants = []
    for k in range(len(points(ast.parse(source)))):
        tree = ast.parse(source)
        node, make, (holder, name, index) = points(tree)[k]
        body = getattr(holder, name)
        if getattr(make, "swaps", False):  # 'A / B -> B / A'
            before = f"{_shown(body[index])} / {_shown(body[index + 1])}"
            after = f"{_shown(body[index + 1])} / {_shown(body[index])}"
            make()
        else:
            before = _shown(body[index])
            make()
            ast.fix_missing_locations(tree)
            after = _shown(body[index])
        mutants.append(Mutant(step, cell, node.lineno, before, after, ast.unparse(tree)))
    return mutants


def _statement_places(tree: ast.AST) -> dict[int, tuple[ast.AST, str, int]]:
    """Where the innermost statement holding each node sits: {id(node): (its parent, field,
    index)}, for every node inside a statement of ``tree`` (a statement holds itself)."""
    places: dict[int, tuple[ast.AST, str, int]] = {}

    def visit(node: ast.AST, place: tuple[ast.AST, str, int] | None) -> None:
        for name, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                if isinstance(item, ast.AST):
                    here = (node, name, index) if isinstance(item, ast.stmt) and \
                        isinstance(value, list) else place
                    if here is not None:
                        places[id(item)] = here
                    visit(item, here)
    visit(tree, None)
    return places


# ----------------------------------------------------------------------------- the run

@dataclass(frozen=True)
class Outcome:
    """What the tests did to one mutant: killed by the visible tests, by all tests, how."""

    mutant: Mutant
    visible: bool
    any: bool
    how: str  # 'grade_id: Error: message' of the first failing cell, 'timeout', or ''


def judge(mutant: Mutant, notebook: nbformat.NotebookNode, tests: dict[str, str],
          setup: dict[str, Any], names: set[str]) -> tuple[bool, bool, str]:
    """Run the notebook's answer cells with ``mutant`` and its step's test cells, once."""
    from loopback_judge import kernel_namespace, verdicts  # the judge: only when judging

    step_tests = {k: v for k, v in tests.items() if k.startswith(f"step{mutant.step}_")}
    namespace = kernel_namespace(notebook, **{mutant.cell: mutant.source})
    results = verdicts(step_tests, setup, names, namespace)
    failed = {k: v for k, v in results.items() if not v.passed}
    visible = [k for k, v in failed.items() if not v.in_hidden]
    first = (visible or list(failed) or [""])[0]
    how = f"{first}: {failed[first].error[0]}: {failed[first].error[1]}"[:300] if first else ""
    return bool(visible), bool(failed), how


def run_all(mutants: list[Mutant], notebook: nbformat.NotebookNode, tests: dict[str, str],
            setup: dict[str, Any], names: set[str], workers: int = 2) -> list[Outcome]:
    """Judge every mutant, each in a forked process (``workers`` at a time, ``TIME_LIMIT``)."""
    outcomes: dict[int, Outcome] = {}
    pending = list(enumerate(mutants))
    running: dict[int, tuple[int, int, float]] = {}  # read fd -> (index, pid, started)
    while pending or running:
        while pending and len(running) < workers:
            index, mutant = pending.pop(0)
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: judge, answer on the pipe, leave at once
                os.close(read)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # what the cells print
                try:
                    answer = json.dumps(judge(mutant, notebook, tests, setup, names))
                except BaseException as error:  # noqa: B036  a mutant that breaks the judge
                    answer = json.dumps([True, True, f"judge raised {error!r}"[:300]])
                os.write(write, answer.encode())
                os._exit(0)
            os.close(write)
            running[read] = (index, pid, time.monotonic())
        ready, _, _ = select.select(list(running), [], [], 0.5)
        for read in ready:
            index, pid, _ = running.pop(read)
            data = b""
            while chunk := os.read(read, 65536):
                data += chunk
            os.close(read)
            os.waitpid(pid, 0)
            visible, killed, how = json.loads(data) if data else (True, True, "died")
            outcomes[index] = Outcome(mutants[index], visible, killed, how)
        for read, (index, pid, started) in list(running.items()):
            if time.monotonic() - started > TIME_LIMIT:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(read)
                del running[read]
                outcomes[index] = Outcome(mutants[index], True, True, "timeout")
    return [outcomes[i] for i in range(len(mutants))]


def source_notebook(assignment: str) -> nbformat.NotebookNode:
    """The assignment's source notebook (solutions/<id>/<id>.ipynb)."""
    return nbformat.read(ROOT / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)


def answer_cells(assignment: str) -> dict[str, int]:
    """Return {grade_id: step} of the assignment's answer cells, in notebook order: its
    solution cells but the trace answers, the own-tests cells and the going-further cell."""
    found = {}
    for cell in source_notebook(assignment).cells:
        nbgrader = cell.metadata.get("nbgrader", {})
        grade_id = nbgrader.get("grade_id", "")
        if nbgrader.get("solution") and not NOT_ANSWERS.search(grade_id):
            step = STEP.match(grade_id)
            assert step, f"{assignment}: answer cell {grade_id!r} is not named stepN_…"
            found[grade_id] = int(step.group(1))
    return found


def reference_mutants(assignment: str) -> list[Mutant]:
    """Every one-change mutant of the assignment's answer cells, cell by cell."""
    cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell
             for cell in source_notebook(assignment).cells}
    return [mutant for grade_id, step in answer_cells(assignment).items()
            for mutant in mutants_of(step, grade_id, cells[grade_id].source)]


def assignment_run(assignment: str, workers: int = 2) -> list[Outcome]:
    """Mutate the assignment's answer cells and judge every mutant."""
    from plaisante.grading.execute import is_test
    from plaisante.grading.judge import setup_namespace
    from plaisante.grading.submission import setup_sources, student_names

    source = source_notebook(assignment)
    release = nbformat.read(ROOT / "starter" / assignment / f"{assignment}.ipynb",
                            as_version=4)
    tests = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in source.cells
             if is_test(cell)}
    setup = setup_namespace(setup_sources(release))
    return run_all(reference_mutants(assignment), source, tests, setup,
                   set(student_names(release)), workers)


def plaisante_run(workers: int = 2) -> list[Outcome]:
    """Mutate the Plaisante reference's answer cells and judge every mutant."""
    return assignment_run("plaisante", workers)


def table(outcomes: list[Outcome], equivalent: dict[str, str]) -> list[dict[str, Any]]:
    """Per step: mutants, equivalent ones, and the share of the others killed."""
    rows = []
    for step in sorted({o.mutant.step for o in outcomes}):
        mine = [o for o in outcomes if o.mutant.step == step]
        counted = [o for o in mine if o.mutant.id not in equivalent]
        rows.append({"step": step, "mutants": len(mine), "equivalent": len(mine) - len(counted),
                     "visible": sum(o.visible for o in counted),
                     "all": sum(o.any for o in counted), "counted": len(counted)})
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| step | mutants | equivalent | killed by visible tests | killed by all tests |",
             "|---|---|---|---|---|"]
    for row in rows:
        n = row["counted"]
        lines.append(f"| {row['step']} | {row['mutants']} | {row['equivalent']} | "
                     f"{row['visible']}/{n} = {100 * row['visible'] / n:.1f} % | "
                     f"{row['all']}/{n} = {100 * row['all'] / n:.1f} % |")
    return "\n".join(lines)


def assert_goals(outcomes: list[Outcome], equivalent: dict[str, str], steps: list[int],
                 at_least: int, visible: float, everything: float) -> None:
    """Assert the gate's goals: each of ``steps`` has mutants, at least ``at_least`` in all,
    and per step the shares ``visible`` (killed by visible tests) and ``everything`` (by any
    test) of the non-equivalent mutants. Prints the table."""
    rows = table(outcomes, equivalent)
    assert [row["step"] for row in rows] == steps
    assert sum(row["mutants"] for row in rows) >= at_least  # the operators reach every solution
    print("\n" + markdown(rows))
    for row in rows:
        assert row["visible"] >= visible * row["counted"], row
        assert row["all"] >= everything * row["counted"], row


def assert_survivors_are(outcomes: list[Outcome], equivalent: dict[str, str]) -> None:
    """Assert that the mutants no test kills are exactly those of ``equivalent``, one id a
    mutant, and that none timed out or died."""
    ids = [o.mutant.id for o in outcomes]
    assert len(ids) == len(set(ids))  # one id, one mutant
    assert sorted(o.mutant.id for o in outcomes if not o.any) == sorted(equivalent)
    assert [o.how for o in outcomes if o.how in ("timeout", "died")] == []


def assert_documented(equivalent: dict[str, str]) -> None:
    """Assert that docs/mutation.md names every equivalent mutant and its reason."""
    text = " ".join((ROOT / "docs" / "mutation.md").read_text(encoding="utf-8").split())
    for mutant, why in equivalent.items():
        assert mutant in text, mutant
        assert why in text, why


def assert_alike_on(assignment: str, cell: str, part: str, inputs: list[Any],
                    equivalent: dict[str, str], count: int) -> None:
    """Assert the ``count`` equivalent mutants of ``cell`` make ``part`` answer as the
    reference's on every one of ``inputs`` (one argument each): equivalent on the inputs the
    game can make, not only on the tests' cases."""
    from loopback_judge import kernel_namespace

    source = source_notebook(assignment)
    reference = kernel_namespace(source)[part]
    mutants = [m for m in reference_mutants(assignment) if m.id in equivalent and m.cell == cell]
    assert len(mutants) == count, [m.id for m in mutants]
    for mutant in mutants:
        mutated = kernel_namespace(source, **{mutant.cell: mutant.source})[part]
        differ = [given for given in inputs if mutated(given) != reference(given)]
        assert differ == [], (mutant.id, differ[:3])


def gated_assignments() -> list[str]:
    """The assignments of the course with a mutation gate (``tests/games/<id>/test_mutation.py``),
    in course order."""
    from plaisante.games import COURSE

    return [a for a in COURSE if (ROOT / "tests" / "games" / a / "test_mutation.py").is_file()]


def gate_module(assignment: str) -> Any:
    """The assignment's gate module (``tests/games/<assignment>/test_mutation.py``): its
    ``EQUIVALENT``, ``GOAL_VISIBLE``, ``GOAL_ALL`` and ``AT_LEAST``."""
    import importlib.util

    path = ROOT / "tests" / "games" / assignment / "test_mutation.py"
    spec = importlib.util.spec_from_file_location(f"{assignment}_mutation_gate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gate_equivalents(assignment: str) -> dict[str, str]:
    """Return the equivalent mutants the assignment's gate lists, empty without a gate."""
    return dict(gate_module(assignment).EQUIVALENT) if assignment in gated_assignments() else {}


if __name__ == "__main__":
    chosen = sys.argv[1] if len(sys.argv) > 1 else "plaisante"
    EQUIVALENT = gate_equivalents(chosen)
    started = time.monotonic()
    found = assignment_run(chosen)
    print(markdown(table(found, EQUIVALENT)))
    print(f"\n{len(found)} mutants in {time.monotonic() - started:.0f} s")
    print("\nSurvivors of all tests:")
    for outcome in found:
        if not outcome.any:
            print(f"  {outcome.mutant.id}" + ("  (listed as equivalent)"
                                              if outcome.mutant.id in EQUIVALENT else ""))
    print("\nKilled by hidden tests only:")
    for outcome in found:
        if outcome.any and not outcome.visible:
            how = re.sub(r"\s+", " ", outcome.how)
            print(f"  {outcome.mutant.id}\n      {how}")
