"""Build the video-poker sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/video_poker/) with its answer cells filled in the
way a student would: the reference code (read from solutions/video_poker/, where it lives once),
then the sample's mistakes applied as text replacements. Run
`python assignments/samples/video_poker/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "video_poker"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import build_samples, write_samples  # noqa: E402

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "frequencies_ace_in_slot_1": {"step1_frequencies_code": [
        ("counts[card.value] += 1", "counts[1 if card.rank == 'A' else card.value] += 1")]},
    "ace_only_high": {"step2_hand_name_code": [
        (" or values == [2, 3, 4, 5, 14]", "")]},
    "royal_flush_named_straight_flush": {"step2_hand_name_code": [
        ("return ROYAL_FLUSH if values[0] == 10 else STRAIGHT_FLUSH", "return STRAIGHT_FLUSH")]},
    "payout_adds_the_bet": {"step3_payout_code": [
        ("return PAYS[hand_name(cards)] * bet", "return PAYS[hand_name(cards)] * bet + bet")]},
    "bet_beyond_credits": {"step4_machine_code": [
        ("        if bet > self.credits:\n            raise ValueError(f\"a bet of {bet} needs "
         "{bet} credits; you have {self.credits}\")\n", "")]},
    "held_cards_moved": {"step4_machine_code": [
        ("        for position in range(HAND_SIZE):\n            if not self.held[position]:\n"
         "                self.cards[position] = self.deck.pop()\n",
         "        kept = [card for card, keep in zip(self.cards, self.held) if keep]\n"
         "        self.cards = kept + [self.deck.pop() for _ in range(HAND_SIZE - len(kept))]\n")]},
    "refill_only_at_zero": {"step4_machine_code": [
        ("if self.credits < MIN_BET:", "if self.credits == 0:")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_machine_code": None},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every video-poker sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
