"""A failing check in the notebook shows the test cell's line, the student's line that raised
and the check's message, not a traceback through the kit's frames. Run in a real
kernel: the starter's own setup and visible test cells, with a wrong answer."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from plaisante.checking import CheckFailed
from plaisante.games.plaisante.checks import check_card_values
from plaisante.tracebacks import KIT_DIR, without_kit_frames

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "starter" / "plaisante" / "plaisante.ipynb"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# A Card whose values are one off (the index of the rank, from 1), and one whose value
# raises for a face card: the student's own line is the one to see.
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


def error_lines(card_source: str, tmp_path: Path) -> tuple[dict, list[str]]:
    """Run the starter's setup cell, ``card_source`` and the visible step1_card_values test
    cell in a fresh kernel; return the test cell's error output and its traceback's lines."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(starter_cell("setup")),
                      nbformat.v4.new_code_cell(card_source),
                      nbformat.v4.new_code_cell(starter_cell("step1_card_values"))]
    NotebookClient(notebook, kernel_name="python3", allow_errors=True, timeout=120,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert [o.output_type for o in notebook.cells[1].outputs] == []
    errors = [o for o in notebook.cells[2].outputs if o.output_type == "error"]
    assert len(errors) == 1, notebook.cells[2].outputs
    lines = ANSI.sub("", "\n".join(errors[0].traceback)).splitlines()
    return errors[0], lines


def test_a_wrong_value_shows_the_test_line_and_the_message_only(tmp_path: Path) -> None:
    error, lines = error_lines(ONE_OFF, tmp_path)
    assert (error.ename, error.evalue) == ("CheckFailed", "Card('2', 'spades').value: "
                                                          "expected 2, got 1")
    code = [line for line in lines if re.match(r"\s*(---->)?\s*\d+ ", line)]
    assert code[0] == ("      1 # Step 1: rank, suit, and the value of every rank (2–10 their "
                       "number, J 11, Q 12, K 13, A 14).")
    # the case that failed, as data in the cell
    assert code[3] == ('----> 4 expect_value("Card(\'2\', \'spades\').value", 2, '
                       'lambda: Card("2", "spades").value)')
    assert lines[-1] == "CheckFailed: Card('2', 'spades').value: expected 2, got 1"
    assert not any("plaisante/" in line for line in lines), lines
    assert len(lines) == 12, lines  # through checks.py and checking.py it was 19


def test_an_error_in_the_students_code_shows_their_line(tmp_path: Path) -> None:
    error, lines = error_lines(RAISES, tmp_path)
    assert error.evalue == ("Card('K', 'hearts').rank: raised ValueError: invalid literal for "
                            "int() with base 10: 'K'")
    assert lines[5:10] == ["Cell In[2], line 4, in Card.__init__(self, rank, suit)",  # theirs
                           "      2     def __init__(self, rank, suit):",
                           "      3         self.rank, self.suit = rank, suit",
                           "----> 4         self.value = int(rank)",
                           ""]
    assert lines[10] == "ValueError: invalid literal for int() with base 10: 'K'"
    case = ('----> 2 expect_value("Card(\'K\', \'hearts\').rank", "K", '
            'lambda: Card("K", "hearts").rank)')
    assert lines[3] == case and lines.count(case) == 2  # the case, where it called theirs
    assert lines[-1] == "CheckFailed: " + error.evalue
    assert not any("plaisante/" in line for line in lines), lines


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
    # outside IPython Python's own format; IPython's colours once another test loaded it
    shown = ANSI.sub("", "".join(error._render_traceback_()))
    assert "checks.py" not in shown and "checking.py" not in shown
    assert shown.rstrip("\n").endswith(
        "CheckFailed: Card('2', 'spades').value: expected 2, got 0")
    assert files(error.__traceback__) == before
    assert files(without_kit_frames(error.__traceback__)) == [
        name for name in before if not name.startswith(KIT_DIR)]
