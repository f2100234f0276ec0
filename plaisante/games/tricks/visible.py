"""The visible cases' answers of tricks, as data: for each input a visible check gives a part
or a stand-in, the known-good answer. ``checks.KNOWN`` compares and stands in with these in the
student's own notebook; the grader answers from ``known_good`` instead, and a graded kernel gets
this module with every table empty (``plaisante.grading.kernel_tree``). Written out once from
``known_good``; tests/games/tricks/test_known.py checks every entry against it. For step 5's
visible plays: every hand a player holds at any point, in any order, under each led suit, and
every trick as it grows card by card, so that a wrong ``play_card`` that asks the stand-ins
something else of those cards still fails for its own mistake, not for a missing answer."""

from __future__ import annotations

#: trick_strength(card) of every card a visible check asks about.
STRENGTHS: dict[str, int] = {
    "10♥": 6,
    "7♣": 0,
    "A♥": 7,
    "K♥": 5,
    "9♠": 2,
    "J♦": 3,
    "8♣": 1,
    "9♥": 2,
    "A♠": 7,
    "7♥": 0,
    "K♣": 5,
    "10♣": 6,
    "J♣": 3,
    "A♦": 7,
    "7♦": 0,
}



#: sort_hand(hand) of every hand a visible check sorts (the cards as labels).
SORTED: dict[str, str] = {
    "10♥ 7♣ A♥ K♥ 9♠ J♦ 8♣": "7♣ 8♣ J♦ K♥ 10♥ A♥ 9♠",
    "": "",
}



#: legal_plays(hand, led_suit) of every hand a player holds during the visible plays, in any
#: order, under each led suit (the cards as labels).
LEGAL: dict[tuple[str, str | None], str] = {
    ("9♥ 8♠", None): "9♥ 8♠",
    ("9♥ 8♠", "clubs"): "9♥ 8♠",
    ("9♥ 8♠", "diamonds"): "9♥ 8♠",
    ("9♥ 8♠", "hearts"): "9♥",
    ("9♥ 8♠", "spades"): "8♠",
    ("8♠ 9♥", None): "8♠ 9♥",
    ("8♠ 9♥", "clubs"): "8♠ 9♥",
    ("8♠ 9♥", "diamonds"): "8♠ 9♥",
    ("8♠ 9♥", "hearts"): "9♥",
    ("8♠ 9♥", "spades"): "8♠",
    ("7♣ K♠", None): "7♣ K♠",
    ("7♣ K♠", "clubs"): "7♣",
    ("7♣ K♠", "diamonds"): "7♣ K♠",
    ("7♣ K♠", "hearts"): "7♣ K♠",
    ("7♣ K♠", "spades"): "K♠",
    ("K♠ 7♣", None): "K♠ 7♣",
    ("K♠ 7♣", "clubs"): "7♣",
    ("K♠ 7♣", "diamonds"): "K♠ 7♣",
    ("K♠ 7♣", "hearts"): "K♠ 7♣",
    ("K♠ 7♣", "spades"): "K♠",
    ("A♥ A♠", None): "A♥ A♠",
    ("A♥ A♠", "clubs"): "A♥ A♠",
    ("A♥ A♠", "diamonds"): "A♥ A♠",
    ("A♥ A♠", "hearts"): "A♥",
    ("A♥ A♠", "spades"): "A♠",
    ("A♠ A♥", None): "A♠ A♥",
    ("A♠ A♥", "clubs"): "A♠ A♥",
    ("A♠ A♥", "diamonds"): "A♠ A♥",
    ("A♠ A♥", "hearts"): "A♥",
    ("A♠ A♥", "spades"): "A♠",
    ("7♥ 10♠", None): "7♥ 10♠",
    ("7♥ 10♠", "clubs"): "7♥ 10♠",
    ("7♥ 10♠", "diamonds"): "7♥ 10♠",
    ("7♥ 10♠", "hearts"): "7♥",
    ("7♥ 10♠", "spades"): "10♠",
    ("10♠ 7♥", None): "10♠ 7♥",
    ("10♠ 7♥", "clubs"): "10♠ 7♥",
    ("10♠ 7♥", "diamonds"): "10♠ 7♥",
    ("10♠ 7♥", "hearts"): "7♥",
    ("10♠ 7♥", "spades"): "10♠",
    ("8♠", None): "8♠",
    ("8♠", "clubs"): "8♠",
    ("8♠", "diamonds"): "8♠",
    ("8♠", "hearts"): "8♠",
    ("8♠", "spades"): "8♠",
    ("K♠", None): "K♠",
    ("K♠", "clubs"): "K♠",
    ("K♠", "diamonds"): "K♠",
    ("K♠", "hearts"): "K♠",
    ("K♠", "spades"): "K♠",
    ("A♠", None): "A♠",
    ("A♠", "clubs"): "A♠",
    ("A♠", "diamonds"): "A♠",
    ("A♠", "hearts"): "A♠",
    ("A♠", "spades"): "A♠",
    ("10♠", None): "10♠",
    ("10♠", "clubs"): "10♠",
    ("10♠", "diamonds"): "10♠",
    ("10♠", "hearts"): "10♠",
    ("10♠", "spades"): "10♠",
    ("", None): "",
    ("", "clubs"): "",
    ("", "diamonds"): "",
    ("", "hearts"): "",
    ("", "spades"): "",
}



#: trick_winner(trick) of every trick of the visible checks, as it grows card by card.
WINNERS: dict[tuple[tuple[int, str], ...], int] = {
    ((0, "9♥"), (1, "K♥"), (2, "A♠"), (3, "7♥")): 1,
    ((2, "K♣"), (3, "10♣"), (0, "J♣"), (1, "A♦")): 3,
    ((3, "7♦"),): 3,
    ((0, "9♥"),): 0,
    ((0, "9♥"), (1, "7♣")): 0,
    ((0, "9♥"), (1, "7♣"), (2, "A♥")): 2,
    ((0, "9♥"), (1, "7♣"), (2, "A♥"), (3, "7♥")): 2,
    ((2, "A♠"),): 2,
    ((2, "A♠"), (3, "10♠")): 2,
    ((2, "A♠"), (3, "10♠"), (0, "8♠")): 2,
    ((2, "A♠"), (3, "10♠"), (0, "8♠"), (1, "K♠")): 2,
}
