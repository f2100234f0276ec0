"""The grader's side of a student's own tests: answer the kernel's routed calls with the parts.

One run of the student's test function (``run_remote``) is one ``routed`` request of the judge;
while the kernel runs the function, each call it makes of an implementation comes back as a
question (the protocol: ``plaisante.kernel.routed``), answered here by the grader's own part
(the reference or a buggy version) through ``Surface`` (``plaisante.student_side.surface``): its
signature checked first, its errors scrubbed of every version's name. What a run gives the objects
it makes (attributes it sets, arguments of their methods) is bounded in total (``MAX_STORED``):
past it the call is refused and the run fails. Values are plain data
(``plaisante.student_side.wire.Plain``).
"""

from __future__ import annotations

import builtins
import inspect
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kernel.routed import MAX_MESSAGE, Outcome, plain
from ..student_side import student_tests
from ..student_side.cards import KitCard
from ..student_side.surface import Surface, surface
from ..student_side.wire import MAX_CHARS, PLAIN, ROUTED_ERRORS, Budget
from .judge import KernelLost, raise_error

MAX_OBJECTS = 1_000  # objects one run of a student's tests may make with a class part
MAX_STORED = 16_000_000  # bytes one run may give the objects it makes (attributes, arguments)
NO_OUTCOME = ("the run ended without saying whether the tests passed (they raised past the "
              "grader, e.g. SystemExit)")
STORED_TOO_MUCH = (f"your tests gave the objects they made more than {MAX_STORED // 1_000_000} "
                   "MB to hold (attributes they set and arguments of their methods): a run may "
                   f"give them at most {MAX_STORED // 1_000_000} MB")


@dataclass
class Run:
    """One run, grader side: its parts, what every run shows alike, the objects class parts
    made for it (with the part that made each) and the bytes given to them so far."""

    parts: dict[str, Callable[..., Any]]
    surface: Surface
    objects: list[tuple[Any, str]] = field(default_factory=list)
    stored: int = 0
    too_much: bool = False
    refused: str = ""  # the class of the first error this run's parts sent the kernel

    def store(self, values: Sequence[Any]) -> None:
        """Count ``values`` as held by this run's objects; RuntimeError past MAX_STORED."""
        self.stored += sum(_size(value) for value in values)
        if self.stored > MAX_STORED:
            self.too_much = True
            raise _Refused("RuntimeError", STORED_TOO_MUCH)


class _Refused(Exception):
    """An answer of our own to a routed call: ``kind`` (a ROUTED_ERRORS name) and text."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind, self.text = kind, text


def _size(value: Any) -> int:
    """Bytes ``value`` (decoded routed data) takes here, about."""
    if type(value) in (list, tuple):
        return sys.getsizeof(value) + sum(_size(item) for item in value)
    if type(value) is dict:
        return sys.getsizeof(value) + sum(_size(k) + _size(v) for k, v in value.items())
    return sys.getsizeof(value) + (100 if type(value) is KitCard else 0)


def _error_kind(error: BaseException) -> str:
    """The builtin class in ROUTED_ERRORS nearest ``error``'s (RuntimeError if none)."""
    for kind in type(error).__mro__:
        name = kind.__name__
        if name in ROUTED_ERRORS and getattr(builtins, name, None) is kind:
            return name
    return "RuntimeError"


def _error_reply(error: BaseException, run: Run) -> str:
    """The reply for ``error``, raised in an implementation: its builtin class and its text
    scrubbed of every version's name."""
    if isinstance(error, _Refused):
        run.refused = run.refused or error.kind
        return json.dumps({"err": {"cls": error.kind, "msg": error.text}})
    run.refused = run.refused or _error_kind(error)
    try:
        text = str(error)
    except Exception:  # noqa: BLE001  an error whose message cannot be read
        text = ""
    return json.dumps({"err": {"cls": _error_kind(error),
                               "msg": run.surface.scrub(text)[:MAX_MESSAGE]}})


def _answer(question: Any, run: Run) -> str:
    """Run one routed call (of a part, or on an object a class part made in ``run``) with the
    grader's implementation; return the reply's text."""
    if type(question) is dict and "ob" in question:
        return _answer_object(question, run)
    if type(question) is not dict or question.get("cb") not in run.parts \
            or type(question.get("a")) is not list or type(question.get("kw")) is not list:
        raise ValueError("malformed routed call")
    name = question["cb"]
    part = run.parts[name]
    return _invoke(part, question, run, name, run.surface.signature(name), makes=name
                   if isinstance(part, type) else None)


def _invoke(function: Callable[..., Any], question: dict[str, Any], run: Run, label: str,
            signature: inspect.Signature | None, makes: str | None = None,
            stores: bool = False) -> str:
    """Call ``function`` (``label`` to the student) with the question's arguments, checked
    first against the reference's ``signature``. ``makes``: the class part whose object the
    call makes; ``stores``: the arguments go to an object of the run (they count as held)."""
    if type(question.get("a")) is not list or type(question.get("kw")) is not list \
            or not all(type(pair) is list and len(pair) == 2 for pair in question["kw"]):
        raise ValueError("malformed routed call")
    budget = Budget()  # the question is one message
    try:
        args = [PLAIN.decode(item, budget) for item in question["a"]]
        kwargs = {str(key): PLAIN.decode(value, budget) for key, value in question["kw"]}
    except (ValueError, TypeError) as error:
        return json.dumps({"err": {"cls": "ValueError", "msg": str(error)}})
    try:
        if signature is not None:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as error:
                raise _Refused("TypeError", f"{label}() {error}") from None
            args, kwargs = list(bound.args), dict(bound.kwargs)
        if makes is not None and len(run.objects) >= MAX_OBJECTS:
            raise _Refused("RuntimeError", f"your tests made more than {MAX_OBJECTS} objects")
        if makes is not None or stores:
            run.store(args + list(kwargs.values()))
        given = [list(arg) if type(arg) is list else None for arg in args]
        result = function(*args, **kwargs)
        budget = Budget()  # and so is the reply
        back = [plain(arg, budget) if type(arg) is list and arg != before else None
                for arg, before in zip(args, given)]
        if makes is not None:
            run.objects.append((result, makes))
            return json.dumps({"ok": {"o": len(run.objects) - 1}, "back": back})
        return json.dumps({"ok": plain(result, budget), "back": back})
    except Exception as error:  # noqa: BLE001  an implementation's error goes to the test
        return _error_reply(error, run)


def _answer_object(question: dict[str, Any], run: Run) -> str:
    """Read or set a public attribute of, or call a method of, an object of this run."""
    index, op, name = question.get("ob"), question.get("op"), question.get("n")
    if type(index) is not int or not 0 <= index < len(run.objects) \
            or op not in ("get", "set", "call") or type(name) is not str \
            or not name.isidentifier() or name.startswith("_"):
        raise ValueError("malformed routed question about an object")
    target, part = run.objects[index]
    if op == "call":
        method = getattr(type(target), name, None)
        if not callable(method):
            raise ValueError("a routed call of something that is not a method")
        return _invoke(getattr(target, name), question, run, f"{part}.{name}",
                       run.surface.signature(part, name), stores=True)
    try:
        if op == "set":
            if type(question.get("a")) is not list or len(question["a"]) != 1:
                raise ValueError("malformed routed attribute")
            value = PLAIN.decode(question["a"][0], Budget())
            run.store([value])
            try:
                setattr(target, name, value)
            except AttributeError:
                raise _Refused("AttributeError", f"'{part}' object attribute '{name}' cannot "
                                                 "be set") from None
            return json.dumps({"ok": None})
        if callable(getattr(type(target), name, None)):
            return json.dumps({"ok": {"method": True}})
        try:
            value = getattr(target, name)
        except AttributeError:
            raise _Refused("AttributeError", f"'{part}' object has no attribute '{name}'"
                           ) from None
        try:
            return json.dumps({"ok": plain(value, Budget())})
        except TypeError:
            raise _Refused("TypeError", f"{name} holds a {type(value).__name__}, not a plain "
                                        "value, so your tests cannot read it") from None
    except Exception as error:  # noqa: BLE001  e.g. a property that raises: the test hears it
        return _error_reply(error, run)


def run_remote(tests: Any, parts: dict[str, Callable[..., Any]],
               shown: Surface | None = None) -> Outcome:
    """Run the student's ``tests`` (the judge's handle on it) once in the kernel, answering
    each routed call with ``parts``, here (``shown``: what every run shows alike; by default
    ``parts``'). An error the kernel answers instead of the run's outcome (a test that calls
    ``exit()``, or a kernel that chooses to) is a failing run said in the grader's words
    (``NO_OUTCOME``): its text was the kernel's, which heard this run's answers. Raises the
    judge's KernelLost when the kernel breaks the protocol."""
    try:
        return _run_remote(tests, parts, shown)
    except KernelLost:
        raise
    except Exception:  # noqa: BLE001  raised here from the kernel's answer, in its words
        return Outcome("fail", NO_OUTCOME, by_grader=True)


def _run_remote(tests: Any, parts: dict[str, Callable[..., Any]],
                shown: Surface | None) -> Outcome:
    session = tests._session
    tests = session.renewed(tests)
    seq = next(session.sequence)
    session.requests += 1
    text = session.transport(json.dumps({"q": seq, "op": "routed", "f": {"r": tests._ref},
                                         "params": sorted(parts)}))
    run = Run(parts, shown if shown is not None else surface(parts))  # gone with this run
    for _ in range(100_000):
        try:
            message = json.loads(text) if type(text) is str and len(text) <= MAX_CHARS else None
        except (ValueError, RecursionError):
            message = None
        if type(message) is dict and ("cb" in message or "ob" in message):
            try:
                reply = _answer(message, run)
            except ValueError as error:
                raise KernelLost(f"the kernel broke the protocol of a routed call: {error}"
                                 ) from None
            text = session.transport(reply)
            continue
        if type(message) is not dict or message.get("q") != seq:
            raise KernelLost(f"the kernel's answer does not match the question: {str(text)[:80]!r}")
        session.codec.apply_sync(message.get("sync"))
        if "err" in message:
            raise_error(message["err"])
        found = session.codec.decode(message.get("ok"))
        if type(found) is not dict or found.get("status") not in ("pass", "fail", "todo") \
                or type(found.get("message")) is not str:
            raise KernelLost("the kernel answered a malformed run of a student's tests")
        if run.too_much:
            return Outcome("fail", STORED_TOO_MUCH, by_grader=True)
        return Outcome(found["status"], found["message"][:MAX_MESSAGE], refused=run.refused)
    raise KernelLost("the kernel made too many routed calls")


def give_own_tests_their_grader_side() -> None:
    """Make ``student_tests.grade_my_tests`` run tests that live in a kernel with ``run_remote``
    (the student's side never imports the grader: it is given this)."""
    student_tests.remote_runner = run_remote
