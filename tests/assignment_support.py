"""What every assignment's test support module (``deck_support``, ``holdem_support``, …)
shares: its notebooks' paths, its answer cells as a student would leave them, and a classic
mistake applied to them. A mistake is ``(answer cell, text of the reference, what the student
wrote instead, the test cells it must fail)``."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from plaisante.course import CourseLayout

LAYOUT = CourseLayout(Path(__file__).resolve().parents[1])
MARKERS = re.compile(r"[ \t]*### (BEGIN|END) SOLUTION\n?")

Mistake = tuple[str, str, str, set[str]]


def notebooks(assignment: str) -> tuple[Path, Path]:
    """Return (source, release) notebook paths of ``assignment``."""
    return LAYOUT.source(assignment), LAYOUT.release(assignment)


def answer_cells(source: Path) -> dict[str, str]:
    """Return {grade_id: source} of the source notebook's answer cells, markers removed."""
    notebook = nbformat.read(source, as_version=4)
    return {cell.metadata.nbgrader["grade_id"]: MARKERS.sub("", cell.source)
            for cell in notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")}


def mistaken(source: Path, mistakes: dict[str, Mistake], name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    cell, old, new, _ = mistakes[name]
    text = answer_cells(source)[cell]
    assert old in text, (name, old)
    return {cell: text.replace(old, new)}
