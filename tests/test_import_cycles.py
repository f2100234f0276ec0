"""No import cycle inside the ``plaisante`` package: each module's module-level imports (read
from its source, not run) point one way, so any module can be read, tested and imported
without the ones that import it. Inside ``plaisante.grading`` an import deferred into a
function does not hide a cycle either: its modules depend on each other one way."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "plaisante"


def module_names(package: Path) -> dict[str, Path]:
    """Return every module of ``package`` by its dotted name (a package by its own name, for
    its ``__init__.py``)."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def module_level_imports(name: str, path: Path, known: set[str],
                         deferred: bool = False) -> set[str]:
    """Return the modules of ``known`` that module ``name`` imports when it is imported: its
    import statements at module level, also inside ``if``, ``try``, ``with`` and loops; not
    those in function or class bodies, nor under ``if TYPE_CHECKING:`` (they do not run at
    import; with ``deferred``, those too). ``from pkg import x`` names the module ``pkg.x`` when
    there is one, else ``pkg``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def resolve(level: int, module: str | None) -> str:
        if not level:
            return module or ""
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[:len(base) - (level - 1)]
        return ".".join([*base, *([module] if module else [])])

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = resolve(node.level, node.module)
                for alias in node.names:
                    child = f"{target}.{alias.name}"
                    found.add(child if child in known else target)
            elif isinstance(node, ast.If):
                test = node.test
                if not (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
                        or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody,
                              *(handler.body for handler in node.handlers)):
                    visit(block)
            elif isinstance(node, (ast.With, ast.For, ast.While)):
                visit(node.body)

    if deferred:
        visit([node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))])
    else:
        visit(tree.body)
    return {module for module in found if module in known and module != name}


def import_graph(package: Path = PACKAGE, deferred: bool = False) -> dict[str, set[str]]:
    """Return each module of ``package`` mapped to the package modules it imports at module
    level (with ``deferred``, anywhere: in functions too)."""
    names = module_names(package)
    return {name: module_level_imports(name, path, set(names), deferred)
            for name, path in names.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the import cycles of ``graph``: one per strongly connected group of more than one
    module (or a module importing itself), as a path ``[a, b, …, a]`` through it, shortest
    first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    found = []
    for group in groups:
        start = min(group)
        paths = [[start]]  # breadth first: the shortest way back to start inside the group
        seen = {start}
        while paths:
            path = paths.pop(0)
            nexts = sorted(graph[path[-1]] & group)
            if start in nexts:
                found.append([*path, start])
                break
            for other in nexts:
                if other not in seen:
                    seen.add(other)
                    paths.append([*path, other])
    return sorted(found, key=len)


def test_the_finder_names_a_cycle_and_skips_imports_that_do_not_run_at_import(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("from .. import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from . import e\ndef f():\n    from . import e\n")
    (package / "e.py").write_text("from . import d\n")
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b"} and graph["pkg.d"] == set()
    assert cycles(graph) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]
    assert import_graph(package, deferred=True)["pkg.d"] == {"pkg.e"}
    assert cycles(import_graph(package, deferred=True)) == [
        ["pkg.d", "pkg.e", "pkg.d"], ["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]


def test_no_module_of_plaisante_imports_itself_back():
    found = cycles(import_graph())
    assert not found, "import cycles in plaisante (module-level imports): " + "; ".join(
        " -> ".join(cycle) for cycle in found)


def test_no_module_of_plaisante_grading_imports_another_back_even_inside_a_function():
    """The package itself is left out: it re-exports its API (``from . import record`` in a
    function reaches the one tests may replace), which is no dependency between modules."""
    graph = {name: {other for other in imports if other.startswith("plaisante.grading.")}
             for name, imports in import_graph(deferred=True).items()
             if name.startswith("plaisante.grading.")}
    found = cycles(graph)
    assert not found, "import cycles in plaisante.grading (imports in functions too): " + \
        "; ".join(" -> ".join(cycle) for cycle in found)
