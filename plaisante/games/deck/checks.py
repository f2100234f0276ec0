"""The checks of Deck and deal's steps, shared by the notebook's test cells and the gate.

Each ``check_*`` takes the student's part as a parameter, calls it with plain data only (kit
cards, lists, ints, ``random.Random``), compares what comes back strictly (``same``) and raises
``CheckFailed`` naming the call, the expected value and the actual one. A student's
``NotImplementedError`` goes through untouched ("not started" is not "wrong"). A step's
``check_*`` (what the last cell's checklist runs) makes exactly the ``expect_*`` calls its
visible test cell spells out, in the same order with the same literal data, looked up in this
module's globals when called; the hidden cells call the same ``expect_*`` on other data.

Step 6's tests are the student's own (``plaisante.student_side.student_tests``): its cell judges
``my_deal_tests(deal)`` on a correct ``deal`` and on buggy ones; here are only the buggy
versions shown in the notebook (``DEAL_MISTAKES``) and the gate's check that the tests are
written (``check_deal_tests``).

These run in the grader when a notebook is graded: a part is then a handle whose calls go to the
student's kernel, so nothing here asks a student's object anything but to be called. A list
(or ``random.Random``) passed to a part gets back what the call left in it, so a part's effect
on ``deck`` or ``hand`` is seen.
"""

from __future__ import annotations

import builtins
import random
from collections.abc import Callable
from typing import Any

from ...student_side.cards import RANKS, SUITS, KitCard, hand, label, labels
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
from ...student_side.student_tests import Version, grade_my_tests, try_my_tests, version
from . import visible

# Bound at import so a part that patches builtins cannot change what a check sees.
_type, _len, _sorted = builtins.type, builtins.len, builtins.sorted

#: The order a new deck is in, and the order ``order_hand`` sorts into: suit, then value.
DECK_ORDER: tuple[tuple[str, str], ...] = tuple((rank, suit) for suit in SUITS for rank in RANKS)

#: What the checks know of three parts in a student's kernel: their answers on the visible
#: cases' inputs only, as data. ``sort_key`` (the card → (suit number, value)) stands in while
#: ``order_hand`` is checked; ``order_hand`` (a hand → the hand in order) and ``discard`` ((a
#: hand, the positions) → the cards it returns) are what their checks expect. In the grader
#: ``known_good`` puts the known-good parts in their place, which answer the hidden inputs too.
TABLES: tuple[Table, ...] = (
    Table("sort_key", visible.SORT_KEYS),
    Table("order_hand", visible.ORDERED, convert=hand),
    Table("discard", visible.DISCARDED, convert=hand),
)

#: The answers the checks compare with and stand in with, read when a check runs.
KNOWN = Known(**{table.part: table for table in TABLES})


def expect_cards(call: str, what: str, expected: list[Any], actual: Any) -> None:
    """Raise CheckFailed unless ``actual`` is a list of exactly the kit cards ``expected``."""
    if not same(expected, actual):
        raise CheckFailed(f"after {call}: expected {what} = {show(expected)}, got {show(actual)}")


def expect_error(call: str, kind: type[Exception], compute: Callable[[], Any],
                 mentions: tuple[str, ...] = ()) -> None:
    """Raise CheckFailed unless ``compute()`` raises ``kind`` whose message holds every text of
    ``mentions`` (the numbers a good message names)."""
    try:
        value = compute()
    except NotImplementedError:
        raise
    except kind as error:
        message = str(error)
        absent = [text for text in mentions if text not in message]
        if absent:
            raise CheckFailed(f"{call}: the {kind.__name__} should name {', '.join(mentions)}; "
                              f"its message {message!r} lacks {', '.join(absent)}") from None
        return
    except Exception as error:
        raise CheckFailed(f"{call}: expected {kind.__name__}, got {_type(error).__name__}: "
                          f"{error}") from error
    raise CheckFailed(f"{call}: expected {kind.__name__}, got no error (it returned "
                      f"{show(value)})")


# ----------------------------------------------------------------------------- step 1: new_deck

def expect_new_deck(new_deck: Callable[[], Any]) -> None:
    """Raise CheckFailed unless ``new_deck()`` returns a list of the 52 kit cards in new-deck
    order (``DECK_ORDER``), naming the first position that differs."""
    first = run("new_deck()", new_deck)
    if _type(first) is not list:
        raise CheckFailed(f"new_deck(): expected a list of 52 cards, got {show(first)}")
    if _len(first) != 52:
        raise CheckFailed(f"new_deck(): expected 52 cards, got {_len(first)}: {show(first)}")
    for position, (rank, suit) in enumerate(DECK_ORDER):
        card = first[position]
        if _type(card) is not KitCard or (card.rank, card.suit) != (rank, suit):
            raise CheckFailed(f"new_deck()[{position}]: expected {show(KitCard(rank, suit))} "
                              f"(the kit's card {label(KitCard(rank, suit))}), got {show(card)}")


def expect_new_each_call(new_deck: Callable[[], Any]) -> None:
    """Raise CheckFailed when two calls of ``new_deck()`` give back the same list or any of
    the same card objects: each call must build its own deck (a game that pops cards from one
    deck would otherwise empty the next one). Card objects are compared by identity, which
    the judge keeps across calls (a list that comes back is a copy, its cards are not)."""
    first = run("new_deck()", new_deck)
    second = run("new_deck() (a second call)", new_deck)
    if _type(first) is not list or _type(second) is not list:
        raise CheckFailed(f"new_deck() twice: expected two lists, got {show(first)} and "
                          f"{show(second)}")
    shared = [position for position, (a, b) in enumerate(zip(first, second)) if a is b]
    if first is second or shared:
        where = shared[0] if shared else 0
        raise CheckFailed(
            f"new_deck() called twice: expected two new decks, got the same "
            f"{'list' if first is second else 'cards'} both times (new_deck()[{where}] is "
            f"new_deck()[{where}] gives True): build the list and its cards inside new_deck, "
            "at every call")


def check_new_deck(new_deck: Callable[[], Any]) -> None:
    """Check step 1 (the visible cell's cases, in its order): 52 kit cards in new-deck order,
    and a new deck at every call."""
    expect_new_deck(new_deck)
    expect_new_each_call(new_deck)


# ------------------------------------------------------------------------------ step 2: shuffle

def shuffled_by(shuffle: Callable[..., Any], cards: list[Any], seed: int,
                rng: random.Random | None = None) -> list[Any]:
    """Return ``cards`` after ``shuffle(cards, rng)`` (by default a new
    ``random.Random(seed)``), checking it returned None and kept exactly the same cards."""
    before = list(cards)
    call = f"shuffle({labels(before) if _len(before) <= 8 else f'{_len(before)} cards'}, " \
           f"random.Random({seed}))"
    drawn_from = random.Random(seed) if rng is None else rng
    result = run(call, lambda: shuffle(cards, drawn_from))
    if result is not None:
        raise CheckFailed(f"{call}: expected None (the list is shuffled in place), got "
                          f"{show(result)}")
    if _type(cards) is not list or _len(cards) != _len(before) or \
            _sorted(map(id, cards)) != _sorted(map(id, before)):
        raise CheckFailed(f"after {call}: expected the same cards in some order, got "
                          f"{show(cards)}")
    return cards


def fisher_yates_draws(size: int, seed: int) -> list[int]:
    """Return what Fisher–Yates draws for ``size`` cards from ``random.Random(seed)``:
    ``rng.randrange(i + 1)`` for i = size - 1 down to 1 (``size - 1`` ints, none for 0 or 1)."""
    rng = random.Random(seed)
    return [rng.randrange(i + 1) for i in range(size - 1, 0, -1)]


def expect_shuffle(shuffle: Callable[..., Any], text: str, seed: int, after: str) -> None:
    """Check ``shuffle(cards, random.Random(seed))`` on the kit's cards ``text``: it returns
    None, keeps the same cards, and leaves them in the order ``after``, the one Fisher–Yates
    gives with those draws. The message names the draws, so a student can replay them."""
    cards = hand(text)
    call = f"shuffle([{labels(cards)}], random.Random({seed}))"
    rng = random.Random(seed)
    shuffled_by(shuffle, cards, seed, rng)
    draws = fisher_yates_draws(_len(cards), seed)
    shown = ", ".join(f"rng.randrange({i + 1}) = {j}"
                      for i, j in zip(range(_len(draws), 0, -1), draws)) or "nothing"
    if not same(hand(after), cards):
        raise CheckFailed(f"after {call}: expected [{after}], got {show(cards)} (Fisher–Yates "
                          f"draws {shown}, from the last position down to position 1)")
    drawn = random.Random(seed)
    for i in range(_len(cards) - 1, 0, -1):
        drawn.randrange(i + 1)
    if rng.getstate() != drawn.getstate():
        raise CheckFailed(f"after {call}: expected rng to have drawn exactly {shown}, got rng "
                          "in another state (it drew more, fewer or other numbers): draw once per "
                          "position, from the last down to position 1, and nothing else")


def check_shuffle(shuffle: Callable[..., Any]) -> None:
    """Check step 2 (the visible cell's cases, in its order): the exact order Fisher–Yates
    gives for a seed (which also says: in place, same cards, returns None, draws only from
    ``rng``), the last swap of positions 1 and 0, and lists of 0 and 1 card."""
    expect_shuffle(shuffle, "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", 4, "3♣ 8♣ 7♣ 6♣ 9♣ 2♣ 4♣ 5♣")
    expect_shuffle(shuffle, "2♣ 3♣", 1, "3♣ 2♣")
    expect_shuffle(shuffle, "A♠", 1, "A♠")
    expect_shuffle(shuffle, "", 1, "")


#: Under a fair shuffle, the cards of a 52-card deck that end at a later position than they
#: started average (52 - 1) / 2 = 25.5 per shuffle, with variance (52 + 1) / 12 per shuffle.
#: The naive shuffle (swap each position with ANY position) averages about 24.15.
FAIR_LATER = 25.5
FAIR_LATER_VARIANCE = 53 / 12


def later_count(before: list[Any], after: list[Any]) -> int:
    """Return how many cards of ``before`` sit at a later position in ``after`` (by identity)."""
    where = {id(card): position for position, card in enumerate(after)}
    return sum(1 for position, card in enumerate(before) if where[id(card)] > position)


def expect_fair_shuffle(shuffle: Callable[..., Any], seed: int = 0, times: int = 200,
                        sigmas: float = 4.0) -> None:
    """Shuffle a new deck ``times`` times (``random.Random(seed + i)``) and raise CheckFailed
    when the average number of cards moved to a later position is more than ``sigmas``
    standard errors from the fair 25.5: the naive shuffle's bias (about 24.15) is 9 standard
    errors away at 200 shuffles; a fair shuffle fails with a chance under 1 in 10,000."""
    total = 0
    for i in range(times):
        deck = [KitCard(rank, suit) for rank, suit in DECK_ORDER]
        before = list(deck)
        total += later_count(before, shuffled_by(shuffle, deck, seed + i))
    mean = total / times
    error = (FAIR_LATER_VARIANCE / times) ** 0.5
    if abs(mean - FAIR_LATER) > sigmas * error:
        raise CheckFailed(
            f"shuffle(new deck, random.Random({seed}…{seed + times - 1})), {times} times: "
            f"expected on average {FAIR_LATER} cards to end later in the deck than they started "
            f"(give or take {sigmas * error:.2f}), got {mean:.2f}: some orders come up more "
            "often than others. Swap position i only with a position from 0 to i")


def expect_cards_can_stay(shuffle: Callable[..., Any], seed: int = 0, times: int = 20) -> None:
    """Raise CheckFailed if, over ``times`` shuffles of a new deck, no card ever stays where it
    was: a fair shuffle leaves one card in place per shuffle on average (rng.randrange(i)
    instead of rng.randrange(i + 1) never does)."""
    for i in range(times):
        deck = [KitCard(rank, suit) for rank, suit in DECK_ORDER]
        before = list(deck)
        after = shuffled_by(shuffle, deck, seed + i)
        if any(a is b for a, b in zip(before, after)):
            return
    raise CheckFailed(
        f"shuffle(new deck, random.Random({seed}…{seed + times - 1})), {times} times: expected "
        "some card to stay at its place now and then (about once per shuffle), got none ever: "
        "j must be allowed to equal i")


# ---------------------------------------------------------------------------------- step 3: deal

def expect_deal(deal: Callable[..., Any], deck_text: str, num_players: int,
                cards_each: int | None, hands: list[str], left: str) -> None:
    """Check ``deal`` on the kit's cards written ``deck_text`` (top = last): the hands it
    returns (each written like 'K♥ 3♣') and the deck it leaves (``left``)."""
    deck = hand(deck_text)
    args = f"deck=[{labels(deck)}], {num_players}" + (
        "" if cards_each is None else f", {cards_each}")
    call = f"deal({args})"
    compute = (lambda: deal(deck, num_players)) if cards_each is None else (
        lambda: deal(deck, num_players, cards_each))
    result = run(call, compute)
    expected = [hand(text) for text in hands]
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected the hands {show_hands(expected)}, got "
                          f"{show_hands(result)}")
    expect_cards(call, "deck", hand(left), deck)


def show_hands(hands: Any) -> str:
    """Return hands as '[K♥ 3♣] [2♦]' (or their repr when they are not lists of cards)."""
    if _type(hands) is list and _len(hands) <= LABELLED_MOST and all(
            _type(h) is list for h in hands) and sum(_len(h) for h in hands) <= LABELLED_MOST:
        return " ".join(show(h) if h else "[]" for h in hands) or "(no hands)"
    return show(hands)


def expect_deal_error(deal: Callable[..., Any], size: int, num_players: int,
                      cards_each: int | None) -> None:
    """Check ``deal`` on ``size`` kit cards raises ValueError naming the numbers, deck unchanged."""
    deck = [KitCard(rank, suit) for rank, suit in DECK_ORDER[:size]]
    before = list(deck)
    shown = f"{size} cards, {num_players}" + ("" if cards_each is None else f", {cards_each}")
    call = f"deal({shown})"
    mentions = (str(num_players),) if num_players < 1 else (
        (str(cards_each),) if cards_each is not None and cards_each < 0 else
        tuple(dict.fromkeys(str(n) for n in (size, num_players, cards_each) if n is not None)))
    compute = (lambda: deal(deck, num_players)) if cards_each is None else (
        lambda: deal(deck, num_players, cards_each))
    expect_error(call, ValueError, compute, mentions)
    expect_cards(call + " (an error)", "deck", before, deck)


def check_deal(deal: Callable[..., Any]) -> None:
    """Check step 3 (the visible cell's cases, in its order): one card at a time round the
    table from the top, the default number of cards, none; refusing a short deck, no players
    and a negative number of cards."""
    expect_deal(deal, "2♣ 3♣ 4♣ 5♣", 3, 1, ["5♣", "4♣", "3♣"], "2♣")
    expect_deal(deal, "2♦ 3♦ 4♦ 5♦ 6♦", 2, 2, ["6♦ 4♦", "5♦ 3♦"], "2♦")
    expect_deal(deal, "2♣ 3♣ 4♣", 3, None, ["4♣", "3♣", "2♣"], "")
    expect_deal(deal, "2♣ 3♣ 4♣", 1, 0, [""], "2♣ 3♣ 4♣")
    expect_deal_error(deal, 5, 3, 2)
    expect_deal_error(deal, 5, 0, None)
    expect_deal_error(deal, 5, 2, -1)


# ---------------------------------------------------------------------------------- step 4: draw

def expect_draw(draw: Callable[..., Any], deck_text: str, hand_text: str, n: int,
                deck_after: str, hand_after: str) -> None:
    """Check ``draw(deck, hand, n)`` on kit cards: returns None, then both lists as given."""
    deck, held = hand(deck_text), hand(hand_text)
    call = f"draw(deck=[{labels(deck)}], hand=[{labels(held)}], {n})"
    result = run(call, lambda: draw(deck, held, n))
    if result is not None:
        raise CheckFailed(f"{call}: expected None (the lists change in place), got {show(result)}")
    expect_cards(call, "hand", hand(hand_after), held)
    expect_cards(call, "deck", hand(deck_after), deck)


def expect_draw_error(draw: Callable[..., Any], deck_text: str, hand_text: str, n: int) -> None:
    """Check ``draw`` raises ValueError for ``n`` more cards than the deck has (or n < 0),
    moving nothing."""
    deck, held = hand(deck_text), hand(hand_text)
    before_deck, before_hand = list(deck), list(held)
    call = f"draw(deck=[{labels(deck)}], hand=[{labels(held)}], {n})"
    expect_error(call, ValueError, lambda: draw(deck, held, n))
    expect_cards(call + " (an error)", "hand", before_hand, held)
    expect_cards(call + " (an error)", "deck", before_deck, deck)


def check_draw(draw: Callable[..., Any]) -> None:
    """Check step 4's draw (the visible cell's cases, in its order): top cards first, to the
    end of the hand; a short deck refused."""
    expect_draw(draw, "2♣ 3♣ 4♣ 5♣", "A♠", 2, "2♣ 3♣", "A♠ 5♣ 4♣")
    expect_draw(draw, "2♣", "", 0, "2♣", "")
    expect_draw(draw, "2♥ 3♥ 4♥", "", 3, "", "4♥ 3♥ 2♥")
    expect_draw_error(draw, "2♣ 3♣", "A♠", 3)
    expect_draw_error(draw, "2♥ 3♥", "K♠", -1)


# ------------------------------------------------------------------------------- step 4: discard

#: The hand the discard checks start from: 12 cards, so positions reach two digits.
DISCARD_HAND = "2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠"


def expect_discard(discard: Callable[..., Any], positions: list[int],
                   hand_text: str = DISCARD_HAND) -> None:
    """Check ``discard(hand, positions)`` on the kit's cards: it returns the cards that were at
    ``positions`` (in that order) and leaves the others, in order."""
    held = hand(hand_text)
    before = list(held)
    call = f"discard(hand=[{labels(held)}], {positions!r})"
    removed = KNOWN.discard(list(before), list(positions))
    kept = [card for card in before if card not in removed]
    result = run(call, lambda: discard(held, list(positions)))
    if not same(removed, result):
        raise CheckFailed(f"{call}: expected it to return {show(removed)}, got {show(result)}")
    expect_cards(call, "hand", kept, held)


def expect_discard_error(discard: Callable[..., Any], positions: list[int], kind: type[Exception],
                         hand_text: str = DISCARD_HAND) -> None:
    """Check ``discard`` raises ``kind`` for ``positions`` and leaves the hand unchanged."""
    held = hand(hand_text)
    before = list(held)
    call = f"discard(hand=[{labels(held)}], {positions!r})"
    expect_error(call, kind, lambda: discard(held, list(positions)))
    expect_cards(call + " (an error)", "hand", before, held)


def check_discard(discard: Callable[..., Any]) -> None:
    """Check step 4's discard (the visible cell's cases, in its order): one position; two
    given high first, low first (the shift) and two-digit (sorted as numbers); none; errors."""
    expect_discard(discard, [1], "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard(discard, [3, 0], "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard(discard, [1, 3], "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard(discard, [2, 10], "2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠")
    expect_discard(discard, [], "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard_error(discard, [5], IndexError, "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard_error(discard, [-1], IndexError, "2♣ 3♦ 4♥ 5♠ 6♣")
    expect_discard_error(discard, [2, 2], ValueError, "2♣ 3♦ 4♥ 5♠ 6♣")


# ------------------------------------------------------------------------------ step 5: ordering

def plain_key(value: Any) -> bool:
    """Return True for a key Python sorts by value: an int, float or str, or a tuple of them
    (never a bool: True and False cannot tell 52 cards apart)."""
    if _type(value) in (int, float, str):
        return True
    return _type(value) is tuple and all(plain_key(item) for item in value)


def expect_keys_order(sort_key: Callable[[Any], Any], text: str) -> None:
    """Check that ``sort_key`` gives the kit's cards ``text`` (written in hand order) strictly
    increasing keys, each a plain value (int, str, float or a tuple of them)."""
    cards = hand(text)
    keys = []
    for card in cards:
        key = run(f"sort_key({label(card)})", lambda card=card: sort_key(card))
        if not plain_key(key):
            raise CheckFailed(f"sort_key({label(card)}): expected a key to sort by (a number, or "
                              f"a tuple such as (suit number, value)), got {show(key)}"
                              f" ({_type(key).__name__}); a key is not a comparison: it is "
                              "what the card is compared BY")
        keys.append(key)
    for (a, key_a), (b, key_b) in zip(zip(cards, keys), zip(cards[1:], keys[1:])):
        smaller = run(f"sort_key({label(a)}) < sort_key({label(b)})", lambda x=key_a, y=key_b:
                      x < y)
        if smaller is not True:
            raise CheckFailed(f"sort_key({label(a)}) < sort_key({label(b)}): expected True "
                              f"({label(a)} comes first in a hand), got {show(key_a)} and "
                              f"{show(key_b)}")


def check_sort_key(sort_key: Callable[[Any], Any]) -> None:
    """Check step 5's sort_key (the visible cell's case): suits clubs < diamonds < hearts <
    spades, then value 2…A."""
    expect_keys_order(sort_key, "2♣ 10♣ A♣ 2♦ K♦ 3♥ 9♠ A♠")


def expect_order(order_hand: Callable[[list[Any]], Any], text: str) -> None:
    """Check ``order_hand`` on the kit's cards ``text``: a new list (never the one given) in
    hand order, the hand itself unchanged. ``sort_key`` answers as the kit's meanwhile
    (``KNOWN.sort_key``: step 5's parts are graded alone); the expected hand is
    ``KNOWN.order_hand``'s."""
    held = hand(text)
    before = list(held)
    call = f"order_hand([{labels(held)}])"
    expected = KNOWN.order_hand(list(before))
    with substituted(order_hand, sort_key=KNOWN.sort_key):
        result = run(call, lambda: order_hand(held))
    if not same(expected, result):
        raise CheckFailed(f"{call}: expected {show(expected)}, got {show(result)}")
    expect_cards(call, "the hand passed in (order_hand returns a new list)", before, held)
    if result is held:
        raise CheckFailed(f"{call}: expected a new list, got the very list it was given (a "
                          "hand already in order comes back as a new list too)")


def check_order_hand(order_hand: Callable[[list[Any]], Any]) -> None:
    """Check step 5's order_hand (the visible cell's cases, in its order): a small mixed hand
    and an empty one."""
    expect_order(order_hand, "K♥ 2♣ 10♦ 3♥")
    expect_order(order_hand, "")


# ------------------------------------------------------------------ step 6: your tests of deal
# The buggy versions the notebook shows (the hidden ones are in the step's test cell). Each is
# right but for its one mistake, so a test catches it only by asserting what deal must do.

def _how_many(deck: list[Any], num_players: int, cards_each: int | None) -> int:
    """Return the cards each player gets, raising ValueError as a correct deal does."""
    if num_players < 1:
        raise ValueError(f"cannot deal to {num_players} players: at least 1 is needed")
    if cards_each is None:
        cards_each = _len(deck) // num_players
    if cards_each < 0:
        raise ValueError(f"cannot deal {cards_each} cards each: the number must be 0 or more")
    if num_players * cards_each > _len(deck):
        raise ValueError(f"cannot deal {cards_each} cards each to {num_players} players: "
                         f"the deck has {_len(deck)} cards")
    return cards_each


def _keeps_the_cards(deck: list[Any], num_players: int,
                     cards_each: int | None = None) -> list[list[Any]]:
    cards_each = _how_many(deck, num_players, cards_each)
    hands: list[list[Any]] = [[] for _ in range(num_players)]
    for turn in range(cards_each):
        for player, player_hand in enumerate(hands):
            player_hand.append(deck[-1 - turn * num_players - player])
    return hands


def _whole_deck_by_default(deck: list[Any], num_players: int,
                           cards_each: int | None = None) -> list[list[Any]]:
    if cards_each is not None:
        _how_many(deck, num_players, cards_each)
    elif num_players < 1:
        raise ValueError(f"cannot deal to {num_players} players: at least 1 is needed")
    hands: list[list[Any]] = [[] for _ in range(num_players)]
    dealt = 0
    while deck and (cards_each is None or dealt < num_players * cards_each):
        hands[dealt % num_players].append(deck.pop())
        dealt += 1
    return hands


def _no_short_deck_check(deck: list[Any], num_players: int,
                         cards_each: int | None = None) -> list[list[Any]]:
    if num_players < 1:
        raise ValueError(f"cannot deal to {num_players} players: at least 1 is needed")
    if cards_each is None:
        cards_each = _len(deck) // num_players
    hands: list[list[Any]] = [[] for _ in range(num_players)]
    for _ in range(cards_each):
        for player_hand in hands:
            player_hand.append(deck.pop())
    return hands


DEAL_MISTAKES: tuple[Version, ...] = (
    version("leaves the dealt cards in the deck (it reads them instead of popping them)",
            deal=_keeps_the_cards),
    version("deals out the whole deck when cards_each is None (some players get a card more)",
            deal=_whole_deck_by_default),
    version("never checks the deck is long enough (pop from an empty list: IndexError)",
            deal=_no_short_deck_check),
)


class _Reached(BaseException):
    """Raised by the gate's stand-in: the tests got as far as calling ``deal``."""


def _reached(*args: Any, **kwargs: Any) -> Any:
    raise _Reached()


def check_deal_tests(my_deal_tests: Callable[..., Any]) -> None:
    """Check step 6 for the gate: ``my_deal_tests(deal)`` is written (it no longer raises
    NotImplementedError before testing anything). What it catches is graded when the work is:
    on a correct deal, and on buggy ones."""
    import inspect

    try:
        inspect.signature(my_deal_tests).bind(deal=_reached)
    except (TypeError, ValueError):
        raise CheckFailed("my_deal_tests must take one parameter, deal: "
                          "def my_deal_tests(deal):") from None
    try:
        my_deal_tests(deal=_reached)
    except NotImplementedError:
        raise
    except (_Reached, Exception):  # noqa: BLE001  written: what it catches is graded later
        return


__all__ = [
    "CheckFailed", "Always", "same", "show", "expect_value", "check_shape", "run",
    "DECK_ORDER", "DISCARD_HAND", "KNOWN", "expect_cards", "expect_error",
    "check_new_deck", "expect_new_deck", "expect_new_each_call", "check_shuffle",
    "expect_shuffle", "fisher_yates_draws", "shuffled_by", "expect_fair_shuffle",
    "expect_cards_can_stay", "later_count", "check_deal", "expect_deal", "expect_deal_error",
    "show_hands", "check_draw", "expect_draw", "expect_draw_error", "check_discard",
    "expect_discard", "expect_discard_error", "check_sort_key", "expect_keys_order",
    "check_order_hand", "expect_order",
    "Version", "version", "try_my_tests", "grade_my_tests", "DEAL_MISTAKES", "check_deal_tests",
]
