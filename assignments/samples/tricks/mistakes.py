"""Tricks: follow suit: its classic mistakes, each written once (see plaisante.samples)."""

from plaisante.mistakes import Mistake, left_undone

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
        fails={"step5_trick_hidden"},
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
)

OTHER_SAMPLES = (
    left_undone(4, 5, what="Steps 1 to 3 done, steps 4 and 5 (trace answers included) not "
                           "started."),
)
