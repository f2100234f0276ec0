"""The visible cases' answers of plaisante, as data: for each input a visible check gives a part
or a stand-in, the known-good answer. ``checks.KNOWN`` compares and stands in with these in the
student's own notebook; the grader answers from ``known_good`` instead, and a graded kernel gets
this module with every table empty (``plaisante.grading.kernel_tree``). Written out once from
``known_good``; tests/games/plaisante/test_known.py checks every entry against it."""

from __future__ import annotations

#: count_values(cards) of every hand of the visible has-check and evaluate cases (value → how many;
#: ``checks.counts_list`` makes the 15-slot list).
COUNTS: dict[str, dict[int, int]] = {
    "": {},
    "K♥ K♦ 3♣ 7♠ 9♥": {3: 1, 7: 1, 9: 1, 13: 2},
    "K♥ Q♦ 3♣ 7♠ 9♥": {3: 1, 7: 1, 9: 1, 12: 1, 13: 1},
    "K♥ K♦ K♣ 3♠ 3♥": {3: 2, 13: 3},
    "K♥ K♦ K♣ K♠ 9♥": {9: 1, 13: 4},
    "7♥ 7♦ 7♣ 2♠ 9♥": {2: 1, 7: 3, 9: 1},
    "7♥ 7♦ 2♣ 2♠ 9♥": {2: 2, 7: 2, 9: 1},
    "7♥ 7♦ 7♣ 7♠ 9♥": {7: 4, 9: 1},
    "9♥ 9♦ 9♣ 9♠ 2♥": {2: 1, 9: 4},
    "9♥ 9♦ 9♣ 2♠ 2♥": {2: 2, 9: 3},
    "9♥ 9♦ 9♣ 9♠": {9: 4},
    "9♥ 9♦ 9♣ 9♠ 2♥ 3♥ 4♥ 5♥": {2: 1, 3: 1, 4: 1, 5: 1, 9: 4},
    "K♥ K♦ 3♣ 3♠ 9♥": {3: 2, 9: 1, 13: 2},
    "K♥ K♦ 3♣ 3♠ 9♥ 9♦": {3: 2, 9: 2, 13: 2},
    "K♥ K♦ K♣ 3♠ 9♥": {3: 1, 9: 1, 13: 3},
    "K♥ K♦ K♣ K♠ 3♥": {3: 1, 13: 4},
    "2♥ 7♥ 9♥ J♥ K♥": {2: 1, 7: 1, 9: 1, 11: 1, 13: 1},
    "2♥ 7♥ 9♥ J♥ K♠": {2: 1, 7: 1, 9: 1, 11: 1, 13: 1},
    "2♥ 7♥ 9♥": {2: 1, 7: 1, 9: 1},
    "2♥ 7♥ 9♥ J♥ K♥ A♥": {2: 1, 7: 1, 9: 1, 11: 1, 13: 1, 14: 1},
    "5♣ 6♦ 7♥ 8♠ 9♣": {5: 1, 6: 1, 7: 1, 8: 1, 9: 1},
    "10♠ J♠ Q♦ K♥ A♣": {10: 1, 11: 1, 12: 1, 13: 1, 14: 1},
    "5♣ 6♦ 7♥ 8♠ 10♣": {5: 1, 6: 1, 7: 1, 8: 1, 10: 1},
    "5♣ 5♦ 7♥ 8♠ 9♣": {5: 2, 7: 1, 8: 1, 9: 1},
    "5♣ 9♦": {5: 1, 9: 1},
    "A♣ 2♦ 3♥ 4♠ 5♣": {2: 1, 3: 1, 4: 1, 5: 1, 14: 1},
    "5♥ 6♥ 7♥ 8♥ 9♥": {5: 1, 6: 1, 7: 1, 8: 1, 9: 1},
    "2♥ 5♦ 9♣ J♠ K♥": {2: 1, 5: 1, 9: 1, 11: 1, 13: 1},
}
