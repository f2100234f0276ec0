"""What every check is made of (``plaisante.student_side.checking``): strict comparison, stand-ins
put back, and messages that name the input, the expected and the actual value in one short line."""

import pytest

from plaisante.student_side.checking import CheckFailed, same, substituted


def test_substituted_restores_what_was_there():
    namespace = {"count_values": "mine"}
    exec("def f():\n    return count_values", namespace)
    with substituted(namespace["f"], count_values="kit's", extra=1):
        assert namespace["f"]() == "kit's"
    assert namespace["count_values"] == "mine" and "extra" not in namespace


class AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("expected", [True, False, 3, "Pair", [0, 1, 2], None])
def test_same_refuses_an_object_whose_eq_always_answers_true(expected):
    assert same(expected, AlwaysEqual()) is False
    assert same(expected, expected) is True


def test_same_is_strict_about_bool_versus_int():
    assert same(True, 1) is False and same(1, True) is False and same([1], [True]) is False


def test_the_message_helpers_doctests_hold():
    import doctest

    from plaisante.student_side import checking

    assert doctest.testmod(checking).attempted >= 3 and doctest.testmod(checking).failed == 0


def test_long_card_lists_in_a_message_show_the_first_difference():
    """A tryout: at 800 px with the file browser open, two 52-card lists wrapped into a tall
    narrow column; the message still names the input, the expected and the actual value."""
    from plaisante.student_side.cards import RANKS, SUITS, KitCard
    from plaisante.student_side.checking import expect_value

    deck = [KitCard(rank, suit) for suit in SUITS for rank in RANKS]
    swapped = [*deck[:13], deck[14], deck[13], *deck[15:]]
    with pytest.raises(CheckFailed) as failure:
        expect_value("new_deck()", deck, lambda: swapped)
    assert str(failure.value) == ("new_deck(): expected [… K♣ A♣ 2♦ 3♦ 4♦ …], got "
                                  "[… K♣ A♣ 3♦ 2♦ 4♦ …] (52 cards each, first differing at [13])")
