"""`plaisante validate`: what a student is told before handing in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from plaisante.games import COURSE
from plaisante.intake.validate import HIDDEN, CellResult, run, summary

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "plaisante"


def test_passing_visible_tests_never_reads_as_passing_all_tests() -> None:
    said = summary([CellResult("step1_card_values", 4, None), CellResult("step2_my_tests", 4,
                                                                          None)])
    assert said == ("All 2 test cells pass their visible tests.\n"
                    "Hidden tests run when your work is graded: they look for the classic "
                    "mistakes each step warns about, so passing here does not promise full "
                    "marks.")
    assert "Success" not in said and "all the tests" not in said


def test_a_failing_cell_is_named_with_its_message() -> None:
    said = summary([CellResult("step3_has_pair", 3, "has_pair(K♥ K♦ K♣ K♠ 9♥): "
                                                    "expected False, got True"),
                    CellResult("step3_has_flush", 3, None)])
    assert said.splitlines() == [
        "1 of 2 test cells fail their visible tests:",
        "  step3_has_pair: has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True",
        "1 of 2 test cells pass: step3_has_flush",
        HIDDEN]


def test_passing_cells_are_listed_a_whole_step_in_one_entry() -> None:
    said = summary([CellResult("step1_card_values", 4, None),
                    CellResult("step1_card_text", 4, None),
                    CellResult("step2_trace", 1, None),
                    CellResult("step2_count_values", 4, "count_values(K♥): …")])
    assert said.splitlines()[2] == "3 of 4 test cells pass: step1 (all 2), step2_trace"


def test_deleted_test_cells_are_never_counted_as_passing() -> None:
    said = summary([CellResult("step1_card_values", 4, None)], deleted=["step1_card_text"])
    assert "All" not in said
    assert said.splitlines()[:3] == [
        "1 of 2 test cells pass: step1_card_values",
        "1 of 2 was deleted, so did not run here (grading puts it back as released and runs it):",
        "  step1_card_text"]


def test_the_command_runs_a_notebook_and_exits_1_on_a_visible_failure(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate",
                           str(SAMPLES / "has_pair_at_least_two.ipynb")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""  # no kernel log: ipykernel warned it runs over TCP
    assert list(tmp_path.iterdir()) == []  # and leaves no socket file where it was run
    lines = done.stdout.splitlines()
    assert lines[:2] == [
        "1 of 24 test cells fail their visible tests:",
        "  step3_has_pair: has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True"]
    # the student's own has-check tests catch their own has_pair's mistake: right tests, which
    # grading gives full marks (they pass on a correct has_pair), so no failing cell here; they
    # name the one part that was called and is wrong, not all five they were given
    assert "step3_my_tests, step4 (all 5)" in "\n".join(lines[2:5]).replace("\n  ", " ")
    assert ("  step3_my_tests: your tests catch a mistake in your own has_pair (fix it): assert "
            "not has_pair(four) and not has_pair(three) and not has_pair(nothing)  → "
            "AssertionError; your tests catch 3 of the 3 buggy versions shown in the notebook"
            ) in lines


def test_a_deleted_test_cell_is_warned_of_as_grading_flags_it(tmp_path) -> None:
    """A tryout deleted step1_card_text and edited step4_score: validate warned of the edit
    alone, then said every test cell passes."""
    import nbformat

    from plaisante.grading.notebook_check import sanitize

    notebook = nbformat.read(SAMPLES / "full_marks.ipynb", as_version=4)
    notebook.cells = [cell for cell in notebook.cells
                      if cell.metadata.get("nbgrader", {}).get("grade_id") != "step1_card_text"]
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "step4_score":
            cell.source += "\n# checked by hand"
    path = tmp_path / "plaisante.ipynb"
    nbformat.write(notebook, path)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["Warning: 2 cells of the assignment were changed:",
                         "  test cell step4_score: edited", "  test cell step1_card_text: deleted"]
    assert not any(line.startswith("All ") for line in lines)
    assert ("23 of 24 test cells pass: step1 (all 3), step2 (all 3), step3 (all 9), step4 "
            "(all 5), step5 (all 3)") in done.stdout.replace("\n  ", " ")
    release = nbformat.read(ROOT / "starter" / "plaisante" / "plaisante.ipynb", as_version=4)
    flagged = sanitize(nbformat.read(path, as_version=4), release, "plaisante").reasons
    assert "test cell step1_card_text was deleted (put back from the source)" in flagged


def test_a_missing_file_is_one_line(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate",
                           str(tmp_path / "nope.ipynb")], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"plaisante: no notebook at {tmp_path / 'nope.ipynb'}\n"


def test_a_cell_that_ends_python_is_one_line(tmp_path) -> None:
    """Found by a tryout: a cell ending in os._exit printed nbclient's 24-line traceback."""
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import os\nos._exit(1)"),
                                               nbformat.v4.new_code_cell("x = 1")])
    path = tmp_path / "exits.ipynb"
    nbformat.write(notebook, path)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"plaisante: {path}: a cell ended Python (os._exit, a crash), so the cells after it "
        "did not run; run the notebook in Jupyter to see which")
    assert "Traceback" not in done.stderr


def test_own_tests_that_fail_on_the_students_own_code_fail_validate_and_catches_are_shown(
        tmp_path) -> None:
    """Found by a tryout: the step-6 cell printed 'your tests fail' yet validate said every
    test cell passes (the cell itself never raises: the student's own deal may be the wrong
    one). Now that is a failing cell, and passing own tests show what they caught."""
    deck = ROOT / "assignments" / "samples" / "deck"
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate",
                           str(deck / "deal_tests_fail_on_correct_code.ipynb")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "1 of 20 test cells fail their visible tests:",
        "  step6_my_tests: your tests fail on your own deal: assert hands[0] == hand('5♣ 4♣'), "
        "'player 0 gets the two top cards'  → AssertionError: player 0 gets the two top cards"]
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate",
                           str(deck / "deal_tests_weak.ipynb")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "All 20 test cells pass their visible tests.", "Your own tests:",
        "  step6_my_tests: your tests catch 1 of the 3 buggy versions shown in the notebook"]


def run_apart(path: Path) -> list[CellResult]:
    """``validate.run`` in a process of its own: it runs the notebook's cells in an IPython
    shell and event loop that would stay behind in this one (the widget tests after it then
    see an IPython display instead of a returned view)."""
    import concurrent.futures
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as pool:
        return pool.submit(run, path).result()


def _edited(tmp_path: Path, how: str) -> Path:
    """full_marks with its step 2 test cell edited (``edit``), turned into markdown
    (``markdown``) or only saved with CRLF line endings (``crlf``)."""
    import json

    data = json.loads((SAMPLES / "full_marks.ipynb").read_text(encoding="utf-8"))
    for cell in data["cells"]:
        if how == "crlf":
            cell["source"] = "".join(cell["source"]).replace("\n", "\r\n")
        elif cell["metadata"].get("nbgrader", {}).get("grade_id") == "step2_count_values":
            if how == "edit":
                cell["source"] = "assert True\n"
            else:
                cell["cell_type"] = "markdown"
                cell.pop("outputs"), cell.pop("execution_count")
    path = tmp_path / "plaisante.ipynb"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_edited_or_converted_test_cell_is_warned_of_and_fails_validate(tmp_path) -> None:
    for how, said in (("edit", "edited"), ("markdown", "turned into a markdown cell")):
        path = _edited(tmp_path, how)
        done = subprocess.run([sys.executable, "-m", "plaisante.cli", "validate", str(path)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 1, (how, done.stdout, done.stderr)
        lines = done.stdout.splitlines()
        assert lines[:2] == ["Warning: 1 cell of the assignment was changed:",
                             f"  test cell step2_count_values: {said}"], how
        assert lines[2].startswith("Grading runs these cells as they were released")


def test_crlf_line_endings_are_no_edit_to_validate(tmp_path) -> None:
    from plaisante.intake.validate import changed_cells, read

    assert changed_cells(read(_edited(tmp_path, "crlf"))) == []
    assert changed_cells(read(_edited(tmp_path, "edit"))) == [
        "  test cell step2_count_values: edited"]


def test_a_step_left_as_released_is_said_to_be_not_written_yet() -> None:
    """A tryout found a bare 'NotImplementedError: ' where the own-tests cells say 'is not
    written yet'."""
    results = {result.grade_id: result.error for result in run_apart(SAMPLES / "untouched.ipynb")}
    assert results["step3_has_pair"] == ("has_pair is not written yet (it still raises "
                                         "NotImplementedError)")
    assert results["step1_card_values"] == ("Card is not written yet (it still raises "
                                            "NotImplementedError)")
    assert results["step5_toggle_selection"] == ("Tableau.toggle_selection is not written yet "
                                                 "(it still raises NotImplementedError)")
    assert results["step2_my_tests"] == ("my_count_values_tests is not written yet (it still "
                                         "raises NotImplementedError)")
    # a trace answer left as released: its name, never Python's bare NameError
    assert results["step3_trace"] == ("trace_pair_answers is not set yet: set it in its answer "
                                      "cell, above this test cell (if that cell shows an error, "
                                      "fix it first)")
    assert not any(error and error.startswith("NotImplementedError")
                   for error in results.values())


def test_a_part_whose_cell_failed_is_said_to_be_not_defined_yet() -> None:
    """count_values's cell stops at a SyntaxError: validate said 'PartNotDefined: count_values
    (step 2) …', the kit's class name, where the notebook's test cell says '✎ to do: …'."""
    results = {result.grade_id: result.error
               for result in run_apart(SAMPLES / "syntax_error_in_count_values.ipynb")}
    # validate ran every cell: it names the cell that stopped and why, not "run the cell"
    assert results["step2_count_values"] == (
        "count_values is not defined: its cell step2_count_values_code stops at a SyntaxError "
        "on line 4 (expected ':'); fix that cell")


@pytest.mark.parametrize("sample", ["has_pair_at_least_two", "own_tests_fail_on_correct_code"])
def test_validate_never_fails_more_points_than_grading_takes(sample) -> None:
    """validate's failing cells cost, per step, no more than grading takes (the manifest's
    scores, which the pipeline tests hold grading to): a cell it calls failing is one grading
    does not give full marks. The own-tests cell that fails on a correct part fails both."""
    import json

    import nbformat

    manifest = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
    scored = manifest["samples"][sample]["expected"]
    release = nbformat.read(ROOT / "starter" / "plaisante" / "plaisante.ipynb", as_version=4)
    most: dict[str, float] = {}
    for cell in release.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            step = meta["grade_id"].split("_")[0]
            most[step] = most.get(step, 0) + float(meta.get("points", 0))
    failing: dict[str, float] = {}
    for result in run_apart(SAMPLES / f"{sample}.ipynb"):
        if result.error is not None:
            step = result.grade_id.split("_")[0]
            failing[step] = failing.get(step, 0) + result.points
    assert failing, "the sample fails a visible test"
    for step, points in failing.items():
        assert points <= most[step] - scored[step], (step, failing)


@pytest.mark.parametrize("assignment", COURSE)
def test_the_reference_passes_every_visible_check_as_a_student_runs_it(assignment: str) -> None:
    """Each game's full_marks sample (the reference as a student hands it in), run as the
    student runs it: no grader, so each visible check compares with the game's ``visible.py``
    tables, where grading compares with the known-good parts. A wrong entry there tells a
    student that a right answer is wrong, and passes every grading test."""
    import nbformat

    environment = dict(os.environ)
    results = run(ROOT / "assignments" / "samples" / assignment / "full_marks.ipynb",
                  timeout=120)
    assert dict(os.environ) == environment  # NBGRADER_EXECUTION was the kernel's alone
    source = nbformat.read(ROOT / "solutions" / assignment / f"{assignment}.ipynb", 4)
    graded = [cell.metadata.nbgrader["grade_id"] for cell in source.cells
              if cell.metadata.get("nbgrader", {}).get("grade")]
    assert [result.grade_id for result in results] == graded  # every test cell ran
    assert [(result.grade_id, result.error) for result in results if result.error] == []

