"""The kit's student side, as a wheel for Pyodide: what the starters' setup cells import.

The modules are found, not listed: every ``plaisante.games.<id>.setup`` and, transitively,
every ``plaisante`` module it imports, at the top or inside a function (a game's view is
imported when ``play`` first shows it). Nothing trusted may be imported on that path: a module
of the grader (``plaisante.grading``, ``TRUSTED``) imported at a module's top, an nbgrader
import, or anything else the browser has not got raises ``ValueError`` naming the import chain.
A trusted module imported inside a function (the grader's half of a module both sides share,
``student_tests.run_remote``) is left out of the wheel: that function never runs in a
student's kernel.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # plaisante/
NAME = PACKAGE.name  # the distribution is named as the package
# What the student side may import besides its own modules and Python's standard library.
THIRD_PARTY = frozenset({"ipywidgets", "IPython", "traitlets"})
# Modules that must never be on the student's path (the judge and its helpers).
TRUSTED = ("plaisante.grading", "plaisante.course", "plaisante.cli",
           "plaisante.authoring.reference", "plaisante.commands", "plaisante.lite")
#: Each game's known-good parts (``plaisante.games.<id>.known_good``): the grader's alone.
KNOWN_GOOD = "known_good"


def is_trusted(module: str) -> bool:
    """Return True for a module that must never be on the student's side: the grader and its
    helpers (``TRUSTED``) and every game's known-good parts (``KNOWN_GOOD``)."""
    return module.startswith(TRUSTED) or module.rpartition(".")[2] == KNOWN_GOOD


def _module_file(module: str) -> Path | None:
    """Return the source file of ``plaisante…`` module ``module``, or None if there is none."""
    parts = module.split(".")[1:]
    base = PACKAGE.joinpath(*parts)
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _nodes(tree: ast.AST, lazy: bool) -> list[ast.AST]:
    """The nodes of ``tree`` outside every function (``lazy`` False) or inside one (True)."""
    found: list[ast.AST] = []

    def visit(node: ast.AST, inside: bool) -> None:
        if inside == lazy:
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child, inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    visit(tree, False)
    return found


def _imports(module: str, path: Path, lazy: bool = False) -> set[str]:
    """Return the absolute names of the modules ``path`` imports (relative ones resolved): at
    its top (``lazy`` False) or inside its functions (True)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8")), lazy):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            found.add(stem)
            # ``from . import checks`` imports a module; ``from .x import name`` may not
            found.update(f"{stem}.{alias.name}" for alias in node.names
                         if _module_file(f"{stem}.{alias.name}") is not None
                         and stem.startswith(NAME))
    return found


def student_modules(assignments: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Return ``{module name: source file}`` for the student side of ``assignments`` (default:
    the whole course), parents included. Raises ValueError naming the chain when a trusted
    module, nbgrader or any library outside the standard library and ``THIRD_PARTY`` is on it."""
    from ..games import COURSE

    return _walk([f"{NAME}.games.{a}.setup" for a in (assignments or COURSE)], True)


#: The kernel's own package: what a graded kernel runs besides the setup cells' imports.
KERNEL = ("channel", "data_files", "live", "oracle", "routed", "syscall_filter", "zygote")


def kernel_modules(assignments: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Return ``{module name: source file}`` of everything a kernel grading ``assignments``
    (default: the whole course) may import from the kit: what their setup modules and the
    kernel's package (``KERNEL``) import at their top, transitively, parents included. Raises
    ValueError naming the chain when any of it imports trusted code (the grader, a game's
    known-good parts)."""
    from ..games import COURSE

    roots = [f"{NAME}.games.{a}.setup" for a in (assignments or COURSE)]
    return _walk(roots + [f"{NAME}.kernel.{m}" for m in KERNEL], False, lazy=False)


def _walk(roots: list[str], browser: bool, lazy: bool = True) -> dict[str, Path]:
    """The modules ``roots`` import, transitively (see ``student_modules``); ``browser``: only
    the standard library and ``THIRD_PARTY`` may be imported from outside the kit; ``lazy``
    False: only what modules import at their top, not inside a function (a graded kernel never
    shows the game: ``play`` only prints there, so a game's model, view, presenter and x-ray,
    which hold logic of its own, stay out)."""
    import sys

    seen: dict[str, Path] = {}
    via: dict[str, str] = {root: "" for root in roots}
    todo = list(roots)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = _module_file(module)
        if path is None:
            continue  # a name imported from a module, not a module itself
        if is_trusted(module):
            raise ValueError(f"the student side imports trusted code: {_chain(module, via)}")
        seen[module] = path
        parent = module.rpartition(".")[0]
        if parent and parent not in via:
            via[parent] = module
            todo.append(parent)
        inside = _imports(module, path, lazy=True)
        trusted_inside = {name for name in inside if is_trusted(name)}
        for name in (_imports(module, path) | (inside if lazy else set())) - trusted_inside:
            top = name.split(".")[0]
            if top == NAME:
                if name not in via:
                    via[name] = module
                    todo.append(name)
            elif browser and top not in THIRD_PARTY and top not in sys.stdlib_module_names \
                    and top:
                raise ValueError(f"the student side imports {name!r}, which the browser has "
                                 f"not got (allowed: the standard library, "
                                 f"{', '.join(sorted(THIRD_PARTY))}): {_chain(module, via)}")
    return dict(sorted(seen.items()))


def _chain(module: str, via: dict[str, str]) -> str:
    chain = [module]
    while via.get(chain[-1]):
        chain.append(via[chain[-1]])
    return " <- ".join(chain)


#: The data files a student-side package reads at run time (``importlib.resources``): each
#: game's stylesheet (``plaisante.student_side.style.game_css``).
DATA_FILES = ("style.css",)


def package_data(modules: dict[str, Path]) -> list[Path]:
    """Return the data files (``DATA_FILES``) of the packages among ``modules``, sorted."""
    folders = {path.parent for name, path in modules.items() if path.name == "__init__.py"}
    return sorted(folder / name for folder in folders for name in DATA_FILES
                  if (folder / name).is_file())


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode()}"


def build_wheel(dest: Path, assignments: tuple[str, ...] | None = None) -> Path:
    """Write ``plaisante-VERSION-py3-none-any.whl`` (the student side, needing ipywidgets)
    into folder ``dest``; return its path. The archive is reproducible: same sources, same
    bytes. Raises ValueError as ``student_modules`` does."""
    version = metadata.version(NAME)
    widgets = metadata.version("ipywidgets")
    modules = student_modules(assignments)
    dist = f"{NAME}-{version}.dist-info"
    files: list[tuple[str, bytes]] = [
        (path.relative_to(PACKAGE.parent).as_posix(), path.read_bytes())
        for path in modules.values()]
    files += [(path.relative_to(PACKAGE.parent).as_posix(), path.read_bytes())
              for path in package_data(modules)]
    files.append((f"{dist}/METADATA", (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\nVersion: {version}\n"
        "Summary: Plaisante Kit, the student side: setup cells, checks, games and views\n"
        f"Requires-Python: >=3.10\nRequires-Dist: ipywidgets=={widgets}\n").encode()))
    files.append((f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: plaisante lite\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{dist}/top_level.txt", f"{NAME}\n".encode()))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files)
    files.append((f"{dist}/RECORD", (record + f"{dist}/RECORD,,\n").encode()))
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return wheel
