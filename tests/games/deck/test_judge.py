"""Deck and deal's test cells under the judge: each cell's source runs here, the student's parts
answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The reference
passes every cell, the untouched starter fails every cell.
Each classic mistake failing exactly its cells: tests/test_course_judge.py."""

from __future__ import annotations

import nbformat
import pytest
from assignment_support import notebooks
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.judge import judge_cell

SOURCE, RELEASE = notebooks("deck")  # the conftest fixtures read them


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 20
    assert results["step6_my_tests"].score == 10
    assert results["step2_shuffle"].printed == (
        "Step 2: the visible checks pass"
        " (hidden tests run when your work is graded).\n")


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step3_deal"].error[0] == "NotImplementedError"




def test_the_bias_test_stays_within_600_calls(source, tests, setup, names) -> None:
    calls = []
    transport = loopback(kernel_namespace(source))

    def counting(text: str) -> str:
        calls.append(text)
        return transport(text)
    assert judge_cell(tests["step2_shuffle_hidden"], setup, names, counting).passed
    assert len(calls) <= 600


# ------------------------------------------------------------------ step 6: tests of deal

#: One test per hidden buggy deal, each catching that mistake alone (the body of my_deal_tests).
ONE_MISTAKE = {
    "one player at a time":  # player 0 gets the 1st and 3rd cards from the top
        "    assert hand('4♣')[0] in deal(hand('2♣ 3♣ 4♣ 5♣ 6♣'), 2, 2)[0]\n",
    "from the bottom":
        "    assert deal(hand('2♣ 3♣ 4♣'), 1, 1) == [hand('4♣')]\n",
    "one list for every player":
        "    assert len(deal(hand('2♣ 3♣ 4♣ 5♣'), 3, 1)[0]) == 1\n",
    "true division for the default":
        "    assert len(deal(hand('2♣ 3♣ 4♣ 5♣ 6♣'), 2)) == 2\n",
    "refuses a deal using the deck up exactly":
        "    deck = hand('2♣ 3♣ 4♣')\n    deal(deck, 3, 1)\n    assert deck == []\n",
}


def judged_deal_tests(source, tests, setup, names, body: str):
    code = f"def my_deal_tests(deal):\n{body}"
    return verdicts({"step6_my_tests": tests["step6_my_tests"]}, setup, names,
                    kernel_namespace(source, step6_my_tests_code=code))["step6_my_tests"]


@pytest.mark.parametrize("mistake", sorted(ONE_MISTAKE))
def test_each_hidden_buggy_deal_is_caught_alone_for_2_points(mistake, source, tests, setup,
                                                            names) -> None:
    """Each hidden version has one mistake: a test aimed at it catches that one and no other
    (the versions' lists come back to the kernel's deck, so a test sees what deal popped)."""
    verdict = judged_deal_tests(source, tests, setup, names, ONE_MISTAKE[mistake])
    assert verdict.passed and verdict.score == 2, verdict
    assert verdict.printed.endswith(
        "my_deal_tests: passes on a correct deal and catches 1 of 5 hidden buggy versions "
        "(2 of 10 points).\n")


def test_every_test_together_catch_all_five(source, tests, setup, names) -> None:
    verdict = judged_deal_tests(source, tests, setup, names, "".join(ONE_MISTAKE.values()))
    assert verdict.passed and verdict.score == 10


def test_tests_of_sizes_alone_catch_only_the_shared_list(source, tests, setup, names) -> None:
    """Counting cards is not enough: only the version whose players share one list deals the
    wrong number; the other four deal the right number of wrong cards (or refuse)."""
    verdict = judged_deal_tests(source, tests, setup, names,
                                "    deck = hand('2♣ 3♣ 4♣ 5♣ 6♣')\n"
                                "    hands = deal(deck, 2, 2)\n"
                                "    assert [len(h) for h in hands] == [2, 2]\n"
                                "    assert len(deck) == 1\n")
    assert verdict.passed and verdict.score == 2


def test_tests_that_fail_on_a_correct_deal_score_0_and_say_nothing_the_kernel_wrote(
        source, tests, setup, names) -> None:
    verdict = judged_deal_tests(source, tests, setup, names,
                                "    hands = deal(hand('2♣ 3♣ 4♣ 5♣'), 2, 2)\n"
                                "    assert hands[0] == hand('5♣ 4♣'), 'the two top cards'\n")
    kind, message = verdict.error
    assert kind == "CheckFailed" and message.startswith(
        "my_deal_tests fails on a correct deal, so it cannot be graded: ")
    assert message.endswith("an assertion failed or an error was raised (run the cell after "
                            "my_deal_tests in your notebook to see which)")
    assert "top cards" not in message



def test_an_order_hand_that_gives_back_a_hand_already_in_order_fails_its_cells(
        source, tests, setup, names) -> None:
    """"A new list" is a rule: a hand already in order (the visible empty hand, the hidden
    ordered ones) must not come back as the list given, under the judge as in the notebook."""
    wrong = ("def sort_key(card):\n    return (SUITS.index(card.suit), card.value)\n\n\n"
             "def order_hand(hand):\n    ordered = sorted(hand, key=sort_key)\n"
             "    return hand if ordered == hand else ordered\n")
    namespace = kernel_namespace(source, step5_order_code=wrong)
    results = verdicts(tests, setup, names, namespace)
    failed = [k for k, v in results.items() if not v.passed]
    assert failed == ["step5_order_hand", "step5_order_hand_hidden"]
    assert all("expected a new list, got the very list it was given" in results[k].error[1]
               for k in failed)
