"""The answers video poker's checks hold on the student's side (``visible``): each is the
known-good part's, they answer every input the visible checks ask about (the reference passes
those checks on the tables alone, also a hand_name that sorts the hand first), and nothing
else: a hidden input raises ``NotAVisibleCase``."""

from __future__ import annotations

import pytest
from assignment_support import unit

from plaisante.games.video_poker import checks, known_good, visible
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import AnyOrder, Known, NotAVisibleCase

POKER = unit("video_poker")


def tables() -> Known:
    return Known(frequencies=AnyOrder("frequencies", visible.VISIBLE_COUNTS),
                 hand_name=AnyOrder("hand_name", visible.VISIBLE_NAMES),
                 payout=AnyOrder("payout", visible.VISIBLE_WINS))


def test_every_visible_answer_is_the_known_good_one() -> None:
    assert len(visible.VISIBLE_COUNTS) == 13 and len(visible.VISIBLE_NAMES) == 5
    for text, counts in visible.VISIBLE_COUNTS.items():
        assert known_good.kit_frequencies(hand(text)) == counts, text
        assert text == " ".join(text.split()) and hand(text) == AnyOrder.sort(hand(text))
    for text, name in visible.VISIBLE_NAMES.items():
        assert known_good.kit_hand_name(hand(text)) == name, text
    for (text, bet), win in visible.VISIBLE_WINS.items():
        assert known_good.kit_payout(hand(text), bet) == win, (text, bet)
    assert {text for text, _ in visible.VISIBLE_WINS} == set(visible.VISIBLE_NAMES)


def test_the_visible_checks_need_nothing_but_the_tables(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checks, "KNOWN", tables())
    ref = POKER.load_reference()
    checks.check_hand_name(ref.hand_name)
    checks.check_machine(ref.Machine)
    checks.check_saved_credits(ref.Machine)
    namespace = ref.hand_name.__globals__
    counting = namespace["frequencies"]
    monkeypatch.setitem(namespace, "frequencies", lambda cards: counting(list(reversed(cards))))
    checks.check_hand_name(ref.hand_name)  # the stand-in is asked about the hand reversed


def test_the_tables_answer_no_hidden_input() -> None:
    known = tables()
    for part, args in (("frequencies", (hand("A♠ A♥ A♦ A♣ 2♠"),)),
                       ("hand_name", (hand("A♦ 2♣ 3♥ 4♠ 5♦"),)),
                       ("payout", (hand("2♣ 4♣ 5♠ J♣ K♥"), 15))):
        with pytest.raises(NotAVisibleCase, match=f"knows {part} here only"):
            getattr(known, part)(*args)
    assert known.hand_name(hand("K♥ 2♣ 4♣ 5♠ J♣")) == "Nothing"  # in any order
