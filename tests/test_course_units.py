"""Every assignment of the course is one unit: its description, its notebooks, its
samples and manifest agree, the committed files are what the tools make, and no code outside an
assignment's own folder names it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import nbformat
import pytest

from plaisante.authoring import samples
from plaisante.course import CourseLayout
from plaisante.games import COURSE, load
from plaisante.grading.submission import student_names

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = CourseLayout(ROOT)
REGION = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)


def manifest(assignment: str) -> dict:
    return json.loads((LAYOUT.samples(assignment) / "manifest.json").read_text(encoding="utf-8"))


def test_the_course_lists_every_assignment_with_a_source_notebook() -> None:
    assert set(COURSE) == set(LAYOUT.assignments())
    assert COURSE[0] == "plaisante"


@pytest.mark.parametrize("assignment", COURSE)
def test_the_description_names_what_the_notebook_defines(assignment: str) -> None:
    description = load(assignment)
    release = nbformat.read(LAYOUT.release(assignment), as_version=4)
    assert description.id == assignment
    assert set(description.parts) <= set(student_names(release))
    assert [step.number for step in description.steps] == list(range(1, len(description.steps) + 1))


@pytest.mark.parametrize("assignment", COURSE)
def test_the_test_cells_give_100_points_in_steps_the_description_has(assignment: str) -> None:
    source = nbformat.read(LAYOUT.source(assignment), as_version=4)
    points: dict[str, float] = {}
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade") and cell.cell_type == "code":
            step = meta["grade_id"].split("_")[0]
            points[step] = points.get(step, 0) + meta["points"]
    assert sum(points.values()) == 100, (
        f"{assignment}'s graded cells give {sum(points.values())} points, {points}: an "
        "assignment is worth 100 (docs/course.md, step 4)")
    assert sorted(points) == [f"step{step.number}" for step in load(assignment).steps], (
        "every step of the description has graded cells, and only those")
    assert {step: value for step, value in manifest(assignment)["max"].items()
            if step != "total"} == points


@pytest.mark.parametrize("assignment", COURSE)
def test_the_starter_holds_no_solution_and_no_hidden_test(assignment: str) -> None:
    source = LAYOUT.source(assignment).read_text(encoding="utf-8")
    starter = LAYOUT.release(assignment).read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in starter and "BEGIN HIDDEN TESTS" not in starter
    nb = nbformat.reads(starter, as_version=4)
    released_code = "\n".join(cell.source for cell in nb.cells)
    hidden = [line.strip() for cell in nbformat.reads(source, as_version=4).cells
              for _, region in REGION.findall(cell.source) for line in region.splitlines()
              if len(line.strip()) > 25]  # short lines (return True, else:) may recur anywhere
    assert hidden, "the source has no solution or hidden-test lines to look for"
    assert [line for line in hidden if line in released_code] == []


@pytest.mark.parametrize("assignment", COURSE)
def test_committed_samples_and_manifest_are_what_its_mistakes_make(assignment: str) -> None:
    """The samples and manifest.json are generated from the assignment's mistakes.py and its
    notebooks' points (``plaisante.authoring.samples``): the committed files are exactly that."""
    folder = LAYOUT.samples(assignment)
    rebuild = f"run python -m plaisante.authoring.samples {assignment}"
    built = samples.build(ROOT, assignment)
    assert sorted(built) == sorted(manifest(assignment)["samples"])
    for name, nb in built.items():
        committed = (folder / f"{name}.ipynb").read_text(encoding="utf-8")
        assert nbformat.writes(nb) + "\n" == committed, f"{name}.ipynb is out of date: {rebuild}"
    assert (folder / "manifest.json").read_text(encoding="utf-8") == samples.manifest_text(
        ROOT, assignment), f"manifest.json is out of date: {rebuild}"
    assert sorted(p.name for p in folder.glob("*.ipynb")) == sorted(f"{n}.ipynb" for n in built)


@pytest.mark.parametrize("assignment", COURSE)
def test_each_mistake_costs_points_in_its_own_step_only(assignment: str) -> None:
    expected = manifest(assignment)
    assert expected["assignment"] == assignment
    full = expected["samples"]["full_marks"]["expected"]
    assert full == expected["max"] and full["total"] == 100, (
        f"full marks is {full}, the assignment's maximum {expected['max']}: both must be the "
        "same 100 points (run `python -m plaisante.authoring.samples " + assignment + "`)")
    assert set(expected["samples"]["untouched"]["expected"].values()) == {0}
    mistakes = 0
    for student, sample in expected["samples"].items():
        if student.startswith(("full_marks", "untouched", "steps_", "step_1_only")):
            continue
        lost = {step for step, points in sample["expected"].items()
                if step != "total" and points < full[step]}
        assert len(lost) == 1, (
            f"sample {student} loses points in {sorted(lost) or 'no step'}: a mistake costs "
            "points in exactly one step (docs/course.md, step 6)")
        mistakes += 1
    assert mistakes >= min(6, 3 * len(load(assignment).steps)), (
        f"{assignment} has {mistakes} one-mistake samples: at least one per lesson, six in all "
        "(three a step for a game of fewer steps) (docs/course.md, step 6)")


def literal_mentions(path: Path, names: set[str]) -> list[str]:
    """Return 'file:line: text' for every string constant in ``path`` equal to one of
    ``names`` or holding one as a path part (``/deck/``); docstrings and a program's name
    (``prog="plaisante"``, the package's command) aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    skipped |= {id(node.value) for node in ast.walk(tree)
                   if isinstance(node, ast.keyword) and node.arg == "prog"}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skipped):
            if node.value in names or any(f"/{name}/" in node.value for name in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    return found


def test_no_code_outside_an_assignments_folder_names_it() -> None:
    """The CLI, the grader, the course, the gate and the scores read assignments from the
    course's list; only ``plaisante/games/<id>/`` and ``plaisante/games/__init__.py`` (the list)
    may name one. ("plaisante" is also the package's name: only its use as a string counts.)"""
    package = ROOT / "plaisante"
    allowed = {package / "games" / "__init__.py"}
    shared = [path for path in package.rglob("*.py")
              if path not in allowed and not any(
                  path.is_relative_to(package / "games" / name) for name in COURSE)]
    assert len(shared) > 20
    assert [hit for path in shared for hit in literal_mentions(path, set(COURSE))] == []


def test_list_shows_every_assignment_in_teaching_order_with_its_title(capsys) -> None:
    from plaisante.cli import main

    assert main(["--course", str(ROOT), "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(COURSE)
    for line, assignment in zip(lines, COURSE):
        assert load(assignment).title in line and "released" in line


@pytest.mark.parametrize("assignment", COURSE)
def test_test_and_answer_cells_may_raise_so_run_all_goes_on(assignment: str) -> None:
    """Test and answer cells carry the ``raises-exception`` tag: Run All goes past a failing
    step in JupyterLab, as grading does."""
    source = nbformat.read(LAYOUT.source(assignment), as_version=4)
    cells = [cell for cell in source.cells if cell.cell_type == "code"
             and (cell.metadata.get("nbgrader", {}).get("grade")
                  or cell.metadata.get("nbgrader", {}).get("solution"))]
    assert cells and all("raises-exception" in cell.metadata.get("tags", []) for cell in cells)
