"""Pages built from students' text have a budget per student: the similarity page, the class
report and the feedback page. One student's huge answer is cut to the budget, with a line
naming them; the rest of the class is served as without it. (Costs are measured in
docs/budgets.md; these tests assert what is compared and shown, never a time.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import KIT, new_course

from plaisante.course import CourseLayout

ASSIGNMENT = "plaisante"
SAMPLES = KIT / "assignments" / "samples" / ASSIGNMENT
MiB = 2**20


def ordinary_code(size: int) -> str:
    """``size`` characters (about) of ordinary, distinct lines of code, indented for a body."""
    lines, total, i = [], 0, 0
    while total < size:
        line = f"    value_{i} = helper(cards[{i % 5}], {i}) + len(cards) * {i % 97}\n"
        lines.append(line)
        total += len(line)
        i += 1
    return "".join(lines)


def with_huge_answer(size: int) -> dict:
    """full_marks with ``size`` characters of code added to its first answer cell."""
    notebook = json.loads((SAMPLES / "full_marks.ipynb").read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and cell["cell_type"] == "code":
            source = cell["source"]
            source = "".join(source) if isinstance(source, list) else source
            cell["source"] = source + "\n\ndef padding(cards):\n" + ordinary_code(size) + \
                "    return 0\n"
            return notebook
    raise AssertionError("full_marks has no answer cell")


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two courses holding the samples as a class, the second with one more student whose
    answer holds 6 MiB of code."""
    made = []
    for huge in (False, True):
        root = new_course(tmp_path_factory.mktemp("class") / "course", ("solutions", "starter"))
        layout = CourseLayout(root)
        for sample in sorted(SAMPLES.glob("*.ipynb")):
            folder = layout.submitted(sample.stem, ASSIGNMENT).parent
            folder.mkdir(parents=True)
            shutil.copy(sample, folder / f"{ASSIGNMENT}.ipynb")
        if huge:
            folder = layout.submitted("huge", ASSIGNMENT).parent
            folder.mkdir(parents=True)
            (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(with_huge_answer(6 * MiB)))
        made.append(root)
    return made[0], made[1]


def test_a_6_mib_answer_is_compared_up_to_the_budget_and_named(
        classes: tuple[Path, Path]) -> None:
    from plaisante.similarity.compare import MOST_STEP_CHARS, similarity
    from plaisante.similarity.page import table, write

    without, with_huge = (similarity(root, ASSIGNMENT) for root in classes)
    huge = next(w for w in with_huge.compared if w.student == "huge")
    assert all(len(code.text) <= MOST_STEP_CHARS for code in huge.steps.values())
    assert huge.cut.startswith("answers over 16 KiB in step1 (6,")
    assert huge.cut.endswith("only the first 16 KiB of each was compared; read the rest by "
                             "hand")
    assert [w.cut for w in with_huge.compared if w.student != "huge"] == \
        [""] * len(without.compared)
    # the rest of the class is compared exactly as without them
    scores = {(p.a.student, p.b.student): round(p.likeness, 9) for p in without.pairs}
    again = {(p.a.student, p.b.student): round(p.likeness, 9) for p in with_huge.pairs
             if "huge" not in (p.a.student, p.b.student)}
    assert again == scores
    # the copy ahead of their padding is still found
    assert any({p.a.student, p.b.student} == {"full_marks", "huge"} and
               p.likeness >= with_huge.threshold for p in with_huge.pairs)
    assert "compared in part huge: answers over 16 KiB" in table(with_huge, width=200)
    small = write(classes[0], without, "Plaisante").stat().st_size
    page = write(classes[1], with_huge, "Plaisante")
    text = page.read_text(encoding="utf-8")
    assert "<li data-cut='huge'><b>huge</b>: answers over 16 KiB in step1" in text
    assert page.stat().st_size < 3 * small  # not 6 MiB shown once per pair


def test_the_budget_cuts_at_a_line_end_and_keeps_short_answers_whole() -> None:
    from plaisante.similarity.compare import MOST_STEP_CHARS, answer_code

    release = nbformat.read(KIT / "starter" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    whole = nbformat.from_dict(json.loads((SAMPLES / "full_marks.ipynb").read_text()))
    held: dict[str, int] = {}
    plain = answer_code(whole, release, held)
    assert held == {}
    huge = nbformat.from_dict(with_huge_answer(100_000))
    steps = answer_code(huge, release, held)
    assert list(held) == ["step1"] and held["step1"] > 100_000
    kept = steps["step1"].text
    assert len(kept) <= MOST_STEP_CHARS
    whole_lines = {line for cell in huge.cells
                   for line in "".join(cell.source).split("\n")}
    assert all(line in whole_lines for line in kept.split("\n"))  # cut at line ends
    assert {k: v for k, v in steps.items() if k != "step1"} == \
        {k: v for k, v in plain.items() if k != "step1"}


def pathological_markdown(size: int) -> str:
    """Markdown whose rendering nbconvert takes time quadratic in a line's length for."""
    return "[" * (size // 2) + "a" + "]" * (size // 2)


def test_feedback_shows_a_student_cell_up_to_the_budget_and_says_so() -> None:
    from nbconvert import HTMLExporter

    from plaisante.grading.feedback import HideHiddenTests
    from plaisante.inert import InertContent

    notebook = nbformat.read(SAMPLES / "full_marks.ipynb", as_version=4)
    plain, _ = HTMLExporter().from_notebook_node(
        HideHiddenTests().preprocess(nbformat.from_dict(notebook), {})[0])
    notebook.cells.insert(3, nbformat.v4.new_markdown_cell(pathological_markdown(6 * MiB)))
    notebook.cells.insert(4, nbformat.v4.new_code_cell("x = 1\n" * (MiB // 6)))
    preprocessor = HideHiddenTests()
    cleaned, _ = preprocessor.preprocess(notebook, {"nbgrader": {"student": "huge"}})
    markdown, code = cleaned.cells[3].source, cleaned.cells[4].source
    assert len(markdown) <= preprocessor.max_cell_chars + 200
    assert max(len(line) for line in markdown.split("\n")) <= preprocessor.max_line_chars
    assert markdown.endswith("KiB of this cell are not shown in feedback (at most 64 KiB of a "
                             "cell, 256 KiB in all); your own notebook has all of it]")
    assert code.endswith("your own notebook has all of it]")
    assert code.split("\n")[-1].startswith("# [")
    assert len(code) <= preprocessor.max_cell_chars + 200
    exporter = HTMLExporter()
    exporter.register_preprocessor(InertContent(), enabled=True)
    page, _ = exporter.from_notebook_node(cleaned)
    assert "not shown in feedback" in page
    # highlighted code takes about 12 characters of HTML per character: two cells' budget
    assert len(page) < len(plain) + 2 * 16 * preprocessor.max_cell_chars


def test_feedback_keeps_the_release_s_locked_cells_and_short_answers_whole() -> None:
    from plaisante.grading.feedback import within_budget

    notebook = nbformat.read(SAMPLES / "full_marks.ipynb", as_version=4)
    before = [cell.source for cell in notebook.cells]
    assert within_budget(notebook, 64 * 1024, 256 * 1024) == 0
    assert [cell.source for cell in notebook.cells] == before
    notebook.cells += [nbformat.v4.new_markdown_cell("word " * 20_000) for _ in range(5)]
    assert within_budget(notebook, 64 * 1024, 256 * 1024) == 5  # 4 cut in part, 1 whole
    assert notebook.cells[-1].source.startswith("[")  # nothing of it left within the budget
    assert all(c.source == b for c, b in zip(notebook.cells, before))


@pytest.mark.nbgrader
def test_the_class_report_shows_a_student_s_reasons_up_to_the_budget(tmp_path: Path) -> None:
    from course_cli import cli

    from plaisante.results import class_report as report

    root = new_course(tmp_path / "course")
    cli("release", ASSIGNMENT, cwd=root)
    layout = CourseLayout(root)
    for student in ("flood", "fine"):
        folder = layout.submitted(student, ASSIGNMENT).parent
        folder.mkdir(parents=True)
        notebook = json.loads((SAMPLES / "full_marks.ipynb").read_text(encoding="utf-8"))
        if student == "flood":  # 2,000 cells with made-up ids, each id 2,000 characters
            for n in range(2000):
                notebook["cells"].append({
                    "cell_type": "code", "execution_count": None, "outputs": [],
                    "source": "", "metadata": {"nbgrader": {
                        "grade_id": f"x{n}" + "y" * 2000, "grade": False, "locked": False,
                        "solution": False, "schema_version": 3}}})
        (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    cli("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    saved = json.loads(layout.report(ASSIGNMENT, "flood").read_text(encoding="utf-8"))
    assert len(saved["reasons"]) >= 2000
    page = report.write(root, ASSIGNMENT).read_text(encoding="utf-8")
    row = page.split("data-flagged='flood'", 1)[1].split("</tr>", 1)[0]
    assert len(row) < (report.MOST_REASONS + 1) * (report.MOST_REASON_CHARS + 60)
    assert f"more reason(s) left out and {report.MOST_REASONS} cut to 300 characters here: " \
           f"all of them are in assignments/reports/{ASSIGNMENT}/flood.json" in row
    assert "data-student='fine'" in page
    assert len(page) < 200_000
