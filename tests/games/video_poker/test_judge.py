"""The video-poker test cells under the judge: each cell's source runs here, the student's
parts answer through the oracle's wire format (``loopback``, as in tests/test_judge.py). The
reference passes every cell and the untouched starter fails every cell — the Machine's cells
included, where the machine lives in the "kernel" and the checks only call its methods and read
its attributes (each classic mistake failing exactly its cells: tests/test_course_judge.py)."""

from __future__ import annotations

import os

import nbformat
import pytest
from assignment_support import notebooks, unit
from loopback_judge import kernel_namespace, verdicts

from plaisante.student_side.checking import CheckFailed

SOURCE, RELEASE = notebooks("video_poker")  # the conftest fixtures read them
POKER = unit("video_poker")
mistaken, module_with = POKER.mistaken, POKER.module_with


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    """The saved-credits check writes in the current folder, as a kernel's would."""
    monkeypatch.chdir(tmp_path)
    yield
    assert os.listdir(tmp_path) == []  # the check removed its file


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    assert {k: v.error for k, v in results.items() if not v.passed} == {}
    assert len(results) == 15
    assert results["step4_machine"].printed == (
        "Step 4 Machine: the visible checks pass"
        " (hidden tests run when your work is graded).\n")
    assert results["step5_my_tests"].score == 15


def test_untouched_starter_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step4_machine"].error[0] == "NotImplementedError"


def test_a_failing_machine_check_names_the_call_expected_and_actual(source, tests, setup,
                                                                    names) -> None:
    results = verdicts(tests, setup, names,
                       kernel_namespace(source, **mistaken("held_cards_moved")))
    message = results["step4_machine"].error[1]
    assert "draw()" in message and "expected machine.cards = [Q♣ K♦ K♥ K♣ A♣]" in message
    assert "got [K♦ K♥ K♣ Q♣ A♣]" in message


def test_a_refused_call_that_changes_a_list_in_place_fails_in_both_modes(source, tests, setup,
                                                                        names) -> None:
    """A draw refused before a deal that replaced cards first: the judge reads copies, the
    student's own kernel the machine's own list, and both must see the change."""
    expected = ("after Machine(rng=random.Random(24)), one game played, draw() (refused): "
                "expected machine.cards = [Q♣ A♣ 9♠ 5♠ 7♣], got [J♣ 7♦ 2♣ 4♥ 5♥]")
    results = verdicts(tests, setup, names,
                       kernel_namespace(source, **mistaken("refused_draw_replaces_cards")))
    assert results["step4_machine"].error == ("CheckFailed", expected)
    module = module_with(mistaken("refused_draw_replaces_cards"))
    with pytest.raises(CheckFailed) as own_kernel:
        module.check_machine(module.Machine)
    assert str(own_kernel.value) == expected


# ------------------------------------------------------------------ step 5: tests of the port

#: One test per bug of the port, each catching that bug alone (the body of my_port_tests).
ONE_BUG = {
    "remembers a four of a kind":
        "    hand_name(hand('9♣ 9♦ 9♥ 9♠ K♣'))\n"
        "    assert hand_name(hand('2♣ 5♦ 8♥ J♠ K♣')) == NOTHING\n",
    "a free game on a bet beyond the credits":
        "    machine = Machine(credits=12)\n    machine.place_bet()\n    machine.place_bet()\n"
        "    assert refused(machine.place_bet)\n",
    "refills only at 0":
        "    assert Machine(credits=4).credits == 100\n",
    "a negative position held":
        "    machine = Machine()\n    machine.bet_max()\n"
        "    assert refused(lambda: machine.toggle_hold(-2))\n",
    "a bet after the deal":
        "    machine = Machine()\n    machine.place_bet()\n    machine.deal()\n"
        "    assert refused(machine.place_bet)\n    assert machine.bet == 5\n",
}


def judged_port_tests(source, tests, setup, names, body: str, before: str = ""):
    code = f"{before}def my_port_tests(hand_name, Machine):\n{body}"
    return verdicts({"step5_my_tests": tests["step5_my_tests"]}, setup, names,
                    kernel_namespace(source, step5_my_tests_code=code))["step5_my_tests"]


@pytest.mark.parametrize("bug", sorted(ONE_BUG))
def test_each_bug_of_the_port_is_one_hidden_version_worth_3(bug, source, tests, setup,
                                                            names) -> None:
    """Routed: each machine the test makes lives in the grader; the test presses its
    buttons and reads it through the handle."""
    verdict = judged_port_tests(source, tests, setup, names, ONE_BUG[bug])
    assert verdict.passed and verdict.score == 3, verdict
    assert verdict.printed.endswith("catches 1 of 5 hidden buggy versions (3 of 15 points).\n")


def test_every_test_together_catch_all_five(source, tests, setup, names) -> None:
    verdict = judged_port_tests(source, tests, setup, names, "".join(ONE_BUG.values()))
    assert verdict.passed and verdict.score == 15


def test_tests_that_fail_on_a_correct_machine_score_0_and_say_nothing_the_kernel_wrote(
        source, tests, setup, names) -> None:
    verdict = judged_port_tests(source, tests, setup, names,
                                "    machine = Machine(credits=12)\n"
                                "    for _ in range(3):\n        machine.place_bet()\n"
                                "    assert machine.bet == 15, 'Bet pressed 3 times bets 15'\n")
    kind, message = verdict.error
    assert kind == "CheckFailed" and message.startswith(
        "my_port_tests fails on a correct hand_name, Machine, so it cannot be graded: ")
    assert message.endswith("the correct hand_name, Machine raised a ValueError at one of its "
                            "calls (call it only as the step states) (run the cell after "
                            "my_port_tests in your notebook to see which)")
    assert "credits" not in message


def test_a_test_that_fingerprints_the_code_catches_nothing(source, tests, setup,
                                                          names) -> None:
    verdict = judged_port_tests(
        source, tests, setup, names,
        "    SEEN.append((hand_name.__code__.co_code, Machine.__code__.co_code,\n"
        "                 type(Machine()).__name__, repr(Machine())))\n"
        "    assert SEEN[-1] == SEEN[0]\n", before="SEEN = []\n\n\n")
    assert verdict.passed and verdict.score == 0


def test_a_machine_made_for_the_tests_writes_no_file_and_hides_its_insides(
        source, tests, setup, names, tmp_path) -> None:
    """A save path would be written by the grader: the machines given to tests take only
    credits, as step 5's text says. Private names and values that are not plain data do not
    cross either."""
    for made in ("Machine(path='credits.json')", "Machine(rng=None)", "Machine(7)",
                 "Machine(credits='7')"):
        verdict = judged_port_tests(source, tests, setup, names, f"    {made}\n")
        assert ("the correct hand_name, Machine raised a ValueError at one of its calls (call "
                "it only as the step states)") in verdict.error[1], (made, verdict.error)
        assert "credits=" not in verdict.error[1]  # the correct machine's words stay unsaid
    for reach, said in (("Machine()._refill", "an assertion failed or an error was raised"),
                        ("Machine().rng", "raised a TypeError at one of its calls")):
        verdict = judged_port_tests(source, tests, setup, names, f"    {reach}\n")
        assert said in verdict.error[1], verdict.error
    assert os.listdir(tmp_path) == []
