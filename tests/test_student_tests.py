"""Students' own tests (issue 10): run on the reference and on buggy versions, each call of an
implementation routed from the kernel to the grader (a threaded loopback stands in for the
kernel's stdin channel here)."""

from __future__ import annotations

import pytest
from loopback_judge import loopback

from plaisante import student_tests
from plaisante.cards import hand
from plaisante.checking import CheckFailed
from plaisante.grading.judge import judge_cell, setup_namespace
from plaisante.student_tests import grade_my_tests, version

SETUP = setup_namespace(["from plaisante.games.plaisante.setup import *"])


def right(cards):
    return [sum(card.value == value for card in cards) for value in range(15)]


def judged(user_code: str, cell: str) -> object:
    """Judge ``cell`` (grader side) against a kernel namespace running ``user_code``."""
    namespace: dict = {"__name__": "__main__"}
    exec("from plaisante.games.plaisante.setup import *\n" + user_code, namespace)  # noqa: S102
    setup = dict(SETUP, right=right, version=version)
    return judge_cell(cell, setup, {"mine"}, loopback(namespace))


CELL = ("grade_my_tests(mine, reference={'count_values': right}, points=4, mistakes=[\n"
        "    version('skips the last card', count_values=lambda cards: right(cards[:-1])),\n"
        "    version('aces in slot 1', count_values=lambda cards: right(cards)[:14] + [0])])\n")


def test_strong_tests_earn_every_point_and_weak_ones_a_share() -> None:
    strong = judged("def mine(count_values):\n"
                    "    assert count_values(hand('A♠ 2♣')) == [0, 0, 1] + [0] * 11 + [1]\n", CELL)
    assert strong.passed and strong.score == 4
    assert strong.printed == ("mine: passes on a correct count_values and catches 2 of 2 hidden "
                              "buggy versions (4 of 4 points).\n")
    weak = judged("def mine(count_values):\n"
                  "    assert count_values(hand('2♣ 3♦'))[3] == 1\n", CELL)
    assert weak.passed and weak.score == 2


def test_tests_that_fail_on_correct_code_score_0_with_their_assertion() -> None:
    wrong = judged("def mine(count_values):\n"
                   "    assert count_values(hand('K♥ K♦'))[13] == 3, 'three kings?'\n", CELL)
    assert not wrong.passed
    assert wrong.error == ("CheckFailed", "mine fails on a correct count_values, so it cannot be "
                                          "graded: AssertionError: three kings?")


def test_a_test_that_fingerprints_the_code_it_is_given_catches_nothing() -> None:
    """Every run gets the same routed stand-in: its code, name and identity never differ."""
    seen = judged("SEEN = []\n"
                  "def mine(count_values):\n"
                  "    SEEN.append((count_values.__code__.co_code, count_values.__name__,\n"
                  "                 count_values.__qualname__, count_values.__defaults__))\n"
                  "    assert SEEN[-1] == SEEN[0]\n", CELL)
    assert seen.passed and seen.score == 0


def test_the_kernel_is_asked_the_same_question_in_every_run_and_the_order_is_drawn(
        monkeypatch) -> None:
    """Nothing the kernel receives tells the reference's runs from the buggy ones'."""
    questions: list[str] = []
    orders = set()
    for _ in range(12):
        order: list[str] = []

        def tests(count_values, order=order):
            order.append("bug" if count_values(hand("A♠")) != right(hand("A♠")) else "ref")

        grade_my_tests(tests, {"count_values": right},
                       [version("a", count_values=lambda c: [1] * 15)], points=1)
        orders.add(tuple(order))
    assert orders == {("ref", "ref", "bug"), ("ref", "bug", "ref"), ("bug", "ref", "ref")}
    namespace: dict = {"__name__": "__main__"}
    exec("def mine(count_values):\n    count_values([])\n", namespace)  # noqa: S102
    transport = loopback(namespace)

    def spying(text: str) -> str:
        questions.append(text)
        return transport(text)
    judge_cell(CELL, dict(SETUP, right=right, version=version), {"mine"}, spying)
    routed = [q.split('"q": ')[1].split(", ", 1)[1] for q in questions if '"routed"' in q]
    assert len(routed) == 4 and len(set(routed)) == 1


def test_not_written_says_so() -> None:
    with pytest.raises(NotImplementedError, match="mine is not written yet"):
        def mine(count_values):
            raise NotImplementedError()
        grade_my_tests(mine, {"count_values": right}, [], points=1)
    with pytest.raises(CheckFailed):
        grade_my_tests(lambda count_values: count_values(5), {"count_values": right}, [], 1)
    assert student_tests.decode(student_tests.encode(hand("K♥ 2♣"))) == hand("K♥ 2♣")


def test_in_the_notebook_an_unfinished_part_is_not_unwritten_tests(capsys) -> None:
    """The student's own count_values still raises NotImplementedError: their tests are tried
    on the buggy versions and the cell does not fail for it."""
    def unfinished(cards):
        raise NotImplementedError()

    def mine(count_values):
        assert count_values(hand("A♠")) == right(hand("A♠"))
    student_tests.try_my_tests(mine, [version("returns 14 slots",
                                              count_values=lambda c: right(c)[:14])],
                               count_values=unfinished)
    assert capsys.readouterr().out.splitlines() == [
        "Your own count_values is not finished yet (it raises NotImplementedError), so your "
        "tests were tried on the buggy versions alone.",
        "  caught: a count_values that returns 14 slots",
        "They catch 1 of the 1 buggy versions shown here. When your work is graded they run on "
        "a correct version (they must pass) and on hidden buggy versions."]

    def unwritten(count_values):
        raise NotImplementedError()
    with pytest.raises(NotImplementedError, match="unwritten is not written yet"):
        student_tests.try_my_tests(unwritten, [], count_values=unfinished)


class Counter:
    """A class part: its objects stay in the grader."""

    def __init__(self, start=0):
        self.value = start

    def add(self, n):
        if n < 0:
            raise ValueError("no negatives")
        self.value += n
        return self.value


class AddsNegatives(Counter):
    def add(self, n):
        self.value += n
        return self.value


COUNTER_CELL = ("grade_my_tests(mine, reference={'Counter': Counter}, points=2, mistakes=[\n"
                "    version('adds negatives', Counter=AddsNegatives)])\n")


def judged_counter(user_code: str) -> object:
    namespace: dict = {"__name__": "__main__"}
    exec("from plaisante.games.plaisante.setup import *\n" + user_code, namespace)  # noqa: S102
    setup = dict(SETUP, Counter=Counter, AddsNegatives=AddsNegatives, version=version)
    return judge_cell(COUNTER_CELL, setup, {"mine"}, loopback(namespace))


def test_a_class_part_makes_objects_that_stay_in_the_grader() -> None:
    """The test reads and sets public attributes and calls methods; each is routed."""
    caught = judged_counter(
        "SEEN = []\n"
        "def mine(Counter):\n"
        "    c = Counter(3)\n"
        "    assert c.add(2) == 5 and c.value == 5\n"
        "    c.value = 10\n"
        "    assert c.add(1) == 11\n"
        "    SEEN.append((repr(c), type(c).__name__))\n"
        "    try:\n"
        "        c.add(-1)\n"
        "    except ValueError:\n"
        "        pass\n"
        "    else:\n"
        "        assert False, 'negatives are refused'\n")
    assert caught.passed and caught.score == 2
    private = judged_counter("def mine(Counter):\n    Counter(1)._Counter__x\n")
    assert private.error == ("CheckFailed", "mine fails on a correct Counter, so it cannot be "
                             "graded: AttributeError: your tests can use only the public "
                             "attributes of a Counter, not _Counter__x")


def test_a_kernel_cannot_reach_an_object_it_was_not_given_or_a_private_name() -> None:
    objects = [Counter(1)]
    for question in ({"ob": 1, "op": "get", "n": "value"}, {"ob": 0, "op": "get", "n": "__dict__"},
                     {"ob": 0, "op": "call", "n": "value", "a": [], "kw": []},
                     {"ob": 0, "op": "run", "n": "add"}):
        with pytest.raises(ValueError):
            student_tests._answer(question, {"Counter": Counter}, objects)
    assert student_tests._answer({"ob": 0, "op": "get", "n": "add"}, {}, objects) == (
        '{"ok": {"method": true}}')
