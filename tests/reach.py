"""What a graded kernel can reach, tried as every graded part: ``python -m tests.reach GAME``.

A kernel that grades ``GAME`` can import what its copy of the kit holds: ``GAME``'s student side
and the kernel's own package (``plaisante.boundary.kernel_modules``, as the sandbox's
``plaisante.grading.kernel_tree`` copies it). This module imports exactly that in a fresh
interpreter, runs ``GAME``'s setup cell, collects every callable it can find there (each Python
function and class defined in the kit, and each callable object of a kit class, through the
garbage collector: whatever a student could reach by names, ``__globals__``, closures, defaults,
class attributes, ``sys.modules`` or ``gc.get_objects()``), and only then loads the grader's
side. Each candidate is then put in place of each graded part of the same kind and run through
every test cell of the source notebook that reads that part, visible and hidden regions
together, as the student's notebook would run them. A candidate that passes every such cell
answers that part: it prints one JSON line, ``{"found": [[part, where], ...], "tried": n,
"control": [[part, where], ...]}``, where ``control`` lists the reference solution's own parts,
tried the same way to show the search finds a working part when there is one.

Left out of the candidates: ``plaisante.kernel.zygote``, ``plaisante.kernel.syscall_filter`` and
``plaisante.kernel.live``, which fork, exit, install a system-call filter or take over the
process's standard streams when called, and hold nothing about cards.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import inspect
import io
import json
import signal
import sys
import types
from pathlib import Path
from typing import Any

NOT_TRIED = ("plaisante.kernel.zygote", "plaisante.kernel.syscall_filter",
             "plaisante.kernel.live")
SECONDS = 5  # one test cell on one candidate


def student_side(game: str) -> dict[str, Any]:
    """Import everything a kernel grading ``game`` can import from the kit (its copy of the
    kit: ``game``'s student side and the kernel's package); return the setup cell's
    namespace."""
    from plaisante.boundary import kernel_modules

    for module in kernel_modules((game,)):  # plaisante/kernel/ with the game's side
        if not module.startswith(NOT_TRIED):
            importlib.import_module(module)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(f"from plaisante.games.{game}.setup import *", namespace)  # noqa: S102
    return namespace


def where(obj: Any) -> str:
    """Return 'module:qualname' of a candidate (its class's for a callable object)."""
    target = obj if isinstance(obj, (type, types.FunctionType)) else type(obj)
    return f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', '?')}"


def candidates(package: Path) -> list[Any]:
    """Every function whose code is in the kit's ``package`` folder, every class of the kit,
    and every callable object of a kit class, that the garbage collector knows now."""
    found: dict[int, Any] = {}
    for obj in gc.get_objects():
        try:
            if isinstance(obj, types.FunctionType):
                mine = Path(obj.__code__.co_filename).is_relative_to(package)
            elif isinstance(obj, type):
                mine = str(getattr(obj, "__module__", "")).startswith("plaisante")
            else:
                mine = callable(obj) and type(obj).__module__.startswith("plaisante")
        except Exception:  # noqa: BLE001  an object that refuses to be looked at
            continue
        if mine and not where(obj).startswith(NOT_TRIED):
            found[id(obj)] = obj
    return list(found.values())


def accepts(candidate: Any, reference: Any) -> bool:
    """True when ``candidate`` is of the reference part's kind (class or not) and takes as
    many positional arguments as the reference needs."""
    if isinstance(reference, type) != isinstance(candidate, type):
        return False
    try:
        needed = [p for p in inspect.signature(reference).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                         p.POSITIONAL_OR_KEYWORD)]
        inspect.signature(candidate).bind(*[None] * len(needed))
    except (TypeError, ValueError):
        return False
    return True


class _Timeout(BaseException):
    pass


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Timeout


def passes(source: str, namespace: dict[str, Any]) -> bool:
    """Run one test cell's ``source`` in a copy of ``namespace``; True if it raises nothing."""
    from plaisante.grading.judge import run_source

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            run_source(source, dict(namespace))
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001  a failing cell, whatever the candidate raised
        return False
    finally:
        signal.alarm(0)
    return True


def test_cells(game: str) -> list[tuple[str, str]]:
    """Return (grade_id, source) of every test cell of ``game``'s source notebook, hidden
    regions included."""
    import nbformat

    from plaisante.authoring.reference import source_notebook

    cells = []
    for cell in nbformat.read(source_notebook(game), as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            cells.append((str(meta.get("grade_id")), cell.source))
    return cells


def survey(game: str) -> dict[str, Any]:
    """Collect what a kernel grading ``game`` can reach, then try it as every part."""
    import plaisante

    setup = student_side(game)
    found_now = candidates(Path(plaisante.__file__).resolve().parent)
    from plaisante.authoring import reference
    from plaisante.games import load
    from plaisante.grading.judge import known_good_answers, names_read

    known_good_answers()
    solution = reference.parts(reference.load(game), game)
    base = {**setup, **solution}
    cells = test_cells(game)
    reading = {part: [source for grade_id, source in cells
                      if part in names_read(source) and "my_tests" not in grade_id
                      and not any(name.startswith("my_") for name in names_read(source))]
               for part in load(game).parts}

    def answers(part: str, candidate: Any) -> bool:
        sources = reading[part]
        return bool(sources) and all(passes(source, {**base, part: candidate})
                                     for source in sources)

    found, tried = [], 0
    for part, reference_part in solution.items():
        for candidate in found_now:
            if candidate is reference_part or not accepts(candidate, reference_part):
                continue
            tried += 1
            if answers(part, candidate):
                found.append([part, where(candidate)])
    control = [[part, "reference"] for part, reference_part in solution.items()
               if reading[part] and answers(part, reference_part)]
    return {"found": found, "tried": tried, "control": control,
            "checked": sorted(part for part in solution if reading[part])}


if __name__ == "__main__":
    sys.setrecursionlimit(5000)
    print(json.dumps(survey(sys.argv[1])))
