"""Heads-up Hold'em's mutation gate, as data: the goals per step and every surviving mutant with
why it behaves as the reference does, as docs/mutation.md lists them
(tests/test_mutation_gates.py runs the gate in `make test-slow`)."""

from __future__ import annotations

#: Survivors: each mutant that no test can kill, and why it behaves as the reference does.
EQUIVALENT: dict[str, str] = {
    'step1_category_code:5: counts = sorted([values.count(v) for v in set(values)], '
    'reverse=True) / flush = len({card.suit for card in five}) == 1 -> flush = len({card.suit'
    ' for card in five}) == 1 / counts = sorted([values.count(v) for v in set(values)], '
    'reverse=True)':
        'two independent assignments in the other order',
    'step1_category_code:6: flush = len({card.suit for card in five}) == 1 / straight = '
    'len(set(values)) == 5 and values[-1] - values[0] == 4 -> straight = len(set(values)) == '
    '5 and values[-1] - values[0] == 4 / flush = len({card.suit for card in five}) == 1':
        'two independent assignments in the other order',
    'step1_category_code:8: if straight and flush: / if counts[0] == 4: -> if counts[0] == 4:'
    ' / if straight and flush:':
        "a straight's five values all differ, so it is never four of a kind: at most one of the "
        'two rows holds',
    'step1_category_code:10: if counts[0] == 4: / if counts == [3, 2]: -> if counts == [3, '
    '2]: / if counts[0] == 4:':
        'a value exactly 4 times and the counts [3, 2] never hold together: at most one of the '
        'two rows holds',
    'step1_category_code:12: if counts == [3, 2]: / if flush: -> if flush: / if counts == [3,'
    ' 2]:':
        'a full house has three cards of one value, so three different suits: never a flush',
    'step1_category_code:14: if flush: / if straight: -> if straight: / if flush:':
        'a flush that is also a straight is a straight flush, named above both, so neither line '
        'is reached with both true',
    'step1_category_code:16: if straight: / if counts[0] == 3: -> if counts[0] == 3: / if '
    'straight:':
        'a straight has 5 different values, three of a kind a value 3 times: never both',
    'step1_category_code:18: if counts[0] == 3: / if counts[:2] == [2, 2]: -> if counts[:2] '
    '== [2, 2]: / if counts[0] == 3:':
        'the counts, biggest first, start with 3 or with 2, 2: never both',
    'step2_best_five_code:7: five = list(five) / name = category(five) -> name = '
    'category(five) / five = list(five)':
        'category is given the tuple from combinations instead of its list copy; category only '
        "iterates over the cards (as the kit's does), and the list is what is kept",
    'step2_best_five_code:10: if best_key is None or key > best_key: -> if best_key is None '
    'or key >= best_key:':
        'keeps the last of equally good fives instead of the first; the step says either one is '
        'right, and compare reads only the category and the sum',
    'step3_compare_code:5: name_a, five_a = best_five(seven_a) / name_b, five_b = '
    'best_five(seven_b) -> name_b, five_b = best_five(seven_b) / name_a, five_a = '
    'best_five(seven_a)':
        'two independent calls of best_five in the other order (best_five changes nothing it is '
        'given)',
    'step3_compare_code:6: name_b, five_b = best_five(seven_b) / key_a = '
    '(-CATEGORIES.index(name_a), sum((value(card) for card in five_a))) -> key_a = '
    '(-CATEGORIES.index(name_a), sum((value(card) for card in five_a))) / name_b, five_b = '
    'best_five(seven_b)':
        'two independent assignments in the other order',
    'step3_compare_code:7: key_a = (-CATEGORIES.index(name_a), sum((value(card) for card in '
    'five_a))) / key_b = (-CATEGORIES.index(name_b), sum((value(card) for card in five_b))) '
    '-> key_b = (-CATEGORIES.index(name_b), sum((value(card) for card in five_b))) / key_a = '
    '(-CATEGORIES.index(name_a), sum((value(card) for card in five_a)))':
        'two independent assignments in the other order',
    'step3_compare_code:9: if key_a > key_b: / if key_a < key_b: -> if key_a < key_b: / if '
    'key_a > key_b:':
        'the two conditions exclude each other, so testing them in the other order returns the '
        'same',
    "step4_betting_code:11: other = 1 - me / highest = max(state['bets']) -> highest = "
    "max(state['bets']) / other = 1 - me":
        'two independent assignments in the other order',
    "step4_betting_code:12: highest = max(state['bets']) / mine, chips = (state['bets'][me], "
    "state['stacks'][me]) -> mine, chips = (state['bets'][me], state['stacks'][me]) / highest"
    " = max(state['bets'])":
        'two independent assignments in the other order',
    "step4_betting_code:13: mine, chips = (state['bets'][me], state['stacks'][me]) / actions "
    "= {'fold': None} -> actions = {'fold': None} / mine, chips = (state['bets'][me], "
    "state['stacks'][me])":
        'two independent assignments in the other order',
    "step4_betting_code:15: if mine == highest: / if state['stacks'][other] > 0: -> if "
    "state['stacks'][other] > 0: / if mine == highest:":
        'the same actions, the keys added to the dict in another order; dicts compare without '
        'order and the table reads the dict by name',
    "step4_betting_code:36: if state['to_act'] is None: / allowed = legal_actions(state) -> "
    "allowed = legal_actions(state) / if state['to_act'] is None:":
        'legal_actions is asked first but the round-over test still raises before it is used; '
        'nothing is changed',
    'step4_betting_code:41: if allowed[action] is None and amount is not None: / if '
    'allowed[action] is not None: -> if allowed[action] is not None: / if allowed[action] is '
    'None and amount is not None:':
        "the two conditions exclude each other (an action's range is None or not), so testing "
        'them in the other order raises the same',
    'step4_betting_code:43: if allowed[action] is not None: / new = copy.deepcopy(state) -> '
    'new = copy.deepcopy(state) / if allowed[action] is not None:':
        'the copy is made before the amount is checked instead of after; a refused action still '
        'raises and the copy is dropped',
    "step4_betting_code:51: other = 1 - me / stacks, bets = (new['stacks'], new['bets']) -> "
    "stacks, bets = (new['stacks'], new['bets']) / other = 1 - me":
        'two independent assignments in the other order',
    "step4_betting_code:52: stacks, bets = (new['stacks'], new['bets']) / if action == "
    "'fold': -> if action == 'fold': / stacks, bets = (new['stacks'], new['bets'])":
        'an assignment moved after a test that does not read it',
    'step4_betting_code:63: stacks[me] -= put / bets[me] += put -> bets[me] += put / '
    'stacks[me] -= put':
        'two different lists changed in the other order',
    "step4_betting_code:64: bets[me] += put / new['put_in'][me] += put -> new['put_in'][me] "
    '+= put / bets[me] += put':
        'two different lists changed in the other order',
    "step4_betting_code:65: new['put_in'][me] += put / new['acted'][me] = True -> "
    "new['acted'][me] = True / new['put_in'][me] += put":
        'two different lists changed in the other order',
    "step4_betting_code:54: new['folded'], new['to_act'] = (me, None) / new['acted'][me] = "
    "True -> new['acted'][me] = True / new['folded'], new['to_act'] = (me, None)":
        'two independent assignments in the other order',
    "step4_betting_code:37: raise ValueError(f'{action}: the betting round is over, nobody "
    "acts') -> pass":
        'without it, legal_actions of a finished round is {}, so the next line raises ValueError '
        '(not allowed now) all the same',
    "step5_settle_code:5: stacks = list(state['stacks']) / pot = sum(state['put_in']) -> pot "
    "= sum(state['put_in']) / stacks = list(state['stacks'])":
        'two independent assignments in the other order',
    'step5_settle_code:15: stacks[0] += half / stacks[1] += half -> stacks[1] += half / '
    'stacks[0] += half':
        'two different items of the list changed in the other order',
    "step5_settle_code:16: stacks[1] += half / stacks[1 - state['dealer']] += pot - 2 * half "
    "-> stacks[1 - state['dealer']] += pot - 2 * half / stacks[1] += half":
        'the odd chip and a half pot added to the stacks in the other order: additions commute',
}
GOAL_VISIBLE, GOAL_ALL = 0.90, 0.99
AT_LEAST = 300  # mutants in all: the operators reach the whole solution
