"""The trust boundary in the tree: nothing that runs in the student's kernel (plaisante/kernel/)
imports trusted code, directly or through the kit's modules it imports.

Read from the source (every ``import`` and ``from … import`` of each module, at any depth of
its code, relative ones resolved, and the ``__init__`` of every package on the way), not by
importing: an import inside a function counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "plaisante" / "kernel"
#: What the kernel must never import: the grader, and what only the grader uses.
TRUSTED = ("plaisante.grading", "nbgrader")


def module_file(name: str, root: Path = ROOT) -> Path | None:
    """The source file of the kit's module ``name`` (None for one outside the kit)."""
    path = root.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = ROOT) -> list[tuple[str, int]]:
    """Every module ``path``'s source imports, with its line: ``a.b`` for ``import a.b``,
    ``a.b`` and ``a.b.c`` for ``from a.b import c`` (``c`` may be a module)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return found


def with_packages(name: str) -> list[str]:
    """``name`` and every package it is in (importing a.b.c runs a and a.b first)."""
    parts = name.split(".")
    return [".".join(parts[: n + 1]) for n in range(len(parts))]


def offending_imports(start: Path, root: Path = ROOT) -> list[str]:
    """Return 'module:line imports trusted-module (via a -> b)' for each trusted import
    reachable from the modules of the folder ``start`` through the kit's own modules."""
    queue = [(module_name(path, root), path, (module_name(path, root),))
             for path in sorted(start.rglob("*.py"))]
    seen: set[str] = set()
    offences = []
    while queue:
        name, path, chain = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        lines: set[int] = set()  # one offence per import statement
        for target, line in imported(path, root):
            if any(target == bad or target.startswith(bad + ".") for bad in TRUSTED):
                via = f" (via {' -> '.join(chain)})" if len(chain) > 1 else ""
                if line not in lines:
                    offences.append(f"{name}:{line} imports {target}{via}")
                lines.add(line)
                continue
            for each in with_packages(target):
                found = module_file(each, root)
                if found is not None and each not in seen:
                    queue.append((each, found, (*chain, each)))
    return offences


def test_nothing_the_kernel_runs_imports_the_grader() -> None:
    offences = offending_imports(KERNEL)
    assert not offences, "the kernel's side imports trusted code:\n" + "\n".join(offences)


def test_the_boundary_check_finds_an_import_of_the_grader_however_indirect(tmp_path) -> None:
    """A kernel module importing, inside a function, a kit module that imports the grader
    relatively, is named with the chain that reaches it."""
    kit = tmp_path / "plaisante"
    (kit / "kernel").mkdir(parents=True)
    (kit / "grading").mkdir()
    for package in (kit, kit / "kernel", kit / "grading"):
        (package / "__init__.py").write_text("")
    (kit / "grading" / "judge.py").write_text("")
    (kit / "helper.py").write_text("from .grading import judge\n")
    (kit / "kernel" / "served.py").write_text("def f():\n    from .. import helper\n")
    assert offending_imports(kit / "kernel", tmp_path) == [
        "plaisante.helper:1 imports plaisante.grading (via plaisante.kernel.served -> "
        "plaisante.helper)"]
    (kit / "kernel" / "served.py").write_text("import nbgrader.api\n")
    assert offending_imports(kit / "kernel", tmp_path) == [
        "plaisante.kernel.served:1 imports nbgrader.api"]


def test_the_kernel_side_has_no_second_home() -> None:
    """The modules that moved into plaisante/kernel/ left no stand-in behind at their old
    names (a stand-in would be kernel code outside the package)."""
    old = ["oracle", "kernel_zygote", "live_oracle", "kernel_filter", "kernel_data"]
    assert [name for name in old if module_file(f"plaisante.{name}")] == []
