"""How every assignment's sample submissions are built (``assignments/samples/<id>/
make_samples.py`` calls it with that assignment's mistakes).

Each sample is the student version (starter/<id>/) with its solution cells filled in the way a
student would: the reference code (read from solutions/<id>/, where it lives once), then the
sample's mistakes applied as text replacements. Expected per-step scores are in each folder's
manifest.json.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat

SOLUTION_REGION = re.compile(r"[ \t]*### BEGIN SOLUTION\n(.*?)[ \t]*### END SOLUTION\n?", re.S)

UNTOUCHED = "untouched"


def _grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def reference_tests_body(root: Path, assignment: str, grade_id: str) -> str:
    """Return the body of the reference's own tests in the source cell ``grade_id`` (what
    lies between its solution markers, after the def line and docstring): what a sample's
    own tests replace."""
    source = next(c.source for c in nbformat.read(root / "solutions" / assignment /
                                                  f"{assignment}.ipynb", as_version=4).cells
                  if _grade_id(c) == grade_id)
    start, end = source.index("### BEGIN SOLUTION\n"), source.index("    ### END SOLUTION")
    return source[start + len("### BEGIN SOLUTION\n"):end]


def student_code(source_cell_text: str) -> str:
    """Return a solution cell's text as a student would leave it: the markers removed."""
    return SOLUTION_REGION.sub(lambda m: m.group(1), source_cell_text)


def build_samples(root: Path, assignment: str,
                  mistakes: dict[str, dict[str, list[tuple[str, str]] | None]],
                  skip: tuple[str, ...] = ()) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for ``assignment``: its starter, and one notebook per
    entry of ``mistakes`` (the reference solution with those text replacements; None leaves
    a cell as the starter has it). Cells in ``skip`` stay as in the starter. Raises ValueError
    naming a replacement whose text is not in its cell."""
    starter = nbformat.read(root / "starter" / assignment / f"{assignment}.ipynb", as_version=4)
    source = nbformat.read(root / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    reference = {_grade_id(c): student_code(c.source) for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    samples = {UNTOUCHED: starter}
    for name, edits in mistakes.items():
        nb = copy.deepcopy(starter)
        for cell in nb.cells:
            grade_id = _grade_id(cell)
            if grade_id not in reference or grade_id in skip:
                continue
            if grade_id in edits and edits[grade_id] is None:
                continue
            text = reference[grade_id]
            for old, new in edits.get(grade_id) or []:
                if old not in text:
                    raise ValueError(f"sample {name}: {old!r} is not in cell {grade_id}")
                text = text.replace(old, new)
            cell.source = text
        samples[name] = nb
    return samples


def write_samples(folder: Path, samples: dict[str, nbformat.NotebookNode]) -> None:
    """Write each sample as ``folder/<name>.ipynb``, printing its path."""
    for name, nb in samples.items():
        nbformat.write(nb, folder / f"{name}.ipynb")
        print("wrote", folder / f"{name}.ipynb")
