"""The checklist (``play``'s ``check_all``) and a step's visible test cells judge Plaisante's
step 1 from the same checks: a Card that fails a case only the test cell used to check fails
the checklist's step 1 too, with the cell's message."""

from __future__ import annotations

import pytest

from plaisante.games.plaisante import ASSIGNMENT, checks
from plaisante.student_side.assignment import check_step
from plaisante.student_side.checking import CheckFailed

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("clubs", "diamonds", "hearts", "spades")


class Card:
    """A right Card but for the mistakes a subclass makes."""

    def __init__(self, rank, suit):
        if rank not in RANKS:
            raise ValueError(f"unknown rank {rank!r}; allowed ranks: {', '.join(RANKS)}")
        if suit not in SUITS:
            raise ValueError(f"unknown suit {suit!r}; allowed suits: {', '.join(SUITS)}")
        self.rank, self.suit, self.value = rank, suit, RANKS.index(rank) + 2

    def __eq__(self, other):
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.suit) == (other.rank, other.suit)

    def __hash__(self):
        return hash((self.rank, self.suit))

    def __repr__(self):
        return f"Card({self.rank!r}, {self.suit!r})"


class EqualsAttributes(Card):
    """== reads the other's rank and suit, never returning NotImplemented."""

    def __eq__(self, other):
        return (self.rank, self.suit) == (other.rank, other.suit)

    __hash__ = Card.__hash__


class SuitCheckedFirst(Card):
    """Card('hearts', 'K') names the allowed suits: the suit is checked first."""

    def __init__(self, rank, suit):
        if suit not in SUITS:
            raise ValueError(f"unknown suit {suit!r}; allowed suits: {', '.join(SUITS)}")
        super().__init__(rank, suit)


STEP_1 = ASSIGNMENT.steps[0]


def test_the_right_card_passes_step_1():
    assert check_step(STEP_1, {"Card": Card}).status == "pass"


@pytest.mark.parametrize(("wrong", "check", "message"), [
    (EqualsAttributes, checks.check_card_equality,
     "Card('K', 'hearts') == 'K♥': raised AttributeError: 'str' object has no attribute 'rank'"),
    (SuitCheckedFirst, checks.check_card_text,
     "the ValueError should name the allowed ranks"),
])
def test_a_case_of_step_1s_test_cells_fails_the_checklist_too(wrong, check, message):
    with pytest.raises(CheckFailed, match=message.replace("(", r"\(").replace(")", r"\)")):
        check(wrong)
    result = check_step(STEP_1, {"Card": wrong})
    assert result.status == "fail" and message in result.detail
