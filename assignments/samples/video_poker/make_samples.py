"""Build the video-poker sample submissions from its starter notebook and the source's solution.

Each sample is the student version (starter/video_poker/) with its answer cells filled in the
way a student would: the reference code (read from solutions/video_poker/, where it lives once),
then the sample's mistakes applied as text replacements. Run
`python assignments/samples/video_poker/make_samples.py` after changing the assignment;
tests/test_course_units.py fails while the files are out of date. Expected per-step scores are
in manifest.json, beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
ASSIGNMENT = "video_poker"
sys.path.insert(0, str(HERE.parent))  # the samples folder: the shared sample builder
from sample_builder import (  # noqa: E402
    build_samples,
    reference_tests_body,
    write_samples,
)

PORT_TESTS = reference_tests_body(ROOT, ASSIGNMENT, "step5_my_tests_code")

# sample name → {answer cell grade_id: [(text in the reference code, what the student wrote)]}
# None instead of a list leaves that cell as the starter has it (the student did not do it).
MISTAKES: dict[str, dict[str, list[tuple[str, str]] | None]] = {
    "full_marks": {},
    "frequencies_ace_in_slot_1": {"step1_frequencies_code": [
        ("counts[card.value] += 1", "counts[1 if card.rank == 'A' else card.value] += 1")]},
    "ace_only_high": {"step2_hand_name_code": [
        (" or values == [2, 3, 4, 5, 14]", "")]},
    "royal_flush_named_straight_flush": {"step2_hand_name_code": [
        ("return ROYAL_FLUSH if values[0] == 10 else STRAIGHT_FLUSH", "return STRAIGHT_FLUSH")]},
    "payout_adds_the_bet": {"step3_payout_code": [
        ("return PAYS[hand_name(cards)] * bet", "return PAYS[hand_name(cards)] * bet + bet")]},
    "bet_beyond_credits": {"step4_machine_code": [
        ("        if bet > self.credits:\n            raise ValueError(f\"a bet of {bet} needs "
         "{bet} credits; you have {self.credits}\")\n", "")]},
    "held_cards_moved": {"step4_machine_code": [
        ("        for position in range(HAND_SIZE):\n            if not self.held[position]:\n"
         "                self.cards[position] = self.deck.pop()\n",
         "        kept = [card for card, keep in zip(self.cards, self.held) if keep]\n"
         "        self.cards = kept + [self.deck.pop() for _ in range(HAND_SIZE - len(kept))]\n")]},
    "refill_only_at_zero": {"step4_machine_code": [
        ("if self.credits < MIN_BET:", "if self.credits == 0:")]},
    "steps_1_to_3_only": {"step4_trace_answer": None, "step4_machine_code": None,
                          "step5_my_tests_code": None},
    # step 5, the student's tests of the port: they replace the reference's
    "port_tests_not_written": {"step5_my_tests_code": None},
    "port_tests_fail_on_correct_code": {"step5_my_tests_code": [
        (PORT_TESTS, "    machine = Machine(credits=12)\n"
                     "    for press in range(3):\n"
                     "        machine.place_bet()\n"
                     "    assert machine.bet == 15, 'Bet pressed three times bets 15'\n")]},
    "port_tests_weak": {"step5_my_tests_code": [
        (PORT_TESTS, "    assert hand_name(hand('9♣ 9♦ 9♥ 9♠ K♣')) == FOUR_OF_A_KIND\n"
                     "    assert hand_name(hand('K♥ K♦ 3♣ 7♠ 9♥')) == PAIR\n"
                     "    assert Machine(credits=2).credits == 100\n"
                     "    machine = Machine()\n"
                     "    machine.place_bet()\n"
                     "    machine.deal()\n"
                     "    assert machine.credits == 95\n")]},
    "full_marks_other_port_tests": {"step5_my_tests_code": [
        (PORT_TESTS, "    names = [hand_name(hand(text)) for text in ('A♠ A♥ A♦ A♣ 2♠', "
                     "'2♣ 5♦ 8♥ J♠ K♣')]\n"
                     "    assert names == [FOUR_OF_A_KIND, NOTHING], names\n"
                     "    for credits in (1, 4):\n"
                     "        assert Machine(credits=credits).credits == 100, credits\n"
                     "    poor = Machine(credits=10)\n"
                     "    poor.place_bet()\n"
                     "    poor.place_bet()\n"
                     "    assert refused(poor.place_bet), 'a bet of 15 with 10 credits'\n"
                     "    game = Machine()\n"
                     "    game.place_bet()\n"
                     "    game.deal()\n"
                     "    for wrong in (-1, 5):\n"
                     "        try:\n"
                     "            game.toggle_hold(wrong)\n"
                     "        except ValueError:\n"
                     "            pass\n"
                     "        else:\n"
                     "            assert False, f'position {wrong} was held'\n"
                     "    assert refused(game.place_bet) and game.bet == 5\n")]},
    "port_tests_probe_names": {"step5_my_tests_code": [
        (PORT_TESTS,
         "    # who is it? Errors name the class and the function: the reference's are\n"
         "    # _Machine and _right_name (any other is a hidden buggy version)\n"
         "    try:\n"
         "        Machine().no_such_attribute\n"
         "    except AttributeError as error:\n"
         "        assert str(error).startswith((\"'_Machine'\", \"'Machine'\")), "
         "str(error)[:60]\n"
         "    try:\n"
         "        hand_name([], bogus=1)\n"
         "    except TypeError as error:\n"
         "        assert str(error).startswith(('_right_name(', 'hand_name(')), "
         "str(error)[:60]\n")]},
    "port_tests_fingerprint_code": {"step5_my_tests_code": [
        (PORT_TESTS, "    # the first code seen is mine: any other is a buggy one\n"
                     "    code = hand_name.__code__.co_code\n"
                     "    FIRST_SEEN.append(code)\n"
                     "    assert code == FIRST_SEEN[0], 'not the code I saw first'\n"),
        ("def my_port_tests(", "FIRST_SEEN = []\n\n\ndef my_port_tests(")]},
}


def build(root: Path = ROOT) -> dict[str, nbformat.NotebookNode]:
    """Return {sample name: notebook} for every video-poker sample."""
    return build_samples(root, ASSIGNMENT, MISTAKES)


if __name__ == "__main__":
    write_samples(HERE, build())
    sys.exit(0)
