"""The two grading modes on the same notebooks, compared test cell by test cell.

``plaisante grade`` judges every test cell in the grader (the student's kernel only answers
calls with plain data); ``plaisante autograde`` is plain nbgrader, every cell run in the
notebook's own kernel. On honest code the two must give every grade cell (``grade_id``) the
same points: any disagreement is a bug of the judge or of a check.

The notebooks compared, per assignment: its samples (``assignments/samples/<id>/``) but those
whose manifest entry has ``attacks_grader`` (a string: how it attacks), and mutants of the
reference (``mutation.reference_mutants``), each the ``full_marks`` sample with one answer
cell replaced by the mutant's code. ``graded_both_ways`` grades a whole batch once per mode,
in one temporary course (plain nbgrader costs about 1.3 s a notebook, so its runs go two at a
time, one per assignment, the first beside the judge's).
"""

from __future__ import annotations

import functools
import json
import random
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from course_cli import KIT, cli, new_course
from mutation import ASSIGNMENTS, Mutant, reference_mutants

from plaisante.course import CourseLayout

LAYOUT = CourseLayout(KIT)
#: The manifest field that keeps a sample out of the comparison: it attacks the grader (what
#: its tests see differs between the modes by design), so only its manifest scores are checked.
ATTACKS_GRADER = "attacks_grader"
#: Seconds for each whole grading run of a batch (the full run is about 900 notebooks).
RUN_TIMEOUT = 4 * 3600


@dataclass(frozen=True)
class Case:
    """One notebook to grade both ways: ``student`` is its id in the temporary course;
    ``mutant`` is None for a sample."""

    assignment: str
    student: str
    mutant: Mutant | None = None

    @property
    def name(self) -> str:
        what = self.mutant.id if self.mutant else f"sample {self.student}"
        return f"{self.assignment}: {what}"

    def notebook(self) -> nbformat.NotebookNode:
        """The notebook as a student would submit it."""
        if self.mutant is None:
            return nbformat.read(LAYOUT.samples(self.assignment) / f"{self.student}.ipynb",
                                 as_version=4)
        return mutant_notebook(self.assignment, self.mutant)


def manifest(assignment: str) -> dict:
    return json.loads((LAYOUT.samples(assignment) / "manifest.json").read_text(encoding="utf-8"))


def attacks(assignment: str) -> dict[str, str]:
    """{sample: how it attacks the grader} of the samples left out of the comparison."""
    return {name: sample[ATTACKS_GRADER] for name, sample in manifest(assignment)["samples"].items()
            if ATTACKS_GRADER in sample}


def sample_cases(assignment: str, *, attackers: bool = False) -> list[Case]:
    """Every sample of ``assignment`` that does not attack the grader, or with ``attackers``
    every sample (its student id is the sample's name, its notebook ``<name>.ipynb``)."""
    samples = manifest(assignment)["samples"]
    assert all(sample["notebook"] == f"{name}.ipynb" for name, sample in samples.items())
    return [Case(assignment, name) for name, sample in samples.items()
            if attackers or ATTACKS_GRADER not in sample]


def mutant_cases(assignment: str, sample: int | None = None) -> list[Case]:
    """The mutants of ``assignment``'s reference as cases (student ``mutant_NNN``, NNN its
    place among every mutant); with ``sample``, only that many, a fixed seeded choice."""
    cases = list(_every_mutant_case(assignment))
    if sample is not None:
        chosen = random.Random(f"differential {assignment}").sample(cases, sample)
        cases = sorted(chosen, key=lambda case: case.student)
    return cases


@functools.cache
def _every_mutant_case(assignment: str) -> tuple[Case, ...]:
    return tuple(Case(assignment, f"mutant_{index:03d}", mutant)
                 for index, mutant in enumerate(reference_mutants(assignment)))


def mutant_notebook(assignment: str, mutant: Mutant) -> nbformat.NotebookNode:
    """The ``full_marks`` sample (the reference as a student writes it) with the mutated
    answer cell's code in place of the reference's."""
    notebook = nbformat.read(LAYOUT.samples(assignment) / "full_marks.ipynb", as_version=4)
    cells = [cell for cell in notebook.cells
             if cell.metadata.get("nbgrader", {}).get("grade_id") == mutant.cell]
    assert len(cells) == 1, f"{assignment}: no single cell {mutant.cell} in full_marks"
    cells[0].source = mutant.source
    return notebook


@dataclass(frozen=True)
class Verdicts:
    """Points per grade cell of one notebook: by the judge and by plain nbgrader."""

    judge: dict[str, float]
    plain: dict[str, float]

    def disagreements(self) -> dict[str, tuple[float | None, float | None]]:
        """{grade_id: (judge's points, plain nbgrader's)} of the cells they differ on."""
        return {cell: (self.judge.get(cell), self.plain.get(cell))
                for cell in sorted(set(self.judge) | set(self.plain))
                if self.judge.get(cell) != self.plain.get(cell)}


@dataclass(frozen=True)
class GradedCourses:
    """One batch of notebooks in three copies of a course: ``submitted`` (released, every
    notebook submitted, nothing graded), ``judged`` (then ``plaisante grade``) and
    ``autograded`` (then ``plaisante autograde``, run from the course's ``notebooks/``
    subfolder: a command finds its course from below it)."""

    submitted: Path
    judged: Path
    autograded: Path

    def verdicts(self, case: Case) -> Verdicts:
        """``case``'s points per grade cell in the judged and the autograded copy."""
        from plaisante.results import scores  # nbgrader's gradebook: only when grading

        return Verdicts(scores.cell_scores(self.judged, case.student, case.assignment),
                        scores.cell_scores(self.autograded, case.student, case.assignment))


def grade_both_ways(folder: Path, cases: list[Case],
                    plain: list[Case] | None = None) -> GradedCourses:
    """Grade every case's notebook with ``plaisante grade``, and those of ``plain`` (default:
    every case) with ``plaisante autograde``, in a new course under ``folder`` (one release,
    one submit per assignment, then both runs at once on two copies of the course)."""
    assert len({(case.assignment, case.student) for case in cases}) == len(cases)
    assert plain is None or set(plain) <= set(cases)
    assignments = sorted({case.assignment for case in cases}, key=ASSIGNMENTS.index)
    root = new_course(folder / "submitted" / "course", ("solutions", "notebooks"))
    cli("release", *assignments, cwd=root, course=root, timeout=RUN_TIMEOUT)
    for assignment in assignments:
        drop = folder / "to_submit" / assignment
        drop.mkdir(parents=True)
        for case in cases:
            if case.assignment == assignment:
                nbformat.write(case.notebook(), drop / f"{case.student}.ipynb")
        cli("submit", str(drop), "--assignment", assignment, cwd=root, course=root)
    courses = {}
    for command in ("grade", "autograde"):
        courses[command] = folder / command / "course"
        shutil.copytree(root, courses[command])
    for case in set(cases) - set(cases if plain is None else plain):
        shutil.rmtree(courses["autograde"] / "assignments" / "submitted" / case.student
                      / case.assignment)
    where = {"grade": courses["grade"], "autograde": courses["autograde"] / "notebooks"}
    # grade uses every core but is brief; plain nbgrader runs one kernel at a time, so its
    # runs (one per assignment, on one gradebook) go two at a time, the first beside grade.
    runs = [("grade", assignments)] + [("autograde", [assignment]) for assignment in assignments]
    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(cli, command, *ids, cwd=where[command], timeout=RUN_TIMEOUT)
                     for command, ids in runs]:
            done.result()
    return GradedCourses(root, courses["grade"], courses["autograde"])


def graded_both_ways(folder: Path, cases: list[Case]) -> dict[Case, Verdicts]:
    """Each case's per-cell points both ways (``grade_both_ways``)."""
    graded = grade_both_ways(folder, cases)
    return {case: graded.verdicts(case) for case in cases}


def explain(case: Case, verdicts: Verdicts) -> str:
    """One line per disagreeing cell: the notebook, the cell, both verdicts."""
    return "\n".join(f"{case.name}: {cell}: grade {judge} points, plain nbgrader {plain}"
                     for cell, (judge, plain) in verdicts.disagreements().items())
