"""Load an assignment's reference solution from the instructor's source notebook (the one place
it lives).

The kit's tests and the instructor's demo call ``load(ID)``; the package itself holds no
solution to any graded step. Only setup cells and solution cells run: test cells, the optional
checks and the play cell are skipped.
"""

from __future__ import annotations

import os
import types
from collections.abc import Collection, Mapping
from functools import lru_cache
from pathlib import Path

SKIPPED_CELLS = frozenset({"play"})


def source_notebook(assignment: str, root: Path | None = None) -> Path:
    """Return the path of the source (solutions) notebook of ``assignment``."""
    from ..course import CourseLayout

    return CourseLayout.of(root).source(assignment)


def reference_code(path: Path, changes: Mapping[str, str] | None = None,
                   skip: Collection[str] = ()) -> str:
    """Return the Python source of the notebook's setup and solution cells, in order.

    ``changes`` ({grade_id: source}) replaces the source of those cells, e.g. an answer cell
    with a classic mistake in it, as a test builds a student's variant; cells whose grade id
    is in ``skip`` are left out, as ``play`` always is."""
    import nbformat  # ~1 s of imports: only when the solution is really loaded

    nb = nbformat.read(path, as_version=4)
    chunks = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta or meta.get("grade"):
            continue
        grade_id = meta.get("grade_id")
        if grade_id in SKIPPED_CELLS or grade_id in skip:
            continue
        chunks.append((changes or {}).get(grade_id, cell.source))
    return "\n\n".join(chunks)


def _module(name: str, doc: str, path: str, code: str) -> types.ModuleType:
    """Return a new module ``name`` that ran ``code`` (read from the notebook at ``path``)."""
    module = types.ModuleType(name, doc)
    module.__file__ = path
    exec(compile(code, path, "exec"), module.__dict__)
    return module


@lru_cache(maxsize=None)
def _load(path: str) -> types.ModuleType:
    return _module("reference_solution", f"Reference solution from {path}", path,
                   reference_code(Path(path)))


def variant(path: str | os.PathLike[str], changes: Mapping[str, str],
            skip: Collection[str] = ()) -> types.ModuleType:
    """Return a fresh module of the notebook's solution with ``changes`` made (see
    ``reference_code``): a student's version, for tests. Not cached."""
    return _module("reference_variant", f"A variant of the solution in {path}", str(path),
                   reference_code(Path(path), changes, skip))


def load(assignment: str, path: str | os.PathLike[str] | None = None) -> types.ModuleType:
    """Return the reference solution of ``assignment`` as a module holding every part it names
    (and the optional functions), run from its source notebook (or from ``path``). Cached per
    path. Raises FileNotFoundError when the notebook is missing."""
    return _load(str(Path(path) if path else source_notebook(assignment)))


def parts(module: types.ModuleType, assignment: str) -> dict[str, object]:
    """Return the keyword arguments ``play`` and the gate take for ``assignment``, read from
    ``module``. Raises AttributeError naming a part the module lacks."""
    from ..games import load as description

    return {name: getattr(module, name) for name in description(assignment).parts}
