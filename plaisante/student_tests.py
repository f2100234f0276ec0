"""Students' own tests, judged the way Examplar judges them ("wheats and chaffs").

A student writes a test function of the implementations it is given, e.g.
``def my_count_values_tests(count_values):`` with plain ``assert``s. Its verdict is made of
runs: one run calls the student's function once, with one *version* of the implementations
(a ``Version``: the correct one, or a buggy one named by its mistake). A run fails when the
student's function raises.

* In the student's notebook, ``try_my_tests`` runs the tests on the student's own code and on a
  few visible buggy versions, and prints which mistakes they catch. It never raises but for
  tests not written yet (NotImplementedError).
* When graded, ``grade_my_tests`` runs the tests on the reference (at least twice: every
  reference run must pass, else the cell scores 0 and says which assertion failed) and on
  hidden buggy versions, in an order drawn at random; it returns the points earned, one share
  per version caught, and says how many were caught, not which.

Under the judge the student's function stays in the kernel and every implementation stays in
the grader: each call of an implementation is routed from the kernel to the grader and back
over the kernel's stdin channel (the reverse of the judge's direction). The kernel is asked the
same question for every run (``{"op": "routed", "f": the tests, "params": names}``) and only
ever sees the answers of the implementation a call reached; which run is the reference is drawn
in the grader with ``random.SystemRandom`` and never sent. So a test that compares the code of
what it is given (bytecode, source, identity) sees the same proxy in every run and catches
nothing; what the kernel can learn of a run is what the answers reveal.

Values crossing, both directions, are plain data: None, bools, ints, strs, lists, tuples and
dicts of them, and cards (any object with a string ``rank`` and ``suit`` of the kit's deck),
which the implementation receives as the kit's cards (``KitCard``) of that rank and suit.

An implementation may be a class (a machine, say). The objects a test makes with it stay in the
grader too: the kernel gets a ``RoutedObject`` whose public attributes are read or set, and
whose methods are called, each by a routed question ({"ob": index, "op": "get"/"set"/"call",
"n": name}). Only public names (no leading ``_``) reach the object, only plain data comes back
(a method is answered ``{"method": true}``), and only objects a class part made are reachable.
"""

from __future__ import annotations

import builtins
import json
import random
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import RANKS, SUITS, KitCard
from .checking import CheckFailed

MAX_ITEMS = 10_000  # values in one routed argument list or answer
MAX_DEPTH = 20
MAX_MESSAGE = 300  # characters of a failing run's message kept
MAX_OBJECTS = 1_000  # objects one run of a student's tests may make with a class part
REFERENCE_RUNS = 2  # the reference runs this many times, at random places among the runs
ROUTED_ERRORS = ("ValueError", "TypeError", "KeyError", "IndexError", "AttributeError",
                 "ZeroDivisionError", "RecursionError", "RuntimeError", "NotImplementedError",
                 "AssertionError", "LookupError", "ArithmeticError")


@dataclass(frozen=True)
class Version:
    """A version of the implementations a student's tests are run on: ``mistake`` names it
    (e.g. "counts from slot 0"), ``parts`` maps each parameter name to its implementation."""

    mistake: str
    parts: dict[str, Callable[..., Any]] = field(default_factory=dict)


def version(mistake: str, **parts: Callable[..., Any]) -> Version:
    """Return ``Version(mistake, parts)``: ``version("counts from slot 0", count_values=f)``."""
    return Version(mistake, dict(parts))


@dataclass(frozen=True)
class Outcome:
    """How one run ended: 'pass', 'fail' (with the failing line and message) or 'todo'."""

    status: str
    message: str = ""


def is_remote(value: Any) -> bool:
    """Return True for the judge's handle on an object that lives in the student's kernel."""
    return getattr(type(value), "__plaisante_substitute__", None) is not None \
        and hasattr(value, "_session")


# ------------------------------------------------------------------ running a test function

def describe_failure(error: BaseException, skip: str = __file__) -> str:
    """Return '<the failing line> → <Error>: <message>' for a student's failing test (the
    line from the innermost frame that is not this module), cut to MAX_MESSAGE."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename != skip]
    line = (frames[-1].line or "").strip() if frames else ""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001  a student's error whose message cannot be read
        text = ""
    kind = type(error).__name__
    said = f"{kind}: {text}" if text else kind
    message = f"{line}  → {said}" if line and line not in said else said
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def run_locally(tests: Callable[..., Any], parts: dict[str, Callable[..., Any]]) -> Outcome:
    """Run the student's ``tests`` here with ``parts`` as keyword arguments."""
    try:
        tests(**parts)
    except NotImplementedError:
        return Outcome("todo")
    except Exception as error:  # noqa: BLE001  any failure of a test is a caught run
        return Outcome("fail", describe_failure(error))
    return Outcome("pass")


# ------------------------------------------------------------------ values on the wire

def _is_card(value: Any) -> bool:
    try:
        rank, suit = getattr(value, "rank", None), getattr(value, "suit", None)
    except Exception:  # noqa: BLE001  a student's object with a broken attribute
        return False
    return type(rank) is str and type(suit) is str and rank in RANKS and suit in SUITS


def encode(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """Return the wire form of ``value`` (module doc); raises TypeError for anything else."""
    budget = budget if budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise TypeError("too large or too deeply nested a value to pass between your tests "
                        "and the function they test")
    kind = type(value)
    if kind in (type(None), bool, int, str):
        return value
    if kind is list:
        return [encode(item, budget, depth + 1) for item in value]
    if kind is tuple:
        return {"t": [encode(item, budget, depth + 1) for item in value]}
    if kind is dict:
        return {"d": [[encode(k, budget, depth + 1), encode(v, budget, depth + 1)]
                      for k, v in value.items()]}
    if _is_card(value):
        return {"k": [value.rank, value.suit]}
    raise TypeError(f"your tests can pass only cards and plain values (ints, strs, bools, "
                    f"lists…) to the function they test, not a {kind.__name__}")


def decode(data: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """Return the value ``data`` describes; raises ValueError for anything malformed."""
    budget = budget if budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise ValueError("a routed value was too large or too deeply nested")
    kind = type(data)
    if kind in (type(None), bool, int, str):
        return data
    if kind is list:
        return [decode(item, budget, depth + 1) for item in data]
    if kind is dict and len(data) == 1:
        (tag, body), = data.items()
        if tag == "t" and type(body) is list:
            return tuple(decode(item, budget, depth + 1) for item in body)
        if tag == "d" and type(body) is list and all(type(p) is list and len(p) == 2
                                                     for p in body):
            try:
                return {decode(k, budget, depth + 1): decode(v, budget, depth + 1)
                        for k, v in body}
            except TypeError:
                raise ValueError("a routed dict had an unhashable key") from None
        if tag == "k" and type(body) is list and len(body) == 2 \
                and all(type(item) is str for item in body):
            return KitCard(*body)
    raise ValueError(f"a routed value was malformed: {str(data)[:80]}")


# ------------------------------------------------------------------ the kernel's side

def kernel_send() -> Callable[[str], str]:
    """Return ``send(text) -> reply text`` over the running kernel's stdin channel (the
    judge's serve loop is waiting in it). Tests replace this."""
    from IPython import get_ipython

    from .oracle import exchange_with

    return exchange_with(get_ipython().kernel)


_METHOD = object()  # the grader's answer "that attribute is a method"


class RoutedObject:
    """The kernel's handle on an object a class part made for the student's tests (it lives in
    the grader): reading or setting a public attribute and calling a method ask the grader."""

    __slots__ = ("_ask", "_label")

    def __init__(self, ask: Callable[..., Any], label: str) -> None:
        object.__setattr__(self, "_ask", ask)
        object.__setattr__(self, "_label", label)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(f"your tests can use only the public attributes of a "
                                 f"{self._label}, not {name}")
        return self._ask("get", name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            raise AttributeError(f"your tests can set only the public attributes of a "
                                 f"{self._label}, not {name}")
        self._ask("set", name, value)

    def __repr__(self) -> str:
        return f"<a {self._label} made for your tests>"


def run_routed(tests: Any, params: Any) -> dict[str, str]:
    """Kernel side of one run: call the student's ``tests`` with a proxy for each name of
    ``params``; each call of a proxy asks the grader. Returns {"status", "message"}."""
    if type(params) is not list or not all(type(name) is str for name in params):
        raise ValueError("malformed routed run")
    send = kernel_send()

    def ask(question: dict[str, Any], args: tuple[Any, ...], label: str) -> Any:
        reply = json.loads(send(json.dumps(question)))
        if "err" in reply:
            kind = getattr(builtins, str(reply["err"].get("cls")), None)
            kind = kind if isinstance(kind, type) and issubclass(kind, Exception) \
                and kind.__name__ in ROUTED_ERRORS else RuntimeError
            raise kind(str(reply["err"].get("msg", ""))[:MAX_MESSAGE])
        for arg, after in zip(args, reply.get("back", [])):
            if type(arg) is list and after is not None:
                arg[:] = _restore(arg, decode(after))
        made = reply.get("ok")
        if type(made) is dict and set(made) == {"o"} and type(made["o"]) is int:
            return RoutedObject(object_asker(made["o"], label), label)
        if made == {"method": True}:
            return _METHOD
        return decode(made)

    def object_asker(index: int, label: str) -> Callable[..., Any]:
        def ask_object(op: str, name: str, *value: Any) -> Any:
            question = {"ob": index, "op": op, "n": name}
            if op == "set":
                question["a"] = [encode(value[0])]
            reply = ask(question, (), label)
            return method(index, name, label) if reply is _METHOD else reply
        return ask_object

    def method(index: int, name: str, label: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return ask({"ob": index, "op": "call", "n": name,
                        "a": [encode(arg) for arg in args],
                        "kw": [[str(key), encode(value)] for key, value in kwargs.items()]},
                       args, label)
        call.__name__ = call.__qualname__ = name
        return call

    def proxy(name: str) -> Callable[..., Any]:
        def implementation(*args: Any, **kwargs: Any) -> Any:
            return ask({"cb": name, "a": [encode(arg) for arg in args],
                        "kw": [[str(key), encode(value)] for key, value in kwargs.items()]},
                       args, name)
        implementation.__name__ = implementation.__qualname__ = name
        return implementation

    outcome = run_locally(tests, {name: proxy(name) for name in params})
    return {"status": outcome.status, "message": outcome.message}


def _restore(before: list[Any], after: list[Any]) -> list[Any]:
    """Map the cards of a list an implementation changed back onto the kernel's own objects
    of the same rank and suit (where there are such)."""
    own: dict[tuple[str, str], Any] = {}
    for item in before:
        if _is_card(item):
            own.setdefault((item.rank, item.suit), item)
    return [own.get((item.rank, item.suit), item) if type(item) is KitCard else item
            for item in after]


# ------------------------------------------------------------------ the grader's side

def _answer(question: Any, parts: dict[str, Callable[..., Any]],
            objects: list[Any] | None = None) -> str:
    """Run one routed call (of a part, or on an object a class part made: ``objects``, this
    run's) with the grader's implementation; return the reply's text."""
    objects = objects if objects is not None else []
    if type(question) is dict and "ob" in question:
        return _answer_object(question, objects)
    if type(question) is not dict or question.get("cb") not in parts \
            or type(question.get("a")) is not list or type(question.get("kw")) is not list:
        raise ValueError("malformed routed call")
    part = parts[question["cb"]]
    return _invoke(part, question, objects, makes_object=isinstance(part, type))


def _invoke(function: Callable[..., Any], question: dict[str, Any], objects: list[Any],
            makes_object: bool = False) -> str:
    if type(question.get("a")) is not list or type(question.get("kw")) is not list \
            or not all(type(pair) is list and len(pair) == 2 for pair in question["kw"]):
        raise ValueError("malformed routed call")
    try:
        args = [decode(item) for item in question["a"]]
        kwargs = {str(key): decode(value) for key, value in question["kw"]}
    except (ValueError, TypeError) as error:
        return json.dumps({"err": {"cls": "ValueError", "msg": str(error)}})
    given = [list(arg) if type(arg) is list else None for arg in args]
    try:
        if makes_object and len(objects) >= MAX_OBJECTS:
            raise RuntimeError(f"your tests made more than {MAX_OBJECTS} objects")
        result = function(*args, **kwargs)
        back = [encode(arg) if type(arg) is list and arg != before else None
                for arg, before in zip(args, given)]
        if makes_object:
            objects.append(result)
            return json.dumps({"ok": {"o": len(objects) - 1}, "back": back})
        return json.dumps({"ok": encode(result), "back": back})
    except Exception as error:  # noqa: BLE001  an implementation's error goes to the test
        return json.dumps({"err": {"cls": type(error).__name__, "msg": str(error)}})


def _answer_object(question: dict[str, Any], objects: list[Any]) -> str:
    """Read or set a public attribute of, or call a method of, an object of this run."""
    index, op, name = question.get("ob"), question.get("op"), question.get("n")
    if type(index) is not int or not 0 <= index < len(objects) \
            or op not in ("get", "set", "call") or type(name) is not str \
            or not name.isidentifier() or name.startswith("_"):
        raise ValueError("malformed routed question about an object")
    target = objects[index]
    if op == "call":
        method = getattr(type(target), name, None)
        if not callable(method):
            raise ValueError("a routed call of something that is not a method")
        return _invoke(getattr(target, name), question, objects)
    try:
        if op == "set":
            if type(question.get("a")) is not list or len(question["a"]) != 1:
                raise ValueError("malformed routed attribute")
            setattr(target, name, decode(question["a"][0]))
            return json.dumps({"ok": None})
        if callable(getattr(type(target), name, None)):
            return json.dumps({"ok": {"method": True}})
        value = getattr(target, name)
        try:
            return json.dumps({"ok": encode(value)})
        except TypeError:
            raise TypeError(f"{name} holds a {type(value).__name__}, not a plain value, so "
                            "your tests cannot read it") from None
    except Exception as error:  # noqa: BLE001  e.g. no such attribute: the test hears it
        return json.dumps({"err": {"cls": type(error).__name__, "msg": str(error)}})


def run_remote(tests: Any, parts: dict[str, Callable[..., Any]]) -> Outcome:
    """Run the student's ``tests`` (the judge's handle on it) once in the kernel, answering
    each routed call with ``parts``, here. Raises the judge's KernelLost when the kernel
    breaks the protocol."""
    from .grading.judge import KernelLost, raise_error

    session = tests._session
    seq = next(session.sequence)
    session.requests += 1
    text = session.transport(json.dumps({"q": seq, "op": "routed", "f": {"r": tests._ref},
                                         "params": sorted(parts)}))
    objects: list[Any] = []  # what class parts made in this run; gone with it
    for _ in range(100_000):
        try:
            message = json.loads(text) if type(text) is str and len(text) < 4_000_000 else None
        except (ValueError, RecursionError):
            message = None
        if type(message) is dict and ("cb" in message or "ob" in message):
            try:
                reply = _answer(message, parts, objects)
            except ValueError as error:
                raise KernelLost(f"the kernel broke the protocol of a routed call: {error}"
                                 ) from None
            text = session.transport(reply)
            continue
        if type(message) is not dict or message.get("q") != seq:
            raise KernelLost(f"the kernel's answer does not match the question: {str(text)[:80]!r}")
        if "err" in message:
            raise_error(message["err"])
        found = session.codec.decode(message.get("ok"))
        if type(found) is not dict or found.get("status") not in ("pass", "fail", "todo") \
                or type(found.get("message")) is not str:
            raise KernelLost("the kernel answered a malformed run of a student's tests")
        return Outcome(found["status"], found["message"][:MAX_MESSAGE])
    raise KernelLost("the kernel made too many routed calls")


def run_once(tests: Any, parts: dict[str, Callable[..., Any]]) -> Outcome:
    """Run the student's ``tests`` once on ``parts``: here, or routed when they live in the
    student's kernel."""
    return run_remote(tests, parts) if is_remote(tests) else run_locally(tests, parts)


def _shuffled(versions: Sequence[Version], reference: dict[str, Callable[..., Any]]
              ) -> Iterator[tuple[int | None, dict[str, Callable[..., Any]]]]:
    """Yield (index of the version or None for the reference, its parts) in a random order
    drawn from the operating system (never seeded, never sent)."""
    runs: list[tuple[int | None, dict[str, Callable[..., Any]]]] = [
        (None, reference)] * REFERENCE_RUNS
    runs += [(index, {**reference, **v.parts}) for index, v in enumerate(versions)]
    random.SystemRandom().shuffle(runs)
    yield from runs


def _name(tests: Any) -> str:
    name = getattr(tests, "__name__", "your tests")
    return name if type(name) is str else "your tests"


# ------------------------------------------------------------------ what the cells call

def try_my_tests(tests: Any, mistakes: Sequence[Version], **own: Callable[..., Any]) -> None:
    """In the student's notebook: run ``tests`` on the student's own parts (``own``), then on
    each visible buggy version, and print what they catch, by mistake. Never raises but for
    tests not written yet (NotImplementedError). Under the judge it does nothing: the grade is
    ``grade_my_tests``'s."""
    if is_remote(tests):
        return
    name = _name(tests)
    outcome = run_locally(tests, own)
    runs = [run_locally(tests, {**own, **mistake.parts}) for mistake in mistakes]
    if outcome.status == "todo" and all(run.status == "todo" for run in runs):
        raise NotImplementedError(f"{name} is not written yet (it still raises "
                                  "NotImplementedError)")
    parts = ", ".join(own)
    if outcome.status == "todo":
        print(f"Your own {parts} is not finished yet (it raises NotImplementedError), so your "
              "tests were tried on the buggy versions alone.")
    elif outcome.status == "fail":
        print(f"On your own {parts}, your tests fail: {outcome.message}\n"
              f"Either your {parts} or the test is wrong: a test must pass on correct code.")
    else:
        print(f"On your own {parts}, your tests pass.")
    caught = []
    for mistake, run in zip(mistakes, runs):
        caught.append(run.status == "fail")
        mark = "caught" if run.status == "fail" else "missed"
        print(f"  {mark}: a {', '.join(mistake.parts)} that {mistake.mistake}")
    print(f"They catch {sum(caught)} of the {len(caught)} buggy versions shown here. When your "
          "work is graded they run on a correct version (they must pass) and on hidden "
          "buggy versions.")


def grade_my_tests(tests: Any, reference: dict[str, Callable[..., Any]],
                   mistakes: Sequence[Version], points: float) -> float:
    """Grade the student's ``tests``: every reference run must pass (else CheckFailed naming
    the failing assertion); then ``points`` × the share of ``mistakes`` caught. Returns the
    points earned (the test cell's last value: nbgrader's partial credit) and prints how many
    were caught, never which. Raises NotImplementedError while the tests are not written."""
    name = _name(tests)
    parts = ", ".join(reference)
    caught = 0
    for index, parts_of_run in _shuffled(mistakes, reference):
        outcome = run_once(tests, parts_of_run)
        if outcome.status == "todo":
            raise NotImplementedError(f"{name} is not written yet (it still raises "
                                      "NotImplementedError)")
        if index is None and outcome.status == "fail":
            raise CheckFailed(f"{name} fails on a correct {parts}, so it cannot be graded: "
                              f"{outcome.message}")
        if index is not None and outcome.status == "fail":
            caught += 1
    earned = round(points * caught / len(mistakes), 2) if mistakes else float(points)
    print(f"{name}: passes on a correct {parts} and catches {caught} of {len(mistakes)} "
          f"hidden buggy versions ({earned:g} of {points:g} points).")
    return earned


__all__ = ["Version", "version", "try_my_tests", "grade_my_tests"]
