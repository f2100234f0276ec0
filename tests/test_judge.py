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

    from plaisante.grading.judge import MAX_HASHED

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

    from plaisante.cards import KitCard
    from plaisante.grading.judge import Session

    namespace: dict[str, Any] = {}
    exec("import random\nfrom plaisante.cards import KitCard\n"
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
