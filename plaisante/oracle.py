"""The kernel's side of the judge: answer the grader's calls of the student's parts with data.

While a submission is graded, its test cells never run in the student's kernel. They run in
the grader (``plaisante.grading.judge``), and every time a test touches a student's part (calls
``count_values``, builds a ``Card``, reads ``table.held_cards``, compares two cards) the grader
sends one request to the kernel, and ``serve`` answers it. Nothing trusted runs here: expected
values, hidden tests and verdicts never enter this process; this module only turns the
grader's questions into calls and the answers into JSON. A student who rewrites this module
from their notebook changes nothing but their own answers.

The conversation rides on the kernel's stdin channel, the way ``input()`` does: the grader
starts ``serve()`` with one ``execute_request`` (``allow_stdin``); then each answer goes out,
and each request comes in, as two bare frames on that socket (``exchange_with``).

Values cross as JSON (both directions):

* ``null``, ``true``/``false``, ints, floats, strs and lists, exactly those types (a subclass
  of ``list`` or ``str`` is an object, below);
* ``{"t": [...]}`` a tuple, ``{"d": [[k, v], ...]}`` a dict, ``{"s": [...]}`` a set,
  ``{"fs": [...]}`` a frozenset;
* ``{"r": n}`` an object both sides already know by reference ``n``;
* ``{"o": n, "c": "Card"}`` (kernel to grader) an object the kernel registers as ``n`` > 0,
  with its class name (and ``"n"``, its ``__name__``, for a function or a class); the grader
  holds it as a handle (``Remote``);
* ``{"k": ["K", "hearts"], "n": m}`` a kit card (``plaisante.cards.KitCard``, immutable):
  the receiving side builds its own from rank and suit and registers it as ``m`` (< 0 when the
  grader made it, > 0 when the kernel did), so identity survives the round trip;
* ``{"rng": [version, [ints…], gauss]}`` (grader to kernel) a ``random.Random`` in that state.

The grader's own mutable values travel **shared**: a list, dict, set or ``random.Random`` it sends
carries a reference ``n`` < 0 (``{"l": [...], "n": n}``, ``{"d": [...], "n": n}``, ``{"s": [...],
"n": n}``, ``{"rng": [...], "n": n}``, each time with its whole contents; ``{"r": n}`` for one
already in the same request). The kernel keeps the object it built for ``n`` (and fills the same
object again when ``n`` comes back), so a part that keeps it, returns it or changes it acts on one
object, as in the student's notebook. After every request, the answer's ``"sync"`` lists
``[n, contents]`` for each shared value whose contents changed since the grader last saw them
(at any depth: a value inside a shared one is shared itself), and the grader puts those contents
in its own object: every effect a check can read of what it passed comes back. A shared value
that nothing in the kernel holds any more (but the registry) is forgotten, and the answer's
``"gone"`` lists it; until then, a request's ``"push"`` carries (whole, as above) each one the
grader changed since, filled in before the request is carried out.

Requests are ``{"q": seq, "op": …}``; answers ``{"q": seq, "ok": value}`` (and ``"sync"``) or
``{"q": seq, "err": {"types": […], "cls": name, "msg": text}}`` (and ``"sync"``) where
``types`` are the builtin exception classes the error is an instance of, most specific first;
each answer of a ``calls`` batch has its own ``"sync"``. Operations: ``reset`` (forget every
reference: a new test cell), ``globals`` (read names of the notebook),
``call`` (with optional stand-ins, ``with``), ``routed`` (one run of a student's own tests,
whose calls of the implementation come back as prompts: ``plaisante.student_tests``),
``getattr``, ``unary`` (repr, str, hash, len,
bool, iter), ``binary`` (eq, ne, lt, le, gt, ge, contains, getitem), ``run`` (run one of the
notebook's own cells, ``code``, as an ``execute_request`` would: ``run_cell``) and ``end``.
"""

from __future__ import annotations

import builtins
import importlib
import json
import operator
import random
import sys
import types
from typing import Any

from plaisante.cards import KitCard

MAX_ITEMS = 100_000  # values in one answer
MAX_DEPTH = 40
MAX_TEXT = 100_000  # characters of one repr/str/message kept
MAX_CALLS = 256  # calls in one ``calls`` request

SCALARS = (type(None), bool, int, float, str)
NAMED = (types.FunctionType, types.BuiltinFunctionType, type)
UNARY: dict[str, Any] = {"repr": repr, "str": str, "hash": hash, "len": len, "bool": bool,
                         "iter": lambda value: list(value)}
BINARY: dict[str, Any] = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
                          "le": operator.le, "gt": operator.gt, "ge": operator.ge,
                          "contains": operator.contains, "getitem": operator.getitem}


#: Mutable values the grader shares with the kernel (see the module doc), by wire tag.
SHARED_TAGS: dict[str, type] = {"l": list, "d": dict, "s": set, "rng": random.Random}
#: ``sys.getrefcount`` of a shared value that only the registry holds (the registry's dict, the
#: local name in ``Registry.sync`` and getrefcount's own argument).
ONLY_THE_REGISTRY = 3


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


class Registry:
    """Objects shared with the grader by reference, and the codec of values."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget every object shared so far (a new test cell starts afresh)."""
        self.objects: dict[int, Any] = {}
        self.refs: dict[int, int] = {}  # id(object) -> reference
        self.next_ref = 1
        self.shared: dict[int, Any] = {}  # the grader's mutable values: reference -> snapshot
        self.gone: list[int] = []  # shared values forgotten since the last answer

    def encode(self, value: Any, depth: int = 0, budget: list[int] | None = None) -> Any:
        budget = budget if budget is not None else [MAX_ITEMS]
        budget[0] -= 1
        if budget[0] < 0 or depth > MAX_DEPTH:
            raise ValueError("the answer is too large or too deeply nested to send")
        kind = type(value)
        if kind in SCALARS:
            return value
        known = self.refs.get(id(value))
        if known is not None:
            return {"r": known}
        if kind is list:
            return [self.encode(item, depth + 1, budget) for item in value]
        tags: dict[Any, str] = {tuple: "t", set: "s", frozenset: "fs"}
        if kind in tags:
            return {tags[kind]: [self.encode(item, depth + 1, budget) for item in value]}
        if kind is dict:
            return {"d": [[self.encode(k, depth + 1, budget), self.encode(v, depth + 1, budget)]
                          for k, v in value.items()]}
        ref = self.next_ref
        if kind is KitCard:  # the kit's own card travels as its rank and suit, and a reference
            self.next_ref += 1
            self.objects[ref] = value
            self.refs[id(value)] = ref
            return {"k": [value.rank, value.suit], "n": ref}
        self.next_ref += 1
        self.objects[ref] = value
        self.refs[id(value)] = ref
        described = {"o": ref, "c": kind.__name__[:100]}
        if isinstance(value, NAMED):  # saves the grader a round trip for its messages
            name = getattr(value, "__name__", None)
            if type(name) is str:
                described["n"] = name[:100]
        return described

    def contents(self, value: Any, budget: list[int]) -> Any:
        """Return the wire form of a shared value's contents (the values in it that are
        shared themselves by reference)."""
        if type(value) is random.Random:
            version, internal, gauss = value.getstate()
            return {"rng": [version, list(internal), gauss]}
        if type(value) is list:
            return [self.encode(item, 1, budget) for item in value]
        if type(value) is dict:
            return {"d": [[self.encode(k, 1, budget), self.encode(v, 1, budget)]
                          for k, v in value.items()]}
        return {"s": [self.encode(item, 1, budget) for item in value]}

    def sync(self, forget: bool = True) -> list[list[Any]]:
        """Return ``[reference, contents]`` of each shared value changed since the grader last
        saw it; with ``forget``, then drop the shared values only the registry still holds
        (nothing can change them but the grader, which sends them whole again)."""
        changes: list[list[Any]] = []
        budget = [MAX_ITEMS]
        for ref in list(self.shared):
            value = self.objects[ref]
            now = snapshot(value)
            if changed(self.shared[ref], now):
                self.shared[ref] = now
                changes.append([ref, self.contents(value, budget)])
            if forget and sys.getrefcount(value) <= ONLY_THE_REGISTRY:
                del self.shared[ref], self.objects[ref], self.refs[id(value)]
                self.gone.append(ref)
            del value, now
        return changes

    def _shared(self, tag: str, data: dict[str, Any]) -> Any:
        """Return the kernel's object for the grader's shared value ``data``: the one already
        built for its reference, filled anew with the contents sent, or a new one."""
        ref, kind = data["n"], SHARED_TAGS[tag]
        if type(ref) is not int or ref >= 0:
            raise ValueError(f"a shared value needs a reference below 0, not {ref!r:.20}")
        target: Any = self.objects.get(ref)
        if type(target) is not kind:
            target = kind()
            self.objects[ref] = target
            self.refs[id(target)] = ref
        body = data[tag]
        if kind is random.Random:
            target.setstate((body[0], tuple(body[1]), body[2]))
        elif kind is list:
            target[:] = [self.decode(item) for item in body]
        elif kind is dict:
            pairs = [(self.decode(k), self.decode(v)) for k, v in body]
            target.clear()
            target.update(pairs)
        else:
            items = [self.decode(item) for item in body]
            target.clear()
            target.update(items)
        self.shared[ref] = snapshot(target)
        return target

    def decode(self, data: Any) -> Any:
        if type(data) is list:
            return [self.decode(item) for item in data]
        if type(data) is not dict:
            return data
        if "r" in data:
            return self.objects[data["r"]]
        if "n" in data:
            for tag in SHARED_TAGS:
                if tag in data:
                    return self._shared(tag, data)
        if "k" in data:
            card = KitCard(*data["k"])
            self.objects[data["n"]] = card
            self.refs[id(card)] = data["n"]
            return card
        if "d" in data:
            return {self.decode(k): self.decode(v) for k, v in data["d"]}
        if "rng" in data:  # a random.Random, in the state the grader's was in
            rng = random.Random()
            rng.setstate((data["rng"][0], tuple(data["rng"][1]), data["rng"][2]))
            return rng
        builders = {"t": tuple, "s": set, "fs": frozenset}
        for tag, build in builders.items():
            if tag in data:
                return build(self.decode(item) for item in data[tag])
        raise ValueError(f"unknown value {data!r:.100}")


def stand_in(spec: dict[str, Any], registry: Registry) -> Any:
    """Return the callable a stand-in spec describes: a constant answer or a kit function."""
    if "always" in spec:
        answer = registry.decode(spec["always"])
        return lambda *args, **kwargs: answer
    module, _, name = spec["kit"].partition(":")
    if not module.startswith("plaisante."):
        raise ValueError(f"stand-in {spec['kit']!r} is not the kit's")
    return getattr(importlib.import_module(module), name)


def call(function: Any, args: list[Any], kwargs: dict[str, Any],
         stand_ins: dict[str, Any]) -> Any:
    """Call ``function`` with ``stand_ins`` put in its globals for the duration of the call
    (how a later step is judged on known-good earlier parts, as in the student's notebook)."""
    from plaisante.checking import substituted

    with substituted(function, **stand_ins):
        return function(*args, **kwargs)


def error_answer(error: BaseException) -> dict[str, Any]:
    """Describe ``error`` as data: builtin classes in its MRO, its class name and message."""
    types = [kind.__name__ for kind in type(error).__mro__
             if getattr(builtins, kind.__name__, None) is kind]
    try:
        message = str(error)
    except BaseException:  # noqa: B036  a student's __str__ may raise anything
        message = "<the error's message could not be read>"
    return {"types": types, "cls": type(error).__name__[:100], "msg": message[:MAX_TEXT]}


def answer(request: dict[str, Any], registry: Registry, user_ns: dict[str, Any],
           shell: Any = None) -> dict[str, Any]:
    """Carry out one request; return the answer without its sequence number. ``run`` needs
    the kernel's ``shell``."""
    op = request["op"]
    decode = registry.decode
    if op == "reset":
        registry.clear()
        return {"ok": "ready"}
    if op == "globals":
        found = {name: user_ns[name] for name in request["names"] if name in user_ns}
        return {"ok": registry.encode(found)}
    if op == "call":
        args = [decode(item) for item in request["a"]]
        kwargs = {key: decode(value) for key, value in request["kw"]}
        stand_ins = {name: stand_in(spec, registry) for name, spec in request["with"].items()}
        result = call(decode(request["f"]), args, kwargs, stand_ins)
        return {"ok": registry.encode(result)}
    if op == "routed":  # one run of a student's own tests (plaisante.student_tests)
        from plaisante.student_tests import run_routed

        return {"ok": registry.encode(run_routed(decode(request["f"]), request["params"]))}
    if op == "calls":  # several calls of one part, in order; stops at the first that raises
        function = decode(request["f"])
        stand_ins = {name: stand_in(spec, registry) for name, spec in request["with"].items()}
        answers: list[dict[str, Any]] = []
        from plaisante.checking import substituted

        with substituted(function, **stand_ins):  # once for the batch: it searches the globals
            for each in request["each"][:MAX_CALLS]:
                try:
                    args = [decode(item) for item in each["a"]]
                    kwargs = {key: decode(value) for key, value in each["kw"]}
                    one = {"ok": registry.encode(function(*args, **kwargs))}
                except BaseException as error:  # noqa: B036  student code may raise anything
                    one = {"err": error_answer(error)}
                # the batch's later calls may be given these values again: keep them all
                one["sync"] = registry.sync(forget=False)
                answers.append(one)
                if "err" in one:
                    break
        return {"ok": answers}
    if op == "run" and shell is not None:
        return {"ok": run_cell(shell, str(request["code"]), request.get("q"))}
    if op == "getattr":
        return {"ok": registry.encode(getattr(decode(request["x"]), request["name"]))}
    if op == "unary":
        result = UNARY[request["fn"]](decode(request["x"]))
        if type(result) is str:
            result = result[:MAX_TEXT]
        return {"ok": registry.encode(result)}
    if op == "binary":
        return {"ok": registry.encode(BINARY[request["fn"]](decode(request["x"]),
                                                           decode(request["y"])))}
    raise ValueError(f"unknown operation {op!r}")


#: The iopub message a ``run`` sends once the cell's outputs are out (see ``run_cell``).
RAN = "plaisante_ran"


def _no_input(*_args: Any, **_kwargs: Any) -> str:
    from IPython.core.error import StdinNotImplementedError

    raise StdinNotImplementedError("input() was called, but there is no keyboard when grading")


def run_cell(shell: Any, code: str, seq: Any) -> dict[str, Any]:
    """Run one of the notebook's own cells as the kernel runs an ``execute_request``: in the
    notebook's namespace, with history, its outputs (streams, displays, its result, its
    error) published on iopub as usual, and ``input()`` refused. Then flush the streams and
    publish ``RAN`` with ``seq`` (the grader keeps the outputs that came before it). Returns
    ``{"count": execution count}``."""
    import getpass
    import sys

    count = shell.execution_count
    saved = builtins.input, getpass.getpass
    builtins.input = getpass.getpass = _no_input
    try:
        shell.run_cell(code, store_history=True, silent=False)
    finally:
        builtins.input, getpass.getpass = saved
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001  a cell may have replaced the streams
            pass
    kernel = shell.kernel
    kernel.session.send(kernel.iopub_socket, RAN, {"q": seq}, parent=kernel.get_parent())
    return {"count": count}


def respond(text: str, registry: Registry, user_ns: dict[str, Any],
            shell: Any = None) -> str | None:
    """Return the answer's JSON text to the request ``text``, or None for ``end`` (``shell``:
    as for ``answer``)."""
    request = json.loads(text)
    if request.get("op") == "end":
        return None
    try:
        for pushed in request.get("push", ()):  # what the grader changed in values kept here
            registry.decode(pushed)
        reply = answer(request, registry, user_ns, shell)
    except BaseException as error:  # noqa: B036  the student's code may raise anything
        reply = {"err": error_answer(error)}
    try:
        changes = registry.sync()
    except BaseException as error:  # noqa: B036  e.g. a shared list grown past MAX_ITEMS
        reply = {"err": error_answer(error)}
        changes = []
    if changes:
        reply["sync"] = changes
    if registry.gone:
        reply["gone"], registry.gone = registry.gone, []
    reply["q"] = request.get("q")
    try:
        return json.dumps(reply, allow_nan=True)
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5,000 digits
        return json.dumps({"q": request.get("q"), "err": error_answer(error)})


#: The first frame of every judge message on the stdin channel (see ``exchange_with``).
RAW = b"plaisante-judge/1"


def exchange_with(kernel: Any) -> Any:
    """Return ``send(text) -> reply text`` over ``kernel``'s stdin socket.

    After the grader's ``execute_request`` has started ``serve``, each exchange is two bare
    ZeroMQ frames each way, ``[RAW, JSON text]``, routed to the grader's stdin socket: no
    Jupyter header, date or signature to build and check on either side (they cost more than
    the request itself). The grader's socket is connected to this kernel alone, so what it
    reads there can only come from here, as the signed messages could. Falls back to
    ``kernel.raw_input`` (one ``input_request`` per exchange) where ipykernel's internals
    differ."""
    try:
        ident, socket = list(kernel._parent_ident["shell"]), kernel.stdin_socket
        socket.send_multipart  # noqa: B018  (a plain ZeroMQ socket)
    except (AttributeError, KeyError, TypeError):
        return kernel.raw_input

    def send(text: str) -> str:
        socket.send_multipart([*ident, RAW, text.encode("utf-8")])
        while True:  # only from the grader's socket that started this serve: a request an
            frames = socket.recv_multipart()  # earlier conversation left queued is not one
            if len(frames) == len(ident) + 2 and frames[:-2] == ident and frames[-2] == RAW:
                return frames[-1].decode("utf-8", "replace")
    return send


def serve() -> None:
    """Answer the grader's requests until it sends ``end`` (see the module doc)."""
    from IPython import get_ipython

    shell = get_ipython()
    send = exchange_with(shell.kernel)
    registry = Registry()
    text: str | None = json.dumps({"q": 0, "ok": "ready"})
    while text is not None:
        text = respond(send(text), registry, shell.user_ns, shell)
