"""The checks of the trick-taking game's steps, shared by the notebook's test cells and the gate.

Each ``check_*`` takes the student's part as a parameter, calls it with plain data only (kit
cards, lists, tuples, strs, ints, None), compares what comes back strictly (``same``) and
raises ``CheckFailed`` naming the call, the expected value and the actual one. A student's
``NotImplementedError`` goes through untouched ("not started" is not "wrong").

These run in the grader when a notebook is graded: a part is then a handle whose calls go to the
student's kernel. ``Trick`` is built in the kernel (``Trick(hands, leader)`` returns a handle);
its attributes are read and its ``play_card`` called through that handle. While a later step is
checked, the earlier parts it calls are the kit's (``substituted`` with the functions of
``plaisante.games.tricks.rules``), so a mistake costs points in its own step only.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from ...cards import SUITS, KitCard, hand, label, labels
from ...checking import (
    LABELLED_MOST,
    Always,
    CheckFailed,
    check_shape,
    expect_value,
    run,
    same,
    show,
    substituted,
)
from .rules import (
    STRENGTH_ORDER,
    card_points,
    deal_hands,
    deck32,
    kit_legal_plays,
    kit_sort_hand,
    kit_trick_strength,
    kit_trick_winner,
    led_suit_of,
    weakest_bot,
)

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
    """Check that ``trick_strength`` raises ValueError for a card outside the 32-card deck."""
    card = KitCard(rank, suit)
    call = f"trick_strength({label(card)})"
    try:
        value = trick_strength(card)
    except NotImplementedError:
        raise
    except ValueError:
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
    the hand itself unchanged. ``trick_strength`` is the kit's meanwhile."""
    held = hand(text)
    before = list(held)
    call = f"sort_hand([{labels(held)}])"
    with substituted(sort_hand, trick_strength=kit_trick_strength):
        result = run(call, lambda: sort_hand(held))
    expected = kit_sort_hand(before)
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {show(expected)}, got {show(result)}")
    if not same(before, held):
        raise CheckFailed(f"after {call}: expected the hand passed in unchanged (sort_hand "
                          f"returns a new list), got {show(held)}")


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


def check_legal_plays(legal_plays: Callable[[list[Any], Any], Any]) -> None:
    """Check step 3: following suit, none of the led suit, leading."""
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", "diamonds", "K♦ 10♦")
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", "hearts", "7♣ K♦ A♠ 10♦")
    expect_legal(legal_plays, "7♣ K♦ A♠ 10♦", None, "7♣ K♦ A♠ 10♦")


# -------------------------------------------------------------------------- step 4: trick_winner

def expect_winner(trick_winner: Callable[[list[Any]], Any], text: str, first: int) -> None:
    """Check ``trick_winner`` on the trick ``text`` played from player ``first`` on: the player
    of the strongest card of the led suit. ``trick_strength`` is the kit's meanwhile."""
    trick = trick_of(text, first)
    with substituted(trick_winner, trick_strength=kit_trick_strength):
        expect_value(f"trick_winner({show_trick(trick)})", kit_trick_winner(trick),
                     lambda: trick_winner(trick))


def check_trick_winner(trick_winner: Callable[[list[Any]], Any]) -> None:
    """Check step 4: an off-suit ace does not win, the 10 beats the king, one card alone."""
    expect_winner(trick_winner, "9♥ K♥ A♠ 7♥", 0)
    expect_winner(trick_winner, "K♣ 10♣ J♣ A♦", 2)
    expect_winner(trick_winner, "7♦", 3)


# --------------------------------------------------------------------------------- step 5: Trick

class Game:
    """A check's view of one student ``Trick``: builds it, plays cards with the kit's
    ``legal_plays`` and ``trick_winner`` standing in, and compares its attributes. ``story`` is
    what was done so far, for the messages."""

    def __init__(self, Trick: Callable[..., Any], hands: list[list[KitCard]], leader: int):
        self.story = f"Trick({show_hands(hands)}, leader={leader})"
        self.table = run(self.story, lambda: Trick([list(h) for h in hands], leader))
        self.hands = [list(h) for h in hands]
        self.trick: list[tuple[int, KitCard]] = []
        self.turn, self.won = leader, [0] * _len(hands)
        self.expect_state()

    def expect_state(self) -> None:
        """Raise CheckFailed unless the table's hands, trick, turn and won are the kit's."""
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
        with substituted(method, legal_plays=kit_legal_plays, trick_winner=kit_trick_winner):
            result = run(f"after {self.story}: {call}", lambda: method(player, card))
        self.hands[player].remove(card)
        self.trick.append((player, card))
        expected = None
        if _len(self.trick) == _len(self.hands):
            expected = kit_trick_winner(self.trick)
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

    def refuse(self, player: int, card: KitCard, mentions: str = "") -> None:
        """Check that play_card(player, card) raises ValueError (naming ``mentions``, the suit
        the player must play) and changes nothing."""
        call = f"play_card({player}, {label(card)})"
        method = self.table.play_card
        where = f"after {self.story}: {call}"
        try:
            with substituted(method, legal_plays=kit_legal_plays, trick_winner=kit_trick_winner):
                value = method(player, card)
        except NotImplementedError:
            raise
        except ValueError as error:
            if mentions and mentions not in str(error):
                raise CheckFailed(f"{where}: the ValueError should name the suit to play, "
                                  f"{mentions!r}; its message is {str(error)!r}") from None
        except Exception as error:
            raise CheckFailed(f"{where}: expected ValueError, got {_type(error).__name__}: "
                              f"{error}") from error
        else:
            raise CheckFailed(f"{where}: expected ValueError (a card that must be refused), got "
                              f"no error (it returned {show(value)})")
        self.story += f"; {call} (refused)"
        self.expect_state()


def same_value(expected: Any, actual: Any) -> bool:
    """``same``, with tuples compared item by item too (a trick's (player, card) pairs)."""
    if _type(expected) is tuple:
        return _type(actual) is tuple and _len(actual) == _len(expected) and all(
            same_value(e, a) for e, a in zip(expected, actual))
    if _type(expected) is list:
        return _type(actual) is list and _len(actual) == _len(expected) and all(
            same_value(e, a) for e, a in zip(expected, actual))
    return same(expected, actual)


def check_turns_and_tricks(Trick: Callable[..., Any]) -> None:
    """Check step 5's visible case: two tricks of a small deal, a card refused for not following
    suit, a player refused out of turn, the winner leading the second trick."""
    game = Game(Trick, [hand("9♥ A♠"), hand("K♥ 7♣"), hand("A♥ 8♠"), hand("7♥ 10♠")], 0)
    game.play(0, KitCard("9", "hearts"))
    game.refuse(1, KitCard("7", "clubs"), "hearts")
    game.play(1, KitCard("K", "hearts"))
    game.play(2, KitCard("A", "hearts"))
    game.play(3, KitCard("7", "hearts"))
    game.refuse(0, KitCard("A", "spades"))  # player 2 won: it is their turn, not player 0's
    game.play(2, KitCard("8", "spades"))
    game.play(3, KitCard("10", "spades"))
    game.play(0, KitCard("A", "spades"))
    game.play(1, KitCard("7", "clubs"))  # no spades: any card


def check_another_leader(Trick: Callable[..., Any]) -> None:
    """Check a trick led by player 2: refusals name the led suit, play goes on clockwise from
    the leader (3, 0, 1), and a player without the led suit may play any card."""
    game = Game(Trick, [hand("J♦ 9♣"), hand("Q♣ K♠"), hand("8♦ A♣"), hand("10♦ 7♠")], 2)
    game.play(2, KitCard("8", "diamonds"))
    game.refuse(3, KitCard("7", "spades"), "diamonds")
    game.play(3, KitCard("10", "diamonds"))
    game.refuse(0, KitCard("9", "clubs"), "diamonds")
    game.play(0, KitCard("J", "diamonds"))
    game.play(1, KitCard("Q", "clubs"))


def check_leader_sets_the_suit_after_a_discard(Trick: Callable[..., Any]) -> None:
    """Check that a discard of another suit does not change the led suit: hearts led, a spade
    discarded, then the next player must still follow hearts (and may)."""
    game = Game(Trick, [hand("8♥ A♠"), hand("K♠ 7♣"), hand("10♥ Q♠"), hand("J♥ 9♣")], 0)
    game.play(0, KitCard("8", "hearts"))
    game.play(1, KitCard("K", "spades"))
    game.refuse(2, KitCard("Q", "spades"), "hearts")
    game.play(2, KitCard("10", "hearts"))
    game.play(3, KitCard("J", "hearts"))


def expect_full_deal(Trick: Callable[..., Any], seed: int, leader: int) -> None:
    """Play a whole seeded deal (8 tricks of 4) where every player plays their weakest legal
    card, checking every return value and the state after every card."""
    game = Game(Trick, deal_hands(seed), leader)
    for _ in range(32):
        player = game.turn
        legal = kit_legal_plays(game.hands[player], led_suit_of(game.trick))
        game.play(player, weakest_bot(legal, game.trick, kit_trick_strength))
    if sum(game.won) != 8:
        raise CheckFailed(f"after a whole deal: expected 8 tricks won in all, got {game.won}")


def check_trick(Trick: Callable[..., Any]) -> None:
    """Check step 5 (the gate's check): the visible case."""
    check_turns_and_tricks(Trick)


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
    "check_trick_winner", "expect_winner", "check_trick", "check_turns_and_tricks",
    "check_another_leader", "check_leader_sets_the_suit_after_a_discard",
    "expect_full_deal", "Game", "try_card_points",
]
