"""The kernel's side of a student's own tests: run them here, on routed stand-ins of the parts.

Under the judge the student's test function stays in the kernel and every implementation stays
in the grader (``plaisante.student_side.student_tests`` tells the whole story; the grader's side is
``plaisante.grading.routed``). The judge asks ``{"op": "routed", "f": the tests, "params":
names}`` (``plaisante.kernel.oracle``); ``run_routed`` then calls the student's function with a
proxy for each name, and each call of a proxy is one question to the grader over the kernel's
stdin channel (``plaisante.kernel.channel``), the reverse of the judge's direction:

* ``{"cb": name, "a": [args], "kw": [[key, value], ...]}`` a call of the part ``name``;
* ``{"ob": index, "op": "get"/"set"/"call", "n": name}`` (``"a"``, ``"kw"`` for a call, ``"a":
  [value]`` for a set) an attribute or method of an object a class part made for the run.

The grader replies ``{"ok": value, "back": [...]}`` (``back``: for each list argument, what the
implementation left in it, or null), ``{"ok": {"o": index}}`` (an object it made), ``{"ok":
{"method": true}}`` (that attribute is a method) or ``{"err": {"cls": name, "msg": text}}``,
raised here as that builtin class (one of ``plaisante.student_side.wire.ROUTED_ERRORS``, else
RuntimeError). Values are plain data (``plaisante.student_side.wire.Plain``). Running the tests in
the student's notebook, with no grader, is ``run_locally``.
"""

from __future__ import annotations

import builtins
import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plaisante.student_side.cards import KitCard
from plaisante.student_side.wire import PLAIN, ROUTED_ERRORS, Budget, TooLarge, is_card

MAX_MESSAGE = 300  # characters of a failing run's message kept


@dataclass(frozen=True)
class Outcome:
    """How one run ended: 'pass', 'fail' (with the failing line and message) or 'todo'."""

    status: str
    message: str = ""
    by_grader: bool = False  # the message is the grader's own words, not the kernel's
    refused: str = ""  # routed: the class of the first error the grader's parts raised in it


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


def kernel_send() -> Callable[[str], str]:
    """Return ``send(text) -> reply text`` over the running kernel's stdin channel (the
    judge's serve loop is waiting in it). Tests replace this."""
    from IPython import get_ipython

    from .channel import exchange_with

    return exchange_with(get_ipython().kernel)


def plain(value: Any, budget: Budget) -> Any:
    """Return the routed wire form of ``value`` (``plaisante.student_side.wire.Plain``), within the
    message's ``budget``. Raises TypeError, in words for the student, for a value that is not
    plain data or is past the wire's limits."""
    try:
        return PLAIN.encode(value, budget)
    except TooLarge as error:
        raise TypeError(f"too large or too deeply nested a value to pass between your tests "
                        f"and the function they test: {error}") from None
    except TypeError as error:
        raise TypeError(f"your tests can pass only cards and plain values (ints, strs, bools, "
                        f"lists…) to the function they test, {error}") from None


def sent(values: list[Any], keywords: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return ``{"a": [...], "kw": [[key, value], ...]}``: the routed wire form of a call's
    arguments, one message (one budget). Raises TypeError as ``plain`` does."""
    budget = Budget()
    return {"a": [plain(value, budget) for value in values],
            "kw": [[str(key), plain(value, budget)] for key, value in (keywords or {}).items()]}


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
        budget = Budget()  # the reply is one message
        if "err" in reply:
            kind = getattr(builtins, str(reply["err"].get("cls")), None)
            kind = kind if isinstance(kind, type) and issubclass(kind, Exception) \
                and kind.__name__ in ROUTED_ERRORS else RuntimeError
            raise kind(str(reply["err"].get("msg", ""))[:MAX_MESSAGE])
        for arg, after in zip(args, reply.get("back", [])):
            if type(arg) is list and after is not None:
                arg[:] = _restore(arg, PLAIN.decode(after, budget))
        made = reply.get("ok")
        if type(made) is dict and set(made) == {"o"} and type(made["o"]) is int:
            return RoutedObject(object_asker(made["o"], label), label)
        if made == {"method": True}:
            return _METHOD
        return PLAIN.decode(made, budget)

    def object_asker(index: int, label: str) -> Callable[..., Any]:
        def ask_object(op: str, name: str, *value: Any) -> Any:
            question = {"ob": index, "op": op, "n": name}
            if op == "set":
                question["a"] = sent([value[0]])["a"]
            reply = ask(question, (), label)
            return method(index, name, label) if reply is _METHOD else reply
        return ask_object

    def method(index: int, name: str, label: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return ask({"ob": index, "op": "call", "n": name, **sent(list(args), kwargs)},
                       args, label)
        call.__name__ = call.__qualname__ = name
        return call

    def proxy(name: str) -> Callable[..., Any]:
        def implementation(*args: Any, **kwargs: Any) -> Any:
            return ask({"cb": name, **sent(list(args), kwargs)}, args, name)
        implementation.__name__ = implementation.__qualname__ = name
        return implementation

    outcome = run_locally(tests, {name: proxy(name) for name in params})
    return {"status": outcome.status, "message": outcome.message}


def _restore(before: list[Any], after: list[Any]) -> list[Any]:
    """Map the cards of a list an implementation changed back onto the kernel's own objects
    of the same rank and suit (where there are such)."""
    own: dict[tuple[str, str], Any] = {}
    for item in before:
        if is_card(item):
            own.setdefault((item.rank, item.suit), item)
    return [own.get((item.rank, item.suit), item) if type(item) is KitCard else item
            for item in after]
