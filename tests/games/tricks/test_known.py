"""Tricks' right answers on the student's side: ``checks.VISIBLE_ANSWERS``, the tables ``KNOWN``
answers with in a student's kernel. Every entry is what the grader's known-good part answers;
the visible checks (the test cells' and the last cell's checklist) ask the tables nothing else,
on the reference and on every classic mistake; and no hidden case's input is in them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import nbformat
import pytest
from assignment_support import unit

from plaisante.games import load
from plaisante.games.tricks import checks, known_good
from plaisante.games.tricks.checks import KNOWN, VISIBLE_ANSWERS, trick_of
from plaisante.student_side.assignment import check_all
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import NotAVisibleCase, Table, key_of, same

TRICKS = unit("tricks")
ASSIGNMENT = load("tricks")
KNOWN_GOOD = {"trick_strength": known_good.trick_strength, "sort_hand": known_good.sort_hand,
              "legal_plays": known_good.legal_plays, "trick_winner": known_good.trick_winner}


def arguments(part: str, key: Any) -> tuple[Any, ...]:
    """Return the arguments a table's ``key`` stands for (the inverse of ``key_of``)."""
    if part == "trick_strength":
        return (hand(key)[0],)
    if part == "sort_hand":
        return (hand(key),)
    if part == "legal_plays":
        return (hand(key[0]), key[1])
    return ([(player, hand(card)[0]) for player, card in key],)


@contextmanager
def tables_only() -> Iterator[None]:
    """Let ``KNOWN`` answer from the visible tables alone, as in a student's kernel."""
    parts = object.__getattribute__(KNOWN, "_parts")
    saved = dict(parts)
    parts.update(VISIBLE_ANSWERS)
    try:
        yield
    finally:
        parts.update(saved)


def parts_of(module: Any) -> dict[str, Any]:
    return {name: getattr(module, name) for name in ASSIGNMENT.parts}


def test_the_tables_are_data_for_the_four_parts_that_stand_in_or_are_compared_with() -> None:
    assert sorted(VISIBLE_ANSWERS) == sorted(KNOWN_GOOD)
    assert all(type(table) is Table for table in VISIBLE_ANSWERS.values())
    assert {part: len(table.cases()) for part, table in VISIBLE_ANSWERS.items()} == {
        "trick_strength": 15, "sort_hand": 2, "legal_plays": 65, "trick_winner": 11}


@pytest.mark.parametrize("part", sorted(KNOWN_GOOD))
def test_every_entry_is_the_known_good_answer(part: str) -> None:
    table = VISIBLE_ANSWERS[part]
    for key in table.cases():
        args = arguments(part, key)
        assert (key_of(args[0]) if len(args) == 1 else tuple(map(key_of, args))) == key
        expected = KNOWN_GOOD[part](*args)
        assert same(expected, table(*args)), (part, key, expected)


def test_a_table_hands_out_a_fresh_list_each_time() -> None:
    table = VISIBLE_ANSWERS["sort_hand"]
    first = table(hand("10♥ 7♣ A♥ K♥ 9♠ J♦ 8♣"))
    first.clear()
    assert len(table(hand("10♥ 7♣ A♥ K♥ 9♠ J♦ 8♣"))) == 7


def test_the_visible_checks_of_the_reference_need_nothing_but_the_tables() -> None:
    with tables_only():
        assert [r.status for r in check_all(ASSIGNMENT, parts_of(TRICKS.load_reference()))] \
            == ["pass"] * 6


@pytest.mark.parametrize("mistake", sorted(TRICKS.mistakes))
def test_a_classic_mistake_fails_its_visible_checks_on_its_own_not_on_a_missing_answer(
        mistake: str) -> None:
    """Whatever a mistake gives a stand-in (a led suit from the card before, a hand with the
    card already gone), the tables know it: the check fails for the mistake's own reason."""
    variant = TRICKS.module_with(TRICKS.mistaken(mistake))
    with tables_only():
        results = check_all(ASSIGNMENT, parts_of(variant))
    assert not any("only on the inputs of the visible checks" in r.detail for r in results), [
        r.detail for r in results]


def hidden_inputs() -> dict[str, list[Any]]:
    """Return each part's table keys of the hidden cases in the source notebook."""
    source = nbformat.read(TRICKS.source, as_version=4)
    hidden = "\n".join(region for cell in source.cells for region in re.findall(
        r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", cell.source, re.S))
    found: dict[str, list[Any]] = {"sort_hand": [], "legal_plays": [], "trick_winner": []}
    for text in re.findall(r'expect_sorted\(sort_hand, "([^"]*)"\)', hidden):
        found["sort_hand"].append(key_of(hand(text)))
    for text, led in re.findall(r'expect_legal\(legal_plays, "([^"]*)", (None|"\w+")', hidden):
        found["legal_plays"].append((key_of(hand(text)), None if led == "None" else led[1:-1]))
    for text, first in re.findall(r'expect_winner\(trick_winner, "([^"]*)", (\d)\)', hidden):
        found["trick_winner"].append(key_of(trick_of(text, int(first))))
    return found


def test_no_hidden_case_is_in_the_tables_and_asking_one_is_refused() -> None:
    found = hidden_inputs()
    assert {part: len(keys) for part, keys in found.items()} == {
        "sort_hand": 4, "legal_plays": 6, "trick_winner": 6}
    for part, keys in found.items():
        table = VISIBLE_ANSWERS[part]
        assert [key for key in keys if key in table.cases()] == []
        with pytest.raises(NotAVisibleCase, match=f"knows {part} here only"):
            table(*arguments(part, keys[0]))


def test_in_the_grader_known_is_the_known_good_parts() -> None:
    """known_good is imported above (the grader imports it too): hidden cases are answered."""
    assert {part: getattr(KNOWN, part) for part in KNOWN_GOOD} == KNOWN_GOOD
    assert KNOWN.trick_winner(trick_of("8♣ 7♣ 9♣ A♣", 2)) == 1
    assert checks.KNOWN is known_good.KNOWN
