"""What the Heads-up Hold'em tests share: the notebooks' paths, the reference solution (loaded
from the source notebook by ``plaisante.reference``) and the classic mistakes, written as a
student would (each replaces one text of the reference's answer cell), with the test cells each
must fail."""

from __future__ import annotations

import types

import assignment_support as shared
from assignment_support import notebooks

from plaisante import reference

SOURCE, RELEASE = notebooks("holdem")


#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). The six of the issue first, then a few more.
MISTAKES: dict[str, shared.Mistake] = {
    "ace_high": (
        "step1_category_code", "values = sorted(value(card) for card in five)",
        "values = sorted(card.value for card in five)",
        {"step1_category", "step1_category_hidden"}),
    "best_five_first_found": (
        "step2_best_five_code", "if best_key is None or key > best_key:",
        "if best_key is None or key[0] > best_key[0]:",
        {"step2_best_five", "step2_best_five_hidden"}),
    "tie_by_high_card": (
        "step3_compare_code",
        "    key_a = (-CATEGORIES.index(name_a), sum(value(card) for card in five_a))\n"
        "    key_b = (-CATEGORIES.index(name_b), sum(value(card) for card in five_b))\n",
        "    key_a = (-CATEGORIES.index(name_a), max(value(card) for card in five_a))\n"
        "    key_b = (-CATEGORIES.index(name_b), max(value(card) for card in five_b))\n",
        {"step3_compare", "step3_compare_hidden"}),
    "raise_below_double": (
        "step4_betting_code", "least = 2 * highest", "least = highest + state[\"min_bet\"]",
        {"step4_legal_actions", "step4_apply", "step4_legal_actions_hidden",
         "step4_apply_hidden"}),
    "all_in_asked_to_act": (
        "step4_betting_code",
        "    if (stacks[other] == 0 or (bets[0] == bets[1] and all(new[\"acted\"]))\n"
        "            or (stacks[me] == 0 and bets[me] <= bets[other])):\n",
        "    if bets[0] == bets[1] and all(new[\"acted\"]):\n",
        {"step4_apply_hidden"}),
    "odd_chip_lost": (
        "step5_settle_code", "        stacks[1 - state[\"dealer\"]] += pot - 2 * half\n", "",
        {"step5_settle_hidden"}),
    "category_without_straight_flush": (
        "step1_category_code", "    if straight and flush:\n        return STRAIGHT_FLUSH\n", "",
        {"step1_category", "step1_category_hidden"}),
    "straight_with_repeated_values": (
        "step1_category_code", "straight = len(set(values)) == 5 and values[-1] - values[0] == 4",
        "straight = values[-1] - values[0] == 4",
        {"step1_category", "step1_category_hidden"}),
    "split_to_the_dealer": (
        "step5_settle_code", "stacks[1 - state[\"dealer\"]] += pot - 2 * half",
        "stacks[state[\"dealer\"]] += pot - 2 * half", {"step5_settle_hidden"}),
}


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("holdem", SOURCE)


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    return shared.mistaken(SOURCE, MISTAKES, name)


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    return reference.variant(SOURCE, changes)
