"""The answers Hold'em's checks hold on the student's side (``visible``): each is the
known-good part's, they answer every input the visible checks ask about (the reference passes
those checks on the tables alone, also a best_five that sorts the seven first), and nothing
else: a hidden input raises ``NotAVisibleCase``."""

from __future__ import annotations

from itertools import combinations

import pytest
from assignment_support import unit

from plaisante.games.holdem import checks, known_good, visible
from plaisante.games.holdem.rules import value
from plaisante.student_side.cards import hand, labels
from plaisante.student_side.checking import AnyOrder, Known, NotAVisibleCase

HOLDEM = unit("holdem")


def tables() -> Known:
    return Known(category=AnyOrder("category", visible.VISIBLE_CATEGORIES),
                 best_five=AnyOrder("best_five", visible.VISIBLE_BEST, convert=checks._best))


def test_every_visible_answer_is_the_known_good_one() -> None:
    assert len(visible.VISIBLE_BEST) == 12
    for text, category in visible.VISIBLE_CATEGORIES.items():
        assert known_good.kit_category(hand(text)) == category, text
    for text, (category, five) in visible.VISIBLE_BEST.items():
        name, best = known_good.kit_best_five(hand(text))
        assert (name, sum(map(value, best))) == (category, sum(map(value, hand(five)))), text
        assert set(hand(five)) <= set(hand(text))
        for each in combinations(hand(text), 5):  # any five a best_five may answer
            assert labels(AnyOrder.sort(list(each))) in visible.VISIBLE_CATEGORIES


def test_the_visible_checks_need_nothing_but_the_tables(monkeypatch) -> None:
    monkeypatch.setattr(checks, "KNOWN", tables())
    ref = HOLDEM.load_reference()
    checks.check_best_five(ref.best_five)
    checks.check_compare(ref.compare)
    namespace = ref.best_five.__globals__
    naming = namespace["category"]
    monkeypatch.setitem(namespace, "category", lambda five: naming(sorted(five, key=value)))
    checks.check_best_five(ref.best_five)  # the stand-in is asked about each five sorted


def test_the_tables_answer_no_hidden_input() -> None:
    known = tables()
    with pytest.raises(NotAVisibleCase, match="knows category here only"):
        known.category(hand("A♥ 2♥ 3♥ 4♥ 5♥"))
    with pytest.raises(NotAVisibleCase, match="knows best_five here only"):
        known.best_five(hand("K♠ K♥ 2♣ 8♠ 9♥ J♣ Q♦"))
