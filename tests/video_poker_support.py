"""What the video-poker tests share: the notebooks' paths, the reference solution (loaded from
the source notebook by ``plaisante.reference``) and the classic mistakes, written as a student
would (each replaces one text of the reference's answer cell). The samples
(assignments/samples/video_poker/) are built from the same texts."""

from __future__ import annotations

import types

import assignment_support as shared
from assignment_support import notebooks

from plaisante import reference

SOURCE, RELEASE = notebooks("video_poker")
#: cells of the source that show or test things, not the machine a variant is made of
DEMO_CELLS = ("step4_saving_demo", "step5_port", "step5_my_tests")


#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). One per lesson of the issue, and a few more.
MISTAKES: dict[str, shared.Mistake] = {
    "frequencies_ace_in_slot_1": (
        "step1_frequencies_code", "counts[card.value] += 1",
        "counts[1 if card.rank == 'A' else card.value] += 1", {"step1_frequencies_hidden"}),
    "frequencies_of_14_slots": (
        "step1_frequencies_code", "counts = [0] * 15\n    for card in cards:\n"
        "        counts[card.value] += 1",
        "counts = [0] * 14\n    for card in cards:\n        counts[card.value - 1] += 1",
        {"step1_frequencies", "step1_frequencies_hidden"}),
    "ace_only_high": (
        "step2_hand_name_code", " or values == [2, 3, 4, 5, 14]", "",
        {"step2_hand_name_hidden"}),
    "ace_only_low": (
        "step2_hand_name_code",
        "values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14]",
        "(values[-1] - values[0] == 4 and values[-1] != 14 or values == [2, 3, 4, 5, 14])",
        {"step2_hand_name", "step2_hand_name_hidden"}),
    "royal_flush_named_straight_flush": (
        "step2_hand_name_code", "return ROYAL_FLUSH if values[0] == 10 else STRAIGHT_FLUSH",
        "return STRAIGHT_FLUSH", {"step2_hand_name", "step2_hand_name_hidden"}),
    "straight_with_a_pair": (
        "step2_hand_name_code", "straight = len(values) == 5 and (",
        "straight = (", {"step2_hand_name_hidden"}),
    "payout_adds_the_bet": (
        "step3_payout_code", "return PAYS[hand_name(cards)] * bet",
        "return PAYS[hand_name(cards)] * bet + bet", {"step3_payout", "step3_payout_hidden"}),
    "bet_beyond_credits": (
        "step4_machine_code",
        "        if bet > self.credits:\n            raise ValueError(f\"a bet of {bet} needs "
        "{bet} credits; you have {self.credits}\")\n", "", {"step4_bets_hidden"}),
    "held_cards_moved": (
        "step4_machine_code",
        "        for position in range(HAND_SIZE):\n            if not self.held[position]:\n"
        "                self.cards[position] = self.deck.pop()\n",
        "        kept = [card for card, keep in zip(self.cards, self.held) if keep]\n"
        "        self.cards = kept + [self.deck.pop() for _ in range(HAND_SIZE - len(kept))]\n",
        {"step4_machine", "step4_draw_hidden"}),
    "refill_only_at_zero": (
        "step4_machine_code", "if self.credits < MIN_BET:", "if self.credits == 0:",
        {"step4_draw_hidden"}),
    "deal_forgets_to_save": (
        "step4_machine_code",
        "        self.dealt = True\n        self.name, self.win = None, 0\n        self._save()\n",
        "        self.dealt = True\n        self.name, self.win = None, 0\n",
        {"step4_saved"}),
    "refused_deal_takes_the_bet": (
        "step4_machine_code",
        "        if self.dealt:\n            raise ValueError(\"a game is on: draw first\")\n"
        "        if self.bet < MIN_BET:\n            raise ValueError(f\"bet at least {MIN_BET} "
        "before dealing\")\n        self.credits -= self.bet\n",
        "        self.credits -= self.bet\n        if self.dealt:\n            raise ValueError("
        "\"a game is on: draw first\")\n        if self.bet < MIN_BET:\n            raise "
        "ValueError(f\"bet at least {MIN_BET} before dealing\")\n",
        {"step4_machine", "step4_bets_hidden"}),
    "refused_draw_replaces_cards": (
        "step4_machine_code",
        "        if not self.dealt:\n            raise ValueError(\"deal first: there is no "
        "game to draw in\")\n        for position in range(HAND_SIZE):\n            if not "
        "self.held[position]:\n                self.cards[position] = self.deck.pop()\n",
        "        for position in range(HAND_SIZE):\n            if not self.held[position]:\n"
        "                self.cards[position] = self.deck.pop()\n        if not self.dealt:\n"
        "            raise ValueError(\"deal first: there is no game to draw in\")\n",
        {"step4_machine"}),
}


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("video_poker", SOURCE)


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    return shared.mistaken(SOURCE, MISTAKES, name)


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    return reference.variant(SOURCE, changes, skip=DEMO_CELLS)
