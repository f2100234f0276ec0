"""Deck and deal's checks on known-wrong implementations (run directly, as in the student's own
notebook): each classic mistake is caught with a message naming the input, the expected value
and the actual one; fair shuffles other than the reference's pass the bias test."""

from __future__ import annotations

import random

import pytest
from assignment_support import unit

from plaisante.games import load
from plaisante.games.deck import checks
from plaisante.games.deck import known_good as _grader_answers  # noqa: F401  HIDDEN's checks
from plaisante.student_side.assignment import check_all
from plaisante.student_side.cards import KitCard, hand

DECK = unit("deck")
load_reference, mistaken, module_with = DECK.load_reference, DECK.mistaken, DECK.module_with
MISTAKES = DECK.mistakes

ASSIGNMENT = load("deck")

# The hidden cells' calls, as functions of the part (what the notebook's hidden tests run).
HIDDEN = {
    "step2_shuffle_hidden": lambda p: (
        checks.expect_shuffle(p.shuffle, "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", 2024,
                              "2♥ 10♥ Q♥ 3♥ K♥ 7♥ A♥ 8♥ 5♥ 6♥ J♥ 4♥ 9♥"),
        checks.expect_cards_can_stay(p.shuffle, seed=31, times=20),
        checks.expect_fair_shuffle(p.shuffle, seed=1000)),
    "step3_deal_hidden": lambda p: (checks.expect_deal_error(p.deal, 12, 4, 4),
                                    checks.expect_deal(p.deal, "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣", 3, 2,
                                                       ["8♣ 5♣", "7♣ 4♣", "6♣ 3♣"], "2♣")),
    "step4_discard_hidden": lambda p: (checks.expect_discard(p.discard, [3, 1]),
                                       checks.expect_discard(p.discard, [10, 3])),
    "step4_draw_hidden": lambda p: checks.expect_draw(p.draw, "2♥ 3♥ 4♥", "", 3, "", "4♥ 3♥ 2♥"),
    "step5_sort_key_hidden": lambda p: checks.check_sort_key(p.sort_key),
    "step5_order_hand_hidden": lambda p: checks.expect_order(p.order_hand,
                                                             "A♠ K♠ Q♠ J♠ 10♠ 9♠ 2♣"),
}
VISIBLE = {
    "step1_new_deck": lambda p: checks.check_new_deck(p.new_deck),
    "step2_shuffle": lambda p: checks.check_shuffle(p.shuffle),
    "step3_deal": lambda p: checks.check_deal(p.deal),
    "step4_draw": lambda p: checks.check_draw(p.draw),
    "step4_discard": lambda p: checks.check_discard(p.discard),
    "step5_sort_key": lambda p: checks.check_sort_key(p.sort_key),
    "step5_order_hand": lambda p: checks.check_order_hand(p.order_hand),
}


def parts_of(module) -> dict[str, object]:
    return {name: getattr(module, name) for name in ASSIGNMENT.parts}


def test_the_reference_passes_every_step_of_the_gate() -> None:
    results = check_all(ASSIGNMENT, parts_of(load_reference()))
    assert [r.status for r in results] == ["pass"] * 6


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_each_mistake_is_caught_naming_input_expected_and_actual(mistake: str) -> None:
    variant = module_with(mistaken(mistake))
    for cell in DECK.fails(mistake):
        check = {**VISIBLE, **HIDDEN}[cell]
        with pytest.raises(checks.CheckFailed) as failure:
            check(variant)
        message = str(failure.value)
        assert "(" in message.split(":")[0], message  # names the call and its input
        assert "expected" in message and "got" in message, message


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_the_gate_names_the_mistakes_step(mistake: str) -> None:
    variant = module_with(mistaken(mistake))
    cell = next(iter(MISTAKES[mistake].edits))
    step = int(cell[4])
    results = check_all(ASSIGNMENT, parts_of(variant))
    visible_fails = any(c in VISIBLE for c in DECK.fails(mistake))
    assert [r.status for r in results if r.step != step] == ["pass"] * 5
    assert results[step - 1].status == ("fail" if visible_fails else "pass")


def fisher_yates_upward(cards: list, rng: random.Random) -> None:
    for i in range(len(cards) - 1):
        j = rng.randrange(i, len(cards))
        cards[i], cards[j] = cards[j], cards[i]


def library_shuffle(cards: list, rng: random.Random) -> None:
    rng.shuffle(cards)


def naive(cards: list, rng: random.Random) -> None:
    for i in range(len(cards)):
        j = rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]


@pytest.mark.parametrize("seed", [0, 1000, 5000, 77_000])
@pytest.mark.parametrize("fair", [fisher_yates_upward, library_shuffle, load_reference().shuffle])
def test_fair_shuffles_pass_the_bias_test_whatever_the_seed(fair, seed: int) -> None:
    checks.expect_fair_shuffle(fair, seed=seed)
    checks.expect_cards_can_stay(fair, seed=seed)


@pytest.mark.parametrize("seed", [0, 1000, 5000, 77_000])
def test_the_naive_shuffle_fails_the_bias_test_whatever_the_seed(seed: int) -> None:
    with pytest.raises(checks.CheckFailed, match="expected on average 25.5"):
        checks.expect_fair_shuffle(naive, seed=seed)


def test_a_part_not_started_is_reported_as_to_do() -> None:
    stubs = dict(parts_of(load_reference()))

    def not_yet(*args, **kwargs):
        raise NotImplementedError

    stubs["deal"] = not_yet
    results = check_all(ASSIGNMENT, stubs)
    assert results[2].status == "todo" and "step 3" in results[2].detail


def test_the_reference_tests_catch_every_buggy_deal_the_notebook_shows(capsys) -> None:
    """Step 6's cell, run as in the student's notebook: the reference's my_deal_tests pass on
    the reference's deal and catch each of the three visible mistakes, named."""
    reference = load_reference()
    checks.try_my_tests(reference.my_deal_tests, checks.DEAL_MISTAKES, deal=reference.deal)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "On your own deal, your tests pass."
    assert printed[1:4] == [f"  caught: a deal that {m.mistake}" for m in checks.DEAL_MISTAKES]
    assert printed[4].startswith("They catch 3 of the 3 buggy versions shown here.")


def test_each_visible_buggy_deal_differs_from_a_correct_one_in_its_own_way() -> None:
    """The three visible mistakes, on the same calls as a correct deal: each goes wrong where
    its name says, and only there."""
    reference = load_reference()
    keeps, whole, unchecked = (m.parts["deal"] for m in checks.DEAL_MISTAKES)
    deck = hand("2♣ 3♣ 4♣ 5♣ 6♣")
    assert keeps(deck, 2, 2) == reference.deal(hand("2♣ 3♣ 4♣ 5♣ 6♣"), 2, 2)
    assert deck == hand("2♣ 3♣ 4♣ 5♣ 6♣")  # nothing popped
    assert whole(hand("2♣ 3♣ 4♣ 5♣ 6♣"), 2) == [hand("6♣ 4♣ 2♣"), hand("5♣ 3♣")]
    assert whole(hand("2♣ 3♣ 4♣ 5♣ 6♣"), 2, 2) == reference.deal(hand("2♣ 3♣ 4♣ 5♣ 6♣"), 2, 2)
    with pytest.raises(IndexError):
        unchecked(hand("2♣ 3♣"), 3, 1)
    assert unchecked(hand("2♣ 3♣ 4♣"), 2) == reference.deal(hand("2♣ 3♣ 4♣"), 2)


def test_a_shuffle_that_ignores_its_rng_is_told_the_draws_it_should_have_made() -> None:
    draws = iter(range(1, 100))

    def shuffle(cards, rng):  # the random module, seeded anew on each call: not rng
        random.Random(next(draws)).shuffle(cards)

    with pytest.raises(checks.CheckFailed) as failure:
        checks.check_shuffle(shuffle)
    assert str(failure.value) == (
        "after shuffle([2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣], random.Random(4)): expected [3♣ 8♣ 7♣ 6♣ 9♣ "
        "2♣ 4♣ 5♣], got [5♣ 8♣ 3♣ 7♣ 9♣ 2♣ 6♣ 4♣] (Fisher–Yates draws rng.randrange(8) = 3, "
        "rng.randrange(7) = 2, rng.randrange(6) = 0, rng.randrange(5) = 3, rng.randrange(4) = 3,"
        " rng.randrange(3) = 0, rng.randrange(2) = 0, from the last position down to position 1)")


def test_the_libraries_own_fisher_yates_passes_as_the_step_text_says() -> None:
    """rng.shuffle runs the same loop with the same draws: the text says it passes."""
    checks.check_shuffle(library_shuffle)
    checks.expect_shuffle(library_shuffle, "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", 2024,
                          "2♥ 10♥ Q♥ 3♥ K♥ 7♥ A♥ 8♥ 5♥ 6♥ J♥ 4♥ 9♥")


def test_a_deck_of_cards_made_once_is_not_a_new_deck() -> None:
    """A new list of cards made once (``list(CARDS)``) is refused too, as the text says: the
    judge sees a returned list as a copy, so only the cards' identity tells the calls apart."""
    def new_deck() -> list[KitCard]:
        return [KitCard(rank, suit) for rank, suit in checks.DECK_ORDER]

    made_once = new_deck()
    with pytest.raises(checks.CheckFailed) as failure:
        checks.expect_new_each_call(lambda: made_once)
    assert str(failure.value) == (
        "new_deck() called twice: expected two new decks, got the same list both times "
        "(new_deck()[0] is new_deck()[0] gives True): build the list and its cards inside "
        "new_deck, at every call")
    with pytest.raises(checks.CheckFailed, match="got the same cards both times"):
        checks.expect_new_each_call(lambda: list(made_once))
    checks.expect_new_each_call(new_deck)
