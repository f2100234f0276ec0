"""Tricks's mutation gate, as data: the goals per step and every surviving mutant with
why it behaves as the reference does, as docs/mutation.md lists them
(tests/test_mutation_gates.py runs the gate in `make test-slow`)."""

from __future__ import annotations

#: Survivors: each mutant that no test can kill, and why it behaves as the reference does.
EQUIVALENT: dict[str, str] = {
    "step5_trick_code:18: if card not in held: / led_suit = self.trick[0][1].suit if "
    "self.trick else None -> led_suit = self.trick[0][1].suit if self.trick else None / "
    "if card not in held:":
        "the led suit is read before the held-card check instead of after: reading it "
        "changes nothing and cannot fail",
    "step5_trick_code:23: held.remove(card) / self.trick.append((player, card)) -> "
    "self.trick.append((player, card)) / held.remove(card)":
        "two different lists changed in the other order; the card is held (checked above), "
        "so remove never raises",
    "step5_trick_code:25: if len(self.trick) < len(self.hands): / winner = "
    "trick_winner(self.trick) -> winner = trick_winner(self.trick) / "
    "if len(self.trick) < len(self.hands):":
        "trick_winner is asked about a trick not finished yet too, and its answer is "
        "dropped: it is a pure function of a trick that holds a card, so it never fails "
        "and changes nothing",
    "step5_trick_code:29: self.won[winner] += 1 / self.trick = [] -> "
    "self.trick = [] / self.won[winner] += 1":
        "two independent assignments in the other order (the winner is already known)",
    "step5_trick_code:30: self.trick = [] / self.turn = winner -> "
    "self.turn = winner / self.trick = []":
        "two independent assignments in the other order",
}
GOAL_VISIBLE, GOAL_ALL = 0.90, 0.99
AT_LEAST = 70  # mutants in all: the operators reach the whole solution
