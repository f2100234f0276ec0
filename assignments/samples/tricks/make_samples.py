"""Build the Tricks sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/tricks/) with its answer cells filled in the way a
student would: the reference code (read from solutions/tricks/, where it lives once), then the
sample's mistakes applied as text replacements. Run
`python assignments/samples/tricks/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "tricks"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import build_samples, write_samples  # noqa: E402

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "ten_between_jack_and_nine": {"step1_trick_strength_code": [
        ("order = ['7', '8', '9', 'J', 'Q', 'K', '10', 'A']",
         "order = ['7', '8', '9', '10', 'J', 'Q', 'K', 'A']")]},
    "sort_by_face_value": {"step2_sort_hand_code": [
        ("(SUITS.index(card.suit), trick_strength(card))",
         "(SUITS.index(card.suit), card.value)")]},
    "must_follow_a_suit_it_does_not_hold": {"step3_legal_plays_code": [
        ("    following = [card for card in hand if card.suit == led_suit]\n"
         "    if following:\n        return following\n    return list(hand)\n",
         "    if led_suit is None:\n        return list(hand)\n"
         "    return [card for card in hand if card.suit == led_suit]\n")]},
    "another_suit_can_win": {"step4_trick_winner_code": [
        ("    following = [(player, card) for player, card in trick if card.suit == led_suit]\n"
         "    player, card = max(following, key=lambda pair: trick_strength(pair[1]))\n",
         "    player, card = max(trick, key=lambda pair: trick_strength(pair[1]))\n")]},
    "led_suit_from_the_card_before": {"step5_trick_code": [
        ("led_suit = self.trick[0][1].suit if self.trick else None",
         "led_suit = self.trick[-1][1].suit if self.trick else None  # the card to follow")]},
    "winner_does_not_lead_next": {"step5_trick_code": [
        ("        self.trick = []\n        self.turn = winner\n",
         "        self.trick = []\n        self.turn = (player + 1) % len(self.hands)\n")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_trick_winner_code": None,
                          "step5_trace_answer": None, "step5_trick_code": None},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Tricks sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
