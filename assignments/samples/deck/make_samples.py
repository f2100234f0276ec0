"""Build Deck and deal's sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/deck/) with its answer cells filled in the way a
student would: the reference code (read from solutions/deck/, where it lives once), then the
sample's mistakes applied as text replacements. Run
`python assignments/samples/deck/make_samples.py` after changing the assignment;
tests/test_deck_samples.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "deck"
SOLUTION_REGION = re.compile(r"[ \t]*### BEGIN SOLUTION\n(.*?)[ \t]*### END SOLUTION\n?", re.S)

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "shuffle_swaps_with_any_index": {"step2_shuffle_code": [
        ("    for i in range(len(cards) - 1, 0, -1):\n        j = rng.randrange(i + 1)\n",
         "    for i in range(len(cards)):\n        j = rng.randrange(len(cards))\n")]},
    "shuffle_never_keeps_a_card": {"step2_shuffle_code": [
        ("j = rng.randrange(i + 1)", "j = rng.randrange(i)")]},
    "deal_one_player_at_a_time": {"step3_deal_code": [
        ("    for _ in range(cards_each):\n        for player_hand in hands:\n"
         "            player_hand.append(deck.pop())\n",
         "    for player_hand in hands:\n        for _ in range(cards_each):\n"
         "            player_hand.append(deck.pop())\n")]},
    "discard_ascending_positions": {"step4_draw_discard_code": [
        ("    for position in sorted(positions, reverse=True):\n",
         "    for position in sorted(positions):\n")]},
    "discard_positions_as_strings": {"step4_draw_discard_code": [
        ("    for position in sorted(positions, reverse=True):\n        del hand[position]\n",
         "    for text in sorted([str(p) for p in positions], reverse=True):\n"
         "        del hand[int(text)]\n")]},
    "order_hand_comparator_returns_bool": {"step5_order_code": [
        ("    return sorted(hand, key=sort_key)\n",
         "    from functools import cmp_to_key\n"
         "    return sorted(hand, key=cmp_to_key(lambda a, b: sort_key(a) < sort_key(b)))\n")]},
    "sort_key_is_a_comparison": {"step5_order_code": [
        ("    return (SUITS.index(card.suit), card.value)\n",
         "    return SUITS.index(card.suit) < card.value\n")]},
    "order_hand_sorts_in_place": {"step5_order_code": [
        ("    return sorted(hand, key=sort_key)\n",
         "    hand.sort(key=sort_key)\n    return hand\n")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_draw_discard_code": None,
                          "step5_trace_answer": None, "step5_order_code": None},
}
UNTOUCHED = "untouched"


def _grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def student_code(source_cell_text: str) -> str:
    """Return an answer cell's text as a student would leave it: the markers removed."""
    return SOLUTION_REGION.sub(lambda m: m.group(1), source_cell_text)


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every sample, built from starter/ and solutions/."""
    starter = nbformat.read(root / "starter" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    source = nbformat.read(root / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                           as_version=4)
    reference = {_grade_id(c): student_code(c.source) for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    samples = {UNTOUCHED: starter}
    for name, edits in MISTAKES.items():
        nb = copy.deepcopy(starter)
        for cell in nb.cells:
            grade_id = _grade_id(cell)
            if grade_id not in reference:
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


def main() -> int:
    for name, nb in build().items():
        nbformat.write(nb, HERE / f"{name}.ipynb")
        print("wrote", HERE / f"{name}.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(main())
