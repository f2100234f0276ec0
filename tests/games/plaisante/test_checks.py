"""The visible checks: they pass the reference and name input, expected and actual on a mistake."""

import pytest

from plaisante.games.plaisante import checks
from plaisante.student_side.checking import CheckFailed


def test_every_check_passes_the_reference(ref):
    checks.check_card(ref.Card)
    checks.check_count_values(ref.count_values)
    for name in checks.HAS_CHECK_CASES:
        checks.check_has(getattr(ref, name))
    checks.check_evaluate(ref.evaluate)
    checks.check_total_value(ref.total_value)
    checks.check_base_mult(ref.base_mult)
    checks.check_score(ref.score)
    checks.check_tableau(ref.Tableau)


def test_a_failure_names_the_input_the_expected_and_the_actual_value():
    def count_values(cards):
        return [0] * 14
    with pytest.raises(CheckFailed) as failure:
        checks.check_count_values(count_values)
    # lengths that differ are said in words: nobody should count fifteen zeros
    assert str(failure.value) == (
        "count_values((no cards)): expected a list of 15 ints, got a list of 14: "
        "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]")


def test_a_list_of_the_right_length_still_shows_both_values():
    def count_values(cards):
        return [0] * 14 + [1] if cards else [0] * 15
    with pytest.raises(CheckFailed) as failure:
        checks.check_count_values(count_values)
    assert "expected [0, 0," in str(failure.value) and ", got [0, 0," in str(failure.value)


@pytest.mark.parametrize(("name", "wrong", "message"), [
    ("has_pair", lambda cards: any(n >= 2 for n in checks.counts_list(
        {v: sum(c.value == v for c in cards) for v in range(15)})),
     r"has_pair\(K♥ K♦ K♣ K♠ 9♥\): expected False, got True"),
    ("has_flush", lambda cards: len({card.suit for card in cards}) == 1,
     r"has_flush\(2♥ 7♥ 9♥\): expected False, got True"),
    ("has_straight", lambda cards: len({c.value for c in cards}) == len(cards)
     and max(c.value for c in cards) - min(c.value for c in cards) == 4,
     r"has_straight\(5♣ 9♦\): expected False, got True"),
])
def test_the_classic_mistakes_fail_a_visible_check_naming_the_hand(name, wrong, message):
    """The mistakes each step's text warns about fail the visible test, not only hidden ones:
    has_pair with >= 2, has_flush or has_straight without the 5-card rule."""
    wrong.__name__ = name
    with pytest.raises(CheckFailed, match=message):
        checks.check_has(wrong)


def test_straight_before_flush_fails_evaluates_visible_check():
    ns: dict = {}
    source = ("def evaluate(cards):\n"
              "    for name, check in (('Four of a Kind', has_four_of_a_kind), ('Full House', "
              "has_full_house), ('Straight', has_straight), ('Flush', has_flush), "
              "('Three of a Kind', has_three_of_a_kind), ('Two Pair', has_two_pair), "
              "('Pair', has_pair)):\n"
              "        if check(cards):\n            return name\n    return 'High Card'\n")
    exec(source, ns)  # noqa: S102
    with pytest.raises(CheckFailed,
                       match=r"evaluate\(5♥ 6♥ 7♥ 8♥ 9♥\): expected 'Flush', got 'Straight'"):
        checks.check_evaluate(ns["evaluate"])


def test_every_hand_size_from_0_to_8_is_swept_and_a_changed_list_is_caught():
    from plaisante.games.plaisante import known_good

    sizes = {len(text.split()) for text in known_good.sweep_hands()}
    assert sizes == set(range(9))

    def count_values(cards):
        counts = [0] * 15
        while cards:
            counts[cards.pop().value] += 1
        return counts
    with pytest.raises(CheckFailed, match=r"count_values\(2♣\) changed the list it was given"):
        known_good.expect_like_reference(count_values, known_good.kit_count_values)


def test_not_started_is_not_a_failure():
    def has_flush(cards):
        raise NotImplementedError()
    with pytest.raises(NotImplementedError):
        checks.check_has(has_flush)


def test_an_exception_in_student_code_names_the_call():
    def total_value(cards):
        return sum(card.points for card in cards)
    with pytest.raises(CheckFailed, match=r"total_value\(K♥ K♦ 3♣ 7♠ 9♥\): raised AttributeError"):
        checks.check_total_value(total_value)


def test_evaluate_is_checked_on_known_good_has_checks_and_order_matters():
    from plaisante.games.plaisante.rules import FLUSH, STRAIGHT

    def evaluate(cards):  # tests Straight before Flush, relies on the has-checks it is given
        if has_straight(cards):  # noqa: F821
            return STRAIGHT
        if has_flush(cards):  # noqa: F821
            return FLUSH
        return "High Card"
    with pytest.raises(CheckFailed, match=r"evaluate\(5♥ 6♥ 7♥ 8♥ 9♥\): expected 'Flush', "
                                          r"got 'Straight'"):
        checks.expect_name(evaluate, "5♥ 6♥ 7♥ 8♥ 9♥", FLUSH, {FLUSH, STRAIGHT})
    assert "has_straight" not in globals()  # the stand-ins are gone afterwards


def test_card_check_catches_an_eq_that_ignores_the_suit(ref):
    class Card(ref.Card):
        def __eq__(self, other):
            return self.rank == other.rank

        __hash__ = ref.Card.__hash__
    with pytest.raises(CheckFailed, match=r"Card\('Q', 'clubs'\) == Card\('Q', 'spades'\): "
                                          "expected False, got True"):
        checks.check_card(Card)


def test_card_check_wants_the_allowed_ranks_named(ref):
    class Card(ref.Card):
        def __init__(self, rank, suit):
            if rank not in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"):
                raise ValueError("bad rank")
            super().__init__(rank, suit)
    with pytest.raises(CheckFailed, match="should name the allowed ranks"):
        checks.check_card(Card)


def test_move_selected_check_catches_removing_while_iterating(ref):
    class Tableau(ref.Tableau):
        def move_selected_to_play_area(self):
            for card in self.selected:
                self.selected.remove(card)
                self.held_cards.remove(card)
                self.play_area.append(card)
    with pytest.raises(CheckFailed, match="expected play_area = "):
        checks.check_move_selected(Tableau)


def test_trace_shape_check_does_not_reveal_the_answer():
    checks.check_shape("trace_counts", [0] * 15, list, 15, int)
    with pytest.raises(CheckFailed, match="trace_counts: expected a list of 15 ints, got None"):
        checks.check_shape("trace_counts", None, list, 15, int)


def test_going_further_report_never_raises(ref, capsys):
    checks.try_going_further(ref.has_straight_ace_low, ref.has_straight_flush,
                             ref.evaluate_going_further, ref.evaluate)
    assert capsys.readouterr().out.strip() == "Going further: all optional checks pass."

    def not_started(*args, **kwargs):
        raise NotImplementedError()
    checks.try_going_further(not_started, not_started, not_started, ref.evaluate)
    assert "not attempted" in capsys.readouterr().out


def test_a_type_only_mismatch_names_both_types():
    def base_mult(cards):
        return 2.0
    with pytest.raises(CheckFailed, match=r"a Pair: expected 2 \(an int\), got 2.0 \(a float\)"):
        checks.check_base_mult(base_mult)
    with pytest.raises(CheckFailed, match=r"\] \(a list\), got \(0, .*\) \(a tuple\)"):
        checks.expect_counts(lambda cards: tuple([0] * 15), "", [0] * 15)


def test_move_selected_check_catches_removing_from_held_while_iterating(ref):
    class Tableau(ref.Tableau):
        def move_selected_to_play_area(self):
            for card in self.held_cards:
                if card in self.selected:
                    self.held_cards.remove(card)
                    self.play_area.append(card)
            self.selected = []
    with pytest.raises(CheckFailed, match=r"expected play_area = \[6♣ 3♣\], got \[3♣ 6♣\]"):
        checks.check_move_selected(Tableau)


def test_an_evaluate_walking_a_table_of_its_has_checks_is_checked_on_the_stand_ins():
    """A student may build the table once (``ORDER = [(FLUSH, has_flush), …]``): the stand-ins
    must reach it too, or a step 3 mistake would cost step 4's evaluate as well."""
    from plaisante.games.plaisante import rules

    namespace = {name: getattr(rules, name) for name in rules.__all__}
    exec("def has_flush(cards):\n    return len({c.suit for c in cards}) == 1\n"  # no 5-card rule
         + "".join(f"def {name}(cards): return False\n" for name in (
             "has_pair", "has_three_of_a_kind", "has_four_of_a_kind", "has_two_pair",
             "has_full_house", "has_straight")) +
         "ORDER = [(FOUR_OF_A_KIND, has_four_of_a_kind), (FULL_HOUSE, has_full_house),\n"
         "         (FLUSH, has_flush), (STRAIGHT, has_straight),\n"
         "         (THREE_OF_A_KIND, has_three_of_a_kind), (TWO_PAIR, has_two_pair),\n"
         "         (PAIR, has_pair)]\n"
         "def evaluate(cards):\n"
         "    for name, holds in ORDER:\n"
         "        if holds(cards):\n"
         "            return name\n"
         "    return HIGH_CARD\n", namespace)
    checks.check_evaluate(namespace["evaluate"])  # passes: the table held the stand-ins
    assert namespace["ORDER"][2][1] is namespace["has_flush"]  # and is put back afterwards


def test_a_repr_that_leaves_out_the_suit_fails_the_hidden_case_only(ref):
    class Card(ref.Card):
        def __repr__(self):
            return f"Card {self.rank}"

        __hash__ = ref.Card.__hash__
    checks.check_card_text(Card)  # the visible case names the rank only
    with pytest.raises(CheckFailed, match=r"naming rank A and the suit, got 'Card A'"):
        checks.expect_readable_repr("repr(Card('A', 'spades'))", lambda: Card("A", "spades"),
                                    "A", suit="spades")
    for shown in ("A♠", "As", "Card('A', 'spades')", "Ace of Spades"):
        checks.expect_readable_repr("repr(...)", lambda shown=shown: type(
            "Shown", (), {"__repr__": lambda self: shown})(), "A", suit="spades")
