"""Heads-up Hold'em: its classic mistakes, each written once (see plaisante.authoring.samples)."""

from plaisante.authoring.mistakes import REFERENCE_TESTS, Mistake, fingerprinting_tests, left_undone

MISTAKES = (
    Mistake(
        'ace_high',
        "category counts with card.value, the kit's ace-high value (14), instead of"
        ' the house value(card): A 2 3 4 5 is missed as a straight and 10 J Q K A'
        ' taken for one.',
        {
            'step1_category_code': [
                ('values = sorted(value(card) for card in five)',
                 'values = sorted(card.value for card in five)'),
            ],
        },
        fails={"step1_category", "step1_category_hidden"},
    ),
    Mistake(
        'straight_with_repeated_values',
        'category\'s straight rule drops "five different values" (only highest - lowest'
        ' = 4): 5♠ 5♦ 6♣ 7♥ 9♠, a pair, is called a straight.',
        {
            'step1_category_code': [
                ('    straight = len(set(values)) == 5 and values[-1] - values[0] == 4\n',
                 '    straight = values[-1] - values[0] == 4  # highest - lowest = 4\n'),
            ],
        },
        fails={"step1_category", "step1_category_hidden"},
    ),
    Mistake(
        'best_five_first_found',
        'best_five keeps the first of the 21 choices with the best category instead of'
        ' the one with the highest sum among them.',
        {
            'step2_best_five_code': [
                ('        key = (-CATEGORIES.index(name), sum(value(card) for card in five))\n'
                 '        if best_key is None or key > best_key:\n',
                 '        key = -CATEGORIES.index(name)\n'
                 '        if best_key is None or key > best_key:  # a better category\n'),
            ],
        },
        fails={"step2_best_five", "step2_best_five_hidden"},
    ),
    Mistake(
        'tie_by_high_card',
        'compare breaks a tie in the category by the highest card, as in the usual'
        " rules, instead of the house rule's sum of the five values.",
        {
            'step3_compare_code': [
                ('    key_a = (-CATEGORIES.index(name_a), sum(value(card) for card in'
                 ' five_a))\n'
                 '    key_b = (-CATEGORIES.index(name_b), sum(value(card) for card in'
                 ' five_b))\n',
                 '    key_a = (-CATEGORIES.index(name_a), max(value(card) for card in'
                 ' five_a))\n'
                 '    key_b = (-CATEGORIES.index(name_b), max(value(card) for card in'
                 ' five_b))\n'),
            ],
        },
        fails={"step3_compare", "step3_compare_hidden"},
    ),
    Mistake(
        'tie_by_all_seven',
        'compare breaks a tie in the category by the sum of all seven cards instead of'
        ' the best five: the two cards left out of the best five change the winner.',
        {
            'step3_compare_code': [
                ('    key_a = (-CATEGORIES.index(name_a), sum(value(card) for card in'
                 ' five_a))\n'
                 '    key_b = (-CATEGORIES.index(name_b), sum(value(card) for card in'
                 ' five_b))\n',
                 '    key_a = (-CATEGORIES.index(name_a), sum(value(card) for card in'
                 ' seven_a))\n'
                 '    key_b = (-CATEGORIES.index(name_b), sum(value(card) for card in'
                 ' seven_b))\n'),
            ],
        },
        fails={"step3_compare", "step3_compare_hidden"},
    ),
    Mistake(
        'raise_below_double',
        'legal_actions lets a raise go to the highest bet plus a minimum bet (the'
        ' usual no-limit rule) instead of to at least double the highest bet; apply follows it.',
        {
            'step4_betting_code': [
                ('            least = 2 * highest\n',
                 '            least = highest + state["min_bet"]  # raise by at least a bet\n'),
            ],
        },
        fails={"step4_apply", "step4_apply_hidden", "step4_legal_actions",
               "step4_legal_actions_hidden"},
    ),
    Mistake(
        'all_in_asked_to_act',
        'apply ends a round only when the bets are equal and both have acted: a player'
        ' who is all-in (or who faces an all-in call) is asked to act again.',
        {
            'step4_betting_code': [
                ('    if (stacks[other] == 0 or (bets[0] == bets[1] and all(new["acted"]))\n'
                 '            or (stacks[me] == 0 and bets[me] <= bets[other])):\n',
                 '    if bets[0] == bets[1] and all(new["acted"]):\n'),
            ],
        },
        fails={"step4_apply", "step4_apply_hidden"},
    ),
    Mistake(
        'odd_chip_lost',
        'settle splits a tied pot as pot // 2 each: the odd chip of an odd pot'
        ' vanishes instead of going to the non-dealer.',
        {
            'step5_settle_code': [
                ('        stacks[1 - state["dealer"]] += pot - 2 * half\n',
                 ''),
            ],
        },
        fails={"step5_settle", "step5_settle_hidden"},
    ),
    Mistake(
        'category_without_straight_flush',
        'category forgets the straight flush: it is named a flush.',
        {
            'step1_category_code': [
                ('    if straight and flush:\n        return STRAIGHT_FLUSH\n',
                 ''),
            ],
        },
        fails={"step1_category", "step1_category_hidden"},
        sample=False,
    ),
    Mistake(
        'split_to_the_dealer',
        'settle gives the odd chip of a split pot to the dealer instead of the other player.',
        {
            'step5_settle_code': [
                ('stacks[1 - state["dealer"]] += pot - 2 * half',
                 'stacks[state["dealer"]] += pot - 2 * half'),
            ],
        },
        fails={"step5_settle", "step5_settle_hidden"},
        sample=False,
    ),
    Mistake(
        'settle_changes_the_state',
        "settle adds the pot to state['stacks'] itself instead of a new list: the state"
        ' it was given changes.',
        {
            'step5_settle_code': [
                ('    stacks = list(state["stacks"])\n', '    stacks = state["stacks"]\n'),
            ],
        },
        fails={"step5_settle", "step5_settle_hidden"},
        sample=False,
    ),
)

OTHER_SAMPLES = (
    left_undone(4, 5, 6, what="Steps 1 to 3 done, steps 4 to 6 (trace answers and own tests "
                              "included) not started."),
    Mistake(
        'settle_tests_not_written',
        'No tests of settle written (my_settle_tests still raises NotImplementedError):'
        ' 0 for step 6.',
        {
            'step6_my_tests_code': None,
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'settle_tests_fail_on_correct_code',
        'my_settle_tests asserts that the odd chip of a split pot goes to the dealer:'
        ' it fails on a correct settle, so step 6 scores 0 and the feedback shows the'
        ' assertion.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    odd = make_state(showdown=0, dealer=0, stacks=[700, 599],\n'
                 '                     put_in=[300, 401])\n'
                 '    assert settle(odd) == ([1051, 949], False), "the odd chip to the dealer"\n'),
            ],
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'settle_tests_weak',
        'my_settle_tests checks one showdown won by player 0 and one fold: it catches'
        ' 2 of the 5 hidden buggy settles (the showdown read backwards, the pot to the'
        ' folder), 4 of 10.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    won = make_state(showdown=1, stacks=[700, 900], put_in=[300, 100])\n'
                 '    assert settle(won) == ([1100, 900], False)\n'
                 '    folded = make_state(folded=0, stacks=[990, 995], put_in=[10, 5])\n'
                 '    assert settle(folded)[0] == [990, 1010]\n'),
            ],
        },
        caught={"step6_my_tests": (2, 5)},
    ),
    Mistake(
        'settle_tests_decent',
        'my_settle_tests checks a fold, a showdown each way and an odd split with player 0'
        ' the dealer, but not the end of the match: it catches 4 of the 5 hidden buggy'
        ' settles, 8 of 10.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    folded = make_state(folded=0, stacks=[990, 995], put_in=[10, 5])\n'
                 '    assert settle(folded) == ([990, 1010], False)\n'
                 '    won = make_state(showdown=1, stacks=[700, 900], put_in=[300, 100])\n'
                 '    assert settle(won) == ([1100, 900], False)\n'
                 '    lost = make_state(showdown=-1, stacks=[700, 900], put_in=[300, 100])\n'
                 '    assert settle(lost) == ([700, 1300], False)\n'
                 '    odd = make_state(showdown=0, dealer=0, stacks=[700, 599],\n'
                 '                     put_in=[300, 401])\n'
                 '    assert settle(odd) == ([1050, 950], False), "the odd chip to player 1"\n'),
            ],
        },
        caught={"step6_my_tests": (4, 5)},
    ),
    Mistake(
        'full_marks_other_settle_tests',
        'my_settle_tests written another way (loops over both dealers, even and odd'
        ' pots, both folders, both showdowns, 9, 10 and 11 chips left): it catches all 5'
        ' hidden buggy settles.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    for dealer in (0, 1):\n'
                 '        for mine, theirs in ((300, 300), (300, 301)):\n'
                 '            state = make_state(showdown=0, dealer=dealer,\n'
                 '                               stacks=[1000 - mine, 1000 - theirs],\n'
                 '                               put_in=[mine, theirs])\n'
                 '            pot = mine + theirs\n'
                 '            want = [1000 - mine + pot // 2, 1000 - theirs + pot // 2]\n'
                 '            want[1 - dealer] += pot % 2\n'
                 '            assert settle(state) == (want, False), (dealer, pot)\n'
                 '    for who in (0, 1):\n'
                 '        stacks, over = settle(make_state(folded=who, stacks=[950, 950],\n'
                 '                                         put_in=[50, 50]))\n'
                 '        assert stacks[1 - who] == 1050 and stacks[who] == 950, who\n'
                 '    for result, winner in ((1, 0), (-1, 1)):\n'
                 '        state = make_state(showdown=result, stacks=[900, 900],\n'
                 '                           put_in=[100, 100])\n'
                 '        assert settle(state)[0][winner] == 1100, result\n'
                 '    for left, over in ((9, True), (10, False), (11, False)):\n'
                 '        state = make_state(showdown=1, stacks=[0, left],\n'
                 '                           put_in=[1000, 1000 - left])\n'
                 '        assert settle(state) == ([2000 - left, left], over), left\n'),
            ],
        },
        caught={"step6_my_tests": (5, 5)},
    ),
    fingerprinting_tests(
        'settle_tests_fingerprint',
        'Tests of settle that compare the code of the settle they are given with the first'
        ' one seen: at grading every run sees the same routed stand-in, so they catch'
        " nothing (plain nbgrader: the first code seen is the student's own, so they"
        ' fail on the correct one); 0 either way.',
        'step6_my_tests_code', 'my_settle_tests', 'settle', 'step6_my_tests', 5),
)
