"""Deck and deal's mutation gate, as data: the goals per step and every surviving mutant with
why it behaves as the reference does, as docs/mutation.md lists them
(tests/test_mutation_gates.py runs the gate in `make test-slow`)."""

from __future__ import annotations

import pytest

#: Survivors: each mutant that no test can kill, and why it behaves as the reference does.
EQUIVALENT: dict[str, str] = {
    "step3_deal_code:11: if cards_each < 0: / if num_players * cards_each > len(deck): -> "
    "if num_players * cards_each > len(deck): / if cards_each < 0:":
        "with cards_each < 0 (and at least 1 player) the product is negative, never more than "
        "the deck holds, so the same ValueError is raised by the next check",
    "step3_deal_code:13: if num_players * cards_each > len(deck): / "
    "hands = [[] for _ in range(num_players)] -> hands = [[] for _ in range(num_players)] / "
    "if num_players * cards_each > len(deck):":
        "making the empty hands before the check changes nothing the caller sees: the deck is "
        "untouched either way",
    "step4_draw_discard_code:17: for position in positions: / "
    "if len(set(positions)) != len(positions): -> if len(set(positions)) != len(positions): / "
    "for position in positions:":
        "the two checks in the other order differ only for positions both repeated and out of "
        "range, where the text asks for an error and does not say which",
    "step4_draw_discard_code:20: if len(set(positions)) != len(positions): / "
    "removed = [hand[position] for position in positions] -> "
    "removed = [hand[position] for position in positions] / "
    "if len(set(positions)) != len(positions):":
        "reading the cards before the repeat check changes nothing: the positions are in range "
        "and the hand is not changed yet",
    "step4_draw_discard_code:18: if not 0 <= position < len(hand): -> "
    "if not 0 <= position <= len(hand):":
        "a position equal to len(hand) passes the check, then hand[position] raises the "
        "IndexError itself, before any card is removed",
}
GOAL_VISIBLE, GOAL_ALL = 0.90, 0.99
AT_LEAST = 65  # mutants in all: the operators reach the whole solution


@pytest.mark.slow
def test_the_discard_range_mutant_raises_where_the_reference_does() -> None:
    """The `<=` survivor, on every position from -3 to len(hand) + 2 of hands of 0 to 6
    cards: the same error kind (or the same cards) as the reference, the hand unchanged."""
    from loopback_judge import kernel_namespace
    from mutation import reference_mutants, source_notebook

    from plaisante.games.deck.checks import DECK_ORDER
    from plaisante.student_side.cards import KitCard

    source = source_notebook("deck")
    (mutant,) = [m for m in reference_mutants("deck") if m.id.endswith(
        "if not 0 <= position < len(hand): -> if not 0 <= position <= len(hand):")]
    reference = kernel_namespace(source)["discard"]
    mutated = kernel_namespace(source, **{mutant.cell: mutant.source})["discard"]
    for size in range(7):
        for position in range(-3, size + 3):
            answers = []
            for discard in (reference, mutated):
                held = [KitCard(rank, suit) for rank, suit in DECK_ORDER[:size]]
                try:
                    answers.append((discard(held, [position]), held))
                except IndexError:
                    answers.append(("IndexError", held))
            assert answers[0] == answers[1], (size, position, answers)
