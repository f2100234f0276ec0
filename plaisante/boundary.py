"""The trust boundary, by folder: what runs in the student's kernel, and what it may import.

The kernel's side is three folders of the package and its start-up:

* ``plaisante/student_side/``: what setup cells, checks and views import (cards, checks,
  widgets, stylesheets, students' own tests, the wire format);
* ``plaisante/kernel/``: the graded kernel's half of its conversations with the grader;
* ``plaisante/games/``: every game, but for each game's ``known_good`` module (working answers:
  the grader's alone);
* ``plaisante/__init__.py`` and ``plaisante/lazy_nbgrader.py``: the package's start-up, which
  every process of either side runs first.

Everything else of the kit is trusted: the grader (``plaisante.grading``), the instructor's
rooms (``intake``, ``results``, ``similarity``, ``live``, ``formgrader``, ``authoring``), the
command line and the JupyterLite builder.

**The rule**: a module on the kernel's side imports, anywhere in its code (inside functions
too), only modules on the kernel's side, the standard library and ``KERNEL_LIBRARIES``
(``crossings`` lists what breaks it; ``tests/test_kernel_boundary.py`` holds the package to it).
What the grader gives the kernel's code to use, it gives at run time: the judge puts each game's
``known_good`` parts in its checks' ``KNOWN``, and ``plaisante.grading.routed`` gives students'
own tests the way to run in a kernel (``student_tests.remote_runner``).

``kernel_modules`` (what a graded kernel's copy of the kit holds, ``plaisante.grading
.kernel_tree``) and the JupyterLite wheel (``plaisante.lite.student_wheel``) follow imports from the
setup modules; a walk that reaches a module off the kernel's side raises ValueError naming the
chain.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # plaisante/
NAME = PACKAGE.name
#: The package's folders whose modules run in the student's kernel.
KERNEL_SIDE = ("student_side", "kernel", "games")
#: The package's start-up, run by every process first (``import plaisante.x`` runs it).
START_UP = ("", "lazy_nbgrader")
#: A module of this name is the grader's, wherever it is (each game's working answers).
GRADER_ONLY = "known_good"
#: What the kernel's side may import besides the kit and the standard library: what a Jupyter
#: kernel itself runs on, and the widgets the views are drawn with.
KERNEL_LIBRARIES = frozenset({"IPython", "ipykernel", "ipywidgets", "traitlets"})


def on_kernel_side(module: str, name: str = NAME) -> bool:
    """Return True when the kit's module ``module`` (dotted, e.g. ``plaisante.kernel.oracle``)
    runs in the student's kernel (see the module's doc); False for trusted code and for names
    outside the kit."""
    parts = module.split(".")
    if parts[0] != name:
        return False
    inside = parts[1:]
    if ".".join(inside) in START_UP:
        return True
    return bool(inside) and inside[0] in KERNEL_SIDE and inside[-1] != GRADER_ONLY


def module_file(module: str, package: Path = PACKAGE) -> Path | None:
    """Return the source file of the kit's module ``module`` under ``package`` (the package's
    folder), or None when there is none (a name inside a module, or outside the kit)."""
    parts = module.split(".")
    if parts[0] != package.name:
        return None
    base = package.joinpath(*parts[1:])
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """The dotted name of the module whose source is ``path``, a file under ``package``."""
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(module: str, path: Path, package: Path = PACKAGE
            ) -> list[tuple[str, int, bool]]:
    """Return what the source ``path`` of ``module`` imports, as (absolute module name, line,
    inside a function?): ``a.b`` for ``import a.b``; for ``from a.b import c``, ``a.b`` and
    ``a.b.c`` when that is a module of the kit. Relative imports are resolved."""
    parent = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, inside: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno, inside) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            stem = node.module or ""
            if node.level:
                base = parent.split(".")[: len(parent.split(".")) - node.level + 1]
                stem = ".".join([*base, stem] if stem else base)
            found.append((stem, node.lineno, inside))
            found.extend((f"{stem}.{alias.name}", node.lineno, inside) for alias in node.names
                         if module_file(f"{stem}.{alias.name}", package) is not None)
        for child in ast.iter_child_nodes(node):
            visit(child, inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


def with_packages(module: str) -> list[str]:
    """``module`` and every package it is in, outermost first (importing a.b.c runs a, a.b)."""
    parts = module.split(".")
    return [".".join(parts[: n + 1]) for n in range(len(parts))]


def kernel_side(package: Path = PACKAGE) -> dict[str, Path]:
    """Return ``{module name: source file}`` of every module of ``package`` on the kernel's
    side, sorted."""
    found = {module_name(path, package): path for path in package.rglob("*.py")}
    return {name: path for name, path in sorted(found.items())
            if on_kernel_side(name, package.name)}


def crossing(name: str, package: Path = PACKAGE,
             libraries: Iterable[str] = KERNEL_LIBRARIES) -> str | None:
    """Return why a module on the kernel's side may not import ``name`` ("trusted code", "not
    a library a kernel has"), or None when it may."""
    top = name.split(".")[0]
    if top == package.name:
        trusted = [m for m in with_packages(name) if not on_kernel_side(m, package.name)
                   and module_file(m, package) is not None]
        return "trusted code" if trusted else None
    if top and top not in sys.stdlib_module_names and top not in libraries:
        return "not a library a kernel has"
    return None


def crossings(package: Path = PACKAGE) -> list[str]:
    """Return one line per import on the kernel's side that breaks the rule, as ``module:line
    imports name (why)``; empty when the kernel's side holds to it."""
    lines: list[str] = []
    for module, path in kernel_side(package).items():
        said: set[int] = set()  # one line per import statement
        for name, line, _ in imports(module, path, package):
            why = crossing(name, package)
            if why and line not in said:
                said.add(line)
                lines.append(f"{module}:{line} imports {name} ({why})")
    return lines


def walk(roots: Iterable[str], functions: bool, libraries: Iterable[str] = KERNEL_LIBRARIES,
         package: Path = PACKAGE) -> dict[str, Path]:
    """Return ``{module name: source file}`` of ``roots`` and of every kit module they import,
    transitively, the packages they are in included, sorted: imports at each module's top, and
    with ``functions`` those inside its functions too. Raises ValueError naming the import
    chain when a module off the kernel's side, or a library outside the standard library and
    ``libraries``, is reached."""
    allowed = frozenset(libraries)
    seen: dict[str, Path] = {}
    via: dict[str, str] = {root: "" for root in roots}
    todo = list(via)
    while todo:
        module = todo.pop()
        path = module_file(module, package)
        if module in seen or path is None:
            continue  # a name imported from a module, not a module itself
        if not on_kernel_side(module, package.name):
            raise ValueError(f"the kernel's side imports trusted code: {_chain(module, via)}")
        seen[module] = path
        reached = [module.rpartition(".")[0]]  # its package runs first
        for name, _, inside in imports(module, path, package):
            if inside and not functions:
                continue
            if name.split(".")[0] == package.name:
                reached += with_packages(name)
            elif crossing(name, package, allowed):
                raise ValueError(f"the kernel's side imports {name!r}, which it has not got "
                                 f"(allowed: the standard library, "
                                 f"{', '.join(sorted(allowed))}): {_chain(module, via)}")
        for each in reached:
            if each and each not in via:
                via[each] = module
                todo.append(each)
    return dict(sorted(seen.items()))


def _chain(module: str, via: dict[str, str]) -> str:
    chain = [module]
    while via.get(chain[-1]):
        chain.append(via[chain[-1]])
    return " <- ".join(chain)


def setup_modules(assignments: Iterable[str] | None = None) -> list[str]:
    """The setup modules of ``assignments`` (default: the course's), what setup cells import."""
    from .games import COURSE

    return [f"{NAME}.games.{a}.setup" for a in (assignments or COURSE)]


def kernel_modules(assignments: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Return ``{module name: source file}`` of all a kernel grading ``assignments`` (default:
    the whole course) may import from the kit: what their setup modules and every module of
    ``plaisante/kernel/`` import at their top, transitively, the packages they are in included
    (a graded kernel never shows a game: ``play`` only prints there, so a game's model, view,
    presenter and x-ray, imported inside functions, stay out). Raises ValueError as ``walk``."""
    own = [name for name in kernel_side() if name.startswith(f"{NAME}.kernel")]
    return walk([*setup_modules(assignments), *own], functions=False)
