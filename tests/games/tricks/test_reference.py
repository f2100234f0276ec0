"""Tricks' reference solution, the kit's known-good parts and its rules, checked by tests that
do not use them to decide what is right: the order A 10 K Q J 9 8 7 written here afresh, every
trick of 1 to 4 cards of a small deck, and properties over random deals (hypothesis): every
trick has exactly one winner, who played the led suit; 8 tricks use all 32 cards once; nobody
ever plays off suit while holding the led suit, and such a card is refused without changing
anything."""

from __future__ import annotations

import itertools

import pytest
from assignment_support import unit
from hypothesis import given, settings
from hypothesis import strategies as st

from plaisante.games.tricks import known_good, rules
from plaisante.games.tricks.model import IllegalAction, TrickTable
from plaisante.student_side.cards import SUITS, KitCard, hand

TRICKS = unit("tricks")
load_reference = TRICKS.load_reference

ref = load_reference()
#: This game's order, strongest first, as the game's rules write it (SPEC §6).
ORDER = "A 10 K Q J 9 8 7".split()
ALL_32 = [KitCard(rank, suit) for suit in SUITS for rank in reversed(ORDER)]


def stronger(a: KitCard, b: KitCard) -> bool:
    """True when ``a`` beats ``b`` inside one suit, by the rules' order."""
    return ORDER.index(a.rank) < ORDER.index(b.rank)


# ---------------------------------------------------------------------------------- the parts

def test_trick_strength_orders_every_suit_as_the_rules_say() -> None:
    for suit in SUITS:
        for a, b in itertools.permutations([KitCard(r, suit) for r in ORDER], 2):
            assert (ref.trick_strength(a) > ref.trick_strength(b)) == stronger(a, b)
            assert (known_good.trick_strength(a) > known_good.trick_strength(b)
                    or not stronger(a, b))
    for rank in "2 3 4 5 6".split():
        with pytest.raises(ValueError, match="allowed ranks"):
            ref.trick_strength(KitCard(rank, "hearts"))
        with pytest.raises(ValueError, match="allowed ranks: 7, 8, 9, J, Q, K, 10, A"):
            known_good.trick_strength(KitCard(rank, "hearts"))


def test_the_deck_is_the_52_filtered_to_32() -> None:
    assert sorted(map(repr, rules.deck32())) == sorted(map(repr, ALL_32))
    assert len(set(rules.deck32())) == 32 and rules.card_points(rules.deck32()) == 120


@given(st.lists(st.sampled_from(ALL_32), unique=True, max_size=12))
def test_sort_hand_is_by_suit_then_weakest_first_and_leaves_the_hand(cards) -> None:
    before = list(cards)
    result = ref.sort_hand(cards)
    assert cards == before and result is not cards and sorted(map(repr, result)) == sorted(
        map(repr, cards))
    for a, b in zip(result, result[1:]):
        assert SUITS.index(a.suit) < SUITS.index(b.suit) or (
            a.suit == b.suit and stronger(b, a))
    assert result == known_good.sort_hand(cards)


@given(st.lists(st.sampled_from(ALL_32), unique=True, min_size=1, max_size=8),
       st.sampled_from([None, *SUITS]))
def test_legal_plays_follows_suit_when_it_can(cards, led) -> None:
    result = ref.legal_plays(cards, led)
    holding = [c for c in cards if c.suit == led]
    assert result == (holding or cards) and result
    assert result == known_good.legal_plays(cards, led)


def test_trick_winner_on_every_trick_of_up_to_4_cards_of_a_small_deck() -> None:
    small = hand("A♥ 10♥ 7♥ K♠ 7♠ 9♦")
    count = 0
    for size in range(1, 5):
        for cards in itertools.permutations(small, size):
            trick = [((2 + i) % 4, card) for i, card in enumerate(cards)]
            led = cards[0].suit
            best = [(p, c) for p, c in trick if c.suit == led and not any(
                stronger(o, c) for _, o in trick if o.suit == led)]
            assert len(best) == 1
            assert ref.trick_winner(trick) == best[0][0] == known_good.trick_winner(trick)
            count += 1
    assert count == 6 + 30 + 120 + 360


# -------------------------------------------------------------------- properties over deals

def play_out(Trick, seed: int, leader: int, choose) -> list[tuple[list, int]]:
    """Play a whole deal of the reference's ``Trick``; ``choose(legal)`` picks each card.
    Before each card, every card of the hand that is not legal is tried and must be refused
    without changing anything. Returns the tricks as (plays, winner)."""
    hands = rules.deal_hands(seed)
    game = Trick(hands, leader)
    tricks, plays = [], []
    for _ in range(32):
        player = game.turn
        held = list(game.hands[player])
        led = plays[0][1].suit if plays else None
        holds_led = any(c.suit == led for c in held)
        legal = [c for c in held if c.suit == led] if holds_led else held
        for card in held:
            if card in legal:
                continue
            state = ([list(h) for h in game.hands], list(game.trick), game.turn, list(game.won))
            with pytest.raises(ValueError, match=led):
                game.play_card(player, card)
            assert ([list(h) for h in game.hands], list(game.trick), game.turn,
                    list(game.won)) == state
        card = choose(legal)
        plays.append((player, card))
        winner = game.play_card(player, card)
        if len(plays) == 4:
            tricks.append((plays, winner))
            assert game.turn == winner and game.trick == []
            plays = []
        else:
            assert winner is None and game.turn == (player + 1) % 4
    assert sum(game.won) == 8 and all(h == [] for h in game.hands)
    assert game.won == [sum(1 for _, w in tricks if w == p) for p in range(4)]
    return tricks


def assert_deal_is_sound(tricks: list[tuple[list, int]], seed: int) -> None:
    hands = rules.deal_hands(seed)
    assert len(tricks) == 8
    played = [card for plays, _ in tricks for _, card in plays]
    assert len(played) == 32 and sorted(map(repr, played)) == sorted(map(repr, ALL_32))
    holding = [list(h) for h in hands]
    previous_winner = None
    for plays, winner in tricks:
        led = plays[0][1].suit
        if previous_winner is not None:
            assert plays[0][0] == previous_winner  # the winner leads the next trick
        assert [p for p, _ in plays] == [(plays[0][0] + i) % 4 for i in range(4)]
        for player, card in plays:
            assert card in holding[player]
            if card.suit != led:  # off suit only when holding none of the led suit
                assert all(c.suit != led for c in holding[player]), (player, card, led)
            holding[player].remove(card)
        best = [p for p, c in plays if c.suit == led and not any(
            o.suit == led and stronger(o, c) for _, o in plays)]
        assert best == [winner]  # exactly one winner, who played the led suit
        previous_winner = winner


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=3),
       st.randoms(use_true_random=False))
def test_a_deal_played_at_random_by_the_reference_is_sound(seed, leader, rnd) -> None:
    tricks = play_out(ref.Trick, seed, leader, rnd.choice)
    assert_deal_is_sound(tricks, seed)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_the_table_with_the_kits_bots_plays_sound_deals(seed, data) -> None:
    parts = {name: getattr(ref, name) for name in
             ("trick_strength", "sort_hand", "legal_plays", "trick_winner", "Trick")}
    table = TrickTable(seed=seed, **parts)
    while not table.over:
        playable = table.playable()
        assert table.turn == 0 and playable
        held = table.your_hand()
        refused = [c for c in held if c not in playable]
        if refused:
            with pytest.raises(IllegalAction, match="refused"):
                table.play(refused[0])
        table.play(data.draw(st.sampled_from(playable)))
    assert_deal_is_sound(table.tricks, seed)
    assert table.won == [sum(1 for _, w in table.tricks if w == p) for p in range(4)]
    assert sum(table.points()) == 120


@given(st.lists(st.sampled_from(ALL_32), unique=True, min_size=1, max_size=4),
       st.integers(min_value=0, max_value=3))
def test_each_bot_plays_a_legal_card(cards, first) -> None:
    led = cards[0].suit
    trick = [((first + i) % 4, c) for i, c in enumerate(cards[:-1])]
    held = hand("7♣ A♥ 9♥ K♠ 10♦")
    legal = known_good.legal_plays([c for c in held if c not in cards], led if trick else None)
    for _, bot in rules.BOTS:
        assert bot(legal, trick, known_good.trick_strength) in legal


def test_the_thrifty_bot_wins_as_cheaply_as_it_can() -> None:
    trick = [(1, KitCard("K", "hearts"))]
    legal = hand("9♥ 10♥ A♥")
    strength = known_good.trick_strength
    assert rules.thrifty_bot(legal, trick, strength) == KitCard("10", "hearts")
    assert rules.thrifty_bot(hand("9♥ Q♥"), trick, strength) == KitCard("9", "hearts")
    assert rules.weakest_bot(legal, trick, strength) == KitCard("9", "hearts")
    assert rules.strongest_bot(legal, trick, strength) == KitCard("A", "hearts")


def _reorders(trick):
    winner = known_good.trick_winner(trick)
    trick.sort(key=lambda pair: pair[0])
    return winner


def _overwrites_the_lead(trick):
    winner = known_good.trick_winner(trick)
    trick[0] = (trick[0][0], trick[-1][1])
    return winner


@pytest.mark.parametrize("part", [_reorders, _overwrites_the_lead])
def test_a_trick_winner_that_changes_the_trick_it_is_given_fails_its_check(part):
    from plaisante.games.tricks import checks
    from plaisante.student_side.checking import CheckFailed

    with pytest.raises(CheckFailed, match="changed the trick it was given"):
        checks.check_trick_winner(part)


def test_a_sort_hand_that_hands_back_a_one_card_hand_itself_fails_its_check():
    """The step says sort_hand returns a new list, and its hidden rule says a hand of one
    card comes back as a new list of that card."""
    from plaisante.games.tricks.checks import expect_sorted
    from plaisante.student_side.checking import CheckFailed

    def sort_hand(hand):
        return hand if len(hand) <= 1 else known_good.sort_hand(hand)

    with pytest.raises(CheckFailed, match="expected a new list, got the hand itself"):
        expect_sorted(sort_hand, "A♥")
