"""Mutation run of the Tricks reference (`make test-slow`): every one-change mutant of the
solution cells is judged by the step's test cells through the loopback judge
(tests/mutation.py). Per step, at least 90 % of the non-equivalent mutants fail a visible test
and 99 % fail some test; every survivor is listed below with why it is equivalent, and in
docs/mutation.md."""

from __future__ import annotations

import pytest

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


@pytest.fixture(scope="module")
def outcomes():
    from mutation import assignment_run

    return assignment_run("tricks")


@pytest.mark.slow
def test_every_step_meets_the_goals(outcomes) -> None:
    from mutation import assert_goals

    assert_goals(outcomes, EQUIVALENT, steps=5, at_least=70, visible=GOAL_VISIBLE,
                 everything=GOAL_ALL)


@pytest.mark.slow
def test_the_survivors_are_exactly_the_equivalent_mutants(outcomes) -> None:
    from mutation import assert_survivors_are

    assert_survivors_are(outcomes, EQUIVALENT)


@pytest.mark.slow
def test_docs_list_every_survivor_with_its_reason() -> None:
    from mutation import assert_documented

    assert_documented(EQUIVALENT)
