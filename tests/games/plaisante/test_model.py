"""A round's rules (SPEC §2), played on the reference solution's parts."""

import pytest

from plaisante.games.plaisante.model import IllegalAction, Round, StudentCodeError
from plaisante.student_side.cards import hand, label


def new_round(ref, seed=11, **overrides):
    parts = dict(card_class=ref.Card, evaluate=ref.evaluate, total_value=ref.total_value,
                 base_mult=ref.base_mult, score=ref.score, tableau_class=ref.Tableau, seed=seed)
    parts.update(overrides)
    return Round(**parts)


def test_a_round_starts_with_8_held_cards_4_hands_4_discards(ref):
    game = new_round(ref)
    assert len(game.held_cards) == 8 and len(game.deck) == 44
    assert (game.hands_left, game.discards_left, game.total) == (4, 4, 0)
    assert game.selected == [] and not game.is_over


def test_same_seed_same_deal(ref):
    assert new_round(ref, 5).held_cards == new_round(ref, 5).held_cards
    assert new_round(ref, 5).held_cards != new_round(ref, 6).held_cards


def test_a_sixth_selection_is_refused_until_one_is_deselected(ref):
    game = new_round(ref)
    held = game.held_cards
    assert all(game.toggle(card) for card in held[:5])
    assert game.toggle(held[5]) is False and game.selected == held[:5]
    assert game.toggle(held[0]) is True
    assert game.toggle(held[5]) is True and game.selected == held[1:6]


def test_play_scores_the_selection_and_refills_to_8(ref):
    deck = hand("2♣ 3♣ 4♦ 5♥ 6♠ 7♣ 8♥ 9♦ 10♠ J♣ Q♥ K♥ K♦ 3♥ 7♠ 9♥", ref.Card)
    game = new_round(ref, deck=deck)
    held = game.held_cards
    assert [label(c) for c in held] == ["9♥", "7♠", "3♥", "K♦", "K♥", "Q♥", "J♣", "10♠"]
    for card in held[:5]:
        game.toggle(card)
    played = game.play()
    assert (played.name, played.score) == ("Pair", 90)
    assert (played.values, played.total_value, played.multiplier) == ((9, 7, 3, 13, 13), 45, 2)
    assert played.formula == "(9 + 7 + 3 + 13 + 13) × 2 = 90"
    assert game.total == 90 and game.hands_left == 3
    assert len(game.held_cards) == 8 and game.selected == [] and game.tableau.play_area == []
    assert len(deck) == 16, "the caller's deck is copied, never changed"


def test_discard_refills_without_scoring_and_uses_a_discard(ref):
    game = new_round(ref)
    gone = game.held_cards[:3]
    for card in gone:
        game.toggle(card)
    assert game.discard() == gone
    assert game.total == 0 and game.discards_left == 3 and game.hands_left == 4
    assert len(game.held_cards) == 8 and not set(gone) & set(game.held_cards)


@pytest.mark.parametrize("action, rule", [("play", "select 1 to 5 cards to play"),
                                          ("discard", "select 1 to 5 cards to discard")])
def test_play_or_discard_with_nothing_selected_names_the_rule(ref, action, rule):
    with pytest.raises(IllegalAction, match=rule):
        getattr(new_round(ref), action)()


def test_no_discard_after_the_fourth(ref):
    game = new_round(ref)
    for _ in range(4):
        game.toggle(game.held_cards[0])
        game.discard()
    game.toggle(game.held_cards[0])
    assert game.why_not_discard() == "no discards left: all 4 are used"
    with pytest.raises(IllegalAction, match="no discards left"):
        game.discard()


def test_a_whole_round_ends_after_the_fourth_hand_with_the_sum_of_scores(ref):
    game = new_round(ref, seed=2026)
    for _ in range(4):
        game.toggle(game.held_cards[0])
        game.discard()
    for _ in range(4):
        for card in game.held_cards[:5]:
            game.toggle(card)
        game.play()
    assert game.is_over and game.hands_left == 0 and len(game.deck) == 52 - 8 - 4 - 20
    assert game.total == sum(p.score for p in game.history) > 0
    assert [p.score for p in game.history] == [ref.score(list(p.cards)) for p in game.history]
    for action in (game.play, game.discard, lambda: game.toggle(game.held_cards[0])):
        with pytest.raises(IllegalAction, match="the round is over"):
            action()


def test_toggling_a_card_not_held_is_illegal(ref):
    with pytest.raises(IllegalAction, match="A♠ is not among the held cards"):
        game = new_round(ref, deck=hand("2♣ 3♣ 4♦ 5♥ 6♠ 7♣ 8♥ 9♦", ref.Card))
        game.toggle(ref.Card("A", "spades"))


def test_a_raising_evaluate_leaves_the_round_as_it_was_and_names_step_4(ref):
    def evaluate(cards):
        raise KeyError("oops")
    game = new_round(ref, evaluate=evaluate)
    held = game.held_cards
    for card in held[:2]:
        game.toggle(card)
    deck_before = list(game.deck)
    with pytest.raises(StudentCodeError) as error:
        game.play()
    assert error.value.step == 4 and error.value.function == "evaluate"
    assert game.held_cards == held and game.selected == held[:2] and game.deck == deck_before
    assert (game.total, game.hands_left, game.tableau.play_area) == (0, 4, [])


def test_a_toggle_that_selects_six_is_caught_and_undone(ref):
    class Greedy(ref.Tableau):
        def toggle_selection(self, card):
            self.selected.append(card)
    game = new_round(ref, tableau_class=Greedy)
    for card in game.held_cards[:5]:
        game.toggle(card)
    with pytest.raises(StudentCodeError, match="6 cards are selected; at most 5 allowed"):
        game.toggle(game.held_cards[5])
    assert len(game.selected) == 5


def test_a_score_that_is_not_an_int_is_reported(ref):
    game = new_round(ref, score=lambda cards: "90")
    game.toggle(game.held_cards[0])
    with pytest.raises(StudentCodeError, match="step 4, score: returned '90'; an int was expected"):
        game.play()
    assert game.hands_left == 4 and len(game.held_cards) == 8


def test_an_interrupt_inside_evaluate_puts_the_round_back(ref):
    def evaluate(cards):
        raise KeyboardInterrupt
    game = new_round(ref, evaluate=evaluate)
    held = game.held_cards
    game.toggle(held[3])
    with pytest.raises(KeyboardInterrupt):
        game.play()
    assert game.held_cards == held and game.selected == [held[3]]
    assert game.tableau.play_area == [] and game.hands_left == 4


def test_a_move_that_leaves_played_cards_held_is_caught(ref):
    class Skipping(ref.Tableau):  # removes from held_cards while looping over it
        def move_selected_to_play_area(self):
            for card in self.held_cards:
                if card in self.selected:
                    self.held_cards.remove(card)
            self.play_area = list(self.selected)
            self.selected = []
    game = new_round(ref, tableau_class=Skipping)
    held = game.held_cards
    game.toggle(held[1])
    game.toggle(held[2])
    with pytest.raises(StudentCodeError, match="left .* held after moving them") as error:
        game.play()
    assert error.value.step == 5 and game.held_cards == held and game.hands_left == 4


def test_an_unknown_hand_name_or_a_negative_score_is_reported(ref):
    game = new_round(ref, evaluate=lambda cards: "Banana")
    game.toggle(game.held_cards[0])
    with pytest.raises(StudentCodeError, match="returned 'Banana'; one of the hand names"):
        game.play()
    game = new_round(ref, score=lambda cards: -5)
    game.toggle(game.held_cards[0])
    with pytest.raises(StudentCodeError, match="returned -5; a score is never negative"):
        game.play()


def test_a_number_too_large_to_print_is_the_students_error_not_a_crash(ref):
    """Python refuses str() of an int over 4,300 digits: a score or total that large is said
    as the student's error (the view shows its one line), never raised out of the round."""
    for part in ("score", "total_value"):
        for huge in (10 ** 5000, -(10 ** 5000), 2 ** 63):
            game = new_round(ref, **{part: lambda cards, n=huge: n})
            game.toggle(game.held_cards[0])
            with pytest.raises(StudentCodeError, match=r"returned an int of about [0-9,]+ "
                               "digits; no number of a round is larger") as error:
                game.play()
            assert error.value.step == 4 and game.hands_left == 4 and game.total == 0


def test_bad_arguments_from_the_caller_are_not_blamed_on_the_student(ref):
    with pytest.raises(TypeError, match=r"seed must be an int or None, got \[1\]"):
        new_round(ref, seed=[1])
    with pytest.raises(IllegalAction, match="'Kh' is not among the held cards"):
        new_round(ref).toggle("Kh")


# Dealt from the end: K♥ K♦ 3♣ 7♠ 9♥ are the first five held cards (SPEC §2's example).
SPEC_DECK = "2♣ 3♦ 4♦ 5♥ 6♠ 7♣ 8♥ 9♦ 10♠ J♣ Q♥ A♠ 9♥ 7♠ 3♣ K♦ K♥"


def play_first(game, count):
    for card in game.held_cards[:count]:
        game.toggle(card)
    return game.play()


def test_the_formula_is_made_of_the_students_own_results(ref):
    calls = []

    def spy(name, function):
        return lambda cards: calls.append(name) or function(cards)
    deck = hand(SPEC_DECK, ref.Card)
    game = new_round(ref, deck=deck, total_value=spy("total_value", ref.total_value),
                     base_mult=spy("base_mult", ref.base_mult), score=spy("score", ref.score))
    played = play_first(game, 5)
    assert [label(card) for card in played.cards] == ["K♥", "K♦", "3♣", "7♠", "9♥"]
    assert played.formula == "(13 + 13 + 3 + 7 + 9) × 2 = 90"  # SPEC §2's example
    assert calls == ["total_value", "base_mult", "score"]
    assert str(played) == "K♥ K♦ 3♣ 7♠ 9♥: Pair, (13 + 13 + 3 + 7 + 9) × 2 = 90"


def test_a_formula_shows_where_the_students_parts_disagree(ref):
    deck = hand(SPEC_DECK, ref.Card)
    off_by_one = new_round(ref, deck=deck, total_value=lambda cards: ref.total_value(cards) + 1,
                           score=lambda cards: 92)
    assert play_first(off_by_one, 2).formula == "(13 + 13) = 27 × 2 ≠ 92"


@pytest.mark.parametrize("part, wrong, message", [
    ("total_value", lambda cards: 4.5, "step 4, total_value: returned 4.5; an int was expected"),
    ("base_mult", lambda cards: None, "step 4, base_mult: returned None; an int was expected"),
    ("base_mult", lambda cards: [][0], r"step 4, base_mult: base_mult\(K♥\) failed: IndexError")])
def test_a_total_value_or_base_mult_that_fails_is_reported_and_undone(ref, part, wrong, message):
    deck = hand(SPEC_DECK, ref.Card)
    game = new_round(ref, deck=deck, **{part: wrong})
    game.toggle(game.held_cards[0])
    with pytest.raises(StudentCodeError, match=message):
        game.play()
    assert (game.hands_left, game.total, len(game.selected)) == (4, 0, 1)


def test_a_round_is_underway_once_a_hand_or_a_discard_is_used_until_it_is_over(ref):
    game = new_round(ref)
    game.toggle(game.held_cards[0])
    assert not game.is_underway, "a selection alone loses nothing"
    game.discard()
    assert game.is_underway
    for _ in range(4):
        play_first(game, 1)
    assert game.is_over and not game.is_underway
