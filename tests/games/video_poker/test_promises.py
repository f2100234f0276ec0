"""Promises of the video-poker notebook that a hidden case tells apart from a plausible wrong
program: each wrong machine here keeps every other rule and fails the case made for it."""

from __future__ import annotations

import pytest
from assignment_support import unit

from plaisante.games.video_poker import checks, known_good  # noqa: F401  the grader's answers
from plaisante.student_side.checking import CheckFailed

POKER = unit("video_poker")
HELD = [True, False, True, False, False]


@pytest.fixture
def Machine(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    return POKER.load_reference().Machine


def test_the_reference_keeps_its_deck(Machine) -> None:
    checks.expect_deck(Machine, 7, HELD)


def test_a_draw_that_reads_the_deck_without_taking_the_cards_is_caught(Machine) -> None:
    class Peeking(Machine):
        def draw(self):
            deck = self.deck
            self.deck = list(deck)  # draws from a copy: the machine's deck keeps the cards
            super().draw()
            self.deck = deck

    with pytest.raises(CheckFailed, match=r"draw\(\): expected machine.deck = \[6♦ 2♠"):
        checks.expect_deck(Peeking, 7, HELD)


def test_a_refused_deal_that_made_its_deck_first_is_caught(Machine) -> None:
    class Hasty(Machine):
        def deal(self):
            self.deck = []  # acts before it checks
            super().deal()

    with pytest.raises(CheckFailed, match=r"deal\(\) again \(refused\): expected machine.deck"):
        checks.expect_deck(Hasty, 7, HELD)
