"""Build Heads-up Hold'em's sample submissions from its starter notebook and the source's
solution.

Each sample is the student version (starter/holdem/) with its answer cells filled in the way a
student would: the reference code (read from solutions/holdem/, where it lives once), then the
sample's mistakes applied as text replacements. Run
`python assignments/samples/holdem/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "holdem"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import build_samples, write_samples  # noqa: E402

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "ace_high": {"step1_category_code": [
        ("values = sorted(value(card) for card in five)",
         "values = sorted(card.value for card in five)")]},
    "straight_with_repeated_values": {"step1_category_code": [
        ("    straight = len(set(values)) == 5 and values[-1] - values[0] == 4\n",
         "    straight = values[-1] - values[0] == 4  # highest - lowest = 4\n")]},
    "best_five_first_found": {"step2_best_five_code": [
        ("        key = (-CATEGORIES.index(name), sum(value(card) for card in five))\n"
         "        if best_key is None or key > best_key:\n",
         "        key = -CATEGORIES.index(name)\n"
         "        if best_key is None or key > best_key:  # a better category\n")]},
    "tie_by_high_card": {"step3_compare_code": [
        ("    key_a = (-CATEGORIES.index(name_a), sum(value(card) for card in five_a))\n"
         "    key_b = (-CATEGORIES.index(name_b), sum(value(card) for card in five_b))\n",
         "    key_a = (-CATEGORIES.index(name_a), max(value(card) for card in five_a))\n"
         "    key_b = (-CATEGORIES.index(name_b), max(value(card) for card in five_b))\n")]},
    "raise_below_double": {"step4_betting_code": [
        ("            least = 2 * highest\n",
         "            least = highest + state[\"min_bet\"]  # raise by at least a bet\n")]},
    "all_in_asked_to_act": {"step4_betting_code": [
        ("    if (stacks[other] == 0 or (bets[0] == bets[1] and all(new[\"acted\"]))\n"
         "            or (stacks[me] == 0 and bets[me] <= bets[other])):\n",
         "    if bets[0] == bets[1] and all(new[\"acted\"]):\n")]},
    "odd_chip_lost": {"step5_settle_code": [
        ("        stacks[1 - state[\"dealer\"]] += pot - 2 * half\n", "")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_betting_code": None,
                          "step5_trace_answer": None, "step5_settle_code": None},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Heads-up Hold'em sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
