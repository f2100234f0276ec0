"""The video-poker reference, checked independently of its own notebook's tests: ``hand_name``
against pokerkit (a seeded sample here, all 2,598,960 hands in ``make test-slow``, category counts
asserted), properties of hands (order and suit names do not matter), and the saved credits:
missing, round trip, corrupt files kept aside, and a process killed in the middle of a save."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from assignment_support import unit
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Label, StandardHighHand

from plaisante.games.video_poker import rules
from plaisante.games.video_poker.rules import new_deck
from plaisante.games.video_poker.saving import load_credits, save_credits
from plaisante.student_side.cards import RANKS, SUITS, KitCard, hand

POKER = unit("video_poker")
load_reference = POKER.load_reference

POKERKIT_RANK = {rank: ("T" if rank == "10" else rank) for rank in RANKS}
POKERKIT_SUIT = {suit: suit[0] for suit in SUITS}
CATEGORY = {
    Label.HIGH_CARD: rules.NOTHING, Label.ONE_PAIR: rules.PAIR, Label.TWO_PAIR: rules.TWO_PAIR,
    Label.THREE_OF_A_KIND: rules.THREE_OF_A_KIND, Label.STRAIGHT: rules.STRAIGHT,
    Label.FLUSH: rules.FLUSH, Label.FULL_HOUSE: rules.FULL_HOUSE,
    Label.FOUR_OF_A_KIND: rules.FOUR_OF_A_KIND, Label.STRAIGHT_FLUSH: rules.STRAIGHT_FLUSH,
}
BROADWAY = {"10", "J", "Q", "K", "A"}

#: Poker's counts of the 2,598,960 five-card hands, the royal flushes apart.
EXHAUSTIVE_COUNTS = {
    rules.ROYAL_FLUSH: 4, rules.STRAIGHT_FLUSH: 36, rules.FOUR_OF_A_KIND: 624,
    rules.FULL_HOUSE: 3_744, rules.FLUSH: 5_108, rules.STRAIGHT: 10_200,
    rules.THREE_OF_A_KIND: 54_912, rules.TWO_PAIR: 123_552, rules.PAIR: 1_098_240,
    rules.NOTHING: 1_302_540,
}


def pokerkit_name(cards) -> str:
    """Our name for ``cards`` according to pokerkit (the ace plays high and low there too);
    a straight flush from 10 to the ace is our Royal Flush."""
    text = "".join(POKERKIT_RANK[c.rank] + POKERKIT_SUIT[c.suit] for c in cards)
    name = CATEGORY[StandardHighHand(text).entry.label]
    if name == rules.STRAIGHT_FLUSH and {c.rank for c in cards} == BROADWAY:
        return rules.ROYAL_FLUSH
    return name


@pytest.fixture(scope="module")
def ref():
    return load_reference()


def test_the_counts_add_up_to_every_five_card_hand() -> None:
    assert sum(EXHAUSTIVE_COUNTS.values()) == 2_598_960 == len(list(itertools.combinations(
        range(52), 5)))


def test_a_seeded_sample_of_60000_hands_agrees_with_pokerkit(ref) -> None:
    rng, deck = random.Random(20261213), new_deck()
    seen: Counter[str] = Counter()
    disagreements = []
    for _ in range(60_000):
        cards = rng.sample(deck, 5)
        name = ref.hand_name(cards)
        seen[name] += 1
        if name != pokerkit_name(cards):
            disagreements.append((cards, name))
    assert disagreements == []
    assert seen[rules.NOTHING] > 29_000 and seen[rules.PAIR] > 24_000  # ~50.1 % and ~42.3 %


def test_the_rare_hands_agree_with_pokerkit(ref) -> None:
    for text, name in [("A♣ 2♦ 3♥ 4♠ 5♣", rules.STRAIGHT), ("A♥ 2♥ 3♥ 4♥ 5♥", rules.STRAIGHT_FLUSH),
                       ("10♠ J♠ Q♠ K♠ A♠", rules.ROYAL_FLUSH), ("A♣ K♦ Q♥ J♠ 10♣", rules.STRAIGHT),
                       ("Q♣ K♦ A♥ 2♠ 3♣", rules.NOTHING), ("9♦ 9♣ 9♥ 9♠ A♦", rules.FOUR_OF_A_KIND)]:
        cards = hand(text)
        assert ref.hand_name(cards) == pokerkit_name(cards) == name


@pytest.mark.slow
def test_all_2598960_hands_agree_with_pokerkit_and_count_exactly(ref) -> None:
    counts: Counter[str] = Counter()
    disagreements = 0
    for cards in itertools.combinations(new_deck(), 5):
        name = ref.hand_name(list(cards))
        counts[name] += 1
        disagreements += name != pokerkit_name(cards)
    assert disagreements == 0
    assert dict(counts) == EXHAUSTIVE_COUNTS


five_cards = st.lists(st.sampled_from(new_deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_cards, st.randoms(use_true_random=False), st.permutations(SUITS))
def test_order_and_suit_names_never_change_a_hand(ref, cards, rng, suits) -> None:
    name = ref.hand_name(cards)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    renamed = [KitCard(c.rank, dict(zip(SUITS, suits))[c.suit]) for c in cards]
    assert ref.hand_name(shuffled) == ref.hand_name(renamed) == name
    assert ref.payout(cards, 15) == rules.PAYS[name] * 15
    assert ref.frequencies(cards) == [sum(c.value == v for c in cards) for v in range(15)]


# ------------------------------------------------------------------------- saved credits

def test_a_missing_file_is_a_new_machine(tmp_path: Path, ref) -> None:
    assert load_credits(tmp_path / "none.json") == (None, None)
    machine = ref.Machine(path=str(tmp_path / "none.json"))
    assert (machine.credits, machine.games, machine.notice) == (100, 0, None)
    assert list(tmp_path.iterdir()) == []  # nothing changed, nothing saved yet


def test_every_change_is_saved_and_a_new_machine_carries_on(tmp_path: Path, ref) -> None:
    path = str(tmp_path / "credits.json")
    machine = ref.Machine(rng=random.Random(35), path=path)
    machine.bet_max()
    assert json.loads(Path(path).read_text()) == {"credits": 85, "games": 0}
    for position in range(5):
        machine.toggle_hold(position)
    machine.draw()  # J♥ 10♦ J♠ 10♣ 10♠: a full house, 6 × 15
    assert (machine.name, machine.win) == (rules.FULL_HOUSE, 90)
    again = ref.Machine(path=path)
    assert (again.credits, again.games, again.notice) == (175, 1, None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["credits.json"]  # no temporary left


@pytest.mark.parametrize("text, problem", [
    ('{"credits": 8', "it is not JSON"),
    ("", "it is not JSON"),
    ('{"credits": -5, "games": 0}', "its credits is -5"),
    ('{"credits": true, "games": 0}', "its credits is True"),
    ('{"credits": "90", "games": 2}', "its credits is '90'"),
    ('[100, 0]', "not {\"credits\""),
    ('{"credits": 90, "games": 2, "bet": 5}', "not {\"credits\""),
])
def test_a_corrupt_file_is_kept_aside_and_the_machine_says_so(tmp_path: Path, ref, text: str,
                                                              problem: str) -> None:
    path = tmp_path / "credits.json"
    (tmp_path / "credits.json.corrupt-1").write_text("an older bad file")
    path.write_text(text)
    machine = ref.Machine(path=str(path))
    assert (machine.credits, machine.games) == (100, 0)
    notice = machine.notice
    assert notice.count("\n") == 0 and problem in notice, notice
    assert "credits.json.corrupt-2" in notice and "started fresh" in notice
    assert (tmp_path / "credits.json.corrupt-2").read_text() == text  # nothing lost
    assert (tmp_path / "credits.json.corrupt-1").read_text() == "an older bad file"
    assert not path.exists()


def test_a_machine_loaded_with_too_few_credits_refills(tmp_path: Path, ref) -> None:
    save_credits(tmp_path / "c.json", 3, 40)
    machine = ref.Machine(path=str(tmp_path / "c.json"))
    assert (machine.credits, machine.games) == (100, 40)


def test_save_refuses_what_is_not_a_count(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="credits must be a whole number"):
        save_credits(tmp_path / "c.json", -1, 0)
    with pytest.raises(ValueError, match="games must be a whole number"):
        save_credits(tmp_path / "c.json", 5, True)
    assert list(tmp_path.iterdir()) == []


SAVER = textwrap.dedent("""
    import os, sys, time
    from plaisante.games.video_poker import saving
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "stall":  # stop inside save_credits: temporary file written, not yet renamed
        real = os.fsync
        def stall(fd):
            real(fd)
            print("mid-save", flush=True)
            time.sleep(120)
        os.fsync = stall
        saving.save_credits(path, 5, 99)
    else:  # save as fast as it can, forever
        print("saving", flush=True)
        credits = 0
        while True:
            credits += 5
            saving.save_credits(path, credits, credits // 5)
""")


def saver(path: Path, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", SAVER, str(path), mode], text=True,
                            stdout=subprocess.PIPE)


def test_a_process_killed_mid_save_leaves_the_last_good_state(tmp_path: Path) -> None:
    path = tmp_path / "credits.json"
    save_credits(path, 40, 2)
    child = saver(path, "stall")
    try:
        assert child.stdout is not None and child.stdout.readline() == "mid-save\n"
        temporary = [p for p in tmp_path.iterdir() if p.name.startswith("credits.json.saving")]
        assert [json.loads(p.read_text()) for p in temporary] == [{"credits": 5, "games": 99}]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert load_credits(path) == ((40, 2), None)
    save_credits(path, 45, 3)  # a leftover temporary file does not get in the way
    assert load_credits(path) == ((45, 3), None)


def test_killed_at_random_moments_the_file_is_always_a_whole_save(tmp_path: Path) -> None:
    path = tmp_path / "credits.json"
    rng = random.Random(13)
    for _ in range(15):
        child = saver(path, "loop")
        assert child.stdout is not None and child.stdout.readline() == "saving\n"
        try:
            child.wait(timeout=rng.uniform(0.005, 0.08))  # it never ends by itself
        except subprocess.TimeoutExpired:
            pass
        child.send_signal(signal.SIGKILL)
        child.wait()
        saved, notice = load_credits(path)
        assert notice is None and saved is not None
        credits, games = saved
        assert credits > 0 and credits == games * 5
    assert not any(p.name.endswith(".corrupt-1") for p in tmp_path.iterdir())
    assert os.path.getsize(path) < 100
