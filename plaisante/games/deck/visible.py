"""The visible cases' answers of deck, as data: for each input a visible check gives a part
or a stand-in, the known-good answer. ``checks.KNOWN`` compares and stands in with these in the
student's own notebook; the grader answers from ``known_good`` instead, and a graded kernel gets
this module with every table empty (``plaisante.grading.kernel_tree``). Written out once from
``known_good``; tests/games/deck/test_known.py checks every entry against it."""

from __future__ import annotations

#: sort_key(card) of every card the visible order_hand case sorts.
SORT_KEYS: dict[str, tuple[int, int]] = {"K♥": (2, 13), "2♣": (0, 2), "10♦": (1, 10), "3♥": (2, 3)}


#: order_hand(hand) of every visible hand (the cards as labels).
ORDERED: dict[str, str] = {"K♥ 2♣ 10♦ 3♥": "2♣ 10♦ 3♥ K♥", "": ""}


#: discard(hand, positions) of every visible case: the cards it returns (as labels).
DISCARDED: dict[tuple[str, tuple[int, ...] | str], str] = {
    ("2♣ 3♦ 4♥ 5♠ 6♣", (1,)): "3♦",
    ("2♣ 3♦ 4♥ 5♠ 6♣", (3, 0)): "5♠ 2♣",
    ("2♣ 3♦ 4♥ 5♠ 6♣", (1, 3)): "3♦ 5♠",
    ("2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠", (2, 10)): "4♥ Q♥",
    ("2♣ 3♦ 4♥ 5♠ 6♣", ""): "",
}
