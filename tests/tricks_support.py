"""What the Tricks tests share: the notebooks' paths, the reference solution (loaded from the
source notebook by ``plaisante.reference``) and the classic mistakes, written as a student
would (each replaces one text of the reference's answer cell)."""

from __future__ import annotations

import types

import assignment_support as shared
from assignment_support import notebooks

from plaisante import reference

SOURCE, RELEASE = notebooks("tricks")


REFUSE = ("            raise ValueError(f\"player {player} must follow suit: play a card of "
          "{led_suit}\")\n")

#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). One per lesson of the issue, and a few more.
MISTAKES: dict[str, shared.Mistake] = {
    "ten_between_jack_and_nine": (
        "step1_trick_strength_code", "order = ['7', '8', '9', 'J', 'Q', 'K', '10', 'A']",
        "order = ['7', '8', '9', '10', 'J', 'Q', 'K', 'A']",
        {"step1_trick_strength", "step1_trick_strength_hidden"}),
    "strength_is_the_face_value": (
        "step1_trick_strength_code", "return order.index(card.rank)", "return card.value",
        {"step1_trick_strength", "step1_trick_strength_hidden"}),
    "sort_by_face_value": (
        "step2_sort_hand_code", "(SUITS.index(card.suit), trick_strength(card))",
        "(SUITS.index(card.suit), card.value)",
        {"step2_sort_hand", "step2_sort_hand_hidden"}),
    "sort_strongest_first": (
        "step2_sort_hand_code", "trick_strength(card)))", "trick_strength(card)), reverse=True)",
        {"step2_sort_hand", "step2_sort_hand_hidden"}),
    "sort_in_place": (
        "step2_sort_hand_code", "return sorted(hand, key=",
        "hand.sort(key=", {"step2_sort_hand", "step2_sort_hand_hidden"}),
    "must_follow_a_suit_it_does_not_hold": (
        "step3_legal_plays_code", "    if following:\n        return following\n",
        "    if led_suit is not None:\n        return following\n",
        {"step3_legal_plays", "step3_legal_plays_hidden"}),
    "another_suit_can_win": (
        "step4_trick_winner_code", "max(following, key=", "max(trick, key=",
        {"step4_trick_winner", "step4_trick_winner_hidden"}),
    "led_suit_from_the_card_before": (
        "step5_trick_code", "led_suit = self.trick[0][1].suit if self.trick else None",
        "led_suit = self.trick[-1][1].suit if self.trick else None",
        {"step5_trick_hidden"}),
    "winner_does_not_lead_next": (
        "step5_trick_code", "        self.trick = []\n        self.turn = winner\n",
        "        self.trick = []\n        self.turn = (player + 1) % len(self.hands)\n",
        {"step5_trick", "step5_trick_hidden"}),
    "refused_card_still_leaves_the_hand": (
        "step5_trick_code",
        "        if card not in legal_plays(held, led_suit):\n" + REFUSE +
        "        held.remove(card)\n",
        "        held.remove(card)\n"
        "        if card not in legal_plays(held + [card], led_suit):\n" + REFUSE,
        {"step5_trick", "step5_trick_hidden"}),
}


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("tricks", SOURCE)


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    return shared.mistaken(SOURCE, MISTAKES, name)


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    return reference.variant(SOURCE, changes)
