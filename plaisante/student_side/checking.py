"""What every assignment's checks are made of: strict comparison, a readable show of any value,
``expect_value`` and its one-line ``CheckFailed``, stand-ins for earlier steps (``Always``,
``substituted``) and the shape check of a trace-it-by-hand answer.

A check calls a student's part with plain data and compares what comes back strictly (type and
value, see ``same``): an object whose ``==`` always answers True is not a list, an int or a
bool, and earns nothing. A student's ``NotImplementedError`` goes through untouched, so "not
started" stays distinct from "wrong". Each game's own checks (``plaisante.games.<id>.checks``)
are built from these.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .cards import KitCard, labels
from .tracebacks import BriefTraceback

# Bound at import so a submission that patches builtins later cannot change what a check sees.
_type: Any = builtins.type
_len: Any = builtins.len
_repr: Any = builtins.repr
_isinstance: Any = builtins.isinstance


class CheckFailed(BriefTraceback, AssertionError):
    """A check's case gave the wrong answer; the message says which input, expected and actual.
    In a notebook it shows as one line, ``✘`` and the message (``BriefTraceback``).
    """


# ---------------------------------------------------------------------------- comparing values

def same(expected: Any, actual: Any) -> bool:
    """Return True when ``actual`` has exactly the type of ``expected`` and an equal value, at
    every depth.

    Lists and tuples compare item by item, dicts key by key (each of ``actual``'s keys must be
    exactly a str or an int); bool and None by identity; anything else (int, str, float, the
    kit's cards) by the ``__eq__`` of ``expected``'s type, so ``actual``'s own ``==`` is never
    asked. The walk follows ``expected`` (the check's own, small value) and stops at the first
    difference: its cost does not depend on how often ``actual`` shares one object.
    """
    kind = _type(expected)
    if _type(actual) is not kind:
        return False
    if kind is list or kind is tuple:
        return _len(actual) == _len(expected) and all(
            same(e, a) for e, a in zip(expected, actual))
    if kind is dict:
        return (_len(actual) == _len(expected) and plain_keys(actual)
                and all(key in expected and same(expected[key], item)
                        for key, item in actual.items()))
    if kind in (bool, type(None)):
        return actual is expected
    return kind.__eq__(expected, actual) is True


def plain_keys(mapping: dict[Any, Any]) -> bool:
    """Return True when every key of the dict ``mapping`` is exactly a str or an int: a key
    that is anything else could answer a lookup (``key in mapping``) with its own ``==``."""
    return all(_type(key) is str or _type(key) is int for key in mapping)


#: Most items ``plain`` walks: a state read back from a student's object is far smaller.
PLAIN_MOST = 10_000

_SCALARS = (bool, int, float, str, type(None), KitCard)


def plain(value: Any) -> bool:
    """Return True when ``value`` is plain data at every depth: exactly a bool, int, float,
    str, None or kit card, or a list, tuple or dict (keys exactly str or int) of plain data,
    at most ``PLAIN_MOST`` items in all (a list shared many times counts each time; a cycle
    is not plain). Plain data answers no comparison itself, so it can be what a check
    compares with (``same``'s ``expected``)."""
    left = [PLAIN_MOST]

    def walk(item: Any, path: frozenset[int]) -> bool:
        left[0] -= 1
        kind = _type(item)
        if left[0] < 0:
            return False
        if kind in _SCALARS:
            return True
        if kind not in (list, tuple, dict) or id(item) in path:
            return False
        inner = path | {id(item)}
        if kind is dict:
            return plain_keys(item) and all(walk(entry, inner) for entry in item.values())
        return all(walk(entry, inner) for entry in item)

    return walk(value, frozenset())


def article(noun: str) -> str:
    """Return 'an int', 'a list': the noun with its indefinite article."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


#: How deep ``show`` looks into lists, tuples, dicts and sets before writing "…".
SHOW_DEPTH = 4

#: Most cards ``show`` (and a game's own printer of hands) writes as labels ('[K♥ 3♣]'); a
#: longer list is written item by item within the limit.
LABELLED_MOST = 60


def show(value: Any, limit: int = 200) -> str:
    """Return a short, safe repr: cards as 'K♥ 3♣', anything else by repr, cut to ``limit``
    characters (an int; the text ends with "…" when cut).

    The work is bounded by ``limit`` and ``SHOW_DEPTH``, not by the value: containers (exact
    list, tuple, dict, set) are written item by item until ``limit`` characters are written,
    so a list holding one big list many times costs what its first ``limit`` characters do.
    A repr that raises is written as "<unprintable TYPE: ERROR>".
    """
    out: list[str] = []
    room = [limit + 1]
    try:
        _write(value, out, room, SHOW_DEPTH, set())
    except _Full:
        pass
    text = "".join(out)
    return text if _len(text) <= limit else text[: limit - 1] + "…"


class _Full(Exception):
    """``show`` has written more than its limit: the rest is not needed."""


def _put(text: str, out: list[str], room: list[int]) -> None:
    out.append(text[: room[0]])
    room[0] -= _len(text)
    if room[0] <= 0:
        raise _Full


_BRACKETS: dict[type, tuple[str, str]] = {list: ("[", "]"), tuple: ("(", ")"),
                                          dict: ("{", "}"), set: ("{", "}"),
                                          frozenset: ("frozenset({", "})")}


def _write(value: Any, out: list[str], room: list[int], depth: int, path: set[int]) -> None:
    """Write ``value``'s repr into ``out``, at most ``room[0]`` characters (raises _Full past
    them); ``path`` holds the ids of the containers being written, for "[...]" on a cycle."""
    kind = _type(value)
    if kind is list and depth == SHOW_DEPTH and value and _len(value) <= LABELLED_MOST:
        try:
            if all(hasattr(v, "suit") for v in value):
                _put("[" + labels(value) + "]", out, room)
                return
        except Exception as error:  # a student's card may itself be broken
            _put(f"<unprintable {kind.__name__}: {error!r}>", out, room)
            return
    if kind not in _BRACKETS:
        if kind is str:
            value = value[: room[0] + 2]  # its repr is cut anyway: quote only what is shown
        try:
            text = _repr(value)
        except Exception as error:  # a student's __repr__ may itself be broken
            text = f"<unprintable {kind.__name__}: {error!r}>"
        _put(text if _type(text) is str else "<unprintable>", out, room)
        return
    opening, closing = _BRACKETS[kind]
    if id(value) in path:
        _put(opening + "..." + closing, out, room)
        return
    if not value:
        _put("set()" if kind is set else opening + closing, out, room)
        return
    if depth == 0:
        _put(opening + "…" + closing, out, room)
        return
    path.add(id(value))
    _put(opening, out, room)
    items = value.items() if kind is dict else value
    for position, item in enumerate(items):
        if position:
            _put(", ", out, room)
        if kind is dict:
            _write(item[0], out, room, depth - 1, path)
            _put(": ", out, room)
            item = item[1]
        _write(item, out, room, depth - 1, path)
    if kind is tuple and _len(value) == 1:
        _put(",", out, room)
    _put(closing, out, room)
    path.discard(id(value))


def sized(items: list[Any]) -> str:
    """Return a list's length and item type in words.

    >>> sized([0] * 15)
    'a list of 15 ints'
    >>> sized([1, "a"])
    'a list of 2'
    """
    kinds = {_type(item).__name__ for item in items}
    return f"a list of {_len(items)}" + (f" {kinds.pop()}s" if _len(kinds) == 1 else "")


#: a list shown whole in a message up to this many items; a longer one (a 52-card deck, which
#: wraps into a tall column in a narrow notebook) is shown around its first difference
LONG_LIST = 20


def apart(expected: list[Any], actual: list[Any], around: int = 2) -> tuple[str, str, str]:
    """Return (expected, actual, where) for two lists of the same length: each shown as the
    few items around their first difference, and where that is.

    >>> apart(list(range(20)), list(range(12)) + [0] * 8)
    ('[… 10, 11, 12, 13, 14 …]', '[… 10, 11, 0, 0, 0 …]', '20 items each, first differing at [12]')
    """
    first = next((i for i, (e, a) in enumerate(zip(expected, actual)) if not same(e, a)),
                 _len(expected))
    start, stop = max(0, first - around), min(_len(expected), first + around + 1)

    def part(items: list[Any]) -> str:
        inner = show(items[start:stop])[1:-1]
        return ("[" + ("… " if start else "") + inner + (" …" if stop < _len(items) else "")
                + "]")

    kind = "cards" if all(hasattr(item, "suit") for item in expected) else "items"
    return (part(expected), part(actual),
            f"{_len(expected)} {kind} each, first differing at [{first}]")


def expect_value(call: str, expected: Any, compute: Callable[..., Any]) -> None:
    """Run ``compute()`` and raise CheckFailed unless it returns exactly ``expected``.

    ``call`` names the input as the student would write it, e.g. "has_pair(K♥ K♦)". Returns
    None on purpose: nbgrader reads a number left as a test cell's last value as a score.
    """
    actual = run(call, compute)
    if not same(expected, actual):
        if _type(expected) is list and _type(actual) is list and _len(actual) != _len(expected):
            # a beginner should not have to count fifteen zeros to see one is missing
            raise CheckFailed(f"{call}: expected {sized(expected)}, got a list of "
                              f"{_len(actual)}: {show(actual)}")
        if _type(expected) is list and _type(actual) is list and _len(expected) > LONG_LIST:
            wanted, got, where = apart(expected, actual)
            raise CheckFailed(f"{call}: expected {wanted}, got {got} ({where})")
        wanted, got = show(expected), show(actual)
        if wanted == got or _type(actual) is not _type(expected):
            wanted += f" ({article(_type(expected).__name__)})"
            got += f" ({article(_type(actual).__name__)})"
        raise CheckFailed(f"{call}: expected {wanted}, got {got}")


def run(call: str, compute: Callable[..., Any]) -> Any:
    """Return ``compute()``; an error other than NotImplementedError becomes CheckFailed
    naming ``call``."""
    try:
        return compute()
    except NotImplementedError:
        raise
    except CheckFailed:
        raise
    except Exception as error:
        raise CheckFailed(f"{call}: raised {_type(error).__name__}: {error}") from error


def calls_of(function: Callable[..., Any], arg_lists: list[tuple[Any, ...]]
             ) -> list[Callable[[], Any]]:
    """Return one thunk per argument tuple: calling the i-th returns
    ``function(*arg_lists[i])`` (or raises its error). Here each call happens when its thunk
    is called, in order; a part that lives elsewhere (the grader's handle on a student's
    function) may make the calls in batches ahead, in the same order, through its type's
    ``__plaisante_calls__``: a check that stops at its first wrong answer is unchanged."""
    hook = getattr(_type(function), "__plaisante_calls__", None)
    if hook is not None:
        thunks: list[Callable[[], Any]] = hook(function, arg_lists)
        return thunks

    def thunk(args: tuple[Any, ...]) -> Callable[[], Any]:
        return lambda: function(*args)

    return [thunk(args) for args in arg_lists]


# ------------------------------------------------------------------- known-good substitutions

class Always:
    """A stand-in that gives the same answer whatever it is asked, e.g. a has-check that
    answers True while ``evaluate`` is checked. Plain data, so the grader can send it."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.answer

    def __repr__(self) -> str:
        return f"Always({self.answer!r})"


def key_of(value: Any) -> Any:
    """Return the table key of one argument (``Table``): a card's label ('K♥'); a list or tuple
    of cards their labels joined by spaces ('' for none); any other list or tuple the tuple of
    its items' keys; a plain value itself."""
    if _isinstance(value, KitCard):
        return labels([value])
    if _type(value) in (list, tuple):
        if all(_isinstance(item, KitCard) for item in value):
            return " ".join(labels([item]) for item in value)
        return tuple(key_of(item) for item in value)
    return value


class NotAVisibleCase(LookupError):
    """A ``Table`` was asked about an input that is not one of the visible cases."""


class Table:
    """One part's right answers for the visible cases only, as data: ``{key: answer}``, where
    the key is ``key_of`` the call's one argument (or the tuple of ``key_of`` each argument for
    several), and the answer is what the part returns, given as plain data or, with
    ``convert``, in a form ``convert`` turns into it (``hand`` for a list of cards). This is how
    a student's own kernel knows what a visible check expects, and how it stands in for an
    earlier part while a later one is checked, without holding an implementation of any graded
    part. Raises ``NotAVisibleCase`` for any other input."""

    def __init__(self, part: str, answers: dict[Any, Any],
                 convert: Callable[[Any], Any] | None = None) -> None:
        self.part = part
        self._answers = dict(answers)
        self._convert = convert

    def __call__(self, *args: Any) -> Any:
        key = key_of(args[0]) if _len(args) == 1 else tuple(key_of(arg) for arg in args)
        if key not in self._answers:
            raise NotAVisibleCase(
                f"the kit knows {self.part} here only on the inputs of the visible checks, not "
                f"on {show(args[0] if _len(args) == 1 else args)}; the other cases are "
                "checked when your work is graded")
        answer = self._answers[key]
        return self._convert(answer) if self._convert is not None else _fresh(answer)

    def cases(self) -> list[Any]:
        """Return the keys this table answers (for the kit's tests)."""
        return list(self._answers)

    def __repr__(self) -> str:
        return f"<the visible answers of {self.part}>"


class AnyOrder(Table):
    """A ``Table`` of a part whose answer does not depend on the order of the cards in its
    first argument (a hand's name, its counts): the key is that of the cards sorted by value
    and suit, so a part that sorts or copies the hand before asking gets the same answer in
    the student's notebook as from the grader's known-good part. Its entries are keyed by the
    sorted cards (``AnyOrder.sort``)."""

    def __call__(self, *args: Any) -> Any:
        if args and _type(args[0]) in (list, tuple):
            args = (AnyOrder.sort(args[0]), *args[1:])
        return super().__call__(*args)

    @staticmethod
    def sort(cards: Any) -> Any:
        """Return the list of ``cards`` sorted by value then suit, when they are all kit cards;
        ``cards`` itself otherwise."""
        if not all(_isinstance(card, KitCard) for card in cards):
            return cards
        return sorted(cards, key=lambda card: (card.value, card.suit))


def _fresh(value: Any) -> Any:
    """A copy of plain data, so that a caller that changes the answer changes no table."""
    if _type(value) is list:
        return [_fresh(item) for item in value]
    if _type(value) is dict:
        return {key: _fresh(item) for key, item in value.items()}
    return value


#: False while the grader judges a notebook's visible checks (``visible_answers_only``)
_KNOWN_GOOD_ANSWER = ContextVar("plaisante_known_good_answer", default=True)


@contextmanager
def visible_answers_only() -> Iterator[None]:
    """While the block runs, every game's ``KNOWN`` answers from its visible cases' tables,
    as in the student's notebook, even where its known-good parts are loaded (the grader). A
    stand-in is a question the student's code asks as often as it likes: answered by a
    known-good part while a visible check runs, its answers could be kept for a hidden check
    of that very part that runs later, after every cell (the attack review: deck's sort_key
    tabled for the whole deck while order_hand was checked, 4 → 7 of 7)."""
    token = _KNOWN_GOOD_ANSWER.set(False)
    try:
        yield
    finally:
        _KNOWN_GOOD_ANSWER.reset(token)


class Known:
    """The right answers a game's checks compare with and stand in with, one per part name.

    In a student's kernel (the notebook, or a graded kernel) each is a ``Table`` of the visible
    cases: data. The grader holds the known-good parts, in each game's ``known_good`` module,
    which calls ``use`` when it is imported; that module is never on the student's side (the
    kernel's tree leaves it out), so the hidden cases, whose answers it computes, are checked
    in the grader only, and there the visible checks still answer from the tables
    (``visible_answers_only``). Reading an answer the kit does not know raises
    AttributeError."""

    def __init__(self, **tables: Table) -> None:
        object.__setattr__(self, "_parts", dict(tables))
        object.__setattr__(self, "_known_good", {})

    def __getattr__(self, name: str) -> Any:
        good = object.__getattribute__(self, "_known_good")
        if name in good and _KNOWN_GOOD_ANSWER.get():
            return good[name]
        parts = object.__getattribute__(self, "_parts")
        if name in parts:
            return parts[name]
        raise AttributeError(f"the kit holds no answers for {name}")

    def use(self, **parts: Callable[..., Any]) -> None:
        """Answer with these known-good ``parts`` from now on (the grader's own process),
        but within ``visible_answers_only``."""
        object.__getattribute__(self, "_known_good").update(parts)


@contextmanager
def substituted(function: Any, **stand_ins: Any) -> Iterator[None]:
    """Temporarily replace names in the globals ``function`` was defined in.

    This is how a later step is tested on known-good earlier parts: while ``evaluate`` is
    checked, the has-checks it calls answer from the test's own data, so a mistake in step 3
    costs points in step 3 only. Each stand-in is an ``Always(answer)`` or a function of this
    kit. A class's names are those of its ``__init__``'s globals (while it is built); other
    callables without ``__globals__`` are run as they are. A part that lives elsewhere
    (the grader's handle on a student's function) does the substitution itself, through its
    type's ``__plaisante_substitute__``.
    """
    hook = getattr(_type(function), "__plaisante_substitute__", None)
    if hook is not None:
        with hook(function, stand_ins):
            yield
        return
    namespace: Any = getattr(function, "__globals__", None)
    if namespace is None and _isinstance(function, type):  # a class: where its methods live
        namespace = getattr(getattr(function, "__init__", None), "__globals__", None)
    if not _isinstance(namespace, dict):
        yield
        return
    missing = object()
    saved = {name: namespace.get(name, missing) for name in stand_ins}
    swaps: dict[int, Any] = {}
    for name, value in saved.items():  # one object under two replaced names is left alone
        if value is not missing:
            swaps[id(value)] = stand_ins[name] if id(value) not in swaps else None
    swaps = {key: stand_in for key, stand_in in swaps.items() if stand_in is not None}
    for name, value in list(namespace.items()) if swaps else ():  # tables built from the
        if (name not in saved and name not in _HISTORY  # parts, e.g. ORDER = [(FLUSH,
                and _type(value) in _TABLES):  # has_flush), …]: the stand-ins there too
            swapped = _swapped(value, swaps, 2)
            if swapped is not value:
                saved[name] = value
                namespace[name] = swapped
    namespace.update(stand_ins)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is missing:
                namespace.pop(name, None)
            else:
                namespace[name] = value


_TABLES = (list, tuple, dict)

#: IPython's input and output history in a kernel's namespace: long, and never a table of
#: parts a student's code reads, so not searched for parts to swap (a grading kernel answers
#: hundreds of calls, each searching the namespace).
_HISTORY = frozenset({"In", "Out", "_ih", "_oh", "_dh"})


def _swapped(value: Any, swaps: dict[int, Any], depth: int) -> Any:
    """Return ``value`` with each item that is one of the replaced parts (by identity) swapped
    for its stand-in, looking ``depth`` levels into lists, tuples and dicts; ``value`` itself
    when nothing in it is replaced."""
    if id(value) in swaps:
        return swaps[id(value)]
    if depth == 0 or _type(value) not in (list, tuple, dict):
        return value
    if _type(value) is dict:
        items = {key: _swapped(item, swaps, depth - 1) for key, item in value.items()}
        changed = any(items[key] is not value[key] for key in value)
        return items if changed else value
    parts = [_swapped(item, swaps, depth - 1) for item in value]
    if all(new is old for new, old in zip(parts, value)):
        return value
    return _type(value)(parts)


def expect_value_error(call: str, compute: Callable[[], Any], allowed: tuple[str, ...],
                       what: str) -> None:
    """Raise CheckFailed unless ``compute()`` raises ValueError whose message names every item
    of ``allowed`` (the allowed ``what``, e.g. ranks)."""
    try:
        made = compute()
    except NotImplementedError:
        raise
    except ValueError as error:
        message = str(error)
        absent = [item for item in allowed if item not in message]
        if absent:
            raise CheckFailed(f"{call}: the ValueError should name the allowed {what} "
                              f"({', '.join(allowed)}); its message {message!r} lacks {absent}"
                              ) from None
        return
    except Exception as error:
        raise CheckFailed(f"{call}: expected ValueError, got {_type(error).__name__}: {error}"
                          ) from error
    raise CheckFailed(f"{call}: expected ValueError, got a card: {show(made)}")


def visible_checks_pass(what: str) -> None:
    """Print the one message every assignment's visible test cell ends with once its checks
    pass, e.g. "Step 1: the visible checks pass (hidden tests run when your work is graded)."
    Returns None (nbgrader would read a value left last in a test cell as a score)."""
    print(f"{what}: the visible checks pass (hidden tests run when your work is graded).")


def check_shape(name: str, value: Any, kind: type, length: int | None = None,
                item: type | None = None) -> None:
    """Check a trace-it-by-hand answer's type, length and item type without revealing its value."""
    wanted = kind.__name__ + (f" of {length}" if length is not None else "") + (
        f"{'' if length is not None else ' of'} {item.__name__}s" if item is not None else "")
    if (_type(value) is not kind or (length is not None and _len(value) != length)
            or (item is not None and not all(_type(entry) is item for entry in value))):
        raise CheckFailed(f"{name}: expected a {wanted}, got {show(value)}")


__all__ = ["CheckFailed", "Always", "AnyOrder", "Known", "NotAVisibleCase", "Table", "apart",
           "article", "calls_of", "check_shape", "expect_value", "expect_value_error", "key_of",
           "LABELLED_MOST", "plain", "plain_keys", "run", "same", "show", "sized", "substituted",
           "visible_checks_pass"]
