"""Plaisante: its classic mistakes, each written once (see plaisante.authoring.samples)."""

from plaisante.authoring.mistakes import REFERENCE_TESTS, Mistake, fingerprinting_tests, left_undone

#: the optional section: every sample leaves it as the starter has it
KEEP_STARTER = ("going_further",)

MISTAKES = (
    Mistake(
        'has_pair_at_least_two',
        "has_pair counts 'at least 2' (>= 2): true for three and four of a kind.",
        {
            'step3_has_checks': [
                ('return 2 in count_values(cards)',
                 'return any(n >= 2 for n in count_values(cards))'),
            ],
        },
        fails={"step3_has_pair"},
    ),
    Mistake(
        'flush_without_five_cards',
        'has_flush forgets the five-card check: three hearts pass.',
        {
            'step3_has_checks': [
                ('return len(cards) == 5 and len({card.suit for card in cards}) == 1',
                 'return len({card.suit for card in cards}) == 1'),
            ],
        },
        fails={"step3_has_flush"},
    ),
    Mistake(
        'straight_ignores_duplicates',
        'has_straight only checks highest - lowest = 4: 5 5 7 8 9 passes.',
        {
            'step3_has_checks': [
                ('len(values) == 5 and len(set(values)) == 5 and ',
                 'len(values) == 5 and '),
            ],
        },
        fails={"step3_has_straight"},
    ),
    Mistake(
        'straight_before_flush',
        'evaluate tests Straight before Flush: a straight flush is named Straight.',
        {
            'step4_scoring': [
                ('    if has_flush(cards):\n        return FLUSH\n    if has_straight(cards):\n'
                 '        return STRAIGHT\n',
                 '    if has_straight(cards):\n        return STRAIGHT\n'
                 '    if has_flush(cards):\n        return FLUSH\n'),
            ],
        },
        fails={"step4_evaluate"},
    ),
    Mistake(
        'three_of_a_kind_before_full_house',
        'evaluate tests Three of a Kind before Full House.',
        {
            'step4_scoring': [
                ('    if has_full_house(cards):\n        return FULL_HOUSE\n',
                 '    if has_three_of_a_kind(cards):\n        return THREE_OF_A_KIND\n'
                 '    if has_full_house(cards):\n        return FULL_HOUSE\n'),
            ],
        },
        fails={"step4_evaluate"},
    ),
    Mistake(
        'move_removes_while_iterating',
        'move_selected_to_play_area removes from the list it loops over.',
        {
            'step5_tableau': [
                ('        for card in self.selected:\n'
                 '            self.held_cards.remove(card)\n'
                 '            self.play_area.append(card)\n        self.selected = []\n',
                 '        for card in self.selected:\n            self.selected.remove(card)\n'
                 '            self.held_cards.remove(card)\n'
                 '            self.play_area.append(card)\n'),
            ],
        },
        fails={"step5_move_selected"},
    ),
    Mistake(
        'syntax_error_in_count_values',
        'A missing colon: the count_values cell does not run. Later steps still earn'
        ' their points.',
        {
            'step2_count_values_code': [
                ('    for card in cards:\n',
                 '    for card in cards\n'),
            ],
        },
        fails={"step2_count_values"},
        error="NotImplementedError",
    ),
)

OTHER_SAMPLES = (
    Mistake(
        'own_tests_not_written',
        'No tests of their own written (my_count_values_tests still raises'
        ' NotImplementedError): 0 for that cell.',
        {
            'step2_my_tests_code': None,
        },
        fails={"step2_my_tests"},
    ),
    Mistake(
        'own_tests_fail_on_correct_code',
        'Own tests that fail on a correct count_values (they expect slot 3 to be 0 for'
        ' K♥ K♦ 3♣): 0 for that cell, the failing assertion shown.',
        {
            'step2_my_tests_code': [
                (REFERENCE_TESTS,
                 "    counts = count_values(hand('K♥ K♦ 3♣'))\n"
                 "    assert counts[13] == 2, 'two kings'\n"
                 "    assert counts[3] == 0, 'no three here'\n"),
            ],
        },
        fails={"step2_my_tests"},
    ),
    Mistake(
        'own_tests_weak',
        'Own tests that only check the length: they catch 1 of the 4 hidden buggy'
        ' versions (14 slots).',
        {
            'step2_my_tests_code': [
                (REFERENCE_TESTS,
                 "    assert len(count_values(hand('K♥ K♦ 3♣'))) == 15\n"),
            ],
        },
        caught={"step2_my_tests": (1, 4)},
    ),
    Mistake(
        'full_marks_other_own_tests',
        'Other own tests, short but strong: they catch every hidden buggy version.',
        {
            'step2_my_tests_code': [
                (REFERENCE_TESTS,
                 "    counts = count_values([Card('A', 'spades'), Card('A', 'hearts'),\n"
                 "                           Card('7', 'clubs')])\n"
                 '    assert counts == [0] * 7 + [1] + [0] * 6 + [2], counts\n'
                 "    assert count_values([Card('A', 'spades')])[14] == 1\n"),
            ],
        },
        caught={"step2_my_tests": (4, 4)},
    ),
    fingerprinting_tests(
        'own_tests_fingerprint_code',
        'Own tests that compare the code of what they are given with the first one'
        ' seen: at grading every run sees the same routed stand-in, so they catch nothing.',
        'step2_my_tests_code', 'my_count_values_tests', 'count_values', 'step2_my_tests', 4),
    Mistake(
        'own_tests_probe_names',
        'Own tests that test no behaviour but ask the implementation its name (a bad'
        " keyword's TypeError names the function; the reference's is _counts): every"
        ' version is named count_values and a bad call is answered with the same text'
        ' in every run, so they catch nothing.',
        {
            'step2_my_tests_code': [
                (REFERENCE_TESTS,
                 "    # who is it? A bad call's TypeError names the function: the"
                 ' reference is\n    # _counts (any other name is a hidden buggy version)\n'
                 '    try:\n        count_values([], not_a_parameter=1)\n'
                 '    except TypeError as error:\n'
                 "        assert str(error).startswith(('_counts(', 'count_values(')),"
                 ' str(error)[:60]\n'),
            ],
        },
        caught={"step2_my_tests": (0, 4)},
        attacks_grader='its tests ask the versions they are given their names instead'
                       ' of testing what they do',
    ),
    Mistake(
        'own_has_tests_weak',
        'Own tests of the has-checks that try a pair, no pair, a full house and two'
        ' pair only once each: they catch 1 of the 6 hidden buggy versions.',
        {
            'step3_my_tests_code': [
                (REFERENCE_TESTS,
                 "    assert has_pair(hand('K♥ K♦ 3♣ 7♠ 9♥'))\n"
                 "    assert not has_pair(hand('K♥ Q♦ 3♣ 7♠ 9♥'))\n"
                 "    assert has_full_house(hand('K♥ K♦ K♣ 3♠ 3♥'))\n"
                 "    assert not has_two_pair(hand('K♥ K♦ K♣ 3♠ 3♥'))\n"),
            ],
        },
        caught={"step3_my_tests": (1, 6)},
    ),
    left_undone(4, 5, what="Steps 1-3 done, steps 4 and 5 not started."),
)
