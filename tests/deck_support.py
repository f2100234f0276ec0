"""What the Deck and deal tests share: the notebooks' paths, the reference solution (loaded from
the source notebook by ``plaisante.reference``) and the classic mistakes, written as a student
would (each replaces one text of the reference's answer cell)."""

from __future__ import annotations

import types

import assignment_support as shared
from assignment_support import notebooks

from plaisante import reference

SOURCE, RELEASE = notebooks("deck")


#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). One per lesson of the issue, and a few more.
MISTAKES: dict[str, shared.Mistake] = {
    "shuffle_swaps_with_any_index": (
        "step2_shuffle_code",
        "    for i in range(len(cards) - 1, 0, -1):\n        j = rng.randrange(i + 1)\n",
        "    for i in range(len(cards)):\n        j = rng.randrange(len(cards))\n",
        {"step2_shuffle_hidden"}),
    "shuffle_never_keeps_a_card": (
        "step2_shuffle_code", "j = rng.randrange(i + 1)", "j = rng.randrange(i)",
        {"step2_shuffle_hidden"}),
    "shuffle_with_the_random_module": (
        "step2_shuffle_code", "j = rng.randrange(i + 1)",
        "j = __import__('random').randrange(i + 1)", {"step2_shuffle"}),
    "deal_one_player_at_a_time": (
        "step3_deal_code",
        "    for _ in range(cards_each):\n        for player_hand in hands:\n"
        "            player_hand.append(deck.pop())\n",
        "    for player_hand in hands:\n        for _ in range(cards_each):\n"
        "            player_hand.append(deck.pop())\n",
        {"step3_deal_hidden"}),
    "deal_without_checking_the_deck": (
        "step3_deal_code",
        "    if num_players * cards_each > len(deck):\n",
        "    if False:  # deck.pop() will complain soon enough\n",
        {"step3_deal", "step3_deal_hidden"}),
    "discard_ascending_positions": (
        "step4_draw_discard_code",
        "    for position in sorted(positions, reverse=True):\n        del hand[position]\n",
        "    for position in sorted(positions):\n        del hand[position]\n",
        {"step4_discard", "step4_discard_hidden"}),
    "discard_positions_as_strings": (
        "step4_draw_discard_code",
        "    for position in sorted(positions, reverse=True):\n        del hand[position]\n",
        "    for position in sorted(positions, key=str, reverse=True):\n"
        "        del hand[position]\n",
        {"step4_discard_hidden"}),
    "draw_from_the_bottom": (
        "step4_draw_discard_code", "hand.append(deck.pop())", "hand.append(deck.pop(0))",
        {"step4_draw", "step4_draw_hidden"}),
    "sort_key_is_a_comparison": (
        "step5_order_code", "return (SUITS.index(card.suit), card.value)",
        "return SUITS.index(card.suit) < card.value",
        {"step5_sort_key", "step5_sort_key_hidden"}),
    "order_hand_comparator_returns_bool": (
        "step5_order_code", "return sorted(hand, key=sort_key)",
        "from functools import cmp_to_key\n"
        "    return sorted(hand, key=cmp_to_key(lambda a, b: sort_key(a) < sort_key(b)))",
        {"step5_order_hand", "step5_order_hand_hidden"}),
    "order_hand_sorts_in_place": (
        "step5_order_code", "return sorted(hand, key=sort_key)",
        "hand.sort(key=sort_key)\n    return hand",
        {"step5_order_hand", "step5_order_hand_hidden"}),
    "sort_key_rank_before_suit": (
        "step5_order_code", "return (SUITS.index(card.suit), card.value)",
        "return (card.value, SUITS.index(card.suit))",
        {"step5_sort_key", "step5_sort_key_hidden"}),
}


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("deck", SOURCE)


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    return shared.mistaken(SOURCE, MISTAKES, name)


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    return reference.variant(SOURCE, changes)
