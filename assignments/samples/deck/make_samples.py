"""Build Deck and deal's sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/deck/) with its answer cells filled in the way a
student would: the reference code (read from solutions/deck/, where it lives once), then the
sample's mistakes applied as text replacements. Run
`python assignments/samples/deck/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "deck"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import build_samples, write_samples  # noqa: E402

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


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Deck and deal sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
