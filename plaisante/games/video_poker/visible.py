"""The answers of the visible cases, as data: for each input a visible check of the video-poker
machine asks the kit about (a hand it counts while ``hand_name`` is checked, a hand a draw makes
and what it pays), the known-good answer. ``checks.KNOWN`` stands in and compares with these in
the student's kernel; the grader answers from ``known_good`` instead. Keys: the cards sorted by
value and suit (``checking.AnyOrder``), their labels joined by spaces; for ``payout`` with the
bet. Written out once from ``known_good``; a test checks every entry against it."""

from __future__ import annotations

#: frequencies(cards) for every hand the visible hand_name checks name.
VISIBLE_COUNTS: dict[str, list[int]] = {
    '10♥ J♥ Q♥ K♥ A♥': [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
    '2♠ 7♣ 7♦ 7♥ K♣': [0, 0, 1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0],
    '2♣ 2♦ 6♥ 9♠ K♣': [0, 0, 2, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0],
    '2♣ 3♥ 4♠ K♠ A♦': [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
    '2♣ 5♦ 8♥ J♠ K♣': [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0],
    '2♥ 3♠ 4♣ 5♦ A♣': [0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    '2♦ 7♦ 9♦ J♦ K♦': [0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0],
    '3♣ 3♦ 3♥ K♣ K♠': [0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
    '4♣ 4♦ J♥ J♠ A♣': [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1],
    '5♠ 6♠ 7♠ 8♠ 9♠': [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
    '6♣ 6♦ 7♥ 8♠ 10♣': [0, 0, 0, 0, 0, 0, 2, 1, 1, 0, 1, 0, 0, 0, 0],
    '8♣ 9♦ 10♥ J♠ Q♣': [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0],
    '9♣ 9♦ 9♥ 9♠ K♣': [0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1, 0],
}

#: hand_name(cards) for every hand a visible Machine check draws.
VISIBLE_NAMES: dict[str, str] = {
    '2♣ 4♣ 5♠ J♣ K♥': 'Nothing',
    '2♦ 8♠ K♣ K♦ K♥': 'Three of a Kind',
    '5♠ 7♣ 9♠ Q♣ A♣': 'Nothing',
    '7♣ 7♥ J♣ J♥ Q♥': 'Two Pair',
    'Q♣ K♣ K♦ K♥ A♣': 'Three of a Kind',
}

#: payout(cards, bet) for every hand and bet a visible Machine check draws.
VISIBLE_WINS: dict[tuple[str, int], int] = {
    ('2♣ 4♣ 5♠ J♣ K♥', 5): 0,
    ('2♦ 8♠ K♣ K♦ K♥', 5): 15,
    ('5♠ 7♣ 9♠ Q♣ A♣', 5): 0,
    ('7♣ 7♥ J♣ J♥ Q♥', 10): 20,
    ('Q♣ K♣ K♦ K♥ A♣', 10): 30,
}
