"""Students' own tests: run on the reference and on buggy versions, each call of an
implementation routed from the kernel to the grader (a threaded loopback stands in for the
kernel's stdin channel here)."""

from __future__ import annotations

import json

import pytest
from loopback_judge import loopback

from plaisante.grading import routed
from plaisante.grading.judge import judge_cell, setup_namespace
from plaisante.student_side import student_tests
from plaisante.student_side.assignment import Placeholder
from plaisante.student_side.cards import hand
from plaisante.student_side.checking import CheckFailed
from plaisante.student_side.student_tests import grade_my_tests, version
from plaisante.student_side.surface import identity_names, public, surface
from plaisante.student_side.wire import PLAIN

SETUP = setup_namespace(["from plaisante.games.plaisante.setup import *"])


def right(cards):
    return [sum(card.value == value for card in cards) for value in range(15)]


def kernel_running(user_code: str) -> dict:
    """A kernel's namespace (``__main__``) after the setup's import and ``user_code`` ran."""
    namespace: dict = {"__name__": "__main__"}
    exec("from plaisante.games.plaisante.setup import *\n" + user_code, namespace)  # noqa: S102
    return namespace


def judged(user_code: str, cell: str) -> object:
    """Judge ``cell`` (grader side) against a kernel namespace running ``user_code``."""
    namespace = kernel_running(user_code)
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


def test_tests_that_fail_on_correct_code_score_0_and_say_nothing_the_kernel_wrote() -> None:
    """The kernel's message of a failing run could carry the correct version's answers to any
    question (``assert False, repr(count_values(h))``): graded, it is never shown."""
    wrong = judged("def mine(count_values):\n"
                   "    assert count_values(hand('K♥ K♦'))[13] == 3, "
                   "repr(count_values(hand('K♥ K♦')))\n", CELL)
    assert not wrong.passed
    assert wrong.error == ("CheckFailed", "mine fails on a correct count_values, so it cannot be "
                                          "graded: an assertion failed or an error was raised "
                                          "(run the cell after mine in your notebook to see "
                                          "which)")
    assert "[0, 0" not in wrong.printed + wrong.error[1]


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
    for _ in range(200):  # until the three orders are seen: 12 draws miss one 2% of the time
        if len(orders) == 3:
            break
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
    assert PLAIN.decode(PLAIN.encode(hand("K♥ 2♣"))) == hand("K♥ 2♣")


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


def test_in_the_notebook_tests_that_fail_on_correct_code_are_not_praised_for_catches(
        capsys) -> None:
    """Tests that fail on the student's own, correct count_values 'catch' every buggy version
    too: the closing line says that counts for nothing yet and what grading gives, where it
    said "They catch 1 of the 1" and nothing more."""
    def always_fails(count_values):
        assert count_values([]) == [1] * 15
    student_tests.try_my_tests(always_fails, [version("returns 14 slots",
                                                      count_values=lambda c: right(c)[:14])],
                               count_values=right)
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "  caught: a count_values that returns 14 slots",
        "They catch 1 of the 1 buggy versions shown here, but a test that fails on correct "
        "code catches anything: make them pass first. When your work is graded they run on a "
        "correct version, and this cell scores 0 while they fail there."]


def test_in_the_notebook_a_part_whose_cell_failed_is_not_called_unfinished(capsys) -> None:
    """count_values's cell raised a SyntaxError, so the setup cell's placeholder stands in:
    the line says it is not defined yet, not that it raises NotImplementedError."""
    def mine(count_values):
        assert count_values(hand("A♠")) == right(hand("A♠"))
    student_tests.try_my_tests(mine, [version("returns 14 slots",
                                              count_values=lambda c: right(c)[:14])],
                               count_values=Placeholder("count_values", 2))
    assert capsys.readouterr().out.splitlines()[0] == (
        "Your own count_values is not defined yet (run the cell that defines it; if that cell "
        "shows an error, fix it first), so your tests were tried on the buggy versions alone.")


def test_in_the_notebook_tests_that_pass_only_once_are_told_to_make_their_data_inside(
        capsys) -> None:
    """Found by a tryout: a deck made outside the tests, emptied by their first run, looked
    perfect in the notebook (each buggy version 'caught' on an empty deck) and scored 0 when
    graded, where the tests run several times."""
    deck = [1, 2, 3]

    def pop_all(deal):
        assert deal(deck) == 3

    def right_deal(cards):
        popped = 0
        while cards:
            cards.pop()
            popped += 1
        return popped

    student_tests.try_my_tests(pop_all, [], deal=right_deal)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("On your own deal, your tests fail when run again: assert "
                                 "deal(deck) == 3  → AssertionError")
    assert ("Grading runs them several times: make what they use (a deck, say) inside "
            "pop_all, not outside it.") in printed  # after the message (pytest's, here, is long)
    assert student_tests.in_short("\n".join(printed))[0].startswith(
        "your tests fail on your own deal: assert deal(deck) == 3")


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
    namespace = kernel_running(user_code)
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
    assert not private.passed and private.error[1].startswith(
        "mine fails on a correct Counter, so it cannot be graded: an assertion failed or an error")


def test_a_kernel_cannot_reach_an_object_it_was_not_given_or_a_private_name() -> None:
    run = routed.Run({"Counter": Counter}, surface({"Counter": Counter}),
                            [(Counter(1), "Counter")])
    for question in ({"ob": 1, "op": "get", "n": "value"}, {"ob": 0, "op": "get", "n": "__dict__"},
                     {"ob": 0, "op": "call", "n": "value", "a": [], "kw": []},
                     {"ob": 0, "op": "run", "n": "add"}):
        with pytest.raises(ValueError):
            routed._answer(question, run)
    assert routed._answer({"ob": 0, "op": "get", "n": "add"}, run) == (
        '{"ok": {"method": true}}')


# ------------------------------------------------ every version shows the kernel the same names

def hidden_versions(assignment: str, grade_id: str) -> tuple[dict, list]:
    """The reference and hidden buggy versions of a *_my_tests cell of the solution notebook,
    made as the judge makes them (its hidden region run in the setup's namespace)."""
    import nbformat

    from plaisante.grading.judge import setup_namespace as make_setup

    notebook = nbformat.read(f"solutions/{assignment}/{assignment}.ipynb", as_version=4)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in notebook.cells}
    hidden = cells[grade_id].split("### BEGIN HIDDEN TESTS\n")[1].split("### END HIDDEN")[0]
    namespace = make_setup([cells["setup"]])
    found: dict = {}

    def grade_my_tests(tests, reference, mistakes, points):
        found.update(reference=reference, mistakes=mistakes)
    namespace.update(grade_my_tests=grade_my_tests, my_count_values_tests=None,
                     my_port_tests=None)
    exec(hidden, namespace)  # noqa: S102  the instructor's hidden tests
    return found["reference"], found["mistakes"]


def version_names(reference: dict, mistakes: list) -> set[str]:
    """Every name the versions' code has (what must never reach the kernel)."""
    names: set[str] = set()
    for parts in [reference] + [m.parts for m in mistakes]:
        for part in parts.values():
            names |= {n for n in identity_names(part) if n not in reference}
    return names


def replies_per_version(reference: dict, mistakes: list, questions: list[dict]) -> list[list]:
    """For each run (reference first, then each buggy version, built as the judge builds
    them), the grader's reply text to each question in turn, on a run of its own."""
    shown = surface(reference, [m.parts for m in mistakes])
    runs = sorted(student_tests._shuffled(mistakes, reference),
                  key=lambda run: -1 if run[0] is None else run[0])[1:]
    answers = []
    for _, parts in runs:
        run = routed.Run(parts, shown)
        answers.append([routed._answer(question, run) for question in questions])
    return answers


def call(name: str, *args, **kwargs) -> dict:
    return {"cb": name, "a": [PLAIN.encode(a) for a in args],
            "kw": [[k, PLAIN.encode(v)] for k, v in kwargs.items()]}


def on(op: str, name: str, *args, **kwargs) -> dict:
    question = {"ob": 0, "op": op, "n": name}
    if op == "call":
        question.update(a=[PLAIN.encode(a) for a in args],
                        kw=[[k, PLAIN.encode(v)] for k, v in kwargs.items()])
    if op == "set":
        question["a"] = [PLAIN.encode(args[0])]
    return question


def test_plaisante_versions_answer_bad_calls_with_one_text() -> None:
    """count_values: a bad keyword, too many or too few arguments, a wrong type; every
    version's reply is the same text, phrased with count_values, with no version's name."""
    reference, mistakes = hidden_versions("plaisante", "step2_my_tests")
    names = version_names(reference, mistakes)
    assert {"_counts", "_skips_last", "_aces_in_slot_1"} <= names
    questions = [call("count_values", [], not_a_parameter=1), call("count_values"),
                 call("count_values", [], []), call("count_values", cards=[], extra=2)]
    answers = replies_per_version(reference, mistakes, questions)
    assert all(each == answers[0] for each in answers)
    assert answers[0][:3] == [
        '{"err": {"cls": "TypeError", "msg": "count_values() got an unexpected keyword '
        'argument \'not_a_parameter\'"}}',
        '{"err": {"cls": "TypeError", "msg": "count_values() missing a required argument: '
        '\'cards\'"}}',
        '{"err": {"cls": "TypeError", "msg": "count_values() too many positional arguments"}}']
    assert not any(name in text for each in answers for text in each for name in names)


def test_video_poker_versions_answer_bad_calls_and_missing_attributes_with_one_text() -> None:
    """Machine and hand_name: the probes of the review (a missing attribute, a bad keyword)
    and wrong argument counts of the constructor and of methods, static ones too."""
    reference, mistakes = hidden_versions("video_poker", "step5_my_tests")
    names = version_names(reference, mistakes)
    assert {"_Machine", "_FreeGame", "_Remembers", "_right_name", "_BetAfterDeal",
            "_remembering_four.<locals>.hand_name"} <= names
    questions = [call("Machine"), on("get", "no_such_attribute"), on("get", "credits"),
                 on("call", "place_bet", 5), on("call", "place_bet", bet=5),
                 on("call", "toggle_hold"), on("call", "name_hand", [], bogus=1),
                 on("call", "deal", 1, 2, 3), on("set", "no_such_attribute", 3),
                 on("get", "no_such_attribute"), call("Machine", nope=1),
                 call("Machine", None, None, 100, 4), call("hand_name", [], bogus=1),
                 call("hand_name"), call("hand_name", 5)]
    answers = replies_per_version(reference, mistakes, questions)
    assert all(each == answers[0] for each in answers)
    said = dict(zip(["new", "missing", "credits", "bet 5", "bet=5", "toggle", "name_hand"],
                    answers[0]))
    assert said["missing"] == ('{"err": {"cls": "AttributeError", "msg": "\'Machine\' object '
                               'has no attribute \'no_such_attribute\'"}}')
    assert said["bet 5"] == ('{"err": {"cls": "TypeError", "msg": "Machine.place_bet() too '
                             'many positional arguments"}}')
    assert said["name_hand"] == ('{"err": {"cls": "TypeError", "msg": "Machine.name_hand() got '
                                 'an unexpected keyword argument \'bogus\'"}}')
    assert not any(name in text for each in answers for text in each for name in names)


class _Oops(ValueError):
    pass


class _Chatty(Counter):
    """Its errors name it, its class, its helpers and their addresses."""

    def add(self, n):
        if n == 1:
            raise _Oops(f"{type(self).__name__} {_Chatty.__qualname__} at {id(self):#x}: "
                        f"{_helper} {self!r} {self.add.__qualname__}")
        if n == 2:
            return _helper(1, 2)
        return super().add(n)


def _helper(n):
    return n


def test_an_implementations_own_error_text_is_scrubbed_of_every_versions_name() -> None:
    """Whatever an implementation raises reaches the kernel as its builtin class and a text
    with no version's name (nor address) in it."""
    reference = {"Counter": Counter}
    mistakes = [version("chatty", Counter=_Chatty), version("negatives", Counter=AddsNegatives)]
    answers = replies_per_version(reference, mistakes, [
        call("Counter"), on("call", "add", 1), on("call", "add", 2), on("get", "nothing")])
    chatty = answers[1]
    names = version_names(reference, mistakes) | {"_Oops", "_Chatty", "_helper", "0x7"}
    assert not any(name in text for each in answers for text in each for name in names)
    assert json.loads(chatty[1]) == {"err": {"cls": "ValueError", "msg": (
        "Counter Counter at 0x…: <function Counter at 0x…> <test_student_tests.Counter object "
        "at 0x…> Counter.add")}}
    assert chatty[2] == ('{"err": {"cls": "TypeError", "msg": "Counter() takes 1 positional '
                         'argument but 2 were given"}}')
    assert answers[0][3] == answers[1][3] == answers[2][3]


def test_a_version_keeps_its_behaviour_under_the_parameters_name() -> None:
    """The renamed copies are the same code, state and closures: super(), defaults, a
    static method and a shared closure still work; only the names change."""
    reference, mistakes = hidden_versions("video_poker", "step5_my_tests")
    remembers = dict(student_tests._shuffled(mistakes, {k: v for k, v in reference.items()}))[0]
    machine = remembers["Machine"](credits=3)
    assert machine.credits == 100 and type(machine).__name__ == "Machine"
    assert type(machine).__qualname__ == "Machine" and machine.deal.__qualname__ == "Machine.deal"
    assert remembers["hand_name"].__name__ == remembers["hand_name"].__qualname__ == "hand_name"
    assert remembers["hand_name"](hand("9♣ 9♦ 9♥ 9♠ K♣")) == "Four of a Kind"
    assert machine.name_hand(hand("K♥ K♦ 3♣ 7♠ 9♥")) == "Four of a Kind", "the closure is shared"
    negative = public("Counter", AddsNegatives)
    assert negative(2).add(-1) == 1 and negative.add.__qualname__ == "Counter.add"


# ------------------------------------------------------------------ what the kernel receives

PROBES = ("SEEN = []\n"
          "def mine(count_values):\n"
          "    try:\n"
          "        count_values([], not_a_parameter=1)\n"
          "    except TypeError as error:\n"
          "        SEEN.append(str(error))\n"
          "    try:\n"
          "        count_values()\n"
          "    except TypeError as error:\n"
          "        SEEN.append(str(error))\n"
          "    assert SEEN[-1] == SEEN[1] and SEEN[-2] == SEEN[0], SEEN\n")


def test_a_test_that_probes_names_catches_nothing_and_nothing_sent_names_a_version() -> None:
    """The review's probe (the name in a TypeError) in a judged cell: every run hears the same
    texts, so it catches nothing; no text the grader sends the kernel holds a version's name."""
    reference, mistakes = hidden_versions("plaisante", "step2_my_tests")
    names = version_names(reference, mistakes)
    namespace = kernel_running(PROBES)
    transport = loopback(namespace)
    sent: list[str] = []

    def spying(text: str) -> str:
        sent.append(text)
        return transport(text)
    cell = ("grade_my_tests(mine, reference=REFERENCE, points=4, mistakes=MISTAKES)\n")
    verdict = judge_cell(cell, dict(SETUP, REFERENCE=reference, MISTAKES=mistakes), {"mine"},
                         spying)
    assert verdict.passed and verdict.score == 0
    assert namespace["SEEN"][:2] == [
        "count_values() got an unexpected keyword argument 'not_a_parameter'",
        "count_values() missing a required argument: 'cards'"]
    assert len(namespace["SEEN"]) == 12
    assert not any(name in text for text in sent for name in names)
    assert namespace["SEEN"] and "_counts" not in str(namespace["SEEN"])


# ------------------------------------------------------------------ what a run may store

def test_a_run_may_give_its_objects_at_most_max_stored_bytes() -> None:
    """The review's attack (big strings set on a routed object, 3.5 MB each; 400 there, 12
    here): the run fails with one line once past MAX_STORED, and the grader kept no more."""
    hoarder = judged_counter("def mine(Counter):\n"
                             "    c = Counter()\n"
                             "    for i in range(12):\n"
                             "        try:\n"
                             "            setattr(c, f'junk{i}', 'x' * 3_500_000)\n"
                             "        except RuntimeError:\n"
                             "            pass\n"
                             "    assert c.add(1) == 1\n")
    assert hoarder.error == ("CheckFailed", "mine fails on a correct Counter, so it cannot be "
                             "graded: " + routed.STORED_TOO_MUCH)
    assert "\n" not in routed.STORED_TOO_MUCH
    run = routed.Run({"Counter": Counter}, surface({"Counter": Counter}))
    routed._answer(call("Counter"), run)
    replies = [routed._answer(on("set", f"junk{i}", "x" * 3_500_000), run)
               for i in range(10)]
    kept = [name for name in vars(run.objects[0][0]) if name.startswith("junk")]
    assert len(kept) == 4 and run.too_much
    assert replies[4] == replies[9] == json.dumps(
        {"err": {"cls": "RuntimeError", "msg": routed.STORED_TOO_MUCH}})
    through_methods = routed.Run({"Counter": Counter},
                                        surface({"Counter": Counter}))
    routed._answer(call("Counter", "y" * 3_500_000), through_methods)
    replies = [routed._answer(on("call", "add", "x" * 3_500_000), through_methods)
               for _ in range(5)]
    assert through_methods.too_much and "RuntimeError" in replies[-1]


def test_honest_tests_stay_far_below_the_bound() -> None:
    caught = judged_counter("def mine(Counter):\n"
                            "    for start in range(500):\n"
                            "        c = Counter(start)\n"
                            "        c.value = start\n"
                            "        assert c.add(1) == start + 1\n"
                            "        try:\n"
                            "            c.add(-1)\n"
                            "        except ValueError:\n"
                            "            pass\n"
                            "        else:\n"
                            "            assert False\n")
    assert caught.passed and caught.score == 2


def test_own_tests_that_fail_name_only_the_wrong_part_they_called(ref) -> None:
    """A tryout: tests given five has-checks failed on a has_pair counting 'at least 2', and
    validate blamed all five."""
    from plaisante.student_side.student_tests import wrong_parts

    def at_least_two(cards):
        return any(n >= 2 for n in ref.count_values(cards))

    def tests(has_pair, has_three_of_a_kind):
        assert has_three_of_a_kind(hand("K♥ K♦ K♣"))
        assert not has_pair(hand("K♥ K♦ K♣"))

    def wrong_tests(has_pair, has_three_of_a_kind):
        assert has_pair(hand("K♥ 2♦"))

    own = {"has_pair": at_least_two, "has_three_of_a_kind": ref.has_three_of_a_kind}
    assert wrong_parts(tests, own) == ["has_pair"]
    correct = {"has_pair": ref.has_pair, "has_three_of_a_kind": ref.has_three_of_a_kind}
    assert wrong_parts(wrong_tests, correct) == []  # the test is wrong, not the code


#: Tests that remember what earlier runs were answered and fail a run answered otherwise than
#: the first: with runs sharing a kernel they catch every buggy version whenever a correct run
#: comes first, without knowing a single right answer.
REMEMBERING = ("SEEN = []\n"
               "def mine(count_values):\n"
               "    answer = count_values(hand('A♠ 2♣ 3♦'))\n"
               "    SEEN.append(answer)\n"
               "    assert answer == SEEN[0]\n")


def test_with_a_kernel_of_its_own_for_each_run_tests_that_remember_catch_nothing() -> None:
    """Under the grader every run of a student's tests gets a kernel of its own in which the
    notebook's cells ran again (``Session.renewal``): what one run was answered is gone in the
    next, so tests that compare runs pass on every version and earn nothing; the correct
    version runs once."""
    started: list[dict] = []

    def kernel() -> dict:
        namespace = kernel_running(REMEMBERING)
        started.append(namespace)
        return namespace

    setup = dict(SETUP, right=right, version=version)
    for _ in range(4):  # the order of the runs is drawn: every order alike
        started.clear()
        verdict = judge_cell(CELL, setup, {"mine"}, loopback(kernel()),
                             renewal=lambda: loopback(kernel()))
        assert (verdict.passed, verdict.score) == (True, 0.0), verdict
        runs = started[1:]
        assert len(runs) == 3 and all(len(namespace["SEEN"]) == 1 for namespace in runs)


def test_the_notebooks_kernel_is_asked_nothing_when_each_run_has_a_kernel_of_its_own() -> None:
    """The notebook's kernel has heard every hidden check by the time a student's tests are
    graded: the cell's names are fetched in a kernel started for it (the cells before it run
    again there), which the first run then takes; the notebook's kernel is asked nothing, so
    nothing it says (an error quoting what it heard) reaches the cell's verdict."""
    def heard_everything(text: str) -> str:
        raise AssertionError(f"the notebook's kernel was asked {text[:80]}")

    started: list[dict] = []

    def kernel() -> dict:
        namespace = kernel_running(REMEMBERING)
        started.append(namespace)
        return namespace

    setup = dict(SETUP, right=right, version=version)
    verdict = judge_cell(CELL, setup, {"mine"}, heard_everything,
                         renewal=lambda: loopback(kernel()))
    assert (verdict.passed, verdict.score) == (True, 0.0), verdict
    assert [len(namespace["SEEN"]) for namespace in started] == [1, 1, 1]


def test_with_a_kernel_for_each_run_no_version_always_takes_the_first_kernel() -> None:
    """The first run takes the kernel the cell's names were fetched in, which a run can tell
    from the later ones: were any version always first there (the correct one, to stop early
    on tests that fail on it), tests could pass in that kernel alone and catch every buggy
    version without testing anything. Over 40 cells the first kernel's run is the correct
    version's sometimes and a buggy version's other times (each has a 1 in 3 chance a cell:
    all 40 alike happens once in 10**7)."""
    started: list[dict] = []

    def kernel() -> dict:
        namespace = kernel_running("SEEN = []\n"
                                   "def mine(count_values):\n"
                                   "    SEEN.append(count_values(hand('K♥ K♦ A♠')))\n")
        started.append(namespace)
        return namespace

    setup = dict(SETUP, right=right, version=version)
    first_correct = []
    for _ in range(40):
        started.clear()
        judge_cell(CELL, setup, {"mine"}, loopback(kernel()), renewal=lambda: loopback(kernel()))
        runs = [namespace["SEEN"] for namespace in started[1:]]
        assert len(runs) == 3 and all(len(seen) == 1 for seen in runs), runs
        first_correct.append(runs[0][0] == right(hand("K♥ K♦ A♠")))
    assert any(first_correct) and not all(first_correct), first_correct


def test_with_a_kernel_for_each_run_every_kernel_is_asked_the_same_requests() -> None:
    """Each run's kernel gets the requests the first one got, numbered alike: numbers going on
    from the earlier kernels' told a run how many runs came before it, and tests passing in the
    first run alone earned the cell's points once in 3 (once in 5 on step 2's four hidden
    versions) without testing anything. A cell reading a second name of the kernel's asks it of
    every run's kernel, as of the first."""
    asked: list[list[tuple]] = []

    def kernel() -> object:
        namespace = kernel_running("def mine(count_values):\n"
                                   "    assert count_values(hand('A♠ 2♣')) == "
                                   "[0, 0, 1] + [0] * 11 + [1]\n"
                                   "also = 7\n")
        heard: list[tuple] = []
        asked.append(heard)
        transport = loopback(namespace)

        def recording(text: str) -> str:
            request = json.loads(text)
            if "op" in request:  # not a reply to one of the kernel's routed calls
                heard.append((request["op"], request.get("q"), repr(request.get("names"))))
            return transport(text)
        return recording

    setup = dict(SETUP, right=right, version=version)
    verdict = judge_cell("also\n" + CELL, setup, {"mine", "also"}, loopback({}),
                         renewal=kernel)
    assert (verdict.passed, verdict.score) == (True, 4.0), verdict
    assert len(asked) == 3 and asked[0] == asked[1] == asked[2], asked
    assert asked[0] == [("globals", 1, "['also', 'mine']"), ("routed", 2, "None")], asked


def test_a_cell_that_asks_the_kernel_before_the_runs_leaves_the_first_run_no_different() -> None:
    """A cell that uses a student's value before ``grade_my_tests`` (its ``repr``, a call) asks
    the kernel its names were fetched in more than the names, and may run the student's code
    there: the first run would then be told apart (a request numbered further, a kernel that
    heard more), and tests passing in the first run alone would earn the cell once in 3. Every
    run gets a kernel that heard only the names."""
    heard_by: list[list[str]] = []

    def kernel() -> object:
        namespace = kernel_running("def mine(count_values):\n"
                                   "    assert count_values(hand('A♠ 2♣')) == "
                                   "[0, 0, 1] + [0] * 11 + [1]\n"
                                   "class Box:\n    pass\nbox = Box()\n")
        heard: list[str] = []
        heard_by.append(heard)
        transport = loopback(namespace)

        def recording(text: str) -> str:
            if "op" in (request := json.loads(text)) and request["op"] != "globals":
                heard.append(text)
            return transport(text)
        return recording

    setup = dict(SETUP, right=right, version=version)
    verdict = judge_cell("repr(box)\n" + CELL, setup, {"mine", "box"}, loopback({}),
                         renewal=kernel)
    assert (verdict.passed, verdict.score) == (True, 4.0), verdict
    runs = [heard for heard in heard_by if any('"routed"' in text for text in heard)]
    assert len(runs) == 3 and runs[0] == runs[1] == runs[2], heard_by


def test_a_run_that_ends_in_an_error_past_the_tests_fails_in_the_graders_words() -> None:
    """A run the kernel answers with an error instead of its outcome (tests that raise past
    ``run_locally``, SystemExit, or a kernel doing it on purpose) fails; the error's text is
    the kernel's and could quote the correct version's answers, so the verdict says it in the
    grader's words, whatever builtin class the kernel names."""
    namespace = kernel_running("def mine(count_values):\n    pass\n")
    answer = repr(right(hand("K♥ K♦")))  # what the kernel would have heard in a run
    setup = dict(SETUP, right=right, version=version)
    for raised in ("SystemExit", "ValueError", "NotImplementedError", "CheckFailed"):
        kernel = loopback(namespace)

        def answering_an_error(text: str, raised: str = raised, kernel=kernel) -> str:
            request = json.loads(text)
            if request.get("op") == "routed":
                return json.dumps({"q": request["q"], "err": {
                    "types": [raised, "Exception"], "cls": raised, "msg": answer}})
            return kernel(text)

        verdict = judge_cell(CELL, setup, {"mine"}, answering_an_error)
        assert not verdict.passed
        assert verdict.error == ("CheckFailed", "mine fails on a correct count_values, so it "
                                 "cannot be graded: " + routed.NO_OUTCOME), verdict.error
        assert "[0, 0" not in verdict.error[1] + verdict.printed
