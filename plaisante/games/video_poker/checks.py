"""The checks of the video-poker machine's steps, shared by the notebook's test cells and the
gate.

Each ``check_*`` takes the student's part as a parameter, calls it with plain data only (kit
cards, ints, strs, a ``random.Random``), compares strictly (``same``) and raises
``CheckFailed`` naming the call, the expected value and the actual one. A student's
``NotImplementedError`` goes through untouched. Under the judge a part is a handle whose calls
go to the student's kernel: a ``Machine`` is built there and only its methods are called and its
attributes read. Each step is judged on its own: ``hand_name`` counts with the kit's tally,
``payout`` and ``Machine.draw`` hear the hand's name and win from stand-ins.

What a check compares with and stands in with comes from ``KNOWN``: in the student's kernel,
tables of the visible cases' answers (data, not an implementation of any part); in the grader,
the known-good parts of ``known_good``, which answer the hidden cases too.

Step 5's tests are the student's own (``plaisante.student_side.student_tests``): its cell judges
them on a correct ``hand_name`` and ``Machine`` and on buggy ones; the gate only checks they are
written (``check_port_tests``), and ``refused`` is the helper they may use.
"""

from __future__ import annotations

import builtins
import os
import random
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from ...student_side.cards import KitCard, hand, labels
from ...student_side.checking import (
    Always,
    AnyOrder,
    CheckFailed,
    Known,
    check_shape,
    expect_value,
    plain,
    run,
    same,
    show,
    substituted,
)
from ...student_side.student_tests import Version, grade_my_tests, try_my_tests, version
from .rules import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HAND_SIZE,
    MAX_BET,
    MIN_BET,
    NOTHING,
    PAIR,
    PAYS,
    ROYAL_FLUSH,
    START_CREDITS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    new_deck,
)
from .saving import bad_file_notice
from .visible import VISIBLE_COUNTS, VISIBLE_NAMES, VISIBLE_WINS

#: The right answers of the parts the checks stand in with and compare with: here the visible
#: cases' (``visible``), in the grader the known-good parts (``known_good`` calls ``use``).
KNOWN = Known(frequencies=AnyOrder("frequencies", VISIBLE_COUNTS),
              hand_name=AnyOrder("hand_name", VISIBLE_NAMES),
              payout=AnyOrder("payout", VISIBLE_WINS))

# Bound at import so a part that patches builtins cannot change what a check sees.
_type: Any = builtins.type
_len: Any = builtins.len


# --------------------------------------------------------------------------- step 1: frequencies

def expect_frequencies(frequencies: Callable[[list[Any]], Any], text: str,
                       expected: dict[int, int]) -> None:
    """Check ``frequencies`` on the kit's cards written ``text``: the 15-slot list with
    ``expected`` (value → count) filled in, and the cards left as they were."""
    cards = hand(text)
    before = list(cards)
    call = f"frequencies({labels(cards) if cards else '[]'})"
    expect_value(call, [expected.get(value, 0) for value in range(15)],
                 lambda: frequencies(cards))
    if not same(before, cards):
        raise CheckFailed(f"after {call}: expected the cards unchanged, got {show(cards)}")


def check_frequencies(frequencies: Callable[[list[Any]], Any]) -> None:
    """Check step 1: a 15-slot list, slot = value, for a few hands."""
    expect_frequencies(frequencies, "K♥ K♦ 3♣ 7♠ 9♥", {13: 2, 3: 1, 7: 1, 9: 1})
    expect_frequencies(frequencies, "2♣ 2♦ 2♥ 10♠ 10♣", {2: 3, 10: 2})
    expect_frequencies(frequencies, "A♥ 5♣ A♠ 9♦ 2♣", {14: 2, 5: 1, 9: 1, 2: 1})
    expect_frequencies(frequencies, "", {})


# ----------------------------------------------------------------------------- step 2: hand_name

#: One hand of every name (the visible test).
EVERY_NAME: tuple[tuple[str, str], ...] = (
    ("10♥ J♥ Q♥ K♥ A♥", ROYAL_FLUSH),
    ("5♠ 6♠ 7♠ 8♠ 9♠", STRAIGHT_FLUSH),
    ("9♣ 9♦ 9♥ 9♠ K♣", FOUR_OF_A_KIND),
    ("3♣ 3♦ 3♥ K♠ K♣", FULL_HOUSE),
    ("2♦ 7♦ 9♦ J♦ K♦", FLUSH),
    ("8♣ 9♦ 10♥ J♠ Q♣", STRAIGHT),
    ("7♣ 7♦ 7♥ 2♠ K♣", THREE_OF_A_KIND),
    ("4♣ 4♦ J♥ J♠ A♣", TWO_PAIR),
    ("2♣ 2♦ 6♥ 9♠ K♣", PAIR),
    ("2♣ 5♦ 8♥ J♠ K♣", NOTHING),
)


def expect_name(hand_name: Callable[[list[Any]], Any], text: str, expected: str) -> None:
    """Check ``hand_name`` names the kit's cards ``text`` ``expected``, counting with the kit's
    tally (a mistake in ``frequencies`` costs step 1 only)."""
    cards = hand(text)
    with substituted(hand_name, frequencies=KNOWN.frequencies):
        expect_value(f"hand_name({labels(cards)})", expected, lambda: hand_name(cards))


def check_hand_name(hand_name: Callable[[list[Any]], Any]) -> None:
    """Check step 2: one hand of every name, then the ace low, no straight round the corner
    and no straight with a pair (the visible test cell's cases, in its order)."""
    for text, name in EVERY_NAME:
        expect_name(hand_name, text, name)
    expect_name(hand_name, "3♠ A♣ 5♦ 2♥ 4♣", STRAIGHT)
    expect_name(hand_name, "K♠ A♦ 2♣ 3♥ 4♠", NOTHING)
    expect_name(hand_name, "6♣ 6♦ 7♥ 8♠ 10♣", PAIR)


# -------------------------------------------------------------------------------- step 3: payout

def expect_payout(payout: Callable[[list[Any], int], Any], text: str, name: str,
                  bet: int) -> None:
    """Check ``payout(cards, bet)`` on the kit's cards ``text`` (a ``name``): the pay table's
    row times the bet. While it runs, ``hand_name`` answers ``name`` (a stand-in), so a mistake
    in step 2 costs step 2 only."""
    cards = hand(text)
    with substituted(payout, hand_name=Always(name)):
        expect_value(f"payout({labels(cards)}, {bet}) (a {name})", PAYS[name] * bet,
                     lambda: payout(cards, bet))


def check_payout(payout: Callable[[list[Any], int], Any]) -> None:
    """Check step 3: a few rows of the pay table at each bet."""
    expect_payout(payout, "3♣ 3♦ 3♥ K♠ K♣", FULL_HOUSE, 5)
    expect_payout(payout, "4♣ 4♦ J♥ J♠ A♣", TWO_PAIR, 10)
    expect_payout(payout, "2♣ 2♦ 6♥ 9♠ K♣", PAIR, 15)
    expect_payout(payout, "2♣ 5♦ 8♥ J♠ K♣", NOTHING, 15)


# ------------------------------------------------------------------------------- step 4: Machine

def kit_deal(seed: int) -> tuple[list[KitCard], list[KitCard]]:
    """Return (the 5 cards dealt, the deck left) when a machine built with
    ``random.Random(seed)`` deals its first game: a new deck, ``rng.shuffle(deck)``, then five
    ``deck.pop()``."""
    return _deal(random.Random(seed))


def _deal(rng: random.Random) -> tuple[list[KitCard], list[KitCard]]:
    deck = new_deck()
    rng.shuffle(deck)
    cards = [deck.pop() for _ in range(HAND_SIZE)]
    return cards, deck


def after_draw(cards: list[KitCard], deck: list[KitCard], held: list[bool]) -> list[KitCard]:
    """Return the cards after a draw: each card not held replaced, in position order, by the
    top of ``deck`` (which loses them)."""
    return [card if keep else deck.pop() for card, keep in zip(cards, held)]


def expect_state(machine: Any, call: str, **expected: Any) -> None:
    """Check the machine's attributes after ``call``, each compared strictly."""
    for name, wanted in expected.items():
        actual = run(f"after {call}: machine.{name}", lambda name=name: getattr(machine, name))
        if not same(wanted, actual):
            raise CheckFailed(f"after {call}: expected machine.{name} = {show(wanted)}, got "
                              f"{show(actual)}")


def state(machine: Any) -> dict[str, Any]:
    """Return the machine's observable state (for "changes nothing"), its lists copied: in the
    student's notebook a list read from the machine is the machine's own, so a refused action
    that changed it in place would change the "before" too and go unseen (under the judge it
    is a copy either way: both modes judge alike)."""
    read = {name: run(f"machine.{name}", lambda name=name: getattr(machine, name))
            for name in ("credits", "games", "bet", "cards", "held", "dealt", "name", "win")}
    return {name: list(value) if _type(value) is list else value for name, value in read.items()}


def expect_refused(machine: Any, call: str, action: Callable[[], Any],
                   mentions: tuple[str, ...] = ()) -> None:
    """Check ``action`` raises ValueError whose message holds every text of ``mentions``, and
    leaves the machine exactly as it was (its state before, read from the student's machine,
    must be plain data: it is what the state after is compared with)."""
    before = state(machine)
    for name, value in before.items():
        if not plain(value):
            raise CheckFailed(f"before {call}: machine.{name} should be plain data (an int, a "
                              f"bool, a str, None, a list of cards or bools), got {show(value)}")
    try:
        value = action()
    except NotImplementedError:
        raise
    except ValueError as error:
        absent = [text for text in mentions if text not in str(error)]
        if absent:
            raise CheckFailed(f"{call}: the ValueError should name {', '.join(mentions)}; its "
                              f"message {str(error)!r} lacks {', '.join(absent)}") from None
    except Exception as error:
        raise CheckFailed(f"{call}: expected ValueError naming the rule, got "
                          f"{_type(error).__name__}: {error}") from error
    else:
        raise CheckFailed(f"{call}: expected ValueError naming the rule, got no error (it "
                          f"returned {show(value)})")
    expect_state(machine, f"{call} (refused)", **before)


def draw_as_dealt(machine: Any) -> None:
    """Call ``machine.draw()`` while ``hand_name`` and ``payout`` are the kit's (stand-ins
    that answer by the cards they are given: a mistake in steps 2–3 costs those steps only,
    and naming the cards dealt instead of those drawn is seen)."""
    draw = run("machine.draw", lambda: machine.draw)
    with substituted(draw, hand_name=KNOWN.hand_name, payout=KNOWN.payout):
        run("machine.draw()", draw)


def _refilled(credits: int) -> int:
    return START_CREDITS if credits < MIN_BET else credits


def _game_case(game: Any) -> tuple[int, list[bool], str, int]:
    """Return a game of ``expect_games`` as (bets, held, name, win); ValueError names what is
    wrong (the test's own data)."""
    if (_type(game) is not tuple or _len(game) != 4 or _type(game[0]) is not int
            or not 1 <= game[0] <= MAX_BET // MIN_BET or _type(game[1]) is not list
            or _len(game[1]) != HAND_SIZE or any(_type(keep) is not bool for keep in game[1])
            or game[2] not in PAYS or _type(game[3]) is not int):
        raise ValueError(f"a game is (presses of Bet 1 to 3, five bools held, a hand name, "
                         f"its win), got {game!r}")
    bets, held, name, win = game
    return bets, held, name, win


def expect_games(Machine: Any, seed: int, games: list[tuple[int, list[bool], str, int]],
                 credits: int | None = None) -> Any:
    """Play ``games`` one after the other on one machine built with ``random.Random(seed)``
    (and ``credits``), checking the state after every action. Each game is (bets, held, name,
    win): press Bet ``bets`` times, deal (cards as that generator deals them), hold ``held``
    (True at a position: toggle_hold of it), draw; ``name`` and ``win`` are what the cards
    drawn make and pay at that bet (the draw hears them from the kit's ``KNOWN.hand_name`` and
    ``KNOWN.payout``). Returns the machine. ValueError if a game is not of that shape or its
    name or win is not what its cards make (the test's own data)."""
    rng = random.Random(seed)  # draws what the machine's own generator draws
    options = ", ".join([f"rng=random.Random({seed})"]
                        + ([] if credits is None else [f"credits={credits}"]))
    made = f"Machine({options})"
    machine = run(made, lambda: Machine(rng=random.Random(seed)) if credits is None
                  else Machine(rng=random.Random(seed), credits=credits))
    left = _refilled(START_CREDITS if credits is None else credits)
    expect_state(machine, made, credits=left, games=0, bet=0, cards=[],
                 held=[False] * HAND_SIZE, dealt=False, name=None, win=0, notice=None)
    done = made
    for number, game in enumerate(games, start=1):
        bets, held, name, win = _game_case(game)
        for press in range(1, bets + 1):
            run("machine.place_bet()", machine.place_bet)
            expect_state(machine, f"{done}, place_bet() × {press}", bet=MIN_BET * press,
                         credits=left)
        bet = MIN_BET * bets
        cards, deck = _deal(rng)
        run("machine.deal()", machine.deal)
        done = f"{done}, a bet of {bet}, deal()"
        expect_state(machine, done, cards=cards, held=[False] * HAND_SIZE, credits=left - bet,
                     bet=bet, dealt=True, name=None, win=0)
        positions = [i for i, keep in enumerate(held) if keep]
        for position in positions:
            run(f"machine.toggle_hold({position})", lambda p=position: machine.toggle_hold(p))
        if positions:
            done = f"{done}, toggle_hold of {positions}"
        expect_state(machine, done, held=held, cards=cards)
        drawn = after_draw(cards, deck, held)
        made, paid = KNOWN.hand_name(drawn), KNOWN.payout(drawn, bet)
        if (made, paid) != (name, win):
            raise ValueError(f"game {number}: {labels(drawn)} is a {made} paying {paid}, not "
                             f"a {name} paying {win}")
        draw_as_dealt(machine)
        left = _refilled(left - bet + win)
        done = f"{done}, draw() (dealt {labels(cards)})"
        expect_state(machine, done, cards=drawn, name=name, win=win, credits=left,
                     games=number, bet=0, dealt=False)
    return machine


#: What ``expect_refusals`` may press: a method name, and whether it takes a position.
ACTIONS = {"place_bet": False, "bet_max": False, "deal": False, "draw": False,
           "toggle_hold": True}


def _action(machine: Any, text: str) -> Callable[[], Any]:
    """Return the call ``text`` (e.g. ``"toggle_hold(5)"``) of ``machine``; ValueError names
    the actions allowed."""
    name, _, rest = text.partition("(")
    takes = ACTIONS.get(name)
    inside = rest[:-1] if rest.endswith(")") else None
    allowed = "place_bet(), bet_max(), deal(), draw() or toggle_hold(<an int>)"
    if takes is None or inside is None or (inside != "") is not takes:
        raise ValueError(f"an action is {allowed}, got {text!r}")
    method: Callable[..., Any] = run(f"machine.{name}", lambda: getattr(machine, name))
    if not takes:
        return method
    try:
        position = int(inside)
    except ValueError:
        raise ValueError(f"an action is {allowed}, got {text!r}") from None
    return partial(method, position)


def expect_refusals(Machine: Any, seed: int, between: list[str], during: list[str]) -> None:
    """On a machine built with ``random.Random(seed)`` that has played one game (bet 5, deal,
    draw), check each action of ``between`` is refused while it waits for a bet; then bet 5
    and deal, and check each action of ``during`` is refused while the game waits for its
    draw. Refused: ValueError, and the machine left exactly as it was. Actions are written
    as calls: ``"draw()"``, ``"toggle_hold(5)"`` (see ``ACTIONS``)."""
    made = f"Machine(rng=random.Random({seed}))"
    machine = run(made, lambda: Machine(rng=random.Random(seed)))
    for call in ("place_bet", "deal"):
        run(f"machine.{call}()", getattr(machine, call))
    draw_as_dealt(machine)
    for text in between:
        expect_refused(machine, f"{made}, one game played, {text}", _action(machine, text))
    for call in ("place_bet", "deal"):
        run(f"machine.{call}()", getattr(machine, call))
    for text in during:  # a position refused names the last one allowed
        expect_refused(machine, f"{made}, a bet of 5, deal(), {text}", _action(machine, text),
                       (str(HAND_SIZE - 1),) if text.startswith("toggle_hold") else ())


def check_machine(Machine: Any) -> None:
    """Check step 4's rules: bet, deal, hold, draw, pay, count, refill, and what is refused
    (the visible test cell's cases, in its order)."""
    expect_games(Machine, 24, [(2, [False, True, True, True, False], THREE_OF_A_KIND, 30),
                               (2, [True, False, False, False, True], TWO_PAIR, 20)])
    expect_games(Machine, 6, [(1, [False, False, False, False, False], NOTHING, 0)],
                 credits=8)
    expect_games(Machine, 1, [], credits=3)
    expect_games(Machine, 1, [], credits=5)
    expect_refusals(Machine, 24, ["draw()", "deal()", "toggle_hold(0)"],
                    ["place_bet()", "bet_max()", "deal()", "toggle_hold(5)",
                     "toggle_hold(-1)"])
    expect_bets(Machine, 100)
    expect_bets(Machine, 10)
    expect_bet_max(Machine, 35)


@contextmanager
def scratch_path() -> Iterator[str]:
    """Yield a file name in the current folder that nothing uses (the student's kernel writes
    it; under the judge that folder is the sandbox's own); remove it afterwards if it is here."""
    path = f"video-poker-check-{uuid.uuid4().hex[:12]}.json"
    try:
        yield path
    finally:
        for leftover in (path, path + ".tmp", path + ".corrupt-1"):
            if os.path.isfile(leftover):
                os.remove(leftover)


def _reopen(Machine: Any, path: str, done: str, shown: tuple[int, int]) -> None:
    """Check a new machine on ``path`` (after ``done``) shows ``shown`` = (credits, games)."""
    again = run(f"Machine(path={path!r})", lambda: Machine(path=path))
    expect_state(again, f"{done}, then a new Machine on the same file", credits=shown[0],
                 games=shown[1], bet=0, dealt=False)


def expect_saving(Machine: Any, seed: int, bets: int, held: list[bool],
                  after_deal: tuple[int, int], after_draw: tuple[int, int]) -> None:
    """Check saved credits: a machine built with ``random.Random(seed)`` on a new file
    starts at 100 credits and 0 games; after Bet × ``bets`` and deal(), a new machine on the
    same file shows ``after_deal`` = (credits, games); after holding ``held`` and draw()
    (named and paid by the kit), ``after_draw``. The file is removed afterwards."""
    with scratch_path() as path:
        made = f"Machine(rng=random.Random({seed}), path={path!r})"
        machine = run(made, lambda: Machine(rng=random.Random(seed), path=path))
        expect_state(machine, f"{made} (no such file yet)", credits=START_CREDITS, games=0,
                     notice=None)
        for _ in range(bets):
            run("place_bet()", machine.place_bet)
        run("deal()", machine.deal)
        done = f"{made}, a bet of {MIN_BET * bets}, deal()"
        _reopen(Machine, path, done, after_deal)
        for position in (i for i, keep in enumerate(held) if keep):
            run(f"toggle_hold({position})", lambda p=position: machine.toggle_hold(p))
        draw_as_dealt(machine)
        _reopen(Machine, path, f"{done}, holding {held}, draw()", after_draw)


def expect_reopened(Machine: Any, credits: int, bets: int, shown: tuple[int, int]) -> None:
    """Check a save is loaded before the refill: a machine made with ``credits`` on a new
    file, Bet × ``bets``, deal(); a new machine on the same file shows ``shown`` =
    (credits, games)."""
    with scratch_path() as path:
        made = f"Machine(path={path!r}, credits={credits})"
        machine = run(made, lambda: Machine(path=path, credits=credits))
        for _ in range(bets):
            run("place_bet()", machine.place_bet)
        run("deal()", machine.deal)
        _reopen(Machine, path, f"{made}, a bet of {MIN_BET * bets}, deal()", shown)


def expect_saved_by_save_credits(Machine: Any, seed: int) -> None:
    """Check the machine writes its file only by calling ``save_credits`` (which writes
    atomically): while deal() and draw() run with a ``save_credits`` that writes nothing, no
    file appears, so a new machine on it starts fresh (100 credits, 0 games)."""
    with scratch_path() as path:
        made = f"Machine(rng=random.Random({seed}), path={path!r})"
        machine = run(made, lambda: Machine(rng=random.Random(seed), path=path))
        run("place_bet()", machine.place_bet)
        for call in ("deal", "draw"):
            method = run(f"machine.{call}", lambda call=call: getattr(machine, call))
            with substituted(method, save_credits=Always(None), hand_name=KNOWN.hand_name,
                             payout=KNOWN.payout):
                run(f"machine.{call}()", method)
        again = run(f"Machine(path={path!r})", lambda: Machine(path=path))
        expect_state(again, f"{made}, a bet of 5, deal(), draw(), each with a save_credits "
                     "that writes nothing, then a new Machine on the same file (save only by "
                     "calling save_credits: it never leaves half a file)",
                     credits=START_CREDITS, games=0)


def expect_damaged_save(Machine: Any) -> None:
    """Check a damaged save: while a new machine is built on a file that ``load_credits``
    finds damaged (it answers ``(None, notice)``, the file set aside), the machine keeps that
    notice in ``notice`` and starts fresh (100 credits, 0 games)."""
    with scratch_path() as path:
        notice = bad_file_notice(path, f"{path}.corrupt-1",
                                 "it is not JSON (Expecting ',' delimiter at character 13)")
        made = f"Machine(path={path!r})"
        with substituted(Machine, load_credits=Always((None, notice))):
            again = run(made, lambda: Machine(path=path))
        expect_state(again, f"{made} on a file load_credits finds damaged (it answers "
                     f"(None, {notice!r}))", notice=notice, credits=START_CREDITS, games=0)


def check_saved_credits(Machine: Any) -> None:
    """Check step 4's saved credits (the visible test cell's cases, in its order)."""
    expect_saving(Machine, 24, 1, [True, True, True, True, True], (95, 0), (110, 1))
    expect_reopened(Machine, 8, 1, (100, 0))
    expect_saved_by_save_credits(Machine, 24)
    expect_damaged_save(Machine)


def expect_bets(Machine: Any, credits: int) -> None:
    """Check Bet on a machine with ``credits``: 5 a press, up to 15 and never beyond the
    credits; Bet max only with 15 credits; refusals change nothing."""
    made = f"Machine(rng=random.Random(3), credits={credits})"
    machine = run(made, lambda: Machine(rng=random.Random(3), credits=credits))
    allowed = min(MAX_BET, credits - credits % MIN_BET)
    for bet in range(MIN_BET, allowed + 1, MIN_BET):
        run("place_bet()", machine.place_bet)
        expect_state(machine, f"{made}, place_bet() × {bet // MIN_BET}", bet=bet,
                     credits=credits)
    presses = allowed // MIN_BET + 1
    mentions = (str(MAX_BET),) if allowed == MAX_BET else (str(credits),)
    expect_refused(machine, f"{made}, place_bet() × {presses}", machine.place_bet, mentions)
    if credits < MAX_BET:
        expect_refused(machine, f"{made}, bet_max()", machine.bet_max, (str(MAX_BET),))


def expect_bet_max(Machine: Any, seed: int, credits: int | None = None) -> None:
    """Check Bet max on a new machine (with ``credits``; 15 or more): bets 15 and deals at
    once; refused during the game."""
    made = f"Machine(rng=random.Random({seed})" + ("" if credits is None
                                                   else f", credits={credits}") + ")"
    machine = run(made, lambda: Machine(rng=random.Random(seed)) if credits is None
                  else Machine(rng=random.Random(seed), credits=credits))
    run("bet_max()", machine.bet_max)
    cards, _ = kit_deal(seed)
    start = START_CREDITS if credits is None else credits
    expect_state(machine, f"{made}, bet_max()", bet=MAX_BET, credits=start - MAX_BET,
                 cards=cards, held=[False] * HAND_SIZE, dealt=True, games=0)
    expect_refused(machine, f"{made}, bet_max() twice", machine.bet_max)
    expect_refused(machine, f"{made}, bet_max(), deal()", machine.deal)


def expect_holds(Machine: Any, seed: int, positions: list[int]) -> None:
    """Check toggle_hold: each toggle flips one card; positions outside 0…4 are refused."""
    made = f"Machine(rng=random.Random({seed}))"
    machine = run(made, lambda: Machine(rng=random.Random(seed)))
    run("place_bet()", machine.place_bet)
    run("deal()", machine.deal)
    held = [False] * HAND_SIZE
    for position in positions:
        run(f"toggle_hold({position})", lambda p=position: machine.toggle_hold(p))
        held[position] = not held[position]
    expect_state(machine, f"deal(), toggle_hold of {positions}", held=held)
    for wrong in (HAND_SIZE, -1):
        expect_refused(machine, f"toggle_hold({wrong})", partial(machine.toggle_hold, wrong),
                       (str(HAND_SIZE - 1),))


def expect_deck(Machine: Any, seed: int, held: list[bool]) -> None:
    """Check ``machine.deck``, the cards left to draw from (its end the top), on a machine
    built with ``random.Random(seed)``: after a bet of 5 and deal(), the 47 cards that deal
    left, in order, and still those after a deal() refused during the game; after holding
    ``held`` and draw() (named and paid by the kit), without the cards drawn from its top."""
    made = f"Machine(rng=random.Random({seed}))"
    machine = run(made, lambda: Machine(rng=random.Random(seed)))
    run("place_bet()", machine.place_bet)
    run("deal()", machine.deal)
    cards, deck = kit_deal(seed)
    done = f"{made}, a bet of {MIN_BET}, deal()"
    expect_state(machine, done, deck=list(deck))
    expect_refused(machine, f"{done}, deal()", machine.deal)
    expect_state(machine, f"{done}, deal() again (refused)", deck=list(deck))
    positions = [i for i, keep in enumerate(held) if keep]
    for position in positions:
        run(f"toggle_hold({position})", lambda p=position: machine.toggle_hold(p))
    after_draw(cards, deck, held)
    draw_as_dealt(machine)
    expect_state(machine, f"{done}, toggle_hold of {positions}, draw()", deck=deck)


# ----------------------------------------------------------------- step 5: your tests of the port

def refused(action: Callable[[], Any]) -> bool:
    """Return True when ``action()`` raises ValueError (a rule refused it), False when it runs
    without an error. Any other error goes through. For a student's tests:
    ``assert refused(lambda: machine.toggle_hold(7))``."""
    try:
        action()
    except ValueError:
        return True
    return False


class _Reached(BaseException):
    """Raised by the gate's stand-ins: the tests got as far as calling what they test."""


def _reached(*args: Any, **kwargs: Any) -> Any:
    raise _Reached()


def check_port_tests(my_port_tests: Callable[..., Any]) -> None:
    """Check step 5 for the gate: ``my_port_tests(hand_name, Machine)`` is written (it no
    longer raises NotImplementedError before testing anything). What it catches is graded when
    the work is: on a correct hand_name and Machine, and on buggy ones."""
    import inspect

    try:
        inspect.signature(my_port_tests).bind(hand_name=_reached, Machine=_reached)
    except (TypeError, ValueError):
        raise CheckFailed("my_port_tests must take two parameters, hand_name and Machine: "
                          "def my_port_tests(hand_name, Machine):") from None
    try:
        my_port_tests(hand_name=_reached, Machine=_reached)
    except NotImplementedError:
        raise
    except (_Reached, Exception):  # noqa: BLE001  written: what it catches is graded later
        return


__all__ = [
    "CheckFailed", "Always", "same", "show", "expect_value", "substituted", "check_shape",
    "KNOWN", "expect_frequencies", "check_frequencies", "EVERY_NAME", "expect_name",
    "check_hand_name", "expect_payout", "check_payout", "kit_deal", "after_draw",
    "expect_state", "expect_refused", "draw_as_dealt", "expect_games", "expect_refusals",
    "check_machine", "expect_saving", "expect_reopened", "expect_saved_by_save_credits",
    "expect_damaged_save", "check_saved_credits", "expect_bets", "expect_bet_max",
    "expect_holds", "expect_deck",
    "Version", "version", "try_my_tests", "grade_my_tests", "refused", "check_port_tests",
]
