"""The checks of the trick-taking game's steps, shared by the notebook's test cells and the gate.

Each ``check_*`` takes the student's part as a parameter, calls it with plain data only (kit
cards, lists, tuples, strs, ints, None), compares what comes back strictly (``same``) and
raises ``CheckFailed`` naming the call, the expected value and the actual one. A student's
``NotImplementedError`` goes through untouched ("not started" is not "wrong").

These run in the grader when a notebook is graded: a part is then a handle whose calls go to the
student's kernel. ``Trick`` is built in the kernel (``Trick(hands, leader)`` returns a handle);
its attributes are read and its ``play_card`` called through that handle. While a later step is
checked, the earlier parts it calls are stand-ins (``substituted``), so a mistake costs points in
its own step only.

Every right answer a check compares with or stands in with comes from ``KNOWN``: here, tables
of the visible cases' inputs only (data: no part of the game is implemented in this module,
which a student's kernel imports); in the grader, once ``known_good`` is imported, the kit's
known-good parts, which answer the hidden cases too.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable
from typing import Any

from ...student_side.cards import RANKS, SUIT_SYMBOLS, SUITS, KitCard, hand, label, labels
from ...student_side.checking import (
    LABELLED_MOST,
    Always,
    CheckFailed,
    Known,
    Table,
    check_shape,
    expect_value,
    run,
    same,
    show,
    substituted,
)
from ...student_side.student_tests import (
    Version,
    check_written,
    grade_my_tests,
    try_my_tests,
    version,
)
from . import visible
from .rules import STRENGTH_ORDER, card_points, deck32

# Bound at import so a part that patches builtins cannot change what a check sees.
_type, _len = builtins.type, builtins.len


def show_trick(trick: Any) -> str:
    """Return a trick as '[(0, 9♥), (1, K♥)]' (or its repr when it is not (player, card)
    pairs)."""
    if _type(trick) is list and _len(trick) <= LABELLED_MOST and all(
            _type(p) is tuple and _len(p) == 2 and hasattr(p[1], "suit") for p in trick):
        return "[" + ", ".join(f"({p[0]!r}, {label(p[1])})" for p in trick) + "]"
    return show(trick)


def show_hands(hands: Any) -> str:
    """Return hands as '[9♥ A♠ | K♥ 7♣ | …]' (or their repr)."""
    if _type(hands) is list and _len(hands) <= LABELLED_MOST and all(
            _type(h) is list for h in hands) and sum(_len(h) for h in hands) <= LABELLED_MOST:
        return "[" + " | ".join(labels(h) if h else "-" for h in hands) + "]"
    return show(hands)


def trick_of(text: str, first: int) -> list[tuple[int, KitCard]]:
    """Return the trick 'Q♣ 10♣ A♥' played from player ``first`` on, clockwise, as pairs."""
    return [((first + i) % 4, card) for i, card in enumerate(hand(text))]


# ------------------------------------------------------------- the visible cases' right answers
# The data is in ``visible`` (a graded kernel gets it empty).

#: Each part's right answers on the visible cases' inputs, as data (``KNOWN`` answers with
#: these until the grader's ``known_good`` is imported).
VISIBLE_ANSWERS: dict[str, Table] = {
    "trick_strength": Table("trick_strength", visible.STRENGTHS),
    "sort_hand": Table("sort_hand", visible.SORTED, convert=hand),
    "legal_plays": Table("legal_plays", visible.LEGAL, convert=hand),
    "trick_winner": Table("trick_winner", visible.WINNERS),
}
KNOWN = Known(**VISIBLE_ANSWERS)


# ------------------------------------------------------------------------ step 1: trick_strength

def expect_stronger_in_order(trick_strength: Callable[[Any], Any], text: str) -> None:
    """Check that ``trick_strength`` gives the kit's cards ``text`` (written weakest first, one
    suit) ints that strictly increase."""
    cards = hand(text)
    strengths = []
    for card in cards:
        value = run(f"trick_strength({label(card)})", lambda card=card: trick_strength(card))
        if _type(value) is not int:
            raise CheckFailed(f"trick_strength({label(card)}): expected an int, got "
                              f"{show(value)} ({_type(value).__name__})")
        strengths.append(value)
    for (weak, a), (strong, b) in zip(zip(cards, strengths), zip(cards[1:], strengths[1:])):
        if not a < b:
            raise CheckFailed(
                f"trick_strength({label(strong)}) > trick_strength({label(weak)}): expected "
                f"True ({label(strong)} beats {label(weak)}: A > 10 > K > Q > J > 9 > 8 > 7), "
                f"got {b} and {a}")


def expect_not_in_deck(trick_strength: Callable[[Any], Any], rank: str, suit: str) -> None:
    """Check that ``trick_strength`` raises ValueError for a card outside the 32-card deck, its
    message naming every allowed rank (7 8 9 10 J Q K A, in any order)."""
    card = KitCard(rank, suit)
    call = f"trick_strength({label(card)})"
    allowed = " ".join(sorted(STRENGTH_ORDER, key=RANKS.index))
    try:
        value = trick_strength(card)
    except NotImplementedError:
        raise
    except ValueError as error:
        words = set(re.findall(r"[0-9A-Za-z]+", str(error)))
        missing = [rank for rank in STRENGTH_ORDER if rank not in words]
        if missing:
            raise CheckFailed(f"{call}: expected a ValueError naming the allowed ranks "
                              f"({allowed}); its message {str(error)!r} does not name "
                              f"{' '.join(sorted(missing, key=RANKS.index))}") from None
        return
    except Exception as error:
        raise CheckFailed(f"{call}: expected ValueError (no {rank} in the 32-card deck), got "
                          f"{_type(error).__name__}: {error}") from error
    raise CheckFailed(f"{call}: expected ValueError (no {rank} in the 32-card deck), got "
                      f"{show(value)}")


def check_trick_strength(trick_strength: Callable[[Any], Any]) -> None:
    """Check step 1: the hearts in order 7 8 9 J Q K 10 A, and a 6 refused."""
    expect_stronger_in_order(trick_strength, "7♥ 8♥ 9♥ J♥ Q♥ K♥ 10♥ A♥")
    expect_not_in_deck(trick_strength, "6", "hearts")


# ------------------------------------------------------------------------------ step 2: sort_hand

def expect_sorted(sort_hand: Callable[[list[Any]], Any], text: str) -> None:
    """Check ``sort_hand`` on the kit's cards ``text``: a new list by suit, then weakest first;
    the hand itself unchanged. ``trick_strength`` is ``KNOWN``'s meanwhile."""
    held = hand(text)
    before = list(held)
    call = f"sort_hand([{labels(held)}])"
    with substituted(sort_hand, trick_strength=KNOWN.trick_strength):
        result = run(call, lambda: sort_hand(held))
    expected = KNOWN.sort_hand(before)
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {show(expected)}, got {show(result)}")
    if not same(before, held):
        raise CheckFailed(f"after {call}: expected the hand passed in unchanged (sort_hand "
                          f"returns a new list), got {show(held)}")
    if result is held:
        raise CheckFailed(f"{call}: expected a new list, got the hand itself (a change to "
                          "the sorted hand would change the player's hand)")


def check_sort_hand(sort_hand: Callable[[list[Any]], Any]) -> None:
    """Check step 2 on a mixed hand and an empty one."""
    expect_sorted(sort_hand, "10♥ 7♣ A♥ K♥ 9♠ J♦ 8♣")
    expect_sorted(sort_hand, "")


# --------------------------------------------------------------------------- step 3: legal_plays

def expect_legal(legal_plays: Callable[[list[Any], Any], Any], text: str,
                 led_suit: str | None, expected_text: str) -> None:
    """Check ``legal_plays(hand, led_suit)`` on the kit's cards ``text``: the cards
    ``expected_text`` in hand order, the hand unchanged."""
    held = hand(text)
    before = list(held)
    call = f"legal_plays([{labels(held)}], {led_suit!r})"
    expected = hand(expected_text)
    result = run(call, lambda: legal_plays(held, led_suit))
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {show(expected)}, got {show(result)}")
    if not same(before, held):
        raise CheckFailed(f"after {call}: expected the hand unchanged, got {show(held)}")
    if result is held:
        raise CheckFailed(f"{call}: expected a new list, got the hand itself (a change to "
                          "what legal_plays returns would change the player's hand)")


def check_legal_plays(legal_plays: Callable[[list[Any], Any], Any]) -> None:
    """Check step 3: following suit, none of the led suit, leading."""
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", "diamonds", "K♦ 10♦")
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", "hearts", "7♣ K♦ A♠ 10♦")
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", None, "7♣ K♦ A♠ 10♦")


# -------------------------------------------------------------------------- step 4: trick_winner

def expect_winner(trick_winner: Callable[[list[Any]], Any], text: str, first: int) -> None:
    """Check ``trick_winner`` on the trick ``text`` played from player ``first`` on: the player
    of the strongest card of the led suit. ``trick_strength`` is ``KNOWN``'s meanwhile."""
    trick = trick_of(text, first)
    call = f"trick_winner({show_trick(trick)})"
    with substituted(trick_winner, trick_strength=KNOWN.trick_strength):
        expect_value(call, KNOWN.trick_winner(trick), lambda: trick_winner(trick))
    if not same(trick_of(text, first), trick):
        raise CheckFailed(f"{call} changed the trick it was given: it became "
                          f"{show_trick(trick)}")


def check_trick_winner(trick_winner: Callable[[list[Any]], Any]) -> None:
    """Check step 4: an off-suit ace does not win, the 10 beats the king, one card alone."""
    expect_winner(trick_winner, "9♥ K♥ A♠ 7♥", 0)
    expect_winner(trick_winner, "K♣ 10♣ J♣ A♦", 2)
    expect_winner(trick_winner, "7♦", 3)


# --------------------------------------------------------------------------------- step 5: Trick

class Game:
    """A check's view of one student ``Trick``: builds it, plays cards with ``KNOWN``'s
    ``legal_plays`` and ``trick_winner`` standing in, and compares its attributes with what it
    keeps itself (the hands, the trick, the turn and the tricks won, moved as each accepted card
    is played; it refuses nothing, the student's ``play_card`` does). ``story`` is what was done
    so far, for the messages."""

    def __init__(self, Trick: Callable[..., Any], hands: list[list[KitCard]], leader: int):
        self.story = f"Trick({show_hands(hands)}, leader={leader})"
        self.table = run(self.story, lambda: Trick([list(h) for h in hands], leader))
        self.hands = [list(h) for h in hands]
        self.trick: list[tuple[int, KitCard]] = []
        self.turn, self.won = leader, [0] * _len(hands)
        self.expect_state()

    def expect_state(self) -> None:
        """Raise CheckFailed unless the table's hands, trick, turn and won are the check's."""
        for name, expected, shown in (("turn", self.turn, show), ("won", self.won, show),
                                      ("trick", self.trick, show_trick),
                                      ("hands", self.hands, show_hands)):
            actual = run(f"after {self.story}: reading .{name}",
                         lambda name=name: getattr(self.table, name))
            if not same_value(expected, actual):
                raise CheckFailed(f"after {self.story}: expected .{name} = {shown(expected)}, "
                                  f"got {shown(actual)}")

    def play(self, player: int, card: KitCard) -> Any:
        """Play ``card`` for ``player`` through the student's play_card and check the return
        value (the winner once the trick is complete, else None) and the state after."""
        call = f"play_card({player}, {label(card)})"
        method = self.table.play_card
        with substituted(method, legal_plays=KNOWN.legal_plays,
                         trick_winner=KNOWN.trick_winner):
            result = run(f"after {self.story}: {call}", lambda: method(player, card))
        self.hands[player].remove(card)
        self.trick.append((player, card))
        expected = None
        if _len(self.trick) == _len(self.hands):
            expected = KNOWN.trick_winner(self.trick)
            self.won[expected] += 1
            self.trick, self.turn = [], expected
        else:
            self.turn = (player + 1) % _len(self.hands)
        before = self.story
        self.story += f"; {call}"
        if not same(expected, result):
            what = (f"the winner, player {expected}" if expected is not None else
                    "None (the trick is not complete)")
            raise CheckFailed(f"after {before}: {call} should return {what}, got {show(result)}")
        self.expect_state()
        return result

    def refuse(self, player: int, card: KitCard, reason: str) -> None:
        """Check that play_card(player, card) raises ValueError and changes nothing. ``reason``
        is why (see ``REASONS``); its message must name what the reason says: the player whose
        turn it is, or the suit the player must follow."""
        call = f"play_card({player}, {label(card)})"
        method = self.table.play_card
        where = f"after {self.story}: {call}"
        what, forms = refusal_names(reason, self.turn, card)
        try:
            with substituted(method, legal_plays=KNOWN.legal_plays,
                             trick_winner=KNOWN.trick_winner):
                value = method(player, card)
        except NotImplementedError:
            raise
        except ValueError as error:
            if not names_one_of(str(error), forms):
                shown = " or ".join(repr(" ".join(form)) for form in forms)
                raise CheckFailed(f"{where}: the ValueError ({reason}) should name {what}, "
                                  f"{shown}; its message is {str(error)!r}") from None
        except Exception as error:
            raise CheckFailed(f"{where}: expected ValueError ({reason}), got "
                              f"{_type(error).__name__}: {error}") from error
        else:
            raise CheckFailed(f"{where}: expected ValueError ({reason}), got no error (it "
                              f"returned {show(value)})")
        self.story += f"; {call} (refused)"
        self.expect_state()


#: Why a play is refused, as a visible test writes it: ``"must follow <suit>"`` too.
REASONS = ("not their turn", "not in their hand")


def refusal_names(reason: str, turn: int,
                  card: KitCard) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """Return (what, its forms) a refusal's message must name for ``reason``: the player whose
    turn it is (``turn``) for "not their turn"; the card for "not in their hand" (its rank and
    suit, or its label such as 8♠); the suit for "must follow hearts" (its name or symbol). A
    form is the words that must all appear. Raises ValueError for another reason."""
    if reason == "not their turn":
        return "the player whose turn it is", ((str(turn),),)
    if reason == "not in their hand":
        return "the card", ((card.rank, card.suit), (label(card),))
    suit = reason[len("must follow "):]
    if reason.startswith("must follow ") and suit in SUITS:
        return "the suit to follow", ((suit,), (SUIT_SYMBOLS[suit],))
    raise ValueError(f"unknown refusal reason {reason!r}: use one of {', '.join(REASONS)} or "
                     f"'must follow SUIT' (SUIT one of {', '.join(SUITS)})")


def names_one_of(message: str, forms: tuple[tuple[str, ...], ...]) -> bool:
    """Return True when ``message`` holds every word of one of ``forms``: a word of letters
    and digits as a whole word ('10' is not in '100'), any other (8♠, ♥) anywhere."""
    words = set(re.findall(r"[0-9A-Za-z]+", message))
    return any(all(word in words if word.isalnum() else word in message for word in form)
               for form in forms)


def same_value(expected: Any, actual: Any) -> bool:
    """``same``, with tuples compared item by item too (a trick's (player, card) pairs)."""
    if _type(expected) is tuple:
        return _type(actual) is tuple and _len(actual) == _len(expected) and all(
            same_value(e, a) for e, a in zip(expected, actual))
    if _type(expected) is list:
        return _type(actual) is list and _len(actual) == _len(expected) and all(
            same_value(e, a) for e, a in zip(expected, actual))
    return same(expected, actual)


def expect_plays(Trick: Callable[..., Any], hands_text: str, leader: int,
                 plays: list[tuple[Any, ...]]) -> None:
    """Check ``Trick(hands, leader)`` through ``plays``, in order. ``hands_text`` writes the
    four hands '9♥ A♠ | K♥ 7♣ | A♥ 8♠ | 7♥ 10♠' (player 0 first); each play is
    ``(player, card)`` for a card that must be accepted (its return value checked: the winner
    when it completes the trick, else None) or ``(player, card, reason)`` for one that must be
    refused with a ValueError that changes nothing (reasons: ``REASONS`` and
    ``"must follow <suit>"``). The hands, trick, turn and won are compared after every play."""
    game = Game(Trick, [hand(text) for text in hands_text.split("|")], leader)
    for play in plays:
        player, card = play[0], hand(play[1])[0]
        if _len(play) == 2:
            game.play(player, card)
        else:
            game.refuse(player, card, play[2])


def check_trick(Trick: Callable[..., Any]) -> None:
    """Check step 5 (the gate's check): two tricks of a small deal; a player without hearts
    plays a club and the next must still follow hearts; cards refused for not following suit,
    out of turn and not held; the winner leading the second trick and winning it too."""
    expect_plays(Trick, "9♥ 8♠ | 7♣ K♠ | A♥ A♠ | 7♥ 10♠", 0, [
        (0, "9♥"), (1, "7♣"), (2, "A♠", "must follow hearts"), (2, "A♥"),
        (3, "10♠", "must follow hearts"), (3, "7♥"),
        (0, "8♠", "not their turn"), (2, "8♠", "not in their hand"), (2, "A♠"),
        (3, "10♠"), (0, "8♠"), (1, "K♠")])


# ------------------------------------------------------------ step 6: your tests of trick_winner
# The visible buggy versions run in the student's own notebook: each is written out on its own,
# with no helper that would itself be a working part of the game.

def _leader_always_wins(trick: list[tuple[int, Any]]) -> Any:
    return trick[0][0]


def _ten_above_the_ace(trick: list[tuple[int, Any]]) -> Any:
    order = ("7", "8", "9", "J", "Q", "K", "A", "10")
    led = trick[0][1].suit
    return builtins.max((pair for pair in trick if pair[1].suit == led),
                        key=lambda pair: order.index(pair[1].rank))[0]


def _leader_never_wins(trick: list[tuple[int, Any]]) -> Any:
    led = trick[0][1].suit
    others = [pair for pair in trick[1:] if pair[1].suit == led] or trick[:1]
    return builtins.max(others, key=lambda pair: STRENGTH_ORDER.index(pair[1].rank))[0]


#: The buggy versions of ``trick_winner`` step 6's test cell shows (the graded ones are hidden).
TRICK_WINNER_MISTAKES: tuple[Version, ...] = (
    version("always gives the trick to the player who led it", trick_winner=_leader_always_wins),
    version("puts the 10 above the ace", trick_winner=_ten_above_the_ace),
    version("never lets the leader's own card win (unless it is alone in its suit)",
            trick_winner=_leader_never_wins),
)


def check_trick_winner_tests(my_trick_winner_tests: Callable[..., Any]) -> None:
    """Check step 6 for the gate: ``my_trick_winner_tests(trick_winner)`` is written. What it
    catches is graded when the work is: on a correct trick_winner, and on buggy ones."""
    check_written(my_trick_winner_tests, "trick_winner")


# ------------------------------------------------------------------ going further (not graded)

def try_card_points(card_points_part: Callable[[list[Any]], Any]) -> None:
    """Print how the student's ``card_points`` fares on a few hands and the whole deck; never
    raises (the going-further section is not graded)."""
    cases = [("A♠ 10♥ K♦ Q♣ J♠", 30), ("9♥ 8♥ 7♥", 0), ("", 0)]
    right = 0
    for text, expected in cases + [("the 32 cards", card_points(deck32()))]:
        cards = deck32() if text == "the 32 cards" else hand(text)
        try:
            got = card_points_part(cards)
        except Exception as error:  # noqa: BLE001  optional: report, never stop the notebook
            print(f"card_points({text or '[]'}): raised {_type(error).__name__}: {error}")
            continue
        if same(expected, got):
            right += 1
        else:
            print(f"card_points({text or '[]'}): expected {expected}, got {show(got)}")
    print(f"card_points: {right} of {_len(cases) + 1} cases right.")


__all__ = [
    "CheckFailed", "Always", "same", "show", "expect_value", "check_shape", "run", "KitCard",
    "SUITS", "STRENGTH_ORDER", "show_trick", "show_hands", "trick_of",
    "check_trick_strength", "expect_stronger_in_order", "expect_not_in_deck",
    "check_sort_hand", "expect_sorted", "check_legal_plays", "expect_legal",
    "check_trick_winner", "expect_winner", "check_trick", "expect_plays", "REASONS",
    "Game", "try_card_points",
    "Version", "version", "try_my_tests", "grade_my_tests", "TRICK_WINNER_MISTAKES",
    "check_trick_winner_tests",
]
