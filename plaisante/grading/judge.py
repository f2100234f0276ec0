"""The judge: a submission's test cells run here, in the grader, never in the student's kernel.

A test cell's source (the instructor's, read from the gradebook, hidden tests included) runs in
this process with the kit's own checks (``plaisante.games.<id>.checks``). Every name of the
student's (``Card``, ``count_values``, ``trace_values``, …) is looked up in the kernel and
arrives as plain data (lists, ints, strs…) or as a ``Remote``: a handle on an object that stays
in the kernel. A name the test cell binds itself (its helpers, hidden buggy versions,
constants) is its own and never asked: nothing of a test cell's source reaches the kernel but
the inputs its checks pass to the parts. Calling a ``Remote``, reading its attributes,
comparing or hashing it is one request to the kernel, answered by ``plaisante.kernel.oracle`` with
data; the lists, dicts, sets and generators a check passes are shared, so every change a part
makes to them comes back (``Codec``). Expected values, hidden
tests, messages and verdicts never leave this process, so nothing the student's code prints,
patches or installs in its own process can change a verdict: the kernel can only choose what
its parts return.

The same test source gives students their messages in their own notebook (there it calls their
functions directly): one test source, two modes.

Every answer is bounded (the limits of ``plaisante.student_side.wire``, the same on both sides) and
checked before it is used; a kernel that breaks the protocol, stalls past the cell's time or dies
ends the cell with ``KernelLost`` (a ``BaseException``, so no check's ``except Exception`` can
swallow it) and the cell scores 0.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import io
import itertools
import json
import random
import re
import symtable
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..student_side.assignment import PartNotDefined
from ..student_side.cards import KitCard
from ..student_side.checking import Always
from ..student_side.wire import (
    MAX_CHARS,
    MAX_NAME,
    PLAIN,
    ROUTED_ERRORS,
    SHARED_TAGS,
    Budget,
    Malformed,
    WireError,
    card_from,
    changed,
    cut,
    read_error,
    rng_body,
    set_rng,
    snapshot,
)
from ..student_side.wire import Codec as WireCodec

#: calls of the grader's stand-ins one call of a part may make: an honest part asks an earlier
#: one a few times a card (a bubble sort of 8 cards asks about a hundred times); a part that
#: asks thousands of times is harvesting the known-good part's answers to keep
MAX_STAND_IN_CALLS = 256
STAND_IN_REFUSED = ("the kit's stand-in for an earlier part answers only while the kit checks "
                    "another part with it")
STAND_IN_SPENT = (f"a part may call the kit's stand-ins at most {MAX_STAND_IN_CALLS} times a "
                  "call")
#: cards a stand-in answers about in one call: every part's input is a hand (at most 8 cards,
#: a trick of 4, 7 for Hold'em); a known-good part asked about the whole deck would spend the
#: grader's own time, outside the kernel's limits (best_five of 52 cards: 2.6 million fives)
MAX_STAND_IN_CARDS = 13
STAND_IN_TOO_MANY = (f"the kit's stand-ins answer about at most {MAX_STAND_IN_CARDS} cards a "
                     "call, a hand's worth")
#: what a student's part hears when a stand-in's known-good part raises: its class, never its
#: text (the known-good part's own messages would teach the student its code, one refusal at a
#: time)
STAND_IN_ERROR = ("the kit's stand-in refused these arguments ({kind}): call it the way the "
                  "step states")
FIRST_BATCH, MAX_BATCH = 4, 64  # calls of one ``Session.calls`` batch: the first, the most
MAX_SHOWN = 2_000  # characters of a student's error message shown in a verdict
MAX_PRINTED = 64 * 1024  # what a test cell itself may print into its output

#: Builtin exceptions an answer may raise here, by name; any other error a student's part
#: raises arrives as ``StudentError`` (never as a KeyboardInterrupt or SystemExit here).
SAFE_ERRORS: dict[str, type[Exception]] = {
    kind.__name__: kind for kind in (
        ValueError, TypeError, KeyError, IndexError, LookupError, AttributeError, NameError,
        UnboundLocalError, NotImplementedError, RuntimeError, RecursionError, ZeroDivisionError,
        ArithmeticError, OverflowError, AssertionError, MemoryError, UnicodeError, OSError,
        StopIteration, ImportError, ModuleNotFoundError)
}


class KernelLost(BaseException):
    """The kernel stopped answering properly: it broke the protocol, ran out of time or died.
    The message says which, for the instructor; the cell scores 0."""


class KernelTimeout(KernelLost):
    """The kernel gave no answer within the cell's time."""


class KernelDied(KernelLost):
    """The kernel's process ended while the grader waited for an answer."""


class StudentError(Exception):
    """An error raised by the student's code that is not one of ``SAFE_ERRORS``."""


# ------------------------------------------------------------------------------ the wire

class Codec(WireCodec):
    """The grader's codec of the judge's wire format (``plaisante.student_side.wire``, its limits
    too), with references kept on both sides so that an object's identity survives the round trip.
    A list, dict, set or ``random.Random`` of the grader's is *shared*: it goes with a
    reference and its whole contents, and what the kernel's calls do to it comes back in the
    answers' ``sync`` and is put in the grader's own object (``apply_sync``). Anything the
    kernel answers past the wire's limits, or malformed, raises KernelLost."""

    SHARED: dict[type, str] = {kind: tag for tag, kind in SHARED_TAGS.items()}

    def __init__(self, session: Session) -> None:
        self.session = session
        self.objects: dict[int, Any] = {}
        self.refs: dict[int, int] = {}  # id(object sent) -> reference
        self.shared: dict[int, Any] = {}  # reference -> the grader's own mutable value
        self.held: dict[int, Any] = {}  # shared values the kernel keeps: reference -> snapshot
        self.next_ref = -1

    def encode_known(self, value: Any, budget: Budget, depth: int) -> Any:
        """A handle goes as its reference, a shared value (``budget.seen``: those already sent
        whole in the same request) whole or by reference, a card sent before by reference."""
        kind = type(value)
        if kind is Remote:
            if value._session is not self.session:
                raise ValueError("a value from an earlier test cell cannot be used here")
            return {"r": value._ref}
        if kind in self.SHARED:
            return self._shared(value, budget, depth)
        known = self.refs.get(id(value))
        return None if known is None else {"r": known}

    def encode_other(self, value: Any, budget: Budget, depth: int) -> Any:
        if type(value) is KitCard:
            return {"k": [value.rank, value.suit], "n": self._register(value)}
        raise TypeError(f"the judge cannot send a {type(value).__name__} to the student's kernel")

    def _register(self, value: Any) -> int:
        ref = self.next_ref
        self.next_ref -= 1
        self.objects[ref] = value  # kept alive: its id is never reused while it is known
        self.refs[id(value)] = ref
        return ref

    def _shared(self, value: Any, budget: Budget, depth: int) -> Any:
        ref = self.refs.get(id(value))
        if ref is None:
            ref = self._register(value)
            self.shared[ref] = value
        if id(value) in budget.seen:
            return {"r": ref}
        budget.seen.add(id(value))
        self.held[ref] = snapshot(value)  # the kernel has it as it is now
        if type(value) is random.Random:  # its state: the kernel draws what this one would draw
            return {"rng": rng_body(value, budget, depth), "n": ref}
        body = self.encode_items(value, budget, depth)
        return {"l": body, "n": ref} if type(value) is list else {**body, "n": ref}

    def stand_in(self, function: Any) -> dict[str, Any]:
        """Return the wire form of a stand-in: a constant answer, or a known-good part that
        stays here and answers the kernel's calls of it (``Session.answer_stand_in``) only
        while a call that carries it runs."""
        if type(function) is Always:
            return {"always": self.encode(function.answer)}
        if callable(function):
            return {"grader": self.session.stand_in_index(function)}
        raise TypeError(f"stand-in {function!r} is neither Always(...) nor callable")

    def decode(self, data: Any, budget: Budget | None = None, depth: int = 0) -> Any:
        """Return the value ``data`` describes; raises KernelLost for anything malformed or
        past the wire's limits. One answer has one ``budget`` (a nested request made while
        decoding, to hash a handle, has its own)."""
        try:
            return super().decode(data, budget, depth)
        except WireError as error:
            raise KernelLost(f"the kernel's answer was refused: {error}") from None

    def decode_tagged(self, data: dict[str, Any], budget: Budget, depth: int) -> Any:
        if "r" in data:
            if len(data) != 1 or type(data["r"]) is not int or data["r"] not in self.objects:
                raise Malformed(f"a reference to nothing the grader knows: {str(data)[:80]}")
            return self.objects[data["r"]]
        if "k" in data and len(data) == 2:
            ref = data.get("n")
            if type(ref) is not int or ref <= 0 or ref in self.objects:
                raise Malformed(f"a card needs a new reference above 0: {str(data)[:80]}")
            card = card_from(data["k"])
            self.objects[ref] = card
            self.refs[id(card)] = ref  # sent back as the kernel's own card
            return card
        if "o" in data:
            ref, name = data["o"], data.get("n", "")
            if not set(data) <= {"o", "c", "n"} or type(ref) is not int or ref <= 0 \
                    or ref in self.objects or type(data.get("c")) is not str \
                    or type(name) is not str:
                raise Malformed(f"a malformed handle: {str(data)[:80]}")
            handle = Remote(self.session, ref, cut(data["c"], MAX_NAME), data.get("n"))
            self.objects[ref] = handle
            return handle
        return super().decode_tagged(data, budget, depth)

    def apply_sync(self, sync: Any, budget: Budget | None = None) -> None:
        """Put in each of the grader's shared values the contents the kernel's ``sync`` says
        it has now; raises KernelLost for an entry that is malformed, names a value the grader
        never shared, or holds another kind of value."""
        budget = Budget() if budget is None else budget
        if sync is None:
            return
        if type(sync) is not list or len(sync) > len(self.shared):
            raise KernelLost("the kernel answered a malformed sync")
        for entry in sync:
            if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int \
                    or entry[0] not in self.shared:
                raise KernelLost("the kernel answered a sync of a value it was never given")
            target = self.shared[entry[0]]
            if type(target) is random.Random:
                state = entry[1].get("rng") if type(entry[1]) is dict and len(entry[1]) == 1 \
                    else None
                try:
                    set_rng(target, state, budget)
                except WireError as error:
                    raise KernelLost(f"the kernel's answer was refused: {error}") from None
            else:
                value = self.decode(entry[1], budget)  # at depth 0, as the kernel counts
                if type(value) is not type(target):
                    raise KernelLost(f"the kernel answered a {type(value).__name__} for the "
                                     f"{type(target).__name__} it was given")
                if type(target) is list:
                    target[:] = value
                else:
                    target.clear()
                    target.update(value)
            if entry[0] in self.held:
                self.held[entry[0]] = snapshot(target)

    def pushes(self) -> list[Any]:
        """Return the wire form (whole) of each shared value the kernel keeps that the grader
        changed since the kernel last had it: the next request carries them (``"push"``, a
        message of its own)."""
        budget = Budget()
        return [self._shared(self.shared[ref], budget, 0)
                for ref, before in list(self.held.items())
                if changed(before, snapshot(self.shared[ref]))]

    def forget(self, gone: Any) -> None:
        """Stop watching the shared values the kernel says it forgot (``gone``)."""
        if type(gone) is not list or not all(type(ref) is int for ref in gone):
            raise KernelLost("the kernel answered a malformed list of forgotten values")
        for ref in gone:
            self.held.pop(ref, None)


def _cards_in(values: list[Any]) -> int:
    """How many kit cards ``values`` (decoded plain data) hold, at any depth."""
    count = 0
    for value in values:
        if type(value) is KitCard:
            count += 1
        elif type(value) in (list, tuple):
            count += _cards_in(list(value))
        elif type(value) is dict:
            count += _cards_in([*value.keys(), *value.values()])
    return count


def raise_error(error: Any) -> None:
    """Raise, here, the error a student's part raised in the kernel (as data)."""
    try:
        kinds, cls, message = read_error(error)
    except WireError:
        raise KernelLost("the kernel answered a malformed error") from None
    message = message[:MAX_SHOWN]
    if not message.strip():  # e.g. the stub's bare `raise NotImplementedError()`
        message = ("not written yet (it still raises NotImplementedError)"
                   if cls == "NotImplementedError" else "raised with no message")
    for name in kinds:
        if type(name) is str and name in SAFE_ERRORS:
            kind = SAFE_ERRORS[name]
            if kind is KeyError:  # str(KeyError('x')) quotes it; keep the student's text
                raise KeyError(message)
            # the kit's stand-in's own error says all in its message: no class name before it
            raise kind(message if cls in (name, PartNotDefined.__name__) else f"{cls}: {message}")
    raise StudentError(f"{cls}: {message}")


# ------------------------------------------------------------------------------ handles

Answer = TypeVar("Answer", int, bool)


class Remote:
    """A handle on an object that lives in the student's kernel. Calling it, reading its
    attributes, comparing, hashing or printing it asks the kernel; what comes back is data or
    another handle. Valid during the test cell (the ``Session``) that received it."""

    __slots__ = ("_session", "_ref", "_class_name", "_name")
    _session: Session
    _ref: int
    _class_name: str
    _name: str | None

    def __init__(self, session: Session, ref: int, class_name: str,
                 name: str | None = None) -> None:
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_class_name", class_name)
        object.__setattr__(self, "_name", name)  # a function's or class's __name__, if sent

    def __getattr__(self, name: str) -> Any:
        if name == "__name__" and self._name is not None:
            return self._name
        if name.startswith("_ipython") or name.startswith("_repr_") or name in (
                "__deepcopy__", "__copy__", "__reduce_ex__", "__reduce__", "__getstate__",
                "__array__", "__length_hint__", "__fspath__", "__index__"):
            raise AttributeError(name)
        return self._session.ask({"op": "getattr", "x": {"r": self._ref}, "name": name})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the judge does not set attributes of the student's objects")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._session.call(self, args, kwargs)

    def __plaisante_calls__(self, arg_lists: list[tuple[Any, ...]]) -> list[Callable[[], Any]]:
        """Return one thunk per argument tuple; the calls run in the kernel in batches, ahead
        of the thunks (see ``Session.calls``)."""
        return self._session.calls(self, arg_lists)

    def __plaisante_substitute__(self, stand_ins: dict[str, Any]) -> Any:
        """Return a context in which calls of this part run with ``stand_ins`` in its globals."""
        return self._session.substituted(self, stand_ins)

    def _unary(self, fn: str) -> Any:
        return self._session.ask({"op": "unary", "fn": fn, "x": {"r": self._ref}})

    def _binary(self, fn: str, other: Any) -> Any:
        return self._session.ask({"op": "binary", "fn": fn, "x": {"r": self._ref},
                                  "y": self._session.codec.encode(other)})

    def __repr__(self) -> str:
        text = self._unary("repr")
        return text if type(text) is str else f"<{self._class_name} object>"

    def __str__(self) -> str:
        text = self._unary("str")
        return text if type(text) is str else f"<{self._class_name} object>"

    def _unary_as(self, fn: str, kind: type[Answer]) -> Answer:
        """Return ``_unary(fn)`` when the kernel answers exactly a ``kind`` (as ``hash``,
        ``len`` and ``bool`` do); raises KernelLost for anything else."""
        value = self._unary(fn)
        if type(value) is not kind:  # a bool is an int to isinstance
            raise KernelLost(f"the kernel answered {fn} with a value of type "
                             f"{type(value).__name__} (only type {kind.__name__} is an answer)")
        return value

    def __hash__(self) -> int:
        return self._unary_as("hash", int)

    def __len__(self) -> int:
        return self._unary_as("len", int)

    def __bool__(self) -> bool:
        return self._unary_as("bool", bool)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._unary("iter"))

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, type):  # a class of this process is never the kernel's object:
            return NotImplemented    # Python then answers False (inspect.signature asks)
        return self._binary("eq", other)

    def __ne__(self, other: Any) -> Any:
        if isinstance(other, type):
            return NotImplemented
        return self._binary("ne", other)

    def __lt__(self, other: Any) -> Any:
        return self._binary("lt", other)

    def __le__(self, other: Any) -> Any:
        return self._binary("le", other)

    def __gt__(self, other: Any) -> Any:
        return self._binary("gt", other)

    def __ge__(self, other: Any) -> Any:
        return self._binary("ge", other)

    def __contains__(self, item: Any) -> Any:
        return self._binary("contains", item)

    def __getitem__(self, key: Any) -> Any:
        return self._binary("getitem", key)


# ------------------------------------------------------------------------------ a session

Transport = Callable[[str], str]  # sends one request's text, returns the answer's text


class Session:
    """One test cell's conversation with the kernel. ``transport`` carries a request's JSON
    text to ``plaisante.kernel.oracle.serve`` and returns its answer's text (or raises
    KernelLost)."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.codec = Codec(self)
        self.sequence = itertools.count(1)
        self.stand_ins: dict[int, dict[str, Any]] = {}  # Remote ref -> {name: stand-in spec}
        self.requests = 0
        self.answering: list[Callable[..., Any]] = []  # the grader's stand-ins, by index
        #: when set, a kernel of its own for each run of a student's tests: it starts one (the
        #: notebook's cells before the test cell run again in it) and returns its transport
        self.renewal: Callable[[], Transport] | None = None
        #: the kernel in use was started for this cell and has only been asked for its names:
        #: the first run of the student's tests takes it as its own
        self.spare = False
        #: ``requests`` once the cell's names were fetched: a spare kernel asked more since
        #: (the cell used a student's value before the runs) is no spare
        self.fetched = 0
        #: the names the cell fetched in its first kernel: each later kernel is asked them too
        self.names: list[str] = []

    def stand_in_index(self, function: Callable[..., Any]) -> int:
        """Return the index the kernel names the grader's stand-in ``function`` by."""
        for index, known in enumerate(self.answering):
            if known is function:
                return index
        self.answering.append(function)
        return len(self.answering) - 1

    def ask(self, request: dict[str, Any]) -> Any:
        """Send ``request``; return the decoded answer or raise the student's error."""
        return self._exchange(request)

    def _exchange(self, request: dict[str, Any], decoded: bool = True) -> Any:
        """Send ``request``; return the decoded answer (its ``sync`` applied) or raise the
        student's error (after applying its ``sync``: a call that raised may have changed its
        arguments first); with ``decoded=False`` the answer's value as it came (JSON data).
        (Decoding may itself ask, to hash a handle: nothing here is kept on self.)"""
        seq = next(self.sequence)
        self.requests += 1
        pushed = self.codec.pushes()
        if pushed:
            request = {**request, "push": pushed}
        active = {spec["grader"] for spec in request.get("with", {}).values()
                  if "grader" in spec}
        calls = len(request["each"]) if "each" in request else 1
        allowance = MAX_STAND_IN_CALLS * calls if active else 0
        text = self.transport(json.dumps({"q": seq, **request}))
        while True:
            if type(text) is not str or len(text) > MAX_CHARS:
                raise KernelLost("the kernel's answer was too large")
            try:
                reply = json.loads(text)
            except (ValueError, RecursionError):
                raise KernelLost(f"the kernel answered something that is not the judge's "
                                 f"protocol: {text[:80]!r}") from None
            if type(reply) is not dict or "si" not in reply or "q" in reply:
                break
            allowance -= 1
            text = self.transport(self.answer_stand_in(reply, active, allowance >= 0))
        if type(reply) is not dict or reply.get("q") != seq:
            raise KernelLost(f"the kernel's answer does not match the question: {text[:80]!r}")
        if "gone" in reply:
            self.codec.forget(reply["gone"])
        return self._outcome(reply, decoded)

    def _outcome(self, reply: dict[str, Any], decoded: bool = True) -> Any:
        """Return the value of one answer (a request's, or one call's of a batch), its sync
        applied; raise the student's error it holds instead."""
        budget = Budget()  # one answer, its sync with it: one message
        if "err" in reply:
            self.codec.apply_sync(reply.get("sync"), budget)
            raise_error(reply["err"])
        if "ok" not in reply:
            raise KernelLost(f"the kernel's answer holds no value: {str(reply)[:80]!r}")
        value = self.codec.decode(reply["ok"], budget) if decoded else reply["ok"]
        self.codec.apply_sync(reply.get("sync"), budget)
        return value

    def answer_stand_in(self, question: dict[str, Any], active: set[int], allowed: bool) -> str:
        """Answer the kernel's call of one of the grader's stand-ins (``{"si": index, "a":
        [...], "kw": [...]}``, plain data and kit cards) with that known-good part, here; the
        reply's text. Only the stand-ins the running request carries answer (``active``), at
        most ``MAX_STAND_IN_CALLS`` times a call of the part (``allowed``): any other call gets
        an error naming the rule, raised in the student's code. Raises KernelLost for a
        malformed question."""
        index = question.get("si")
        if type(index) is not int or type(question.get("a")) is not list \
                or type(question.get("kw")) is not list \
                or not all(type(pair) is list and len(pair) == 2 for pair in question["kw"]):
            raise KernelLost("the kernel broke the protocol of a stand-in's call")
        if index not in active:
            return json.dumps({"err": {"cls": "RuntimeError", "msg": STAND_IN_REFUSED}})
        if not allowed:
            return json.dumps({"err": {"cls": "RuntimeError", "msg": STAND_IN_SPENT}})
        budget = Budget()  # the question is one message
        try:
            args = [PLAIN.decode(item, budget) for item in question["a"]]
            kwargs = {str(key): PLAIN.decode(value, budget) for key, value in question["kw"]}
        except WireError as error:
            return json.dumps({"err": {"cls": "TypeError", "msg": str(error)[:MAX_SHOWN]}})
        if _cards_in([*args, *kwargs.values()]) > MAX_STAND_IN_CARDS:
            return json.dumps({"err": {"cls": "ValueError", "msg": STAND_IN_TOO_MANY}})
        try:
            result = self.answering[index](*args, **kwargs)
            return json.dumps({"ok": PLAIN.encode(result, Budget())})
        except Exception as error:  # noqa: BLE001  the known-good part refused the input
            kind = next((k.__name__ for k in type(error).__mro__
                         if k.__name__ in ROUTED_ERRORS and getattr(builtins, k.__name__, None)
                         is k), "RuntimeError")
            return json.dumps({"err": {"cls": kind, "msg": STAND_IN_ERROR.format(kind=kind)}})

    def call(self, function: Remote, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call ``function`` in the kernel; the lists, dicts, sets and ``random.Random``s it is
        given (at any depth) get what the call left in them, as the kernel reports it (see
        docs/threat-model.md)."""
        budget = Budget()  # the request is one message
        encode = self.codec.encode
        request = {"op": "call", "f": {"r": function._ref},
                   "a": [encode(a, budget) for a in args],
                   "kw": [[str(k), encode(v, budget)] for k, v in kwargs.items()],
                   "with": self.stand_ins.get(function._ref, {})}
        return self._exchange(request)

    def calls(self, function: Remote, arg_lists: list[tuple[Any, ...]]
              ) -> list[Callable[[], Any]]:
        """Return one thunk per argument tuple of ``arg_lists``: calling the i-th returns what
        ``function(*arg_lists[i])`` returned in the kernel (its arguments get what the call
        left in them) or raises its error, as ``call`` would. The calls are sent in batches
        when a thunk needs them: ``FIRST_BATCH`` calls, then twice as many each time up to
        ``MAX_BATCH``, so a check that stops at its first wrong answer has made at most about
        as many calls again; the kernel stops a batch at the first call that raises. A value
        given to several calls of one batch is sent whole once: the later calls get it as the
        earlier ones left it, as they would one after the other."""
        outcomes: dict[int, dict[str, Any]] = {}
        size = [FIRST_BATCH]

        def fetch(start: int) -> None:
            chunk = list(range(start, min(len(arg_lists), start + size[0])))
            size[0] = min(MAX_BATCH, size[0] * 2)
            seen: set[int] = set()  # sent whole once for the whole batch

            def each(index: int) -> dict[str, Any]:  # each call is one message of its own
                budget = Budget()
                budget.seen = seen
                return {"a": [self.codec.encode(a, budget) for a in arg_lists[index]], "kw": []}
            request = {"op": "calls", "f": {"r": function._ref},
                       "each": [each(i) for i in chunk],
                       "with": self.stand_ins.get(function._ref, {})}
            answers = self._exchange(request, decoded=False)
            if type(answers) is not list or not 1 <= len(answers) <= len(chunk):
                raise KernelLost("the kernel answered a malformed batch of calls")
            for index, answer in zip(chunk, answers):
                if type(answer) is not dict or ("ok" in answer) == ("err" in answer):
                    raise KernelLost("the kernel answered a malformed batch of calls")
                outcomes[index] = answer
                if "err" in answer:
                    break

        def thunk(index: int) -> Any:
            if index not in outcomes:
                fetch(index)
            return self._outcome(outcomes.pop(index))

        def bound(index: int) -> Callable[[], Any]:
            return lambda: thunk(index)

        return [bound(index) for index in range(len(arg_lists))]

    @contextlib.contextmanager
    def substituted(self, function: Remote, stand_ins: dict[str, Any]) -> Iterator[None]:
        """While the block runs, calls of ``function`` carry ``stand_ins`` (see
        ``plaisante.kernel.oracle``)."""
        specs = {str(name): self.codec.stand_in(value) for name, value in stand_ins.items()}
        saved = self.stand_ins.get(function._ref)
        self.stand_ins[function._ref] = {**(saved or {}), **specs}
        try:
            yield
        finally:
            if saved is None:
                self.stand_ins.pop(function._ref, None)
            else:
                self.stand_ins[function._ref] = saved

    def renewed(self, function: Remote) -> Remote:
        """Return ``function`` (a handle this session fetched by its name) as found in a kernel
        started for this call alone (``renewal``): the spare one the cell's names were fetched
        in, else a new one. ``function`` itself when the session has no renewal. Raises
        KernelLost when the new kernel lacks it."""
        if self.renewal is None:
            return function
        if self.spare:
            self.spare = False
            if self.requests == self.fetched:
                return function
            # asked more than the names (and so maybe running the student's code) before the
            # first run: that run would be told apart from the later ones, whose kernels hear
            # the names alone; it gets a kernel of its own like them
        name = function._name
        self.transport = self.renewal()
        self.codec = Codec(self)
        self.stand_ins.clear()
        # asked what the first run's kernel was asked, numbered from 1 as there: numbers going
        # on from the earlier kernels' would tell a run how many runs came before it
        self.sequence = itertools.count(1)
        found = self.fetch(self.names if name in self.names else [name]) if name else {}
        fresh = found.get(name) if name else None
        if type(fresh) is not Remote:
            raise KernelLost(f"{name} was not defined again in a fresh kernel by the cells "
                             "before its test cell")
        object.__setattr__(fresh, "_name", name)
        return fresh

    def reset(self) -> None:
        """Start afresh on a kernel that served an earlier cell: it forgets its references."""
        if self.ask({"op": "reset"}) != "ready":
            raise KernelLost("the kernel did not start afresh for this cell")

    def fetch(self, names: list[str]) -> dict[str, Any]:
        """Return {name: value} of the notebook's names that exist in the kernel."""
        found = self.ask({"op": "globals", "names": names})
        if type(found) is not dict or not set(found) <= set(names):
            raise KernelLost("the kernel answered a malformed list of names")
        return found


# ------------------------------------------------------------------------------ a test cell

@dataclass
class Verdict:
    """How one test cell ended: ``passed``, what it printed, and for a failure the error's
    type name and message (as the notebook would show them)."""

    passed: bool
    printed: str = ""
    error: tuple[str, str] | None = None
    lost: str | None = None  # set when the kernel was lost (timeout, death, protocol)
    in_hidden: bool = False  # the failing statement is one of the cell's hidden tests
    rule: str | None = None  # that hidden check's ``# Rule:`` line (its text), when it has one
    score: float | None = None  # a passing cell's last value, when a number: partial credit


def names_read(source: str) -> list[str]:
    """Return the names ``source`` reads from its module's namespace and never binds there
    itself (sorted): the only candidates to fetch from the kernel. A name the cell binds at its
    top level (an assignment, ``def``, ``class``, ``import``, a loop's or ``with``'s target…)
    is its own, and so is a name a function of the cell binds for itself (its parameters, its
    locals, a nested ``def``); a name such a function reads and does not bind is read from the
    module, as Python reads it. Raises SyntaxError for a source that does not parse."""
    return list(_names_read(source))


@functools.lru_cache(maxsize=512)  # the same test cells, every submission
def _names_read(source: str) -> tuple[str, ...]:
    top = symtable.symtable(source, "<test>", "exec")
    own = {symbol.get_name() for symbol in top.get_symbols()
           if symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace()}
    read: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        read.update(symbol.get_name() for symbol in table.get_symbols()
                    if symbol.is_referenced() and (table is top or symbol.is_global()))
    return tuple(sorted(read - own))


def setup_namespace(setup_sources: list[str]) -> dict[str, Any]:
    """Run the assignment's locked setup cells here, in a fresh namespace, and return it. The
    known-good parts of every game whose checks the setup loaded answer those checks here
    (``known_good_answers``)."""
    namespace: dict[str, Any] = {"__name__": "__judge__", "__builtins__": builtins}
    for source in setup_sources:
        exec(compile(source, "<setup>", "exec"), namespace)  # noqa: S102  the instructor's code
    known_good_answers()
    return namespace


def known_good_answers() -> None:
    """Import ``plaisante.games.<id>.known_good`` for every game whose checks are loaded: the
    checks then compare with, and stand in with, the known-good parts (never in a kernel)."""
    import importlib
    import sys

    for name in [module for module in sys.modules if re.fullmatch(
            r"plaisante\.games\.\w+\.checks", module)]:
        try:
            importlib.import_module(name.rpartition(".")[0] + ".known_good")
        except ModuleNotFoundError:
            pass


def judge_cell(source: str, setup: dict[str, Any], student_names: set[str],
               transport: Transport, fresh: bool = True,
               renewal: Callable[[], Transport] | None = None) -> Verdict:
    """Run one test cell's ``source`` here against the kernel's parts; return its verdict.

    ``setup`` is the namespace of the setup cells (copied, never changed); of the names the
    source reads and does not bind itself (``names_read``), those in ``student_names`` and any
    other that neither setup nor the builtins define are fetched from the kernel first. A name
    the kernel does not have is left undefined. ``fresh`` is False when ``transport`` already
    served an earlier cell (it is reset first). ``renewal``, when given, starts a kernel of
    its own for each run of a student's tests (``Session.renewal``), and one before anything
    is asked, where the cell's names are fetched: ``transport``'s kernel, which may have
    heard hidden checks, is asked nothing, and each name is the one the cells before this one
    defined.
    """
    session = Session(transport)
    session.renewal = renewal
    namespace = dict(setup)
    wanted = [name for name in names_read(source)
              if name in student_names or (name not in setup and not hasattr(builtins, name))]
    printed = io.StringIO()
    try:
        if renewal is not None:
            session.transport = renewal()
            session.spare = True
            session.names = wanted
        elif not fresh:
            session.reset()
        found = session.fetch(wanted) if wanted else {}
        session.fetched = session.requests
        for name in wanted:
            if name in found:
                value = found[name]
                if type(value) is Remote:  # named as the test names it, whatever it calls itself
                    object.__setattr__(value, "_name", name)
                namespace[name] = value
            elif name in student_names:
                namespace.pop(name, None)
        with contextlib.redirect_stdout(printed):
            value = run_source(source, namespace)
    except KernelLost as lost:
        return Verdict(False, _cut(printed.getvalue()), (type(lost).__name__, str(lost)),
                       lost=str(lost))
    except Exception as error:  # noqa: BLE001  a failing test: its message is the verdict
        line = failing_line(error)
        return Verdict(False, _cut(printed.getvalue()), (type(error).__name__, str(error)[:2000]),
                       in_hidden=line in hidden_lines(source), rule=rule_at(source, line))
    score = value if type(value) in (int, float) else None  # as nbgrader reads a cell's value
    return Verdict(True, _cut(printed.getvalue()), score=score)


def run_source(source: str, namespace: dict[str, Any]) -> Any:
    """Run a test cell's ``source`` (the instructor's) in ``namespace``; return the value of
    its last statement when that is an expression (None otherwise), as a notebook would."""
    body, last = _compiled(source)
    exec(body, namespace)  # noqa: S102  the instructor's code
    return None if last is None else eval(last, namespace)  # noqa: S307


@functools.lru_cache(maxsize=512)
def _compiled(source: str) -> tuple[types.CodeType, types.CodeType | None]:
    """Return a test cell's code: its statements but a last expression, and that expression
    (None when the last statement is not one). Compiled once per source (code is immutable)."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = compile(tree, "<test>", "exec")
    if not isinstance(last, ast.Expr):
        return body, None
    return body, compile(ast.Expression(last.value), "<test>", "eval")


def failing_line(error: BaseException) -> int | None:
    """Return the line of the test cell's own statement that raised ``error`` (None if the
    error did not pass through the cell's code)."""
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == "<test>":
            return trace.tb_lineno
        trace = trace.tb_next
    return None


def hidden_lines(source: str, begin: str = "BEGIN HIDDEN TESTS",
                 end: str = "END HIDDEN TESTS") -> set[int]:
    """Return the numbers (from 1) of the source's lines inside hidden-test regions."""
    inside, found = False, set()
    for number, line in enumerate(source.splitlines(), start=1):
        if begin in line:
            inside = True
        elif end in line:
            inside = False
        elif inside:
            found.add(number)
    return found


def split_hidden(source: str, begin: str = "BEGIN HIDDEN TESTS",
                 end: str = "END HIDDEN TESTS") -> tuple[str, str | None]:
    """Return (visible, hidden): ``source`` with its hidden regions' lines blanked, and with
    every other line blanked (line numbers kept, so a failure's rule line is found), or None
    for hidden when the cell has no hidden region. A cell that grades the student's own tests
    (``grade_my_tests``) is split too: the answers of the versions its runs reach are as hidden
    as any hidden input."""
    inside = hidden_lines(source, begin, end)
    if not inside:
        return source, None
    lines = source.splitlines()
    hidden = "\n".join(line if number in inside or begin in line or end in line else ""
                       for number, line in enumerate(lines, start=1))
    visible = "\n".join("" if number in inside else line
                        for number, line in enumerate(lines, start=1))
    return visible, hidden


#: the comment line that states, in a hidden region, the rule of the checks below it
RULE = re.compile(r"^\s*#\s*Rule:(.*)$")


def rule_lines(source: str, begin: str = "BEGIN HIDDEN TESTS",
               end: str = "END HIDDEN TESTS") -> dict[int, str]:
    """Return {line number (from 1): rule} for every line of ``source``'s hidden regions that a
    ``# Rule: <text>`` comment covers (``RULE``): the lines below it up to the next rule line or
    the region's end (the rule line itself included). Lines before a region's first rule line are
    left out. The rule is the comment's text after ``Rule:``, stripped."""
    covered: dict[int, str] = {}
    rule: str | None = None
    inside = False
    for number, line in enumerate(source.splitlines(), start=1):
        if begin in line:
            inside, rule = True, None
        elif end in line:
            inside, rule = False, None
        elif inside:
            stated = RULE.match(line)
            if stated:
                rule = stated.group(1).strip() or None
            if rule is not None:
                covered[number] = rule
    return covered


def rule_at(source: str, line: int | None) -> str | None:
    """Return the rule (``rule_lines``) covering ``line`` of ``source``, or None (no line, a
    visible line, or a hidden line no rule covers)."""
    return None if line is None else rule_lines(source).get(line)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_PRINTED else text[:MAX_PRINTED] + "\n[output cut]\n"
