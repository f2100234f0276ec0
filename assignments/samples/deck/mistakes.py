"""Deck and deal: its classic mistakes, each written once (see plaisante.authoring.samples)."""

from plaisante.authoring.mistakes import REFERENCE_TESTS, Mistake, fingerprinting_tests, left_undone

MISTAKES = (
    Mistake(
        'new_deck_same_list_every_call',
        'new_deck builds the deck once, outside the function, and returns that same list'
        ' at every call: the next game gets the cards the last one left.',
        {
            'step1_new_deck_code': [
                ('def new_deck():\n',
                 'DECK = [KitCard(rank, suit) for suit in SUITS for rank in RANKS]\n\n\n'
                 'def new_deck():\n'),
                ('    return [KitCard(rank, suit) for suit in SUITS for rank in RANKS]\n',
                 '    return DECK\n'),
            ],
        },
        fails={"step1_new_deck"},
    ),
    Mistake(
        'shuffle_stops_before_position_1',
        'shuffle loops range(len(cards) - 1, 1, -1): the first two cards are never swapped'
        ' with each other, so half the orders of a 2-card list never come up.',
        {
            'step2_shuffle_code': [
                ('range(len(cards) - 1, 0, -1)', 'range(len(cards) - 1, 1, -1)'),
            ],
        },
        fails={"step2_shuffle", "step2_shuffle_hidden"},
    ),
    Mistake(
        'shuffle_swaps_with_any_index',
        'shuffle swaps each position with ANY position (rng.randrange(len(cards))):'
        ' the naive shuffle, biased; the visible test compares the order with'
        " Fisher–Yates's for a seed.",
        {
            'step2_shuffle_code': [
                ('    for i in range(len(cards) - 1, 0, -1):\n'
                 '        j = rng.randrange(i + 1)\n',
                 '    for i in range(len(cards)):\n        j = rng.randrange(len(cards))\n'),
            ],
        },
        fails={"step2_shuffle", "step2_shuffle_hidden"},
    ),
    Mistake(
        'shuffle_never_keeps_a_card',
        "shuffle draws j = rng.randrange(i): no card can ever stay in place (Sattolo's"
        ' cycles, not every order).',
        {
            'step2_shuffle_code': [
                ('j = rng.randrange(i + 1)',
                 'j = rng.randrange(i)'),
            ],
        },
        fails={"step2_shuffle", "step2_shuffle_hidden"},
    ),
    Mistake(
        'deal_one_player_at_a_time',
        'deal gives player 0 all their cards, then player 1, …, instead of one card at'
        ' a time round the table.',
        {
            'step3_deal_code': [
                ('    for _ in range(cards_each):\n        for player_hand in hands:\n'
                 '            player_hand.append(deck.pop())\n',
                 '    for player_hand in hands:\n        for _ in range(cards_each):\n'
                 '            player_hand.append(deck.pop())\n'),
            ],
        },
        fails={"step3_deal", "step3_deal_hidden"},
    ),
    Mistake(
        'discard_ascending_positions',
        'discard deletes positions in ascending order without accounting for the'
        ' shift: the wrong cards leave the hand.',
        {
            'step4_draw_discard_code': [
                ('    for position in sorted(positions, reverse=True):\n',
                 '    for position in sorted(positions):\n'),
            ],
        },
        fails={"step4_discard", "step4_discard_hidden"},
    ),
    Mistake(
        'discard_positions_as_strings',
        "discard sorts the positions as strings before deleting from the highest: '2'"
        " > '10', so two-digit positions shift.",
        {
            'step4_draw_discard_code': [
                ('    for position in sorted(positions, reverse=True):\n'
                 '        del hand[position]\n',
                 '    for text in sorted([str(p) for p in positions], reverse=True):\n'
                 '        del hand[int(text)]\n'),
            ],
        },
        fails={"step4_discard", "step4_discard_hidden"},
    ),
    Mistake(
        'order_hand_comparator_returns_bool',
        'order_hand sorts with a Java-style comparator that answers a bool'
        ' (cmp_to_key(lambda a, b: key(a) < key(b))): nothing moves.',
        {
            'step5_order_code': [
                ('    return sorted(hand, key=sort_key)\n',
                 '    from functools import cmp_to_key\n'
                 '    return sorted(hand, key=cmp_to_key(lambda a, b: sort_key(a) <'
                 ' sort_key(b)))\n'),
            ],
        },
        fails={"step5_order_hand", "step5_order_hand_hidden"},
    ),
    Mistake(
        'sort_key_is_a_comparison',
        'sort_key returns a bool (a comparison) instead of a key: two values cannot'
        ' order 52 cards.',
        {
            'step5_order_code': [
                ('    return (SUITS.index(card.suit), card.value)\n',
                 '    return SUITS.index(card.suit) < card.value\n'),
            ],
        },
        fails={"step5_sort_key", "step5_sort_key_hidden"},
    ),
    Mistake(
        'order_hand_sorts_in_place',
        "order_hand sorts the player's hand in place and returns it, instead of a new list.",
        {
            'step5_order_code': [
                ('    return sorted(hand, key=sort_key)\n',
                 '    hand.sort(key=sort_key)\n    return hand\n'),
            ],
        },
        fails={"step5_order_hand", "step5_order_hand_hidden"},
    ),
    Mistake(
        'shuffle_with_the_random_module',
        'shuffle draws from the random module instead of the rng it is given: the same'
        ' seed no longer gives the same order.',
        {
            'step2_shuffle_code': [
                ('j = rng.randrange(i + 1)',
                 "j = __import__('random').randrange(i + 1)"),
            ],
        },
        fails={"step2_shuffle", "step2_shuffle_hidden"},
        sample=False,
    ),
    Mistake(
        'deal_without_checking_the_deck',
        'deal never checks that the deck holds enough cards: a deal too big fails on'
        ' an empty deck instead of saying why.',
        {
            'step3_deal_code': [
                ('    if num_players * cards_each > len(deck):\n',
                 '    if False:  # deck.pop() will complain soon enough\n'),
            ],
        },
        fails={"step3_deal", "step3_deal_hidden"},
        sample=False,
    ),
    Mistake(
        'draw_from_the_bottom',
        'draw takes the bottom card of the deck (deck.pop(0)) instead of the top one.',
        {
            'step4_draw_discard_code': [
                ('hand.append(deck.pop())',
                 'hand.append(deck.pop(0))'),
            ],
        },
        fails={"step4_draw", "step4_draw_hidden"},
        sample=False,
    ),
    Mistake(
        'sort_key_rank_before_suit',
        'sort_key orders by rank first, then suit: a hand is not grouped by suit.',
        {
            'step5_order_code': [
                ('return (SUITS.index(card.suit), card.value)',
                 'return (card.value, SUITS.index(card.suit))'),
            ],
        },
        fails={"step5_sort_key", "step5_sort_key_hidden"},
        sample=False,
    ),
)

OTHER_SAMPLES = (
    left_undone(4, 5, 6, what="Steps 1 to 3 done, steps 4 to 6 (trace answers and own tests "
                              "included) not started."),
    Mistake(
        'deal_tests_not_written',
        'No tests of deal written (my_deal_tests still raises NotImplementedError): 0'
        ' for step 6.',
        {
            'step6_my_tests_code': None,
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'deal_tests_fail_on_correct_code',
        'my_deal_tests asserts that player 0 gets the two top cards (one player at a'
        ' time): it fails on a correct deal, so step 6 scores 0 and the feedback shows'
        ' the assertion.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 "    hands = deal(hand('2♣ 3♣ 4♣ 5♣'), 2, 2)\n"
                 "    assert hands[0] == hand('5♣ 4♣'), 'player 0 gets the two top cards'\n"),
            ],
        },
        fails={"step6_my_tests"},
    ),
    Mistake(
        'deal_tests_weak',
        "my_deal_tests checks only the hands' sizes, the top card and the deck's"
        ' length: it catches 2 of the 5 hidden buggy deals (the shared list, dealing'
        ' from the bottom), 4 of 10.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 "    deck = hand('2♣ 3♣ 4♣ 5♣ 6♣')\n    hands = deal(deck, 2, 2)\n"
                 '    assert len(hands) == 2 and len(hands[0]) == 2 and len(hands[1]) == 2\n'
                 "    assert hands[0][0] == KitCard('6', 'clubs'), 'the top card first'\n"
                 '    assert len(deck) == 1\n'),
            ],
        },
        caught={"step6_my_tests": (2, 5)},
    ),
    Mistake(
        'full_marks_other_deal_tests',
        'my_deal_tests written another way (a whole new deck dealt to 1, 2 and 4'
        ' players with cards_each left out, every card compared): it catches all 5'
        ' hidden buggy deals.',
        {
            'step6_my_tests_code': [
                (REFERENCE_TESTS,
                 '    for players in (1, 2, 4):\n        deck = new_deck()\n'
                 '        hands = deal(deck, players)\n        each = 52 // players\n'
                 '        assert [len(h) for h in hands] == [each] * players, players\n'
                 '        for player, held in enumerate(hands):\n'
                 '            expected = [new_deck()[51 - player - turn * players]\n'
                 '                        for turn in range(each)]\n'
                 '            assert held == expected, (players, player)\n'
                 '        assert deck == new_deck()[:52 - each * players], players\n'),
            ],
        },
        caught={"step6_my_tests": (5, 5)},
    ),
    fingerprinting_tests(
        'deal_tests_fingerprint_code',
        'Tests of deal that compare the code of the deal they are given with the first'
        ' one seen: at grading every run sees the same routed stand-in, so they catch'
        " nothing (plain nbgrader: the first code seen is the student's own, so they"
        ' fail on the correct one); 0 either way.',
        'step6_my_tests_code', 'my_deal_tests', 'deal', 'step6_my_tests', 5),
)
