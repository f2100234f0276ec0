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

Every version looks the same to the kernel but for its answers. The runs are built from copies
of the parts named after the parameter (``_public``: a function ``count_values``, a class
``Machine`` whose methods are ``Machine.deal``…, whichever version it is). A call is checked
against the reference's signature before any version sees it, and a bad one is answered with a
text of ours (``count_values() got an unexpected keyword argument 'x'``); a missing attribute
too (``'Machine' object has no attribute 'x'``). Any other error an implementation raises goes
as its nearest builtin class and its text scrubbed of every version's name and of addresses
(``Surface``). What a run gives the objects it makes (attributes it sets, arguments of their
methods) is bounded in total (``MAX_STORED``): past it the call is refused and the run fails.
"""

from __future__ import annotations

import builtins
import functools
import inspect
import json
import random
import re
import sys
import traceback
import types
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


# ------------------------------------------------------------------ one public identity
# Every version of a part shows the kernel the same names: the runs are built from copies named
# after the parameter (a function ``count_values``, a class ``Machine`` whose methods are
# ``Machine.deal``…), and no error text of an implementation goes out unscrubbed (below).

def _renamed_function(function: Any, name: str, qualname: str) -> Any:
    """Return a copy of the plain function ``function`` (same code, globals, defaults and
    closure: the same behaviour and state) called ``name`` / ``qualname``."""
    code = function.__code__.replace(co_name=name)
    if hasattr(code, "co_qualname"):  # Python 3.11+
        code = code.replace(co_qualname=qualname)
    copy = types.FunctionType(code, function.__globals__, name, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = qualname
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    copy.__dict__.update(function.__dict__)
    return copy


def _renamed_attribute(value: Any, qualname: str) -> Any:
    """A copy of a class attribute that is a function (plain, static or class method) under
    ``qualname``; None for any other attribute."""
    name = qualname.rsplit(".", 1)[-1]
    if isinstance(value, types.FunctionType):
        return _renamed_function(value, name, qualname)
    if isinstance(value, (staticmethod, classmethod)) \
            and isinstance(value.__func__, types.FunctionType):
        return type(value)(_renamed_function(value.__func__, name, qualname))
    return None


def _public(name: str, part: Any) -> Any:
    """Return ``part`` under the parameter's ``name``: a renamed copy of a plain function; for
    a class, a subclass named ``name`` that holds a renamed copy of every function it has
    (its own and inherited, each as the class resolves it). Anything else as it is."""
    if isinstance(part, types.FunctionType):
        return _renamed_function(part, name, name)
    if not isinstance(part, type):
        return part
    namespace: dict[str, Any] = {"__slots__": (), "__module__": part.__module__,
                                 "__qualname__": name, "__doc__": part.__doc__}
    mro = [klass for klass in part.__mro__ if klass is not object]
    for attribute in {key for klass in mro for key in vars(klass)}:
        if attribute in namespace or attribute in ("__dict__", "__weakref__"):
            continue
        value = next(vars(klass)[attribute] for klass in mro if attribute in vars(klass))
        renamed = _renamed_attribute(value, f"{name}.{attribute}")
        if renamed is not None:
            namespace[attribute] = renamed
    if "__eq__" in namespace and "__hash__" not in namespace:  # else Python sets it to None
        namespace["__hash__"] = part.__hash__
    try:
        return type(part)(name, (part,), namespace)
    except Exception:  # noqa: BLE001  a class that cannot be subclassed: its texts are scrubbed
        return part


def _identity_names(part: Any) -> set[str]:
    """The names by which ``part`` could show which version it is: its own and its classes'
    and methods' names and qualified names, and those of the functions and classes of its
    module that its code calls (its helpers)."""
    found: set[str] = set()
    seen: set[int] = set()
    module = getattr(part, "__module__", None)

    def visit(thing: Any, depth: int, member: bool = False) -> None:
        if id(thing) in seen or depth > 4:
            return
        seen.add(id(thing))
        if isinstance(thing, (staticmethod, classmethod)):
            visit(thing.__func__, depth, member)
        elif isinstance(thing, types.FunctionType):
            qualname = thing.__qualname__
            if not member or "." not in qualname or "<locals>" in qualname:
                # a method's own name is public ("deal"): its class's name is scrubbed
                found.update((thing.__name__, qualname, thing.__code__.co_name,
                              getattr(thing.__code__, "co_qualname", qualname)))
            for cell in thing.__closure__ or ():
                try:
                    visit(cell.cell_contents, depth + 1)
                except ValueError:  # an empty cell
                    pass
            for helper in _called_names(thing.__code__):
                value = thing.__globals__.get(helper)
                if getattr(value, "__module__", None) == module \
                        and isinstance(value, (types.FunctionType, type)):
                    visit(value, depth + 1)
        elif isinstance(thing, type):
            for klass in thing.__mro__:
                if klass.__module__ == "builtins":
                    continue
                found.update((klass.__name__, klass.__qualname__))
                for value in vars(klass).values():
                    visit(value, depth + 1, member=True)
        else:
            name = getattr(thing, "__name__", None)
            if type(name) is str and callable(thing):
                found.add(name)

    visit(part, 0)
    return {name for name in found if name and not name.startswith("<")}


def _called_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _called_names(constant)


@dataclass
class Surface:
    """What every run shows the kernel alike: the reference's signatures (a call is checked
    against them before any version sees it) and every version's names (scrubbed from the
    text of an implementation's error)."""

    reference: dict[str, Callable[..., Any]]
    replacements: dict[str, str]

    def signature(self, part: str, method: str | None = None) -> inspect.Signature | None:
        """The reference's signature of ``part`` (or of its method ``method``), without
        ``self``; None where Python cannot tell it."""
        target = self.reference.get(part)
        if target is None:
            return None
        try:
            if method is None:
                return inspect.signature(target)
            if not isinstance(target, type):
                return None
            raw = inspect.getattr_static(target, method)
            found = inspect.signature(getattr(target, method))
            if isinstance(raw, (staticmethod, classmethod)):
                return found
            parameters = list(found.parameters.values())
            return found.replace(parameters=parameters[1:]) if parameters else None
        except (AttributeError, TypeError, ValueError):
            return None

    def scrub(self, text: str) -> str:
        """``text`` with every version's name replaced by its parameter's, and addresses by
        '0x…'."""
        text = re.sub(r"0x[0-9a-fA-F]+", "0x…", text)
        if not self.replacements:
            return text
        return self.names.sub(lambda match: self.replacements[match.group(1)], text)

    @functools.cached_property
    def names(self) -> re.Pattern[str]:
        """Any of the names to replace, as a whole name (not the end of a dotted one)."""
        names = sorted(self.replacements, key=len, reverse=True)
        return re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?!\w)")


def surface(reference: dict[str, Callable[..., Any]], versions: Sequence[Version] = ()
            ) -> Surface:
    """Return the ``Surface`` of the runs on ``reference`` and ``versions``."""
    replacements: dict[str, str] = {}
    for parts in [reference] + [v.parts for v in versions]:
        for name, part in sorted(parts.items()):
            for found in sorted(_identity_names(part)):
                if found not in reference:  # a parameter's own name is everyone's
                    replacements.setdefault(found, name)
    return Surface(dict(reference), replacements)


# ------------------------------------------------------------------ the grader's side

MAX_STORED = 16_000_000  # bytes one run may give the objects it makes (attributes, arguments)
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
        if kind.__name__ in ROUTED_ERRORS and getattr(builtins, kind.__name__, None) is kind:
            return kind.__name__
    return "RuntimeError"


def _error_reply(error: BaseException, run: Run) -> str:
    """The reply for ``error``, raised in an implementation: its builtin class and its text
    scrubbed of every version's name."""
    if isinstance(error, _Refused):
        return json.dumps({"err": {"cls": error.kind, "msg": error.text}})
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
    try:
        args = [decode(item) for item in question["a"]]
        kwargs = {str(key): decode(value) for key, value in question["kw"]}
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
        back = [encode(arg) if type(arg) is list and arg != before else None
                for arg, before in zip(args, given)]
        if makes is not None:
            run.objects.append((result, makes))
            return json.dumps({"ok": {"o": len(run.objects) - 1}, "back": back})
        return json.dumps({"ok": encode(result), "back": back})
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
            value = decode(question["a"][0])
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
            return json.dumps({"ok": encode(value)})
        except TypeError:
            raise _Refused("TypeError", f"{name} holds a {type(value).__name__}, not a plain "
                                        "value, so your tests cannot read it") from None
    except Exception as error:  # noqa: BLE001  e.g. a property that raises: the test hears it
        return _error_reply(error, run)


def run_remote(tests: Any, parts: dict[str, Callable[..., Any]],
               shown: Surface | None = None) -> Outcome:
    """Run the student's ``tests`` (the judge's handle on it) once in the kernel, answering
    each routed call with ``parts``, here (``shown``: what every run shows alike; by default
    ``parts``'). Raises the judge's KernelLost when the kernel breaks the protocol."""
    from .grading.judge import KernelLost, raise_error

    session = tests._session
    seq = next(session.sequence)
    session.requests += 1
    text = session.transport(json.dumps({"q": seq, "op": "routed", "f": {"r": tests._ref},
                                         "params": sorted(parts)}))
    run = Run(parts, shown if shown is not None else surface(parts))  # gone with this run
    for _ in range(100_000):
        try:
            message = json.loads(text) if type(text) is str and len(text) < 4_000_000 else None
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
            return Outcome("fail", STORED_TOO_MUCH)
        return Outcome(found["status"], found["message"][:MAX_MESSAGE])
    raise KernelLost("the kernel made too many routed calls")


def run_once(tests: Any, parts: dict[str, Callable[..., Any]],
             shown: Surface | None = None) -> Outcome:
    """Run the student's ``tests`` once on ``parts``: here, or routed when they live in the
    student's kernel."""
    return run_remote(tests, parts, shown) if is_remote(tests) else run_locally(tests, parts)


def _shuffled(versions: Sequence[Version], reference: dict[str, Callable[..., Any]]
              ) -> Iterator[tuple[int | None, dict[str, Callable[..., Any]]]]:
    """Yield (index of the version or None for the reference, its parts) in a random order
    drawn from the operating system (never seeded, never sent). Every part is given the
    parameter's name (``_public``), in every run alike."""
    public = {name: _public(name, part) for name, part in reference.items()}
    runs: list[tuple[int | None, dict[str, Callable[..., Any]]]] = [
        (None, public)] * REFERENCE_RUNS
    runs += [(index, {**public, **{name: _public(name, part) for name, part in v.parts.items()}})
             for index, v in enumerate(versions)]
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
    again = run_locally(tests, own) if outcome.status == "pass" else outcome
    if outcome.status == "todo":
        print(f"Your own {parts} is not finished yet (it raises NotImplementedError), so your "
              "tests were tried on the buggy versions alone.")
    elif outcome.status == "fail" and (wrong := wrong_parts(tests, own)):
        named = ", ".join(wrong)
        print(f"Your tests catch a mistake in your own {named}: {outcome.message}\n"
              f"Your {named} {'fails its' if len(wrong) == 1 else 'fail their'} visible "
              "checks too: the test looks right, fix the code.")
    elif outcome.status == "fail":
        print(f"On your own {parts}, your tests fail: {outcome.message}\n"
              f"Either your {parts} or the test is wrong: a test must pass on correct code.")
    elif again.status == "fail":  # e.g. a deck made outside the tests, emptied by the first run
        print(f"On your own {parts}, your tests fail when run again: {again.message}\n"
              f"Grading runs them several times: make what they use (a deck, say) inside "
              f"{name}, not outside it.")
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


def wrong_parts(tests: Any, own: dict[str, Any]) -> list[str]:
    """Return the names of the student's ``own`` parts that a run of ``tests`` called (a
    class counts as called) and that fail their visible checks (the step checks of the
    course's assignment that has them): what a failing run of the tests caught, when the
    tests are right. Empty when no such part is found."""
    from .games import COURSE, load

    called: set[str] = set()

    def recording(name: str, part: Any) -> Any:
        if not isinstance(part, types.FunctionType):
            called.add(name)
            return part

        @functools.wraps(part)
        def call(*args: Any, **kwargs: Any) -> Any:
            called.add(name)
            return part(*args, **kwargs)
        return call

    run_locally(tests, {name: recording(name, part) for name, part in own.items()})
    checks = next(({name: [check for step in assignment.steps for part, check in step.checks
                           if part == name] for name in own}
                   for assignment in map(load, COURSE) if set(own) <= set(assignment.parts)),
                  {})
    wrong = []
    for name in own:
        try:
            for check in checks.get(name, []) if name in called else []:
                check(own[name])
        except Exception:  # noqa: BLE001  a failing or broken check: the part is wrong
            wrong.append(name)
    return wrong


_OWN_FAIL = re.compile(r"^On your own (.+?), your tests fail(?: when run again)?: (.*)$", re.M)
_OWN_CAUGHT = re.compile(r"^Your tests catch a mistake in your own (.+?): (.*)$", re.M)
_CAUGHT = re.compile(r"^They catch (\d+) of the (\d+) buggy versions shown here\.", re.M)


def in_short(printed: str) -> tuple[str | None, str | None]:
    """Read what ``try_my_tests`` printed (``printed``, a test cell's output) for ``plaisante
    validate``: return (the problem, in one line, or None; the catch count, in one line, or
    None). Both None when ``printed`` is not such a report."""
    failed, caught = _OWN_FAIL.search(printed), _CAUGHT.search(printed)
    right = _OWN_CAUGHT.search(printed)
    problem = (f"your tests fail on your own {failed.group(1)}: {failed.group(2)}"
               if failed else None)
    count = (f"your tests catch {caught.group(1)} of the {caught.group(2)} buggy versions "
             "shown in the notebook" if caught else None)
    if right:  # not a failure: grading runs the tests on a correct version, where they pass
        count = "; ".join(filter(None, [f"your tests catch a mistake in your own "
                                        f"{right.group(1)} (fix it): {right.group(2)}", count]))
    return problem, count


def grade_my_tests(tests: Any, reference: dict[str, Callable[..., Any]],
                   mistakes: Sequence[Version], points: float) -> float:
    """Grade the student's ``tests``: every reference run must pass (else CheckFailed naming
    the failing assertion); then ``points`` × the share of ``mistakes`` caught. Returns the
    points earned (the test cell's last value: nbgrader's partial credit) and prints how many
    were caught, never which. Raises NotImplementedError while the tests are not written."""
    name = _name(tests)
    parts = ", ".join(reference)
    caught = 0
    shown = surface(reference, mistakes)
    for index, parts_of_run in _shuffled(mistakes, reference):
        outcome = run_once(tests, parts_of_run, shown)
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
