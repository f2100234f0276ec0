"""Build the sample submissions from the starter notebook and the source notebook's solution.

Each sample is the student version (starter/) with its solution cells filled in the way a
student would: the reference code (read from solutions/, where it lives once), then the
sample's mistakes applied as text replacements. Run `python assignments/samples/make_samples.py`
after changing the assignment; tests/test_samples.py fails while the files are out of date.
Expected per-step scores are in manifest.json.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOLUTION_REGION = re.compile(r"[ \t]*### BEGIN SOLUTION\n(.*?)[ \t]*### END SOLUTION\n?", re.S)

# sample name → {solution cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "has_pair_at_least_two": {"step3_has_checks": [
        ("return 2 in count_values(cards)", "return any(n >= 2 for n in count_values(cards))")]},
    "flush_without_five_cards": {"step3_has_checks": [
        ("return len(cards) == 5 and len({card.suit for card in cards}) == 1",
         "return len({card.suit for card in cards}) == 1")]},
    "straight_ignores_duplicates": {"step3_has_checks": [
        ("len(values) == 5 and len(set(values)) == 5 and ", "len(values) == 5 and ")]},
    "straight_before_flush": {"step4_scoring": [
        ("    if has_flush(cards):\n        return FLUSH\n    if has_straight(cards):\n"
         "        return STRAIGHT\n",
         "    if has_straight(cards):\n        return STRAIGHT\n    if has_flush(cards):\n"
         "        return FLUSH\n")]},
    "three_of_a_kind_before_full_house": {"step4_scoring": [
        ("    if has_full_house(cards):\n        return FULL_HOUSE\n",
         "    if has_three_of_a_kind(cards):\n        return THREE_OF_A_KIND\n"
         "    if has_full_house(cards):\n        return FULL_HOUSE\n")]},
    "move_removes_while_iterating": {"step5_tableau": [
        ("        for card in self.selected:\n            self.held_cards.remove(card)\n"
         "            self.play_area.append(card)\n        self.selected = []\n",
         "        for card in self.selected:\n            self.selected.remove(card)\n"
         "            self.held_cards.remove(card)\n            self.play_area.append(card)\n")]},
    "syntax_error_in_count_values": {"step2_count_values_code": [
        ("    for card in cards:\n", "    for card in cards\n")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_scoring": None,
                          "step5_trace_answer": None, "step5_tableau": None},
}
UNTOUCHED = "untouched"


def _grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def student_code(source_cell_text: str) -> str:
    """Return a solution cell's text as a student would leave it: the markers removed."""
    return SOLUTION_REGION.sub(lambda m: m.group(1), source_cell_text)


def build_samples(root: Path, assignment: str,
                  mistakes: dict[str, dict[str, list[tuple[str, str]] | None]],
                  skip: tuple[str, ...] = ()) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for ``assignment``: its starter, and one notebook per
    entry of ``mistakes`` (the reference solution with those text replacements; None leaves
    a cell as the starter has it). Cells in ``skip`` stay as in the starter. Raises ValueError
    naming a replacement whose text is not in its cell. Shared by every assignment's script."""
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


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Plaisante sample (the optional section is
    left as the starter has it)."""
    return build_samples(root, "plaisante", MISTAKES, skip=("going_further",))


def main() -> int:
    for name, nb in build().items():
        nbformat.write(nb, HERE / f"{name}.ipynb")
        print("wrote", HERE / f"{name}.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(main())
