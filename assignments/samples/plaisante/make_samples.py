"""Build Plaisante's sample submissions from its starter notebook and the source's solution
(the filling: ``../sample_builder.py``). Run `python assignments/samples/plaisante/make_samples.py`
after changing the assignment; tests/test_course_units.py fails while the files are out of date.
Expected per-step scores are in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "plaisante"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import (  # noqa: E402
    build_samples,
    reference_tests_body,
    write_samples,
)

OWN_COUNT_TESTS = reference_tests_body(ROOT, ASSIGNMENT, "step2_my_tests_code")
OWN_HAS_TESTS = reference_tests_body(ROOT, ASSIGNMENT, "step3_my_tests_code")

# sample name → {solution cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "has_pair_at_least_two": {"step3_has_checks": [
        ("return 2 in count_values(cards)", "return any(n >= 2 for n in count_values(cards))")]},
    "flush_without_five_cards": {"step3_has_checks": [
        ("return len(cards) == 5 and len({card.suit for card in cards}) == 1",
         "return len({card.suit for card in cards}) == 1")]},
    "straight_ignores_duplicates": {"step3_has_checks": [
        ("len(values) == 5 and len(set(values)) == 5 and ", "len(values) == 5 and ")]},
    "straight_before_flush": {"step4_scoring": [
        ("    if has_flush(cards):\n        return FLUSH\n    if has_straight(cards):\n"
         "        return STRAIGHT\n",
         "    if has_straight(cards):\n        return STRAIGHT\n    if has_flush(cards):\n"
         "        return FLUSH\n")]},
    "three_of_a_kind_before_full_house": {"step4_scoring": [
        ("    if has_full_house(cards):\n        return FULL_HOUSE\n",
         "    if has_three_of_a_kind(cards):\n        return THREE_OF_A_KIND\n"
         "    if has_full_house(cards):\n        return FULL_HOUSE\n")]},
    "move_removes_while_iterating": {"step5_tableau": [
        ("        for card in self.selected:\n            self.held_cards.remove(card)\n"
         "            self.play_area.append(card)\n        self.selected = []\n",
         "        for card in self.selected:\n            self.selected.remove(card)\n"
         "            self.held_cards.remove(card)\n            self.play_area.append(card)\n")]},
    "syntax_error_in_count_values": {"step2_count_values_code": [
        ("    for card in cards:\n", "    for card in cards\n")]},
    # students' own tests (the *_my_tests cells): the tests replace the reference's
    "own_tests_not_written": {"step2_my_tests_code": None},
    "own_tests_fail_on_correct_code": {"step2_my_tests_code": [
        (OWN_COUNT_TESTS, "    counts = count_values(hand('K♥ K♦ 3♣'))\n"
                          "    assert counts[13] == 2, 'two kings'\n"
                          "    assert counts[3] == 0, 'no three here'\n")]},
    "own_tests_weak": {"step2_my_tests_code": [
        (OWN_COUNT_TESTS, "    assert len(count_values(hand('K♥ K♦ 3♣'))) == 15\n")]},
    "full_marks_other_own_tests": {"step2_my_tests_code": [
        (OWN_COUNT_TESTS, "    counts = count_values([Card('A', 'spades'), Card('A', 'hearts'),\n"
                          "                           Card('7', 'clubs')])\n"
                          "    assert counts == [0] * 7 + [1] + [0] * 6 + [2], counts\n"
                          "    assert count_values([Card('A', 'spades')])[14] == 1\n")]},
    "own_tests_fingerprint_code": {"step2_my_tests_code": [
        (OWN_COUNT_TESTS, "    # the first code seen is mine: any other is a buggy one\n"
                          "    code = count_values.__code__.co_code\n"
                          "    FIRST_SEEN.append(code)\n"
                          "    assert code == FIRST_SEEN[0], 'not the code I saw first'\n"),
        ("def my_count_values_tests(", "FIRST_SEEN = []\n\n\ndef my_count_values_tests(")]},
    "own_tests_probe_names": {"step2_my_tests_code": [
        (OWN_COUNT_TESTS,
         "    # who is it? A bad call's TypeError names the function: the reference is\n"
         "    # _counts (any other name is a hidden buggy version)\n"
         "    try:\n"
         "        count_values([], not_a_parameter=1)\n"
         "    except TypeError as error:\n"
         "        assert str(error).startswith(('_counts(', 'count_values(')), "
         "str(error)[:60]\n")]},
    "own_has_tests_weak": {"step3_my_tests_code": [
        (OWN_HAS_TESTS, "    assert has_pair(hand('K♥ K♦ 3♣ 7♠ 9♥'))\n"
                        "    assert not has_pair(hand('K♥ Q♦ 3♣ 7♠ 9♥'))\n"
                        "    assert has_full_house(hand('K♥ K♦ K♣ 3♠ 3♥'))\n"
                        "    assert not has_two_pair(hand('K♥ K♦ K♣ 3♠ 3♥'))\n")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_scoring": None,
                          "step5_trace_answer": None, "step5_tableau": None},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Plaisante sample (the optional section is
    left as the starter has it)."""
    return build_samples(root, ASSIGNMENT, MISTAKES, skip=("going_further",))


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
