"""Video poker's mutation gate, as data: the goals per step and every surviving mutant with
why it behaves as the reference does, as docs/mutation.md lists them
(tests/test_mutation_gates.py runs the gate in `make test-slow`)."""

from __future__ import annotations

import random

import pytest

_INDEPENDENT = "two independent statements in the other order"
_ROWS = "step2_hand_name_code:{line}: if {first}: / if {second}: -> if {second}: / if {first}:"
_INIT = "step4_machine_code:{line}: {first} / {second} -> {second} / {first}"

#: Survivors: each mutant that no test can kill, and why it behaves as the reference does.
EQUIVALENT: dict[str, str] = {
    "step2_hand_name_code:7: values = sorted((value for value in range(2, 15) if "
    "counts[value] > 0)) / flush = len({card.suit for card in cards}) == 1 -> flush = "
    "len({card.suit for card in cards}) == 1 / values = sorted((value for value in "
    "range(2, 15) if counts[value] > 0))": _INDEPENDENT,
    "step2_hand_name_code:8: flush = len({card.suit for card in cards}) == 1 / straight = "
    "len(values) == 5 and (values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14]) -> "
    "straight = len(values) == 5 and (values[-1] - values[0] == 4 or values == [2, 3, 4, 5, "
    "14]) / flush = len({card.suit for card in cards}) == 1": _INDEPENDENT,
    _ROWS.format(line=10, first="straight and flush", second="4 in counts"):
        "a straight has five different values, four of a kind a value four times: never both",
    _ROWS.format(line=12, first="4 in counts", second="3 in counts and 2 in counts"):
        "four of a kind and a full house together need 4 + 3 + 2 = 9 cards; a hand has 5",
    _ROWS.format(line=14, first="3 in counts and 2 in counts", second="flush"):
        "a full house has three cards of one value, so three different suits: never a flush",
    _ROWS.format(line=16, first="flush", second="straight"):
        "a flush that is also a straight is a straight flush, named above both",
    _ROWS.format(line=18, first="straight", second="3 in counts"):
        "a straight has five different values, three of a kind a value three times: never both",
    _ROWS.format(line=20, first="3 in counts", second="counts.count(2) == 2"):
        "three of a kind and two pair together need 3 + 2 + 2 = 7 cards; a hand has 5",
    "step2_hand_name_code:7: values = sorted((value for value in range(2, 15) if "
    "counts[value] > 0)) -> values = sorted((value for value in range(1, 15) if "
    "counts[value] > 0))":
        "slot 1 of the counts is always 0 (card values are 2 to 14), so value 1 is never kept",
    _INIT.format(line=9, first="self.rng = rng if rng is not None else random.Random()",
                 second="self.path = path"): _INDEPENDENT,
    _INIT.format(line=10, first="self.path = path",
                 second="self.credits, self.games = (credits, 0)"): _INDEPENDENT,
    _INIT.format(line=11, first="self.credits, self.games = (credits, 0)",
                 second="self.notice = None"): _INDEPENDENT,
    _INIT.format(line=13, first="if path is not None:", second="self.bet = 0"):
        "the bet is set before or after loading the save, which does not read or set it",
    _INIT.format(line=17, first="self.bet = 0",
                 second="self.cards, self.held, self.deck = ([], [False] * HAND_SIZE, [])"):
        _INDEPENDENT,
    _INIT.format(line=18,
                 first="self.cards, self.held, self.deck = ([], [False] * HAND_SIZE, [])",
                 second="self.dealt = False"): _INDEPENDENT,
    _INIT.format(line=19, first="self.dealt = False", second="self.name, self.win = (None, 0)"):
        _INDEPENDENT,
    _INIT.format(line=20, first="self.name, self.win = (None, 0)", second="self._refill()"):
        "the refill reads and sets the credits only",
    _INIT.format(line=27, first="if self.dealt:", second="bet = self.bet + BET_STEP"):
        "the new bet is only computed (in a local name) before the check that may refuse",
    _INIT.format(line=30, first="if bet > MAX_BET:", second="if bet > self.credits:"):
        "both rules refuse; a bet past both (15 to 19 credits, a fourth press) is refused "
        "naming the credits instead of the limit of 15, which is a true rule too",
    _INIT.format(line=40, first="if self.dealt:", second="if self.credits < MAX_BET:"):
        "both rules refuse; Bet max during a game with fewer than 15 credits names the "
        "credits instead of the game, a true rule too",
    _INIT.format(line=51, first="if self.dealt:", second="if self.bet < MIN_BET:"):
        "during a game the bet is at least 5, so only the game check can refuse",
    _INIT.format(line=53, first="if self.bet < MIN_BET:", second="self.credits -= self.bet"):
        "a bet under 5 is 0, so taking it before the refusal changes nothing",
    _INIT.format(line=55, first="self.credits -= self.bet", second="self.deck = new_deck()"):
        _INDEPENDENT,
    _INIT.format(line=58, first="self.cards = [self.deck.pop() for _ in range(HAND_SIZE)]",
                 second="self.held = [False] * HAND_SIZE"): _INDEPENDENT,
    _INIT.format(line=59, first="self.held = [False] * HAND_SIZE", second="self.dealt = True"):
        _INDEPENDENT,
    _INIT.format(line=60, first="self.dealt = True", second="self.name, self.win = (None, 0)"):
        _INDEPENDENT,
    _INIT.format(line=61, first="self.name, self.win = (None, 0)", second="self._save()"):
        "the save writes the credits and games only",
    _INIT.format(line=68, first="if not self.dealt:",
                 second="if type(position) is not int or not 0 <= position < HAND_SIZE:"):
        "both rules refuse; a bad position before a deal names the position instead of the "
        "deal, a true rule too",
    _INIT.format(line=85, first="self.name = hand_name(self.cards)",
                 second="self.win = payout(self.cards, self.bet)"):
        "payout names the hand itself; neither reads what the other sets",
    _INIT.format(line=87, first="self.credits += self.win", second="self.games += 1"):
        _INDEPENDENT,
    _INIT.format(line=88, first="self.games += 1", second="self.bet = 0"): _INDEPENDENT,
    _INIT.format(line=89, first="self.bet = 0", second="self.dealt = False"): _INDEPENDENT,
    _INIT.format(line=90, first="self.dealt = False", second="self._refill()"):
        "the refill reads and sets the credits only",
    _INIT.format(line=91, first="self._refill()", second="self._save()"):
        "the file then holds the credits before the refill (fewer than 5), and a machine made "
        "on it refills right after loading: every machine shows the same",
}
GOAL_VISIBLE, GOAL_ALL = 0.90, 0.99
AT_LEAST = 240  # mutants in all: the operators reach the whole solution


@pytest.mark.slow
def test_the_hand_name_swaps_name_every_hand_as_the_reference() -> None:
    """The step 2 survivors are equivalent on real hands: all 2,598,960 would take long, so
    every hand of five of a seeded 30,000 and one of each name, with the kit's counts."""
    from mutation import assert_alike_on

    from plaisante.games.video_poker.checks import EVERY_NAME
    from plaisante.games.video_poker.rules import new_deck
    from plaisante.student_side.cards import hand

    rng = random.Random(26)
    deck = new_deck()
    hands = [hand(text) for text, _ in EVERY_NAME]
    hands += [rng.sample(deck, 5) for _ in range(30_000)]
    assert_alike_on("video_poker", "step2_hand_name_code", "hand_name", hands, EQUIVALENT, 9)
