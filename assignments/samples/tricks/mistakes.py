"""Tricks: follow suit: its classic mistakes, each written once (see
plaisante.authoring.samples)."""

from plaisante.authoring.mistakes import (
    REFERENCE_TESTS,
    Mistake,
    fingerprinting_tests,
    left_undone,
    replace,
)

MISTAKES = (
    Mistake(
        'ten_between_jack_and_nine',
        'trick_strength orders the ranks by face value, 7 8 9 10 J Q K A: the 10 sits'
        ' between the 9 and the jack instead of just below the ace.',
        {
            'step1_trick_strength_code': [
                ("order = ['7', '8', '9', 'J', 'Q', 'K', '10', 'A']",
                 "order = ['7', '8', '9', '10', 'J', 'Q', 'K', 'A']"),
            ],
        },
        fails={"step1_trick_strength", "step1_trick_strength_hidden"},
    ),
    Mistake(
        'sort_by_face_value',
        "sort_hand sorts inside a suit by card.value (the kit's 2…14, ace high)"
        ' instead of trick_strength: the 10 lands between the 9 and the jack.',
        {
            'step2_sort_hand_code': [
                ('(SUITS.index(card.suit), trick_strength(card))',
                 '(SUITS.index(card.suit), card.value)'),
            ],
        },
        fails={"step2_sort_hand", "step2_sort_hand_hidden"},
    ),
    Mistake(
        'must_follow_a_suit_it_does_not_hold',
        'legal_plays returns only the cards of the led suit, even when the hand has'
        ' none: a player without the led suit is left with nothing to play.',
        {
            'step3_legal_plays_code': [
                ('    following = [card for card in hand if card.suit == led_suit]\n'
                 '    if following:\n        return following\n    return list(hand)\n',
                 '    if led_suit is None:\n        return list(hand)\n'
                 '    return [card for card in hand if card.suit == led_suit]\n'),
            ],
        },
        fails={"step3_legal_plays", "step3_legal_plays_hidden"},
    ),
    Mistake(
        'another_suit_can_win',
        'trick_winner takes the strongest card of the whole trick, whatever its suit:'
        ' an ace played off-suit wins.',
        {
            'step4_trick_winner_code': [
                ('    following = [(player, card) for player, card in trick if'
                 ' card.suit == led_suit]\n'
                 '    player, card = max(following, key=lambda pair: trick_strength(pair[1]))\n',
                 '    player, card = max(trick, key=lambda pair: trick_strength(pair[1]))\n'),
            ],
        },
        fails={"step4_trick_winner", "step4_trick_winner_hidden"},
    ),
    Mistake(
        'led_suit_from_the_card_before',
        'play_card takes the suit to follow from the card just played instead of the'
        " leader's: after an off-suit discard, the next player is held to the wrong suit.",
        {
            'step5_trick_code': [
                ('led_suit = self.trick[0][1].suit if self.trick else None',
                 'led_suit = self.trick[-1][1].suit if self.trick else None  # the'
                 ' card to follow'),
            ],
        },
        fails={"step5_trick", "step5_trick_hidden"},
    ),
    Mistake(
        'winner_does_not_lead_next',
        'play_card goes on round the table after a complete trick, (player + 1) % 4,'
        " instead of giving the lead to the trick's winner.",
        {
            'step5_trick_code': [
                ('        self.trick = []\n        self.turn = winner\n',
                 '        self.trick = []\n        self.turn = (player + 1) % len(self.hands)\n'),
            ],
        },
        fails={"step5_trick", "step5_trick_hidden"},
    ),
    Mistake(
        'strength_is_the_face_value',
        "trick_strength returns the card's face value: the ten ranks below the jack.",
        {
            'step1_trick_strength_code': [
                ('return order.index(card.rank)',
                 'return card.value'),
            ],
        },
        fails={"step1_trick_strength", "step1_trick_strength_hidden"},
        sample=False,
    ),
    Mistake(
        'sort_strongest_first',
        "sort_hand puts each suit's strongest card first instead of last.",
        {
            'step2_sort_hand_code': [
                ('trick_strength(card)))',
                 'trick_strength(card)), reverse=True)'),
            ],
        },
        fails={"step2_sort_hand", "step2_sort_hand_hidden"},
        sample=False,
    ),
    Mistake(
        'sort_in_place',
        "sort_hand sorts the player's hand in place instead of returning a new list.",
        {
            'step2_sort_hand_code': [
                ('return sorted(hand, key=',
                 'hand.sort(key='),
            ],
        },
        fails={"step2_sort_hand", "step2_sort_hand_hidden"},
        sample=False,
    ),
    Mistake(
        'refused_card_still_leaves_the_hand',
        'Trick.play_card removes the card from the hand before checking it may be'
        ' played: a refused card is lost.',
        {
            'step5_trick_code': [
                ('        if card not in legal_plays(held, led_suit):\n'
                 '            raise ValueError(f"player {player} must follow suit:'
                 ' play a card of {led_suit}")\n        held.remove(card)\n',
                 '        held.remove(card)\n'
                 '        if card not in legal_plays(held + [card], led_suit):\n'
                 '            raise ValueError(f"player {player} must follow suit:'
                 ' play a card of {led_suit}")\n'),
            ],
        },
        fails={"step5_trick", "step5_trick_hidden"},
        sample=False,
    ),
    Mistake(
        'strength_error_without_the_ranks',
        'trick_strength never checks the rank: for a 6, order.index still raises a'
        " ValueError, but its message ('6' is not in list) does not say which ranks"
        ' are allowed.',
        {
            'step1_trick_strength_code': [
                ('    if card.rank not in order:\n        raise ValueError(f"no {card.rank} in'
                 " the 32-card deck; allowed ranks: {' '.join(order)}\")\n", ''),
            ],
        },
        fails={"step1_trick_strength", "step1_trick_strength_hidden"},
    ),
    Mistake(
        'legal_plays_gives_the_hand_itself',
        'legal_plays returns the hand itself, not a new list, when every card may be'
        ' played: whoever changes that list changes the player\'s hand.',
        replace('step3_legal_plays_code', '    return list(hand)\n', '    return hand\n'),
        fails={"step3_legal_plays", "step3_legal_plays_hidden"},
        sample=False,
    ),
    Mistake(
        'tricks_won_set_to_one',
        'play_card sets the winner\'s count to 1 instead of adding one: a player who'
        ' wins two tricks is shown one.',
        replace('step5_trick_code', 'self.won[winner] += 1', 'self.won[winner] = 1'),
        fails={"step5_trick", "step5_trick_hidden"},
        sample=False,
    ),
    Mistake(
        'hand_read_before_the_turn_check',
        'play_card reads self.hands[player] before checking the turn: a player number'
        ' not at the table (4) crashes with IndexError instead of being refused.',
        replace('step5_trick_code', '        if player != self.turn:\n', '        held ='
                ' self.hands[player]\n        if player != self.turn:\n'),
        fails={"step5_trick_hidden"},
        sample=False,
    ),
    Mistake(
        'legal_plays_weakest_first',
        'legal_plays returns the cards of the led suit weakest first, as sort_hand orders'
        " a hand, instead of in the hand's order.",
        replace('step3_legal_plays_code', '        return following\n',
                '        return sorted(following, key=trick_strength)\n'),
        fails={"step3_legal_plays_hidden"},
        sample=False,
    ),
    Mistake(
        'trick_winner_skips_the_last_card',
        "trick_winner's loop stops one card short: the last card played never wins,"
        ' even the ace of the led suit.',
        replace('step4_trick_winner_code',
                '    following = [(player, card) for player, card in trick if card.suit =='
                ' led_suit]\n'
                '    player, card = max(following, key=lambda pair: trick_strength(pair[1]))\n'
                '    return player\n',
                '    best = trick[0]\n'
                '    for i in range(1, len(trick) - 1):\n'
                '        player, card = trick[i]\n'
                '        if card.suit == led_suit and trick_strength(card) >'
                ' trick_strength(best[1]):\n'
                '            best = (player, card)\n'
                '    return best[0]\n'),
        fails={"step4_trick_winner_hidden"},
        sample=False,
    ),
)

OTHER_SAMPLES = (
    left_undone(4, 5, 6, what="Steps 1 to 3 done, steps 4 to 6 (trace answers and own tests "
                              "included) not started."),
    Mistake(
        'trick_winner_tests_not_written',
        'No tests of trick_winner written (my_trick_winner_tests still raises'
        ' NotImplementedError): 0 for step 6.',
        {
            'step6_my_tests_code': None,
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'trick_winner_tests_fail_on_correct_code',
        'my_trick_winner_tests asserts that the king beats the 10 (the usual order):'
        ' it fails on a correct trick_winner, so step 6 scores 0 and the feedback shows'
        ' the assertion.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    assert trick_winner(trick_of("10♥ K♥", 0)) == 1, "the king beats the'
                 ' 10"\n'),
            ],
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'trick_winner_tests_weak',
        'my_trick_winner_tests tries one trick, led by player 0, where an off-suit ace'
        ' must lose: it catches 1 of the 5 hidden buggy versions (another suit winning).',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    assert trick_winner(trick_of("9♥ K♥ A♠ 7♥", 0)) == 1, "an ace of another'
                 ' suit never wins"\n'),
            ],
        },
        caught={"step6_my_tests": (1, 5)},
    ),
    Mistake(
        'trick_winner_tests_decent',
        'my_trick_winner_tests adds a trick where the 10 beats the king, but every trick'
        ' is led by player 0 and the winner never plays last: it catches 3 of the 5'
        ' hidden buggy versions (not the place for the player, nor the last card'
        ' skipped).',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    assert trick_winner(trick_of("9♥ K♥ A♠ 7♥", 0)) == 1, "an ace of another'
                 ' suit never wins"\n'
                 '    assert trick_winner(trick_of("K♣ 10♣ J♣ A♦", 0)) == 1, "the 10 beats the'
                 ' king"\n'),
            ],
        },
        caught={"step6_my_tests": (3, 5)},
    ),
    Mistake(
        'full_marks_other_trick_winner_tests',
        'my_trick_winner_tests written another way: two tricks led by each of the four'
        ' players in turn (the ace played last, the 10 against the jack with a club'
        ' discarded): it catches all 5 hidden buggy versions.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    for leader in range(4):\n'
                 '        trick = trick_of("K♠ 10♠ 7♠ A♠", leader)\n'
                 '        assert trick_winner(trick) == (leader + 3) % 4, "the ace, played last,'
                 ' wins"\n'
                 '        trick = trick_of("J♦ 10♦ A♣", leader)\n'
                 '        assert trick_winner(trick) == (leader + 1) % 4, "the 10 beats the'
                 ' jack; a club cannot win"\n'),
            ],
        },
        caught={"step6_my_tests": (5, 5)},
    ),
    fingerprinting_tests(
        'trick_winner_tests_fingerprint_code',
        'Tests of trick_winner that compare the code of the trick_winner they are given'
        ' with the first one seen: at grading every run sees the same routed stand-in, so'
        " they catch nothing (plain nbgrader: the first code seen is the student's own,"
        ' so they fail on the correct one); 0 either way.',
        'step6_my_tests_code', 'my_trick_winner_tests', 'trick_winner', 'step6_my_tests', 5),
)
