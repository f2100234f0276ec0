"""The wire: how values cross the trust boundary, one codec and one set of limits for both sides.

Two conversations cross between the grader (trusted) and the student's kernel (untrusted), both
as JSON texts, and both use the codec here:

* the **judge's**: the grader asks, the kernel answers (``plaisante.grading.judge`` ``Codec``
  on the grader's side, ``plaisante.kernel.oracle`` ``Registry`` on the kernel's); values keep
  their identity by reference;
* the **routed** one of a student's own tests, the other way: the kernel asks, the grader's
  implementation answers (``plaisante.kernel.routed`` and ``plaisante.grading.routed``); only
  plain data crosses (``Plain``).

Values (a side sends only the kinds it has, and refuses the others with a TypeError naming them):

* ``null``, ``true``/``false``, ints, floats, strs and lists, exactly those types (a subclass
  of ``list`` or ``str`` is an object, below); routed values have no floats;
* ``{"t": [...]}`` a tuple, ``{"d": [[k, v], ...]}`` a dict, ``{"s": [...]}`` a set,
  ``{"fs": [...]}`` a frozenset (routed: tuples and dicts only);
* ``{"r": n}`` an object both sides already know by reference ``n`` (judge only);
* ``{"o": n, "c": "Card"}`` (kernel to grader) an object the kernel registers as ``n`` > 0,
  with its class name (and ``"n"``, its ``__name__``, for a function or a class), each cut to
  ``MAX_NAME`` characters; the grader holds it as a handle (``Remote``);
* ``{"k": ["K", "hearts"], "n": m}`` a kit card (``plaisante.student_side.cards.KitCard``,
  immutable): the receiving side builds its own from rank and suit and registers it as ``m`` (< 0
  when the grader made it, > 0 when the kernel did), so identity survives the round trip. A routed
  card is ``{"k": [rank, suit]}`` alone (any object with a rank and suit of the kit's deck is sent
  as one; it arrives as a ``KitCard``). A rank or suit not of the deck is refused;
* ``{"rng": [version, [ints…], gauss]}`` a ``random.Random`` in that state (at most
  ``RNG_WORDS`` ints, each counted as a value).

The grader's own mutable values travel **shared** in the judge's conversation: a list, dict,
set or ``random.Random`` it sends carries a reference ``n`` < 0 (``{"l": [...], "n": n}``,
``{"d": [...], "n": n}``, ``{"s": [...], "n": n}``, ``{"rng": [...], "n": n}``, each time with
its whole contents; ``{"r": n}`` for one already in the same request). See
``plaisante.kernel.oracle`` for how their changes come back (``"sync"``, ``"gone"``,
``"push"``) and for the requests and answers around the values.

Limits, the same on both sides, for one *message* (a request, a request's push, or one answer
with its sync; in a batch of calls, each call's arguments and each call's answer):

* ``MAX_DEPTH`` levels of nesting (a value inside a list, tuple, set or dict is one level
  deeper than it);
* ``MAX_ITEMS`` values in all (every value counts one, a ``random.Random`` its state's ints);
* ``MAX_HASHED`` set members and dict keys in all: a sender can pick ints whose hashes all
  collide (multiples of 2**61 - 1), making each insertion walk all the others, so the work of
  decoding grows with the square of this number (measured: 60,000 such ints kept a grader busy
  for minutes);
* ``MAX_CHARS`` characters of one message's JSON text (checked by whoever reads the text);
* ``MAX_TEXT`` characters of a text the kernel makes to answer (a repr, a str, an error's
  message) and ``MAX_NAME`` of a class's or function's name.

The sender refuses to send past a limit (``TooLarge``, a ValueError whose message names the
limit and what is allowed); the receiver refuses to read past it and refuses anything
malformed (``Malformed``), before it builds or hashes anything. The grader turns both into
``KernelLost`` (the kernel broke the protocol); the kernel answers them as an error.

Errors cross as ``{"types": […], "cls": name, "msg": text}`` (``error_data``, read back by
``read_error``): ``types`` are the builtin exception classes the error is an instance of, most
specific first. (A routed error, which the grader makes, is ``{"cls": name, "msg": text}``.)

Only the standard library and ``plaisante.student_side.cards`` are imported here: the kernel imports
this module too.
"""

from __future__ import annotations

import builtins
import random
from typing import Any, TypedDict

from .cards import RANKS, SUITS, KitCard

MAX_DEPTH = 40
MAX_ITEMS = 100_000
MAX_HASHED = 2_000
MAX_CHARS = 4_000_000
MAX_TEXT = 100_000
MAX_NAME = 100
RNG_WORDS = 625  # ints in a random.Random's state (the Mersenne Twister's 624, and its index)

SCALARS: tuple[type, ...] = (type(None), bool, int, float, str)
#: The wire tag of each container kind a side may send (a list is a JSON list).
TAGS: dict[type, str] = {tuple: "t", set: "s", frozenset: "fs", dict: "d"}
BUILDERS: dict[str, type] = {tag: kind for kind, tag in TAGS.items()}
#: The grader's mutable values shared with the kernel, by wire tag.
SHARED_TAGS: dict[str, type] = {"l": list, "d": dict, "s": set, "rng": random.Random}


class ErrorData(TypedDict):
    """An error as it crosses (``error_data``): the builtin classes it is an instance of, most
    specific first, its class's name and its message."""

    types: list[str]
    cls: str
    msg: str


class WireError(ValueError):
    """A value that cannot cross: malformed, or past one of the limits."""


class TooLarge(WireError):
    """A value past ``MAX_DEPTH``, ``MAX_ITEMS`` or ``MAX_HASHED``."""


class Malformed(WireError):
    """Data that is not a value of the wire format (or not one this side reads)."""


class Budget:
    """What is left of one message's limits: values (``items``) and set members and dict keys
    (``hashed``). Every value encoded or decoded for the message spends from the same one.
    ``seen``: the ids of the shared values already sent whole in it (sent again by reference)."""

    __slots__ = ("items", "hashed", "seen")

    def __init__(self) -> None:
        self.items = MAX_ITEMS
        self.hashed = MAX_HASHED
        self.seen: set[int] = set()

    def spend(self, depth: int, count: int = 1) -> None:
        """Count ``count`` values at nesting ``depth``; raises TooLarge past a limit."""
        if depth > MAX_DEPTH:
            raise TooLarge(f"a value is nested more than {MAX_DEPTH} levels deep (at most "
                           f"{MAX_DEPTH} may cross)")
        self.items -= count
        if self.items < 0:
            raise TooLarge(f"a message holds more than {MAX_ITEMS} values (at most {MAX_ITEMS} "
                           "may cross in one)")

    def hashing(self, count: int) -> None:
        """Count ``count`` set members or dict keys; raises TooLarge past ``MAX_HASHED``."""
        self.hashed -= count
        if self.hashed < 0:
            raise TooLarge(f"a message holds over {MAX_HASHED} set members or dict keys (at "
                           f"most {MAX_HASHED} may cross in one)")


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """Return ``text`` cut to ``limit`` characters."""
    return text[:limit]


#: Most characters of a student's error message that a table's line or an x-ray shows.
SHOWN_TEXT = 300


def described(error: BaseException, limit: int = SHOWN_TEXT, *, named: bool = True) -> str:
    """Return ``'<class name>: <message>'`` of ``error`` (its message alone when ``named`` is
    False) as an exact str, the message cut to ``limit`` characters (the last one "…") and the
    name to ``MAX_NAME``; a message that cannot be read (a student's ``__str__`` may raise
    anything) is said so. Never raises."""
    try:
        message = str.__str__(str(error))
    except BaseException:  # noqa: B036  a student's __str__ may raise anything
        message = "<the error's message could not be read>"
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return f"{class_name(type(error))[:MAX_NAME]}: {message}" if named else message


def card_from(body: object) -> KitCard:
    """Return the kit's card a ``{"k": body}`` describes; raises Malformed for anything but a
    list of two strs that are a rank and a suit of the kit's deck."""
    if type(body) is not list or len(body) != 2 or not all(type(item) is str for item in body):
        raise Malformed("a card must be [rank, suit], two strs")
    try:
        return KitCard(*body)
    except ValueError as error:
        raise Malformed(f"a card that does not exist: {error}") from None


def is_card(value: Any) -> bool:
    """Return True for any object with a str ``rank`` and ``suit`` of the kit's deck (reading
    them may run a student's code: a broken attribute is no card)."""
    try:
        rank, suit = getattr(value, "rank", None), getattr(value, "suit", None)
    except Exception:  # noqa: BLE001  a student's object with a broken attribute
        return False
    return type(rank) is str and type(suit) is str and rank in RANKS and suit in SUITS


def rng_body(rng: random.Random, budget: Budget, depth: int = 0) -> list[Any]:
    """Return the wire form of ``rng``'s state (``[version, [ints…], gauss]``)."""
    version, internal, gauss = rng.getstate()
    budget.spend(depth + 1, len(internal))
    return [version, list(internal), gauss]


def set_rng(target: random.Random, body: object, budget: Budget, depth: int = 0) -> None:
    """Put ``target`` in the state ``body`` describes (``rng_body``'s form, the generator at
    nesting ``depth``); raises Malformed for anything else, or a state Python refuses."""
    if type(body) is not list or len(body) != 3 or type(body[0]) is not int \
            or type(body[1]) is not list or len(body[1]) > RNG_WORDS \
            or not all(type(item) is int for item in body[1]) \
            or type(body[2]) not in (float, type(None)):
        raise Malformed("a malformed random.Random state")
    budget.spend(depth + 1, len(body[1]))
    try:
        target.setstate((body[0], tuple(body[1]), body[2]))
    except (ValueError, TypeError, OverflowError):
        raise Malformed("an impossible random.Random state") from None


def snapshot(value: Any) -> Any:
    """Return what tells whether a shared value changed: its items as they are now (compared
    by identity, so no student ``__eq__`` runs), or a ``random.Random``'s state."""
    if type(value) is dict:
        return [item for pair in value.items() for item in pair]
    if type(value) is random.Random:
        return value.getstate()
    return list(value)


def changed(before: Any, after: Any) -> bool:
    """Return True when two ``snapshot``s of one shared value differ."""
    if type(before) is tuple:  # a random.Random's state: ints, compared by value
        return bool(before != after)
    return len(before) != len(after) or any(a is not b for a, b in zip(before, after))


def class_name(kind: type) -> str:
    """Return ``kind``'s own name, as Python keeps it for the class: never what a metaclass
    says instead (a student's metaclass may make ``__name__`` an int, or raise)."""
    name: str = type.__dict__["__name__"].__get__(kind, type)
    return name


def error_data(error: BaseException) -> ErrorData:
    """Describe ``error`` as data: the builtin classes in its MRO, its class name and message
    (cut to ``MAX_NAME`` and ``MAX_TEXT``). Never raises (a student's ``__str__`` may)."""
    mro: tuple[type, ...] = type.__dict__["__mro__"].__get__(type(error), type)  # as class_name
    types = [class_name(kind) for kind in mro if getattr(builtins, class_name(kind), None) is kind]
    try:
        message = str(error)
    except BaseException:  # noqa: B036  a student's __str__ may raise anything
        message = "<the error's message could not be read>"
    return {"types": types, "cls": cut(class_name(type(error)), MAX_NAME), "msg": cut(message)}


def read_error(data: object) -> tuple[list[object], str, str]:
    """Return (types, class name, message) of an ``error_data`` (the types as they came: the
    other side's, each to be checked); raises Malformed for anything else."""
    if type(data) is not dict or type(data.get("msg")) is not str \
            or type(data.get("types")) is not list or type(data.get("cls")) is not str:
        raise Malformed("a malformed error")
    return data["types"], cut(data["cls"], MAX_NAME), data["msg"]


class Codec:
    """Values to and from the wire form, within one ``Budget`` per message.

    ``scalars`` and ``containers`` are the kinds this side sends and reads as themselves; the
    hooks ``encode_known`` (an object sent by reference or shared), ``encode_other`` (anything
    else: refused here) and ``decode_tagged`` (references, handles, cards, shared values) are
    what a side adds. Both methods raise TooLarge past a limit; ``decode`` raises Malformed for
    anything malformed."""

    scalars: tuple[type, ...] = SCALARS
    containers: frozenset[type] = frozenset({list, tuple, set, frozenset, dict})

    def encode(self, value: Any, budget: Budget | None = None, depth: int = 0) -> Any:
        """Return the wire form of ``value`` (``budget``: the message's, by default a new one)."""
        budget = Budget() if budget is None else budget
        budget.spend(depth)
        kind = type(value)
        if kind in self.scalars:
            return value
        known = self.encode_known(value, budget, depth)
        if known is not None:
            return known
        if kind in self.containers:
            return self.encode_items(value, budget, depth)
        return self.encode_other(value, budget, depth)

    def encode_items(self, value: Any, budget: Budget, depth: int) -> Any:
        """Return the wire form of a list, tuple, set, frozenset or dict's items (its members
        and keys counted as hashed)."""
        kind = type(value)
        if kind is list:
            return [self.encode(item, budget, depth + 1) for item in value]
        if kind is dict:
            budget.hashing(len(value))
            return {"d": [[self.encode(key, budget, depth + 1),
                           self.encode(item, budget, depth + 1)] for key, item in value.items()]}
        if kind is not tuple:
            budget.hashing(len(value))
        return {TAGS[kind]: [self.encode(item, budget, depth + 1) for item in value]}

    def encode_known(self, value: Any, budget: Budget, depth: int) -> Any:
        """Return the wire form of a value this side sends by reference, or None."""
        return None

    def encode_other(self, value: Any, budget: Budget, depth: int) -> Any:
        """Return the wire form of a value that is neither a scalar nor a container."""
        raise TypeError(f"a {class_name(type(value))} cannot be sent")

    def decode(self, data: Any, budget: Budget | None = None, depth: int = 0) -> Any:
        """Return the value ``data`` describes (``budget``: the message's, by default a new
        one); raises Malformed or TooLarge."""
        budget = Budget() if budget is None else budget
        budget.spend(depth)
        kind = type(data)
        if kind in self.scalars:
            return data
        if kind is list:
            return [self.decode(item, budget, depth + 1) for item in data]
        if kind is not dict:
            raise Malformed(f"a malformed value: {str(data)[:80]}")
        found = self.decode_tagged(data, budget, depth)
        if found is not NOT_TAGGED:
            return found
        if len(data) == 1:
            (tag, body), = data.items()
            built = BUILDERS.get(tag)
            if built in self.containers and type(body) is list:
                return self.decode_items(built, body, budget, depth)
        raise Malformed(f"a malformed value: {str(data)[:80]}")

    def decode_items(self, kind: type, body: list[Any], budget: Budget, depth: int) -> Any:
        """Return the tuple, set, frozenset or dict of ``body`` (checked before anything is
        hashed)."""
        if kind is tuple:
            return tuple(self.decode(item, budget, depth + 1) for item in body)
        budget.hashing(len(body))
        if kind is dict:
            if not all(type(pair) is list and len(pair) == 2 for pair in body):
                raise Malformed("a dict's items must be [key, value] pairs")
            pairs = [(self.decode(key, budget, depth + 1), self.decode(item, budget, depth + 1))
                     for key, item in body]
            try:
                return dict(pairs)
            except TypeError:  # the other side's own object
                raise Malformed("a dict with an unhashable key") from None
        items = [self.decode(item, budget, depth + 1) for item in body]
        try:
            return kind(items)
        except TypeError:
            raise Malformed("a set of unhashable items") from None

    def decode_tagged(self, data: dict[str, Any], budget: Budget, depth: int) -> Any:
        """Return the value of a tagged dict this side reads itself, or ``NOT_TAGGED``."""
        return NOT_TAGGED


NOT_TAGGED: Any = object()  # ``decode_tagged``'s "not one of mine"


class Plain(Codec):
    """The routed conversation's codec: plain data (None, bools, ints, strs, lists, tuples and
    dicts of them) and cards, no references. Encoding anything else raises TypeError."""

    scalars = (type(None), bool, int, str)
    containers = frozenset({list, tuple, dict})

    def encode_other(self, value: Any, budget: Budget, depth: int) -> Any:
        if is_card(value):
            return {"k": [value.rank, value.suit]}
        raise TypeError(f"not a {class_name(type(value))}")

    def decode_tagged(self, data: dict[str, Any], budget: Budget, depth: int) -> Any:
        if len(data) == 1 and "k" in data:
            return card_from(data["k"])
        return NOT_TAGGED


#: The builtin errors a routed error may be raised as, by name (any other is a RuntimeError).
ROUTED_ERRORS = ("ValueError", "TypeError", "KeyError", "IndexError", "AttributeError",
                 "ZeroDivisionError", "RecursionError", "RuntimeError", "NotImplementedError",
                 "AssertionError", "LookupError", "ArithmeticError")

PLAIN = Plain()  # it keeps nothing: one serves every routed message
