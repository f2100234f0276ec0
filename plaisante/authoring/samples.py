"""Every assignment's sample submissions and their expected scores, derived from its mistakes.

An assignment's classic mistakes are written once, in ``assignments/samples/<id>/mistakes.py``
(``plaisante.authoring.mistakes``): ``MISTAKES``, the classic mistakes in the parts' code, and
``OTHER_SAMPLES`` (optional), other realistic submissions (work left undone, the student's own
tests). Optional: ``KEEP_STARTER``, solution cells every sample leaves as the starter has
them (an ungraded section), and ``VARIANT_SKIP``, cells a test's variant module of the parts
leaves out (``plaisante.authoring.reference.variant``).

From them, and from the source and release notebooks, this module builds each sample (the
release with its solution cells filled in the way a student would: the reference code, then
the mistake's replacements), and ``manifest.json``: each sample's expected per-step scores,
COMPUTED from the nbgrader points of the graded cells the mistake fails. ``manifest.json`` is
a generated, checked-in file (the pipeline, parallel, feedback and formgrader tests read it);
``tests/test_course_units.py`` fails while it or a sample is out of date. Rebuild with
``python -m plaisante.authoring.samples [ID …]`` (no id: every assignment of the course).
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..course import CourseLayout
from .mistakes import REFERENCE_TESTS, STEP, Mistake

SOLUTION_REGION = re.compile(r"[ \t]*### BEGIN SOLUTION\n(.*?)[ \t]*### END SOLUTION\n?", re.S)
MISTAKES_FILE = "mistakes.py"
FULL_MARKS, UNTOUCHED = "full_marks", "untouched"
FULL_MARKS_WHAT = "The reference solution, as a student would write it."
UNTOUCHED_WHAT = "The starter notebook, not touched."

Edits = Mapping[str, Sequence[tuple[str, str]] | None]


@dataclass(frozen=True)
class Catalogue:
    """An assignment's mistakes, as its ``mistakes.py`` lists them (see the module's doc)."""

    assignment: str
    mistakes: tuple[Mistake, ...]
    others: tuple[Mistake, ...] = ()
    keep_starter: tuple[str, ...] = ()
    variant_skip: tuple[str, ...] = ()

    def samples(self) -> tuple[Mistake, ...]:
        """The mistakes written as sample notebooks, in the file's order (full marks and
        untouched, which every assignment has, are not among them)."""
        return tuple(m for m in (*self.mistakes, *self.others) if m.sample)

    def __getitem__(self, name: str) -> Mistake:
        for mistake in (*self.mistakes, *self.others):
            if mistake.name == name:
                return mistake
        raise KeyError(f"{self.assignment} has no mistake {name!r}")


def catalogue(assignment: str, root: Path | None = None) -> Catalogue:
    """Return ``assignment``'s mistakes, read from ``assignments/samples/<id>/mistakes.py``
    of the course at ``root`` (default: the course found from here). Raises FileNotFoundError
    when there is no such file, ValueError naming what in it is wrong."""
    path = CourseLayout.of(root).samples(assignment) / MISTAKES_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path}: every assignment lists its classic mistakes there")
    spec = importlib.util.spec_from_file_location(f"plaisante_mistakes_{assignment}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = Catalogue(assignment, tuple(getattr(module, "MISTAKES", ())),
                      tuple(getattr(module, "OTHER_SAMPLES", ())),
                      tuple(getattr(module, "KEEP_STARTER", ())),
                      tuple(getattr(module, "VARIANT_SKIP", ())))
    everything = (*found.mistakes, *found.others)
    if not found.mistakes or not all(isinstance(m, Mistake) for m in everything):
        raise ValueError(f"{path}: MISTAKES must be a non-empty tuple of "
                         "plaisante.authoring.mistakes.Mistake (OTHER_SAMPLES too, if any)")
    names = [m.name for m in everything] + [FULL_MARKS, UNTOUCHED]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{path}: the name {repeated[0]!r} is used twice (full_marks and "
                         "untouched are every assignment's)")
    return found


def _read(path: Path) -> Any:
    import nbformat  # ~1 s of imports: only when notebooks are really read

    return nbformat.read(path, as_version=4)


def _grade_id(cell: Any) -> str | None:
    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
    return str(grade_id) if grade_id is not None else None


def graded_points(source: Any) -> dict[str, float]:
    """Return {grade id: nbgrader points} of the notebook's graded cells, in order."""
    return {str(cell.metadata.nbgrader["grade_id"]): cell.metadata.nbgrader["points"]
            for cell in source.cells if cell.metadata.get("nbgrader", {}).get("grade")}


def student_code(source_cell_text: str) -> str:
    """Return a solution cell's text as a student would leave it: the markers removed."""
    return SOLUTION_REGION.sub(lambda m: m.group(1), source_cell_text)


def tests_body(source_cell_text: str) -> str:
    """Return the body of the reference's own tests in a source cell: what lies between its
    solution markers, after the def line and docstring. Raises ValueError when the cell has
    no indented solution region."""
    begin, end = "### BEGIN SOLUTION\n", "    ### END SOLUTION"
    if begin not in source_cell_text or end not in source_cell_text:
        raise ValueError("the cell has no indented solution region to hold own tests")
    start = source_cell_text.index(begin) + len(begin)
    return source_cell_text[start:source_cell_text.index(end)]


def solution_cells(source: Any) -> dict[str, str]:
    """Return {grade id: the reference's code as a student would leave it} of the source
    notebook's solution cells."""
    return {str(cell.metadata.nbgrader["grade_id"]): student_code(cell.source)
            for cell in source.cells if cell.metadata.get("nbgrader", {}).get("solution")}


def edited(source: Any, name: str, edits: Edits) -> dict[str, str | None]:
    """Return {grade id: the student's code} for each cell ``edits`` names (``None``: left as
    the starter has it; a key ``"step<N>"``: every solution cell of step N), the reference's
    code with the replacements applied. Raises ValueError naming a cell that is no solution
    cell or a text that is not in its cell."""
    reference = solution_cells(source)
    raw = {_grade_id(c): c.source for c in source.cells}
    out: dict[str, str | None] = {}
    for key, replacements in edits.items():
        cells = [c for c in reference if c.split("_")[0] == key] if STEP.fullmatch(key) else [key]
        if not cells or replacements is not None and len(cells) > 1:
            raise ValueError(f"sample {name}: {key!r} names no solution cell (a whole step "
                             "can only be left undone, with None)")
        out.update(_edited_cells(name, cells, replacements, reference, raw))
    return out


def _edited_cells(name: str, cells: list[str], replacements: Sequence[tuple[str, str]] | None,
                  reference: dict[str, str], raw: dict[str | None, str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for cell in cells:
        if cell not in reference:
            raise ValueError(f"sample {name}: {cell!r} is no solution cell; they are "
                             f"{', '.join(reference)}")
        if replacements is None:
            out[cell] = None
            continue
        text = reference[cell]
        for old, new in replacements:
            if old == REFERENCE_TESTS:
                old = tests_body(raw[cell])
            if old not in text:
                raise ValueError(f"sample {name}: {old!r} is not in cell {cell}")
            text = text.replace(old, new)
        out[cell] = text
    return out


def build_samples(root: Path, assignment: str, samples: Mapping[str, Edits],
                  skip: Sequence[str] = ()) -> dict[str, Any]:
    """Return {sample name: notebook} for ``assignment``: the release as ``untouched``, and
    one notebook per entry of ``samples`` (the reference solution in every solution cell,
    with that entry's edits; None leaves a cell as the starter has it). Cells in ``skip`` stay
    as in the starter. Raises ValueError naming a replacement whose text is not in its cell."""
    layout = CourseLayout(root)
    starter, source = _read(layout.release(assignment)), _read(layout.source(assignment))
    reference = solution_cells(source)
    built = {UNTOUCHED: starter}
    for name, edits in samples.items():
        changed = edited(source, name, edits)
        nb = copy.deepcopy(starter)
        for cell in nb.cells:
            grade_id = _grade_id(cell)
            if grade_id not in reference or grade_id in skip:
                continue
            text = changed[grade_id] if grade_id in changed else reference[grade_id]
            if text is not None:
                cell.source = text
        built[name] = nb
    return built


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 6)


def cell_scores(points: Mapping[str, float], mistake: Mistake | None) -> dict[str, float]:
    """Return {grade id: points earned} of every graded cell (``points``: ``graded_points``)
    for a submission with ``mistake`` (None: the reference, full marks)."""
    if mistake is None:
        return {cell: _number(value) for cell, value in points.items()}
    failing = mistake.failing_cells(list(points))
    earned = {}
    for cell, value in points.items():
        if cell in failing:
            value = 0
        elif cell in mistake.caught:
            caught, of = mistake.caught[cell]
            value = value * caught / of
        earned[cell] = _number(value)
    return earned


def step_scores(cells: Mapping[str, float]) -> dict[str, float]:
    """Return {"step<N>": points, …, "total": points} of ``cell_scores`` (a cell's step is its
    grade id's prefix, as ``plaisante scores`` sums)."""
    steps: dict[str, float] = {}
    for cell, value in cells.items():
        step = cell.split("_")[0]
        steps[step] = steps.get(step, 0) + value
    steps = {step: _number(value) for step, value in steps.items()}
    return {**steps, "total": _number(sum(steps.values()))}


def build(root: Path, assignment: str) -> dict[str, Any]:
    """Return {sample name: notebook} of every sample of ``assignment``: full marks, untouched,
    then each mistake written as a sample, in its file's order."""
    found = catalogue(assignment, root)
    edits: dict[str, Edits] = {FULL_MARKS: {}}
    edits.update({m.name: m.edits for m in found.samples()})
    built = build_samples(root, assignment, edits, skip=found.keep_starter)
    return {FULL_MARKS: built[FULL_MARKS], UNTOUCHED: built[UNTOUCHED],
            **{m.name: built[m.name] for m in found.samples()}}


def manifest(root: Path, assignment: str) -> dict[str, Any]:
    """Return ``assignment``'s manifest: its steps' maximum points and, for each sample, its
    notebook, what the student did, the expected per-step scores (and, where the student's own
    tests are graded, the ``*_my_tests`` cells' scores)."""
    found = catalogue(assignment, root)
    points = graded_points(_read(CourseLayout(root).source(assignment)))
    full = step_scores(cell_scores(points, None))
    samples: dict[str, Any] = {
        FULL_MARKS: {"notebook": f"{FULL_MARKS}.ipynb", "what": FULL_MARKS_WHAT,
                     "expected": full},
        UNTOUCHED: {"notebook": f"{UNTOUCHED}.ipynb", "what": UNTOUCHED_WHAT,
                    "expected": {step: 0 for step in full}},
    }
    for mistake in found.samples():
        cells = cell_scores(points, mistake)
        entry: dict[str, Any] = {"notebook": f"{mistake.name}.ipynb", "what": mistake.what}
        if mistake.attacks_grader:
            entry["attacks_grader"] = mistake.attacks_grader
        own = {cell: cells[cell] for cell in cells if cell.endswith("_my_tests")
               and (cell in mistake.caught or cell in mistake.failing_cells(list(points)))}
        entry["expected"] = step_scores(cells)
        if own:
            entry["cells"] = own
        samples[mistake.name] = entry
    return {"assignment": assignment, "max": full, "samples": samples}


def manifest_text(root: Path, assignment: str) -> str:
    """Return ``manifest.json``'s text for ``assignment``, as ``write`` writes it."""
    return json.dumps(manifest(root, assignment), indent=2, ensure_ascii=False) + "\n"


def write(root: Path, assignment: str) -> list[Path]:
    """Write every sample of ``assignment`` and its ``manifest.json`` into its samples folder;
    return the paths written."""
    import nbformat

    folder = CourseLayout(root).samples(assignment)
    written = []
    for name, nb in build(root, assignment).items():
        nbformat.write(nb, folder / f"{name}.ipynb")
        written.append(folder / f"{name}.ipynb")
    (folder / "manifest.json").write_text(manifest_text(root, assignment), encoding="utf-8")
    return [*written, folder / "manifest.json"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m plaisante.authoring.samples [--course ROOT] [ID …]``: rebuild the samples and
    manifests (no id: every assignment of the course)."""
    from ..course import course_root
    from ..games import COURSE

    parser = argparse.ArgumentParser(prog="python -m plaisante.authoring.samples",
                                     description="Rebuild sample submissions and manifests.")
    parser.add_argument("--course", type=Path, default=None, help="the course folder")
    parser.add_argument("assignments", nargs="*", metavar="ID")
    args = parser.parse_args(argv)
    root = args.course.resolve() if args.course else course_root()
    unknown = [a for a in args.assignments if a not in COURSE]
    if unknown:
        parser.error(f"no assignment {unknown[0]!r}; the course has: {', '.join(COURSE)}")
    for assignment in args.assignments or COURSE:
        for path in write(root, assignment):
            print("wrote", path.relative_to(root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
