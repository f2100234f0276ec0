"""A test cell that fails in the student's notebook shows one line, in the checklist's words
(``✘ fails: input: expected …, got …``, ``✎ to do: …``: each mark with its word, for a screen
reader), never a frame of the kit's; the cell still fails as nbgrader counts it (an error
output), and ``%xmode Verbose`` shows the whole traceback. Run in a real kernel: the starters'
own cells."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbgrader.utils import determine_grade

from plaisante.games import COURSE, load
from plaisante.games.plaisante.checks import check_card_values
from plaisante.student_side.checking import CheckFailed
from plaisante.student_side.tracebacks import KIT_DIR, without_kit_frames

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "starter" / "plaisante" / "plaisante.ipynb"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# A Card whose values are one off (the index of the rank, from 1), and one whose value
# raises for a face card.
ONE_OFF = '''class Card:
    def __init__(self, rank, suit):
        self.rank, self.suit = rank, suit
        self.value = RANKS.index(rank) + 1
'''
RAISES = '''class Card:
    def __init__(self, rank, suit):
        self.rank, self.suit = rank, suit
        self.value = int(rank)
'''


def starter_cell(grade_id: str) -> str:
    notebook = nbformat.read(STARTER, as_version=4)
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return cell.source
    raise AssertionError(f"no cell {grade_id} in the starter")


def run_cells(sources: list[str], tmp_path: Path) -> nbformat.NotebookNode:
    """Run ``sources`` as a notebook's code cells in a fresh kernel, errors allowed; return
    the notebook with its outputs."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    NotebookClient(notebook, kernel_name="python3", allow_errors=True, timeout=120,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return notebook


def error_of(cell: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode, list[str]]:
    """Return the cell's one error output and its traceback's lines, colours stripped."""
    errors = [o for o in cell.outputs if o.output_type == "error"]
    assert len(errors) == 1, cell.outputs
    return errors[0], ANSI.sub("", "\n".join(errors[0].traceback)).splitlines()


def card_values_error(card_source: str, tmp_path: Path, *before: str
                      ) -> tuple[nbformat.NotebookNode, list[str]]:
    """Run the starter's setup cell, ``before``, ``card_source`` and the visible
    step1_card_values test cell; return the test cell's error output and its lines."""
    notebook = run_cells([starter_cell("setup"), *before, card_source,
                          starter_cell("step1_card_values")], tmp_path)
    assert not [o for o in notebook.cells[-2].outputs if o.output_type == "error"]
    return error_of(notebook.cells[-1])


def test_a_wrong_value_is_one_line_in_the_checklists_words(tmp_path: Path) -> None:
    error, lines = card_values_error(ONE_OFF, tmp_path)
    assert lines == ["✘ fails: Card('2', 'spades').value: expected 2, got 1"]
    # what nbgrader and the feedback read of the error is the check's own
    assert (error.ename, error.evalue) == ("CheckFailed", "Card('2', 'spades').value: "
                                                          "expected 2, got 1")


def test_an_error_in_the_students_code_is_one_line_naming_it(tmp_path: Path) -> None:
    error, lines = card_values_error(RAISES, tmp_path)
    # the cell's first check makes Card('K', 'hearts') to see whose class it is
    assert lines == ["✘ fails: Card('K', 'hearts'): raised ValueError: invalid literal for "
                     "int() with base 10: 'K'"]
    assert error.ename == "CheckFailed"


def test_xmode_verbose_shows_the_whole_traceback(tmp_path: Path) -> None:
    _, lines = card_values_error(RAISES, tmp_path, "%xmode Verbose")
    assert "----> 4         self.value = int(rank)" in lines  # the student's own line
    assert any("checking.py" in line for line in lines)  # and the kit's, for the curious
    assert lines[-1] == ("CheckFailed: Card('K', 'hearts'): raised ValueError: invalid "
                         "literal for int() with base 10: 'K'")


@pytest.mark.parametrize("assignment", [getattr(unit, "id", unit) for unit in COURSE])
def test_the_untouched_starter_shows_one_line_per_failing_cell(assignment: str,
                                                               tmp_path: Path) -> None:
    """A first Run All of the untouched starter: every cell that fails shows one line saying
    what is to do, never a frame of the kit's, and every test cell still scores 0."""
    starter = nbformat.read(ROOT / "starter" / assignment / f"{assignment}.ipynb",
                            as_version=4)
    code = [cell for cell in starter.cells if cell.cell_type == "code"]
    ran = run_cells([cell.source for cell in code], tmp_path).cells
    shown: dict[str, str] = {}
    for cell, done in zip(code, ran):
        info = cell.metadata.get("nbgrader", {})
        errors = [o for o in done.outputs if o.output_type == "error"]
        if info.get("grade") and not info.get("solution"):  # a test cell
            printed = "".join(o.get("text", "") for o in done.outputs)
            if "graded later" in printed:  # its hidden tests only: they run at grading
                continue
            assert errors, (info["grade_id"], done.outputs)
            done.metadata = cell.metadata
            assert determine_grade(done)[0] == 0, info["grade_id"]
        if errors:
            _, lines = error_of(done)
            assert len(lines) == 1 and lines[0].startswith("✎ to do: "), lines
            assert KIT_DIR not in lines[0] and "plaisante/" not in lines[0]
            shown[info.get("grade_id", "")] = lines[0]
    steps = {f"step{step.number}" for step in load(assignment).steps}
    assert steps <= {grade_id.split("_")[0] for grade_id in shown}, (
        f"every step shows at least one line to do: {shown}")
    if assignment == "plaisante":
        assert shown["step3_has_pair"] == "✎ to do: has_pair still raises NotImplementedError"
        assert shown["step5_toggle_selection"] == (
            "✎ to do: Tableau.toggle_selection still raises NotImplementedError")
        assert shown["step1_trace"] == ("✎ to do: trace_values is not set yet: run the cell "
                                        "above that sets it (if it shows an error, finish it "
                                        "first)")
        assert shown["step1_trace_answer"] == ("✎ to do: this cell still raises "
                                               "NotImplementedError: put your code in its place")
        assert shown["step3_my_tests"] == ("✎ to do: my_has_check_tests is not written yet "
                                           "(it still raises NotImplementedError)")


def test_errors_that_are_not_a_test_cells_are_shown_in_full(tmp_path: Path) -> None:
    """A typo in the student's own cell, and a library's NotImplementedError, keep IPython's
    whole traceback: the one line is for what a test cell says is to do."""
    notebook = run_cells([starter_cell("setup"), "prnt('hello')",
                          "import asyncio\nasyncio.AbstractEventLoop().run_forever()"],
                         tmp_path)
    error, lines = error_of(notebook.cells[1])
    assert error.ename == "NameError" and "----> 1 prnt('hello')" in lines
    error, lines = error_of(notebook.cells[2])
    assert error.ename == "NotImplementedError" and len(lines) > 5
    assert any("asyncio" in line for line in lines), lines


def test_the_grader_still_sees_the_whole_traceback() -> None:
    """The judge runs test cells in its own process and reads the traceback (failing_line):
    showing the short one changes nothing there."""
    class Card:
        def __init__(self, rank: str, suit: str) -> None:
            self.rank, self.suit, self.value = rank, suit, 0

    with pytest.raises(CheckFailed) as caught:
        check_card_values(Card)
    error = caught.value

    def files(trace) -> list[str]:
        found = []
        while trace is not None:
            found.append(trace.tb_frame.f_code.co_filename)
            trace = trace.tb_next
        return found

    before = files(error.__traceback__)
    assert any(name.startswith(KIT_DIR) for name in before)
    assert error._render_traceback_() == [
        "✘ fails: Card('2', 'spades').value: expected 2, got 0"]
    assert files(error.__traceback__) == before
    assert files(without_kit_frames(error.__traceback__)) == [
        name for name in before if not name.startswith(KIT_DIR)]


def test_a_notebook_nbgrader_runs_keeps_the_test_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Run by nbgrader (a plain autograde, validate), the traceback still names the test
    cell's line that failed (the feedback finds a hidden test's rule by it) and the stub that
    raised, without the kit's frames."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    _, lines = card_values_error(ONE_OFF, tmp_path)
    assert ('----> 5 expect_value("Card(\'2\', \'spades\').value", 2, '
            'lambda: Card("2", "spades").value)') in lines
    assert lines[-1] == "CheckFailed: Card('2', 'spades').value: expected 2, got 1"
    assert not any("plaisante/" in line for line in lines), lines
    notebook = run_cells([starter_cell("setup"), starter_cell("step3_has_checks"),
                          starter_cell("step3_has_pair")], tmp_path)
    _, lines = error_of(notebook.cells[-1])
    assert "Cell In[2], line 4, in has_pair(cards)" in lines and len(lines) > 5


def test_tb_shows_the_whole_traceback_of_a_to_do_line(tmp_path: Path) -> None:
    """``%tb`` after a cell that said one line shows IPython's whole traceback of it."""
    notebook = run_cells([starter_cell("setup"), starter_cell("step3_has_checks"),
                          starter_cell("step3_has_pair"), "%tb"], tmp_path)
    _, short = error_of(notebook.cells[2])
    assert short == ["✎ to do: has_pair still raises NotImplementedError"]
    _, lines = error_of(notebook.cells[3])
    assert "----> 4     raise NotImplementedError()" in lines, lines
    assert lines[-1].startswith("NotImplementedError")


# count_values written, with a colon missing on its third line: the cell defines nothing
COUNT_VALUES_NO_COLON = '''def count_values(cards):
    counts = [0] * 15
    for card in cards
        counts[card.value] += 1
    return counts
'''
STALE = ("your new count_values did not run: its cell [{n}] has a SyntaxError on line 3 "
         "(expected ':'); fix it and run that cell again")


def test_a_new_version_with_a_syntax_error_is_named_not_the_old_stub(tmp_path: Path) -> None:
    """The starter's count_values ran (Run All), then the student's own count_values failed
    to compile: the old stub still runs, and the step's test cell, the own tests' cell and the
    last cell's checklist each say the new version did not run, where and why, rather than
    that count_values "still raises NotImplementedError" (it was just written)."""
    tests = starter_cell("step2_my_tests_code").replace(
        "# YOUR CODE HERE\n    raise NotImplementedError()",
        "assert count_values([]) == [0] * 15")
    notebook = run_cells([starter_cell("setup"), starter_cell("step2_count_values_code"),
                          COUNT_VALUES_NO_COLON, starter_cell("step2_count_values"), tests,
                          starter_cell("step2_my_tests")], tmp_path)
    new = notebook.cells[2]
    assert error_of(new)[0].ename == "SyntaxError"
    said = STALE.format(n=new.execution_count)
    _, lines = error_of(notebook.cells[3])
    assert lines == ["✎ to do: " + said]
    printed = "".join(o.get("text", "") for o in notebook.cells[5].outputs)
    assert printed.startswith(said[0].upper() + said[1:] + " (so your tests were tried on "
                              "the buggy versions alone)."), printed
    # an IndentationError (a SyntaxError's kind) is named as what it is
    unindented = "def count_values(cards):\ncounts = [0] * 15\n"
    notebook = run_cells([starter_cell("setup"), starter_cell("step2_count_values_code"),
                          unindented, starter_cell("step2_count_values")], tmp_path)
    _, lines = error_of(notebook.cells[3])
    assert lines == [f"✎ to do: your new count_values did not run: its cell "
                     f"[{notebook.cells[2].execution_count}] has an IndentationError on line 2 "
                     "(expected an indented block after function definition on line 1); fix "
                     "it and run that cell again"]


def test_the_checklist_names_a_new_version_that_did_not_run(tmp_path: Path) -> None:
    """The same in the last cell's checklist (the gate's step results, read in the kernel):
    step 2 names the new version that did not run; step 3, never written, is still to do."""
    gate = ("from plaisante.games.plaisante import ASSIGNMENT\n"
            "from plaisante.student_side.assignment import check_step\n"
            "for step in ASSIGNMENT.steps[1:3]:\n"
            "    print(check_step(step, {'count_values': count_values, **globals()}).detail)")
    notebook = run_cells([starter_cell("setup"), starter_cell("step2_count_values_code"),
                          starter_cell("step3_has_checks"), COUNT_VALUES_NO_COLON, gate],
                         tmp_path)
    new = notebook.cells[3]
    printed = "".join(o.get("text", "") for o in notebook.cells[-1].outputs).splitlines()
    assert printed == ["finish step 2: " + STALE.format(n=new.execution_count),
                       "finish step 3: has_pair still raises NotImplementedError"], printed
