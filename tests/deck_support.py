"""What the Deck and deal tests share: the notebooks' paths, the reference solution (loaded from
the source notebook by ``plaisante.reference``) and the classic mistakes, written as a student
would (each replaces one text of the reference's answer cell)."""

from __future__ import annotations

import types
from pathlib import Path

from plaisante import reference

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "solutions" / "deck" / "deck.ipynb"
RELEASE = ROOT / "starter" / "deck" / "deck.ipynb"


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("deck", SOURCE)


def solution_cells() -> dict[str, str]:
    """Return {grade_id: source} of the source notebook's answer cells, markers removed."""
    import re

    import nbformat

    region = re.compile(r"[ \t]*### (BEGIN|END) SOLUTION\n?")
    notebook = nbformat.read(SOURCE, as_version=4)
    return {cell.metadata.nbgrader["grade_id"]: region.sub("", cell.source)
            for cell in notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")}


#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). One per lesson of the issue, and a few more.
MISTAKES: dict[str, tuple[str, str, str, set[str]]] = {
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


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    cell, old, new, _ = MISTAKES[name]
    source = solution_cells()[cell]
    assert old in source, (name, old)
    return {cell: source.replace(old, new)}


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    import nbformat

    notebook = nbformat.read(SOURCE, as_version=4)
    module = types.ModuleType("deck_variant")
    cells = solution_cells()
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or meta.get("grade") or meta.get("grade_id") == "play":
            continue
        grade_id = meta.get("grade_id")
        source = changes.get(grade_id, cells.get(grade_id, cell.source))
        exec(compile(source, str(grade_id), "exec"), module.__dict__)
    return module
