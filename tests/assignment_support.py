"""What every assignment's tests share, for any assignment of ``COURSE``: its notebooks' paths,
its reference solution, and its classic mistakes (read from ``assignments/samples/<id>/
mistakes.py``, ``plaisante.authoring.samples``) applied to the reference as a student would have
made them. Nothing here is particular to one assignment: ``unit("deck")`` is Deck and deal's."""

from __future__ import annotations

import types
from functools import cached_property, lru_cache
from pathlib import Path

import nbformat

from plaisante.authoring import reference, samples
from plaisante.authoring.mistakes import Mistake
from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = CourseLayout(ROOT)


def notebooks(assignment: str, root: Path = ROOT) -> tuple[Path, Path]:
    """Return (source, release) notebook paths of ``assignment``."""
    layout = CourseLayout(root)
    return layout.source(assignment), layout.release(assignment)


class Unit:
    """One assignment as its tests see it (``root``: the course folder holding it)."""

    def __init__(self, assignment: str, root: Path = ROOT) -> None:
        self.assignment, self.root = assignment, root
        self.source, self.release = notebooks(assignment, root)

    @cached_property
    def catalogue(self) -> samples.Catalogue:
        return samples.catalogue(self.assignment, self.root)

    @property
    def mistakes(self) -> dict[str, Mistake]:
        """{name: mistake} of its classic mistakes in the parts' code (``MISTAKES``)."""
        return {m.name: m for m in self.catalogue.mistakes}

    @cached_property
    def points(self) -> dict[str, float]:
        """{grade id: points} of the source notebook's graded cells."""
        return samples.graded_points(nbformat.read(self.source, as_version=4))

    def fails(self, name: str) -> frozenset[str]:
        """The grade ids of the graded cells the mistake ``name`` must fail."""
        return self.catalogue[name].failing_cells(list(self.points))

    def mistaken(self, name: str) -> dict[str, str]:
        """Return {solution cell: source} of the cells the mistake ``name`` changes: the
        reference with its replacements, or the starter's cell where it leaves one undone."""
        starter = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell.source
                   for cell in nbformat.read(self.release, as_version=4).cells}
        edited = samples.edited(nbformat.read(self.source, as_version=4), name,
                                self.catalogue[name].edits)
        return {cell: starter[cell] if text is None else text for cell, text in edited.items()}

    def load_reference(self) -> types.ModuleType:
        """Return the reference solution: the source notebook's setup and solution cells, run."""
        return reference.load(self.assignment, self.source)

    def module_with(self, changes: dict[str, str]) -> types.ModuleType:
        """Return a module made of the setup cell and the solution cells, with ``changes``."""
        return reference.variant(self.source, changes, skip=self.catalogue.variant_skip)


@lru_cache(maxsize=None)
def unit(assignment: str, root: Path = ROOT) -> Unit:
    """Return the ``Unit`` of ``assignment`` in the course at ``root`` (cached)."""
    return Unit(assignment, root)
