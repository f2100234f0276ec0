"""What the student's side knows of the right answers: tables of the visible cases only, each
entry the known-good part's answer; nothing on that side builds a deck in new-deck order."""

from __future__ import annotations

from typing import Any

import pytest

from plaisante.games.deck import checks, known_good
from plaisante.student_side import cards
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import NotAVisibleCase, key_of


def arguments(part: str, key: Any) -> list[Any]:
    """The arguments a table's key stands for: a card, a hand, or (a hand, positions)."""
    if part == "sort_key":
        return hand(key)
    if part == "discard":
        text, positions = key
        return [hand(text), list(positions)]
    return [hand(key)]


def test_every_table_entry_is_the_known_good_answer() -> None:
    for table in checks.TABLES:
        known = getattr(known_good, f"kit_{table.part}")
        for key in table.cases():
            assert table(*arguments(table.part, key)) == known(*arguments(table.part, key)), (
                table.part, key)


def test_the_tables_cover_exactly_the_visible_cases_inputs(monkeypatch) -> None:
    """The inputs the step checks (and so the visible cells) give ``expect_order`` and
    ``expect_discard`` are the tables' keys, no more, no fewer."""
    seen: dict[str, set[Any]] = {"order_hand": set(), "discard": set()}
    monkeypatch.setattr(checks, "expect_order", lambda part, text: seen["order_hand"].add(text))
    monkeypatch.setattr(checks, "expect_discard", lambda part, positions, text: seen[
        "discard"].add((key_of(hand(text)), key_of(positions))))
    checks.check_order_hand(None)
    monkeypatch.setattr(checks, "expect_discard_error", lambda *args: None)
    checks.check_discard(None)
    tables = {table.part: set(table.cases()) for table in checks.TABLES}
    assert tables["order_hand"] == seen["order_hand"] == {"K♥ 2♣ 10♦ 3♥", ""}
    assert tables["discard"] == seen["discard"] and len(seen["discard"]) == 5
    assert tables["sort_key"] == {card for text in seen["order_hand"] for card in text.split()}


def test_a_table_refuses_an_input_no_visible_case_holds() -> None:
    order_hand = next(table for table in checks.TABLES if table.part == "order_hand")
    assert order_hand(hand("K♥ 2♣ 10♦ 3♥")) == hand("2♣ 10♦ 3♥ K♥")
    with pytest.raises(NotAVisibleCase):
        order_hand(hand("10♥ 2♠ A♣ 3♥"))


def test_the_grader_answers_hidden_inputs_once_known_good_is_loaded() -> None:
    assert checks.KNOWN.order_hand is known_good.kit_order_hand
    checks.expect_order(known_good.kit_order_hand, "A♠ K♠ Q♠ J♠ 10♠ 9♠ 2♣")
    checks.expect_discard(known_good.kit_discard, [11, 2, 9])


def test_no_kit_function_on_the_student_side_makes_a_new_deck() -> None:
    """Deck's step 1 is ``new_deck``: the shared card module deals shuffled decks only."""
    assert not hasattr(cards, "new_deck")
    assert not any(hasattr(checks, name) for name in ("kit_deck", "kit_sort_key", "order_of"))
    with pytest.raises(checks.CheckFailed):
        checks.expect_new_deck(lambda: cards.shuffled_deck(1))


def dealt(deal: Any, size: int, players: int, each: int | None) -> Any:
    """What ``deal`` gives (hands and the deck left, as labels) or raises (its class)."""
    deck = hand(" ".join(f"{rank}♣" for rank in cards.RANKS))[:size]
    try:
        hands = deal(deck, players) if each is None else deal(deck, players, each)
    except Exception as error:  # noqa: BLE001  the error's class is the answer
        return type(error).__name__
    return [cards.labels(h) for h in hands], cards.labels(deck)


@pytest.mark.parametrize("mistake", checks.DEAL_MISTAKES, ids=lambda m: m.mistake[:40])
def test_a_visible_buggy_deal_is_not_a_working_deal(mistake) -> None:
    from assignment_support import unit

    reference = unit("deck").load_reference().deal
    buggy = mistake.parts["deal"]
    cases = [(size, players, each) for size in (0, 3, 5, 7, 13) for players in (1, 2, 3)
             for each in (None, 0, 1, 2, 3, 5)]
    assert any(dealt(buggy, *case) != dealt(reference, *case) for case in cases)
