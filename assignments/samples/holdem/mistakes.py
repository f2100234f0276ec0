"""Heads-up Hold'em: its classic mistakes, each written once (see plaisante.samples)."""

from plaisante.mistakes import Mistake, left_undone

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
        fails={"step4_apply_hidden"},
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
        fails={"step5_settle_hidden"},
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
        fails={"step5_settle_hidden"},
        sample=False,
    ),
)

OTHER_SAMPLES = (
    left_undone(4, 5, what="Steps 1 to 3 done, steps 4 and 5 (trace answers included) not "
                           "started."),
)
