"""Build Plaisante's sample submissions from its starter notebook and the source's solution
(the filling: ``../sample_builder.py``). Run `python assignments/samples/plaisante/make_samples.py`
after changing the assignment; tests/test_pipeline.py fails while the files are out of date.
Expected per-step scores are in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "plaisante"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import build_samples, write_samples  # noqa: E402

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


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Plaisante sample (the optional section is
    left as the starter has it)."""
    return build_samples(root, ASSIGNMENT, MISTAKES, skip=("going_further",))


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
