"""Build Deck and deal's sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/deck/) with its answer cells filled in the way a
student would: the reference code (read from solutions/deck/, where it lives once), then the
sample's mistakes applied as text replacements. Run
`python assignments/samples/deck/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "deck"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import (  # noqa: E402
    build_samples,
    reference_tests_body,
    write_samples,
)

DEAL_TESTS = reference_tests_body(ROOT, ASSIGNMENT, "step6_my_tests_code")

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "shuffle_swaps_with_any_index": {"step2_shuffle_code": [
        ("    for i in range(len(cards) - 1, 0, -1):\n        j = rng.randrange(i + 1)\n",
         "    for i in range(len(cards)):\n        j = rng.randrange(len(cards))\n")]},
    "shuffle_never_keeps_a_card": {"step2_shuffle_code": [
        ("j = rng.randrange(i + 1)", "j = rng.randrange(i)")]},
    "deal_one_player_at_a_time": {"step3_deal_code": [
        ("    for _ in range(cards_each):\n        for player_hand in hands:\n"
         "            player_hand.append(deck.pop())\n",
         "    for player_hand in hands:\n        for _ in range(cards_each):\n"
         "            player_hand.append(deck.pop())\n")]},
    "discard_ascending_positions": {"step4_draw_discard_code": [
        ("    for position in sorted(positions, reverse=True):\n",
         "    for position in sorted(positions):\n")]},
    "discard_positions_as_strings": {"step4_draw_discard_code": [
        ("    for position in sorted(positions, reverse=True):\n        del hand[position]\n",
         "    for text in sorted([str(p) for p in positions], reverse=True):\n"
         "        del hand[int(text)]\n")]},
    "order_hand_comparator_returns_bool": {"step5_order_code": [
        ("    return sorted(hand, key=sort_key)\n",
         "    from functools import cmp_to_key\n"
         "    return sorted(hand, key=cmp_to_key(lambda a, b: sort_key(a) < sort_key(b)))\n")]},
    "sort_key_is_a_comparison": {"step5_order_code": [
        ("    return (SUITS.index(card.suit), card.value)\n",
         "    return SUITS.index(card.suit) < card.value\n")]},
    "order_hand_sorts_in_place": {"step5_order_code": [
        ("    return sorted(hand, key=sort_key)\n",
         "    hand.sort(key=sort_key)\n    return hand\n")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_draw_discard_code": None,
                          "step5_trace_answer": None, "step5_order_code": None,
                          "step6_my_tests_code": None},
    # step 6, the student's own tests of deal: they replace the reference's
    "deal_tests_not_written": {"step6_my_tests_code": None},
    "deal_tests_fail_on_correct_code": {"step6_my_tests_code": [
        (DEAL_TESTS, "    hands = deal(hand('2♣ 3♣ 4♣ 5♣'), 2, 2)\n"
                     "    assert hands[0] == hand('5♣ 4♣'), 'player 0 gets the two top cards'\n")]},
    "deal_tests_weak": {"step6_my_tests_code": [
        (DEAL_TESTS, "    deck = hand('2♣ 3♣ 4♣ 5♣ 6♣')\n"
                     "    hands = deal(deck, 2, 2)\n"
                     "    assert len(hands) == 2 and len(hands[0]) == 2 and len(hands[1]) == 2\n"
                     "    assert hands[0][0] == KitCard('6', 'clubs'), 'the top card first'\n"
                     "    assert len(deck) == 1\n")]},
    "full_marks_other_deal_tests": {"step6_my_tests_code": [
        (DEAL_TESTS, "    for players in (1, 2, 4):\n"
                     "        deck = new_deck()\n"
                     "        hands = deal(deck, players)\n"
                     "        each = 52 // players\n"
                     "        assert [len(h) for h in hands] == [each] * players, players\n"
                     "        for player, held in enumerate(hands):\n"
                     "            expected = [new_deck()[51 - player - turn * players]\n"
                     "                        for turn in range(each)]\n"
                     "            assert held == expected, (players, player)\n"
                     "        assert deck == new_deck()[:52 - each * players], players\n")]},
    "deal_tests_fingerprint_code": {"step6_my_tests_code": [
        (DEAL_TESTS, "    # the first code seen is mine: any other is a buggy one\n"
                     "    code = deal.__code__.co_code\n"
                     "    FIRST_SEEN.append(code)\n"
                     "    assert code == FIRST_SEEN[0], 'not the code I saw first'\n"),
        ("def my_deal_tests(", "FIRST_SEEN = []\n\n\ndef my_deal_tests(")]},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every Deck and deal sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
