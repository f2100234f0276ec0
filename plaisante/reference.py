"""Load the reference solution from the instructor's source notebook (the one place it lives).

The kit's tests and the instructor's demo call ``load()``; the package itself holds no solution
to any graded step. Only setup cells and solution cells run: test cells, the optional checks
and the play cell are skipped.
"""

from __future__ import annotations

import os
import types
from functools import lru_cache
from pathlib import Path

ASSIGNMENT = "plaisante"
SKIPPED_CELLS = frozenset({"play"})


def course_root(start: Path | None = None) -> Path:
    """Return the course folder: the nearest folder at or above ``start`` (default: the
    current folder, then this package's checkout) holding ``nbgrader_config.py``.

    The environment variable PLAISANTE_COURSE overrides the search. Raises FileNotFoundError
    naming where it looked.
    """
    if os.environ.get("PLAISANTE_COURSE"):
        return Path(os.environ["PLAISANTE_COURSE"]).resolve()
    starts = [start or Path.cwd(), Path(__file__).resolve().parent]
    for origin in starts:
        for folder in [origin.resolve(), *origin.resolve().parents]:
            if (folder / "nbgrader_config.py").is_file():
                return folder
    raise FileNotFoundError(
        "no nbgrader_config.py in " + " or ".join(str(s) for s in starts) +
        " or above: run from the kit's folder, or set PLAISANTE_COURSE to it")


def source_notebook(root: Path | None = None) -> Path:
    """Return the path of the source (solutions) notebook of the Plaisante assignment."""
    from .course import CourseLayout

    return CourseLayout.of(root).source(ASSIGNMENT)


def reference_code(path: Path) -> str:
    """Return the Python source of the notebook's setup and solution cells, in order."""
    import nbformat  # ~1 s of imports: only when the solution is really loaded

    nb = nbformat.read(path, as_version=4)
    chunks = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta or meta.get("grade"):
            continue
        if meta.get("grade_id") in SKIPPED_CELLS:
            continue
        chunks.append(cell.source)
    return "\n\n".join(chunks)


@lru_cache(maxsize=None)
def _load(path: str) -> types.ModuleType:
    module = types.ModuleType("plaisante_reference", f"Reference solution from {path}")
    module.__file__ = path
    exec(compile(reference_code(Path(path)), path, "exec"), module.__dict__)
    return module


def load(path: str | os.PathLike[str] | None = None) -> types.ModuleType:
    """Return the reference solution as a module: Card, count_values, the has-checks, evaluate,
    total_value, base_mult, score, Tableau and the optional functions. Cached per path."""
    return _load(str(Path(path) if path else source_notebook()))


def parts(module: types.ModuleType) -> dict[str, object]:
    """Return the keyword arguments ``play`` and ``check_all`` take, read from ``module``."""
    from .gate import PART_NAMES

    return {name: getattr(module, name) for name in PART_NAMES}
