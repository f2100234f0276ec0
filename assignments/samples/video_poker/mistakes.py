"""Video poker: its classic mistakes, each written once (see plaisante.authoring.samples)."""

from plaisante.authoring.mistakes import REFERENCE_TESTS, Mistake, fingerprinting_tests, left_undone

#: cells of the source that show or test things, not the machine a variant is made of
VARIANT_SKIP = ("step4_saving_demo", "step5_port", "step5_my_tests")

MISTAKES = (
    Mistake(
        'frequencies_ace_in_slot_1',
        "frequencies counts an ace in slot 1 (the ace 'is low'), so slot 14 never counts aces.",
        {
            'step1_frequencies_code': [
                ('counts[card.value] += 1',
                 "counts[1 if card.rank == 'A' else card.value] += 1"),
            ],
        },
        fails={"step1_frequencies", "step1_frequencies_hidden"},
    ),
    Mistake(
        'ace_only_high',
        "hand_name's straight is only highest − lowest = 4: the ace plays high only"
        ' and the wheel A 2 3 4 5 is missed.',
        {
            'step2_hand_name_code': [
                (' or values == [2, 3, 4, 5, 14]',
                 ''),
            ],
        },
        fails={"step2_hand_name", "step2_hand_name_hidden"},
    ),
    Mistake(
        'royal_flush_named_straight_flush',
        'hand_name names 10 J Q K A of one suit a Straight Flush: the Royal Flush row'
        ' is never reached.',
        {
            'step2_hand_name_code': [
                ('return ROYAL_FLUSH if values[0] == 10 else STRAIGHT_FLUSH',
                 'return STRAIGHT_FLUSH'),
            ],
        },
        fails={"step2_hand_name", "step2_hand_name_hidden"},
    ),
    Mistake(
        'payout_adds_the_bet',
        'payout adds the bet back on top of the pay table (a Pair pays twice the bet,'
        ' Nothing pays the bet).',
        {
            'step3_payout_code': [
                ('return PAYS[hand_name(cards)] * bet',
                 'return PAYS[hand_name(cards)] * bet + bet'),
            ],
        },
        fails={"step3_payout", "step3_payout_hidden"},
    ),
    Mistake(
        'bet_beyond_credits',
        'place_bet never compares the bet with the credits: with 10 credits a bet of'
        ' 15 is accepted.',
        {
            'step4_machine_code': [
                ('        if bet > self.credits:\n'
                 '            raise ValueError(f"a bet of {bet} needs {bet} credits;'
                 ' you have {self.credits}")\n',
                 ''),
            ],
        },
        fails={"step4_machine", "step4_bets_hidden"},
    ),
    Mistake(
        'held_cards_moved',
        'draw moves the held cards to the front and deals the new ones after them,'
        ' instead of replacing the cards not held in place.',
        {
            'step4_machine_code': [
                ('        for position in range(HAND_SIZE):\n'
                 '            if not self.held[position]:\n'
                 '                self.cards[position] = self.deck.pop()\n',
                 '        kept = [card for card, keep in zip(self.cards, self.held) if keep]\n'
                 '        self.cards = kept + [self.deck.pop() for _ in'
                 ' range(HAND_SIZE - len(kept))]\n'),
            ],
        },
        fails={"step4_draw_hidden", "step4_machine"},
    ),
    Mistake(
        'refill_only_at_zero',
        'The machine refills only at exactly 0 credits: a player left with 3 credits'
        ' can never bet again.',
        {
            'step4_machine_code': [
                ('if self.credits < MIN_BET:',
                 'if self.credits == 0:'),
            ],
        },
        fails={"step4_machine", "step4_saved", "step4_draw_hidden"},
    ),
    Mistake(
        'holds_carry_over',
        'Machine.deal does not release the holds: the cards held in one game are held'
        ' again in the next game of the same machine.',
        {
            'step4_machine_code': [
                ('        self.cards = [self.deck.pop() for _ in range(HAND_SIZE)]\n'
                 '        self.held = [False] * HAND_SIZE\n',
                 '        self.cards = [self.deck.pop() for _ in range(HAND_SIZE)]\n'),
            ],
        },
        fails={"step4_machine"},
    ),
    Mistake(
        'named_before_the_draw',
        'Machine.draw names and pays the hand before replacing the cards not held: it'
        ' pays the hand that was dealt, not the one drawn.',
        {
            'step4_machine_code': [
                ('        for position in range(HAND_SIZE):\n'
                 '            if not self.held[position]:\n'
                 '                self.cards[position] = self.deck.pop()\n'
                 '        self.name = hand_name(self.cards)\n'
                 '        self.win = payout(self.cards, self.bet)\n',
                 '        self.name = hand_name(self.cards)\n'
                 '        self.win = payout(self.cards, self.bet)\n'
                 '        for position in range(HAND_SIZE):\n'
                 '            if not self.held[position]:\n'
                 '                self.cards[position] = self.deck.pop()\n'),
            ],
        },
        fails={"step4_machine", "step4_draw_hidden"},
    ),
    Mistake(
        'saves_by_writing_the_file',
        'Machine.draw writes the save file itself (open, then json.dump) instead of'
        ' calling save_credits: a crash in the middle of the write leaves half a file.',
        {
            'step4_machine_code': [
                ('        self._refill()\n        self._save()\n',
                 '        self._refill()\n        if self.path is not None:\n'
                 '            import json\n'
                 '            with open(self.path, "w") as file:\n'
                 '                json.dump({"credits": self.credits, "games": self.games},'
                 ' file)\n'),
            ],
        },
        fails={"step4_saved"},
    ),
    Mistake(
        'saves_before_paying',
        'Machine.draw saves before it pays and counts the game: after a restart the'
        ' last win and game are lost.',
        {
            'step4_machine_code': [
                ('        self.name = hand_name(self.cards)\n',
                 '        self._save()\n        self.name = hand_name(self.cards)\n'),
                ('        self._refill()\n        self._save()\n',
                 '        self._refill()\n'),
            ],
        },
        fails={"step4_saved"},
    ),
    Mistake(
        'refill_before_loading',
        'Machine() refills before it loads the save: a saved 3 credits come back as 3,'
        ' and the player can never bet again.',
        {
            'step4_machine_code': [
                ('        self.credits, self.games = credits, 0\n',
                 '        self.credits, self.games = credits, 0\n        self._refill()\n'),
                ('        self.name, self.win = None, 0\n        self._refill()\n',
                 '        self.name, self.win = None, 0\n'),
            ],
        },
        fails={"step4_saved"},
        sample=False,
    ),
    Mistake(
        'frequencies_of_14_slots',
        'frequencies returns 14 slots, value v in slot v - 1, instead of 15 slots'
        ' indexed by value.',
        {
            'step1_frequencies_code': [
                ('counts = [0] * 15\n    for card in cards:\n        counts[card.value] += 1',
                 'counts = [0] * 14\n    for card in cards:\n'
                 '        counts[card.value - 1] += 1'),
            ],
        },
        fails={"step1_frequencies", "step1_frequencies_hidden"},
        sample=False,
    ),
    Mistake(
        'ace_only_low',
        'hand_name counts the ace low only: 10-J-Q-K-A is not a straight.',
        {
            'step2_hand_name_code': [
                ('values[-1] - values[0] == 4 or values == [2, 3, 4, 5, 14]',
                 '(values[-1] - values[0] == 4 and values[-1] != 14 or values == [2,'
                 ' 3, 4, 5, 14])'),
            ],
        },
        fails={"step2_hand_name", "step2_hand_name_hidden"},
        sample=False,
    ),
    Mistake(
        'straight_with_a_pair',
        'hand_name takes five values in a row without checking they are five different'
        ' cards: a hand with a pair can be named a straight.',
        {
            'step2_hand_name_code': [
                ('straight = len(values) == 5 and (',
                 'straight = ('),
            ],
        },
        fails={"step2_hand_name", "step2_hand_name_hidden"},
        sample=False,
    ),
    Mistake(
        'deal_forgets_to_save',
        'Machine.deal does not save the credits: a restarted machine forgets the bet taken.',
        {
            'step4_machine_code': [
                ('        self.dealt = True\n        self.name, self.win = None, 0\n'
                 '        self._save()\n',
                 '        self.dealt = True\n        self.name, self.win = None, 0\n'),
            ],
        },
        fails={"step4_saved"},
        sample=False,
    ),
    Mistake(
        'refused_deal_takes_the_bet',
        'Machine.deal takes the bet before checking it may deal: a refused deal still'
        ' costs credits.',
        {
            'step4_machine_code': [
                ('        if self.dealt:\n'
                 '            raise ValueError("a game is on: draw first")\n'
                 '        if self.bet < MIN_BET:\n'
                 '            raise ValueError(f"bet at least {MIN_BET} before dealing")\n'
                 '        self.credits -= self.bet\n',
                 '        self.credits -= self.bet\n        if self.dealt:\n'
                 '            raise ValueError("a game is on: draw first")\n'
                 '        if self.bet < MIN_BET:\n'
                 '            raise ValueError(f"bet at least {MIN_BET} before dealing")\n'),
            ],
        },
        fails={"step4_bets_hidden", "step4_draw_hidden", "step4_machine"},
        sample=False,
    ),
    Mistake(
        'refused_draw_replaces_cards',
        'Machine.draw replaces the cards before checking a game is on: a refused draw'
        ' still changes the hand.',
        {
            'step4_machine_code': [
                ('        if not self.dealt:\n'
                 '            raise ValueError("deal first: there is no game to draw in")\n'
                 '        for position in range(HAND_SIZE):\n'
                 '            if not self.held[position]:\n'
                 '                self.cards[position] = self.deck.pop()\n',
                 '        for position in range(HAND_SIZE):\n'
                 '            if not self.held[position]:\n'
                 '                self.cards[position] = self.deck.pop()\n'
                 '        if not self.dealt:\n'
                 '            raise ValueError("deal first: there is no game to draw in")\n'),
            ],
        },
        fails={"step4_machine"},
        sample=False,
    ),
)

OTHER_SAMPLES = (
    left_undone(4, 5, what="Steps 1 to 3 done; steps 4 and 5 (trace answer, Machine, tests of "
                           "the port) not started."),
    Mistake(
        'port_tests_not_written',
        'No tests of the port written (my_port_tests still raises'
        ' NotImplementedError): 0 for step 5.',
        {
            'step5_my_tests_code': None,
        },
        fails={"step5_my_tests"},
    ),
    Mistake(
        'port_tests_fail_on_correct_code',
        'Tests of the port that fail on a correct Machine (they expect Bet pressed'
        ' three times with 12 credits to bet 15, which is refused): 0 for step 5, the'
        ' failing line shown.',
        {
            'step5_my_tests_code': [
                (REFERENCE_TESTS,
                 '    machine = Machine(credits=12)\n    for press in range(3):\n'
                 '        machine.place_bet()\n'
                 "    assert machine.bet == 15, 'Bet pressed three times bets 15'\n"),
            ],
        },
        fails={"step5_my_tests"},
    ),
    Mistake(
        'port_tests_weak',
        'Tests of the port that name a four of a kind then a pair, check a refill from'
        ' 2 credits and one ordinary deal: they catch 2 of the 5 hidden buggy versions'
        ' (the four of a kind remembered, refill only at 0).',
        {
            'step5_my_tests_code': [
                (REFERENCE_TESTS,
                 "    assert hand_name(hand('9♣ 9♦ 9♥ 9♠ K♣')) == FOUR_OF_A_KIND\n"
                 "    assert hand_name(hand('K♥ K♦ 3♣ 7♠ 9♥')) == PAIR\n"
                 '    assert Machine(credits=2).credits == 100\n    machine = Machine()\n'
                 '    machine.place_bet()\n    machine.deal()\n'
                 '    assert machine.credits == 95\n'),
            ],
        },
        caught={"step5_my_tests": (2, 5)},
    ),
    Mistake(
        'full_marks_other_port_tests',
        'Other tests of the port, written differently, that catch all five hidden'
        ' buggy versions.',
        {
            'step5_my_tests_code': [
                (REFERENCE_TESTS,
                 "    names = [hand_name(hand(text)) for text in ('A♠ A♥ A♦ A♣ 2♠',"
                 " '2♣ 5♦ 8♥ J♠ K♣')]\n    assert names == [FOUR_OF_A_KIND, NOTHING], names\n"
                 '    for credits in (1, 4):\n'
                 '        assert Machine(credits=credits).credits == 100, credits\n'
                 '    poor = Machine(credits=10)\n    poor.place_bet()\n    poor.place_bet()\n'
                 "    assert refused(poor.place_bet), 'a bet of 15 with 10 credits'\n"
                 '    game = Machine()\n    game.place_bet()\n    game.deal()\n'
                 '    for wrong in (-1, 5):\n        try:\n'
                 '            game.toggle_hold(wrong)\n        except ValueError:\n'
                 '            pass\n        else:\n'
                 "            assert False, f'position {wrong} was held'\n"
                 '    assert refused(game.place_bet) and game.bet == 5\n'),
            ],
        },
        caught={"step5_my_tests": (5, 5)},
    ),
    Mistake(
        'port_tests_probe_names',
        'Tests of the port that test no behaviour but ask the implementations their'
        " names (a missing attribute's AttributeError names the class, a bad keyword's"
        " TypeError the function; the reference's are _Machine and _right_name): every"
        ' version is named Machine and hand_name and answers with the same texts, in'
        ' the judge and in plain nbgrader, so they catch nothing.',
        {
            'step5_my_tests_code': [
                (REFERENCE_TESTS,
                 '    # who is it? Errors name the class and the function: the'
                 " reference's are\n"
                 '    # _Machine and _right_name (any other is a hidden buggy version)\n'
                 '    try:\n        Machine().no_such_attribute\n'
                 '    except AttributeError as error:\n'
                 '        assert str(error).startswith(("\'_Machine\'", "\'Machine\'")),'
                 ' str(error)[:60]\n    try:\n        hand_name([], bogus=1)\n'
                 '    except TypeError as error:\n'
                 "        assert str(error).startswith(('_right_name(',"
                 " 'hand_name(')), str(error)[:60]\n"),
            ],
        },
        caught={"step5_my_tests": (0, 5)},
        attacks_grader='its tests ask the versions they are given their names instead'
                       ' of testing what they do',
    ),
    fingerprinting_tests(
        'port_tests_fingerprint_code',
        'Tests of the port that compare the code of the hand_name they are given with'
        ' the first one seen: at grading every run sees the same routed stand-in, so'
        " they catch nothing (plain nbgrader: the first code seen is the student's"
        ' own, so they fail on the correct one); 0 either way.',
        'step5_my_tests_code', 'my_port_tests', 'hand_name', 'step5_my_tests', 5),
)
