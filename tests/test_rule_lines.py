"""Every hidden check of every assignment of COURSE states its rule: in each source notebook,
each statement of a ``### BEGIN HIDDEN TESTS`` region that checks something is covered by a
``# Rule: …`` line above it (docs/course.md). Helper definitions (a ``def``, a ``class``, an
import, a name bound to data or lambdas: the buggy versions of an own-tests cell) check
nothing and need none. A rule is one line of the instructor's words: it never quotes the data
its checks are given (hands, numbers in quotes)."""

from __future__ import annotations

import ast
import re

import nbformat
import pytest
from assignment_support import unit

from plaisante.games import COURSE
from plaisante.grading.execute import is_test
from plaisante.grading.judge import hidden_lines, rule_lines

#: a string literal that is data (a hand of cards, an expression with numbers), which a rule
#: must not repeat; shorter ones ('2', '10', 'K♠') may be words of the rule too
DATA = re.compile(r"[♣♦♥♠]|\d")
SHORTEST_DATA = 4


def checks_nothing(statement: ast.stmt) -> bool:
    """Return True for a statement that only defines: a def, a class, an import, or a name
    bound to something that calls nothing outside a lambda."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                              ast.ImportFrom)):
        return True
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        pending: list[ast.AST] = [statement.value]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Call):
                return False
            if not isinstance(node, ast.Lambda):
                pending.extend(ast.iter_child_nodes(node))
        return True
    return False


def uncovered(source: str) -> list[str]:
    """Return what is wrong with one test cell's rule lines: each hidden statement that checks
    something with no rule above it, and each rule that quotes its checks' data."""
    hidden, covered = hidden_lines(source), rule_lines(source)
    lines = source.splitlines()
    wrong = []
    for statement in ast.parse(source).body:
        if statement.lineno not in hidden or checks_nothing(statement):
            continue
        rule = covered.get(statement.lineno)
        if rule is None:
            wrong.append(f"line {statement.lineno} has no rule: {lines[statement.lineno - 1]}")
            continue
        quoted = [node.value for node in ast.walk(statement) if isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and len(node.value) >= SHORTEST_DATA
                  and DATA.search(node.value)
                  and node.value in rule]
        if quoted:
            wrong.append(f"line {statement.lineno}'s rule quotes its data {quoted[0]!r}: {rule}")
    return wrong


def hidden_test_cells(assignment: str) -> dict[str, str]:
    """Return {grade_id: source} of the source notebook's test cells with hidden tests."""
    notebook = nbformat.read(unit(assignment).source, as_version=4)
    return {cell.metadata.nbgrader["grade_id"]: cell.source for cell in notebook.cells
            if is_test(cell) and "BEGIN HIDDEN TESTS" in cell.source}


@pytest.mark.parametrize("assignment", COURSE)
def test_every_hidden_check_is_under_a_rule_line(assignment: str) -> None:
    cells = hidden_test_cells(assignment)
    assert cells, f"{assignment} has no hidden tests"
    wrong = {grade_id: problems for grade_id, source in cells.items()
             if (problems := uncovered(source))}
    assert wrong == {}


def test_the_coverage_check_finds_a_missing_rule_and_a_quoting_one() -> None:
    source = ("check(x)\n### BEGIN HIDDEN TESTS\ndef _bug(cards):\n    return cards\n"
              "_versions = {'a': lambda c: _bug(c)}\nexpect(f, '5♥', 1)\n"
              "# Rule: a pair counts 2, as in 5♥ 5♦\nexpect(f, '5♥ 5♦', 2)\n"
              "# Rule: one card counts once\nexpect(f, 'K♠',\n       1)\n### END HIDDEN TESTS")
    assert uncovered(source) == [
        "line 6 has no rule: expect(f, '5♥', 1)",
        "line 8's rule quotes its data '5♥ 5♦': a pair counts 2, as in 5♥ 5♦"]
