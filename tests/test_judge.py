"""The judge on its own: test cells run here, the student's parts answer through the oracle's
wire format (a loopback stands in for the kernel), verdicts computed here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from loopback_judge import kernel_namespace, loopback, verdicts

from plaisante.grading.judge import KernelLost, judge_cell, names_read

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "solutions" / "plaisante" / "plaisante.ipynb"
RELEASE = ROOT / "starter" / "plaisante" / "plaisante.ipynb"


def test_reference_passes_every_test_cell(source, tests, setup, names) -> None:
    results = verdicts(tests, setup, names, kernel_namespace(source))
    failed = {k: v.error for k, v in results.items() if not v.passed}
    assert failed == {}
    assert len(results) == 24
    assert results["step2_count_values"].printed == (
        "count_values: the visible checks pass (hidden tests run when your work is graded).\n")
    # the students' own tests (the reference's) catch every hidden buggy version: full points
    assert results["step2_my_tests"].score == 4 and results["step3_my_tests"].score == 6


def test_untouched_release_fails_every_test_cell(tests, setup, names) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    results = verdicts(tests, setup, names, kernel_namespace(release))
    assert [k for k, v in results.items() if v.passed] == []
    assert results["step2_count_values"].error == (
        "NotImplementedError", "not written yet (it still raises NotImplementedError)")
    # visible tests fail first; the students' own tests are graded in hidden tests only
    assert {k for k, v in results.items() if v.in_hidden} == {"step2_my_tests",
                                                               "step3_my_tests"}
    assert results["step2_my_tests"].error == (
        "NotImplementedError", "my_count_values_tests is not written yet (it still raises "
        "NotImplementedError)")


def test_a_wrong_has_pair_fails_its_cell_only(source, tests, setup, names) -> None:
    cell = next(c for c in source.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "step3_has_checks")
    wrong = cell.source.replace("return 2 in count_values(cards)",
                                "return max(count_values(cards)) >= 2")
    results = verdicts(tests, setup, names,
                       kernel_namespace(source, step3_has_checks=wrong))
    assert [k for k, v in results.items() if not v.passed] == ["step3_has_pair"]
    assert results["step3_has_pair"].error[0] == "CheckFailed"
    assert results["step3_has_pair"].error[1] == (
        "has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True")
    assert not results["step3_has_pair"].in_hidden  # four kings: a visible case


def test_a_part_whose_cell_failed_is_said_without_the_kits_class_name(source, tests, setup,
                                                                      names) -> None:
    """count_values's cell stops at a SyntaxError, so the setup cell's stand-in answers: the
    verdict (what the feedback page shows) is its one line, as the notebook says it, never
    'PartNotDefined: …'."""
    broken = "def count_values(cards)\n    return [0] * 15\n"
    results = verdicts({"h": tests["step2_count_values"]}, setup, names,
                       kernel_namespace(source, step2_count_values_code=broken))
    assert results["h"].error == (
        "NotImplementedError", "count_values (step 2) is not defined yet: run the cell that "
        "defines it; if that cell shows an error, fix it first")


def test_input_mutated_by_count_values_is_seen(source, tests, setup, names) -> None:
    popping = ("def count_values(cards):\n    counts = [0] * 15\n    while cards:\n"
               "        counts[cards.pop().value] += 1\n    return counts\n")
    results = verdicts({"h": tests["step2_count_values"]}, setup, names,
                       kernel_namespace(source, step2_count_values_code=popping))
    assert not results["h"].passed
    assert results["h"].error[1] == (
        "count_values(2♣) changed the list it was given: it held [2♣], afterwards []")


def test_a_kernel_that_breaks_the_protocol_is_lost(tests, setup, names) -> None:
    verdict = judge_cell(tests["step2_count_values"], setup, names, lambda text: "garbage")
    assert verdict.lost and "not the judge's protocol" in verdict.lost
    verdict = judge_cell(tests["step2_count_values"], setup, names,
                         lambda text: json.dumps({"q": 999, "ok": 1}))
    assert verdict.lost and "does not match" in verdict.lost


def test_names_read_lists_loaded_names() -> None:
    assert names_read("x = f(y)\nlambda: z") == ["f", "y", "z"]
    assert names_read("_t = T()\ncheck(_t, lambda c=1, *, d: c + d + e)") == ["T", "check", "e"]
    with pytest.raises(SyntaxError):
        names_read("def (")
    assert issubclass(KernelLost, BaseException) and not issubclass(KernelLost, Exception)


def test_an_answer_of_colliding_hashes_is_refused_before_it_is_hashed(tests, setup, names) -> None:
    """60,000 ints that all hash alike would keep the grader busy for minutes (each insertion
    walks the others): over MAX_HASHED set members the answer is refused at once."""
    import time

    from plaisante.student_side.wire import MAX_HASHED

    colliding = [(2 ** 61 - 1) * k for k in range(1, 60_001)]

    def transport(text: str) -> str:
        request = json.loads(text)
        return json.dumps({"q": request["q"], "ok": {"d": [["trace_values", {"s": colliding}]]}})

    started = time.monotonic()
    verdict = judge_cell(tests["step1_trace"], setup, names, transport)
    assert time.monotonic() - started < 2
    assert verdict.lost and f"over {MAX_HASHED} set members" in verdict.lost


def test_kit_cards_and_random_generators_cross_by_value_and_keep_their_identity() -> None:
    """A kit card made in the kernel arrives as the grader's own KitCard (the kit's type, built
    here), the same object each time the kernel names it; a random.Random goes over in its
    state, so the kernel draws what the grader's generator would."""
    import random

    from plaisante.grading.judge import Session
    from plaisante.student_side.cards import KitCard

    namespace: dict[str, Any] = {}
    exec("import random\nfrom plaisante.student_side.cards import KitCard\n"
         "deck = [KitCard('A', 'spades'), KitCard('2', 'clubs')]\n"
         "def draw_two(deck):\n    return [deck.pop(), deck.pop()]\n"
         "def roll(rng):\n    return rng.randrange(1000)\n", namespace)
    session = Session(loopback(namespace))
    found = session.fetch(["deck", "draw_two", "roll"])
    deck = found["deck"]
    assert deck == [KitCard("A", "spades"), KitCard("2", "clubs")]
    assert all(type(card) is KitCard for card in deck)
    ace, two = deck
    drawn = found["draw_two"](deck)
    assert drawn[0] is two and drawn[1] is ace  # the same cards, not copies
    assert deck == []  # what the call left in its argument
    mine = random.Random(42)
    expected = random.Random(42).randrange(1000)
    assert found["roll"](mine) == expected


# ------------------------------------------------- every effect a check can read comes back

EFFECTS = '''
import random

def grow(state):
    state["bets"][1] += 10           # a list inside the dict it is given
    state["folded"] = 0              # a new key
    return state                     # the same dict, not a copy

def drop(members):
    members.discard(2)

def bump(rows):
    rows[0].append(9)                # rows[0] and rows[1] are one list

def clear_then_refuse(state):
    state.clear()
    raise ValueError("refused")

def roll(rng):
    return rng.randrange(1000)

def rename(card):
    card.rank = "Q"

def add_one(items):
    items.append(len(items))

class Keeper:                        # a model that keeps what it is given
    def __init__(self, items, rng):
        self.items, self.rng = items, rng
    def add(self, item):
        self.items.append(item)
    def shuffle(self):
        self.rng.shuffle(self.items)
    def count(self):
        return len(self.items)

class Named:
    def __init__(self):
        self.rank = "K"
'''


def effects_session() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    from plaisante.grading.judge import Session

    namespace: dict[str, Any] = {}
    exec(EFFECTS, namespace)  # noqa: S102  the test's own stand-in for a kernel
    session = Session(loopback(namespace))
    names = ["grow", "drop", "bump", "clear_then_refuse", "roll", "rename", "add_one",
             "Keeper", "Named"]
    return session, session.fetch(names), namespace


def test_every_change_a_part_makes_to_what_it_is_given_comes_back() -> None:
    """Dicts, sets, lists inside dicts and lists (one list under two names stays one), the
    same object returned, a change made before an error, a random.Random drawn from, a model
    that keeps a list and a generator and changes them in later calls: the grader's objects
    end as the kernel left them, as they would in the student's notebook."""
    import random

    session, part, _ = effects_session()
    state = {"bets": [5, 10], "to_act": 0}
    bets = state["bets"]
    returned = part["grow"](state)
    assert returned is state and state == {"bets": [5, 20], "to_act": 0, "folded": 0}
    assert state["bets"] is bets  # the nested list itself, not a new one
    members = {1, 2, 3}
    part["drop"](members)
    assert members == {1, 3}
    inner: list[int] = []
    rows = [inner, inner]
    part["bump"](rows)
    assert rows == [[9], [9]] and rows[0] is rows[1] is inner
    given = {"a": 1}
    with pytest.raises(ValueError, match="refused"):
        part["clear_then_refuse"](given)
    assert given == {}
    mine, twin = random.Random(42), random.Random(42)
    assert part["roll"](mine) == twin.randrange(1000)
    assert mine.random() == twin.random()  # the kernel's draws advanced the grader's generator
    items: list[int] = [0]
    rng, rng_twin = random.Random(7), random.Random(7)
    keeper = part["Keeper"](items, rng)
    keeper.add(1)
    keeper.add(2)
    assert items == [0, 1, 2]  # changed by calls that were not given it
    keeper.shuffle()
    expected = [0, 1, 2]
    rng_twin.shuffle(expected)
    assert items == expected and rng.getstate() == rng_twin.getstate()
    assert keeper.items is items  # read back as the grader's own list
    named = part["Named"]()
    part["rename"](named)
    assert named.rank == "Q"  # a handle's attributes are read in the kernel, as they are now


def test_a_batch_of_calls_on_one_list_sees_each_call_in_turn() -> None:
    from plaisante.student_side.checking import calls_of

    session, part, _ = effects_session()
    items: list[int] = []
    thunks = calls_of(part["add_one"], [(items,)] * 6)
    assert [thunk() for thunk in thunks] == [None] * 6
    assert items == [0, 1, 2, 3, 4, 5]


def test_shared_values_nothing_in_the_kernel_holds_are_forgotten() -> None:
    """The kernel watches only what a part kept: a list a call was given and let go of is
    dropped after the answer (the grader sends it whole again if it is given again)."""
    from plaisante.kernel import oracle
    from plaisante.student_side.wire import Budget

    registry = oracle.Registry()
    namespace: dict[str, Any] = {}
    exec(EFFECTS, namespace)  # noqa: S102
    function = registry.encode(namespace["add_one"])
    keeper_class = registry.encode(namespace["Keeper"])

    def ask(request: dict[str, Any]) -> dict[str, Any]:
        return json.loads(oracle.respond(json.dumps({"q": 1, **request}), registry, namespace))

    reply = ask({"op": "call", "f": {"r": function["o"]}, "a": [{"l": [7], "n": -1}], "kw": [],
                 "with": {}})
    assert reply["sync"] == [[-1, [7, 1]]] and registry.shared == {}
    ask({"op": "call", "f": {"r": keeper_class["o"]}, "kw": [], "with": {},
         "a": [{"l": [], "n": -2}, {"rng": list(oracle.Registry().contents(
             __import__("random").Random(1), Budget())["rng"]), "n": -3}]})
    assert set(registry.shared) == {-2, -3}  # the Keeper holds them


def test_a_sync_the_grader_cannot_take_loses_the_kernel() -> None:
    """A sync of a value the grader never gave, or of another kind than it gave, breaks the
    protocol: never believed."""
    from plaisante.grading.judge import Session

    def answering(sync: Any):
        def transport(text: str) -> str:
            request = json.loads(text)
            if request["op"] == "globals":
                return json.dumps({"q": request["q"], "ok": {"d": [["f", {"o": 1, "c": "f"}]]}})
            return json.dumps({"q": request["q"], "ok": None, "sync": sync})
        return transport

    for sync in ([[-99, []]], [[-1, {"d": []}]], [[-1, [1], 2]], {"-1": []},
                 [[-2, {"rng": [3, [1] * 700, None]}]]):
        session = Session(answering(sync))
        part = session.fetch(["f"])["f"]
        with pytest.raises(KernelLost):
            part([1, 2], __import__("random").Random(1))


def test_no_name_a_test_cell_binds_is_asked_of_the_kernel(setup, names) -> None:
    """A test cell's own functions, classes and constants (a hidden buggy version, its helper,
    a table) never reach the kernel: only the student's names are asked."""
    cell = ("def _hidden_helper(cards):\n    return _HIDDEN_TABLE[len(cards)]\n"
            "class _HiddenMachine:\n    pass\n"
            "_HIDDEN_TABLE = [0] * 15\n"
            "for _hidden_card in hand('K♥'):\n    _hidden_helper([_hidden_card])\n"
            "expect_value('count_values([])', [0] * 15, lambda: count_values([]))\n")
    sent: list[str] = []
    namespace = kernel_namespace(nbformat.read(SOURCE, as_version=4))
    transport = loopback(namespace)

    def recording(text: str) -> str:
        sent.append(text)
        return transport(text)

    assert judge_cell(cell, setup, names, recording).passed
    everything = "\n".join(sent)
    assert "_hidden" not in everything and "_HIDDEN" not in everything
    assert json.loads(sent[0])["names"] == ["count_values"]


def test_what_the_check_changes_in_a_value_a_part_keeps_reaches_the_kernel() -> None:
    """Both sides act on one object: a list the kernel's model keeps, changed by the check,
    is pushed with the next request; a value the kernel let go of is no longer watched."""
    session, part, _ = effects_session()
    items: list[int] = [0]
    keeper = part["Keeper"](items, __import__("random").Random(3))
    items.append(1)
    assert keeper.count() == 2
    items.clear()
    keeper.add(5)
    assert items == [5] and keeper.count() == 1
    temporary: list[int] = []
    part["add_one"](temporary)
    assert temporary == [0] and id(temporary) not in {
        id(session.codec.shared[ref]) for ref in session.codec.held}


#: a has_straight that reads the cards in the order given: every visible case is in order
IN_ORDER_STRAIGHT = (
    "    return len(values) == 5 and len(set(values)) == 5 and max(values) - min(values) == 4",
    "    return len(values) == 5 and all(b - a == 1 for a, b in zip(values, values[1:]))")


def test_a_failing_hidden_check_names_its_rule(source, tests, setup, names) -> None:
    cell = next(c for c in source.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "step3_has_checks")
    wrong = cell.source.replace(*IN_ORDER_STRAIGHT)
    assert wrong != cell.source
    results = verdicts({"step3_has_straight": tests["step3_has_straight"]}, setup, names,
                       kernel_namespace(source, step3_has_checks=wrong))
    verdict = results["step3_has_straight"]
    assert not verdict.passed and verdict.in_hidden
    assert verdict.error == ("CheckFailed", "has_straight(9♣ 5♦ 7♥ 6♠ 8♣): expected True, "
                             "got False")
    assert verdict.rule == "the cards of a straight may come in any order"


def test_rule_lines_cover_the_lines_below_them_up_to_the_next_or_the_end() -> None:
    from plaisante.grading.judge import rule_at, rule_lines

    source = ("check(a)\n### BEGIN HIDDEN TESTS\ndef helper():\n    return 1\n"
              "# Rule: one\nexpect(1,\n       2)\n#   Rule:   two  \nexpect(3)\n"
              "### END HIDDEN TESTS\nafter()\n### BEGIN HIDDEN TESTS\nexpect(4)\n"
              "### END HIDDEN TESTS")
    assert rule_lines(source) == {5: "one", 6: "one", 7: "one", 8: "two", 9: "two"}
    assert rule_at(source, 1) is None and rule_at(source, 3) is None  # visible; no rule yet
    assert rule_at(source, 7) == "one" and rule_at(source, None) is None
    assert rule_at(source, 13) is None  # a second region starts with no rule


def test_a_stand_in_answers_about_a_hand_of_cards_at_most() -> None:
    """A stand-in is a known-good part run in the grader, outside the kernel's limits: asked
    about the whole deck it answers with a refusal, not with minutes of the grader's time."""
    from plaisante.grading.judge import STAND_IN_TOO_MANY, Session
    from plaisante.kernel.routed import sent
    from plaisante.student_side.cards import shuffled_deck

    asked: list[int] = []
    session = Session(lambda text: "")
    index = session.stand_in_index(lambda cards: asked.append(len(cards)) or len(cards))
    deck = shuffled_deck(seed=1)
    hand = json.loads(session.answer_stand_in({"si": index, **sent([deck[:7]])}, {index}, True))
    whole = json.loads(session.answer_stand_in({"si": index, **sent([deck])}, {index}, True))
    assert (hand, whole, asked) == ({"ok": 7}, {"err": {"cls": "ValueError",
                                                         "msg": STAND_IN_TOO_MANY}}, [7])


def test_a_stand_in_that_raises_tells_the_kernel_its_class_and_never_its_text() -> None:
    """A known-good part's own error messages would teach its code to the student who calls
    it wrongly on purpose: the kernel hears only the builtin class."""
    from plaisante.grading.judge import STAND_IN_ERROR, Session
    from plaisante.kernel.routed import sent

    def known_good(cards: list[object]) -> int:
        if not cards:
            raise ValueError("an empty hand has no best card: secret detail of the code")
        return len(cards)

    session = Session(lambda text: "")
    index = session.stand_in_index(known_good)
    refused = json.loads(session.answer_stand_in({"si": index, **sent([[]])}, {index}, True))
    assert refused == {"err": {"cls": "ValueError",
                               "msg": STAND_IN_ERROR.format(kind="ValueError")}}
    assert "secret" not in json.dumps(refused)
