"""What the Heads-up Hold'em tests share: the notebooks' paths, the reference solution (loaded
from the source notebook by ``plaisante.reference``) and the classic mistakes, written as a
student would (each replaces one text of the reference's answer cell), with the test cells each
must fail."""

from __future__ import annotations

import re
import types
from pathlib import Path

import nbformat

from plaisante import reference

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "solutions" / "holdem" / "holdem.ipynb"
RELEASE = ROOT / "starter" / "holdem" / "holdem.ipynb"


def load_reference() -> types.ModuleType:
    """Return the reference solution: the source notebook's setup and solution cells, run."""
    return reference.load("holdem", SOURCE)


def solution_cells() -> dict[str, str]:
    """Return {grade_id: source} of the source notebook's answer cells, markers removed."""
    region = re.compile(r"[ \t]*### (BEGIN|END) SOLUTION\n?")
    notebook = nbformat.read(SOURCE, as_version=4)
    return {cell.metadata.nbgrader["grade_id"]: region.sub("", cell.source)
            for cell in notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")}


#: mistake → (answer cell, text of the reference, what the student wrote instead, the test
#: cells it must fail). The six of the issue first, then a few more.
MISTAKES: dict[str, tuple[str, str, str, set[str]]] = {
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


def mistaken(name: str) -> dict[str, str]:
    """Return {answer cell: source} with the mistake ``name`` applied to the reference."""
    cell, old, new, _ = MISTAKES[name]
    source = solution_cells()[cell]
    assert old in source, (name, old)
    return {cell: source.replace(old, new)}


def module_with(changes: dict[str, str]) -> types.ModuleType:
    """Return a module made of the setup cell and the answer cells, with ``changes``."""
    notebook = nbformat.read(SOURCE, as_version=4)
    module = types.ModuleType("holdem_variant")
    cells = solution_cells()
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or meta.get("grade") or meta.get("grade_id") == "play":
            continue
        grade_id = meta.get("grade_id")
        source = changes.get(grade_id, cells.get(grade_id, cell.source))
        exec(compile(source, str(grade_id), "exec"), module.__dict__)
    return module
