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
and each request comes in, as two bare frames on that socket (``plaisante.kernel.channel``).

Values cross in the wire format of ``plaisante.student_side.wire`` (its limits too); this side's
codec is ``Registry``. The grader's own mutable values travel *shared*
(``plaisante.student_side.wire``): the kernel keeps the object it built for a reference ``n`` < 0
(and fills the same object again when ``n`` comes back), so a part that keeps it, returns it or
changes it acts on one object, as in the student's notebook. After every request, the answer's
``"sync"`` lists ``[n, contents]`` for each shared value whose contents changed since the grader
last saw them (at any depth: a value inside a shared one is shared itself), and the grader puts
those contents in its own object: every effect a check can read of what it passed comes back. A
shared value that nothing in the kernel holds any more (but the registry) is forgotten, and the
answer's ``"gone"`` lists it; until then, a request's ``"push"`` carries (whole) each one the grader
changed since, filled in before the request is carried out.

Requests are ``{"q": seq, "op": …}``; answers ``{"q": seq, "ok": value}`` (and ``"sync"``) or
``{"q": seq, "err": error}`` (and ``"sync"``), the error as
``plaisante.student_side.wire.error_data`` describes it; each answer of a ``calls`` batch has its
own ``"sync"``. One request (its push apart) and one answer (its value and its sync) are each one
message of the wire's limits; in a ``calls`` batch, so are each call's arguments and each call's
answer. Operations: ``reset`` (forget every reference: a new test cell), ``globals`` (read names of
the notebook), ``call`` (with optional stand-ins, ``with``), ``calls`` (a batch of calls of one
part, at most ``MAX_CALLS``), ``routed`` (one run of a student's own tests, whose calls of the
implementation come back as prompts: ``plaisante.kernel.routed``), ``getattr``, ``unary`` (repr,
str, hash, len, bool, iter), ``binary`` (eq, ne, lt, le, gt, ge, contains, getitem), ``run`` (run
one of the notebook's own cells, ``code``, as an ``execute_request`` would: ``run_cell``) and
``end``.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import operator
import random
import sys
import types
from collections.abc import Callable
from typing import Any

from plaisante.student_side.cards import KitCard
from plaisante.student_side.wire import (
    MAX_NAME,
    PLAIN,
    ROUTED_ERRORS,
    SHARED_TAGS,
    Budget,
    Codec,
    Malformed,
    card_from,
    changed,
    class_name,
    cut,
    error_data,
    rng_body,
    set_rng,
    snapshot,
)

from .channel import exchange_with
from .routed import run_routed

MAX_CALLS = 256  # calls in one ``calls`` request

NAMED = (types.FunctionType, types.BuiltinFunctionType, type)
UNARY: dict[str, Any] = {"repr": repr, "str": str, "hash": hash, "len": len, "bool": bool,
                         "iter": lambda value: list(value)}
BINARY: dict[str, Any] = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
                          "le": operator.le, "gt": operator.gt, "ge": operator.ge,
                          "contains": operator.contains, "getitem": operator.getitem}


#: ``sys.getrefcount`` of a shared value that only the registry holds (the registry's dict, the
#: local name in ``Registry.sync`` and getrefcount's own argument).
ONLY_THE_REGISTRY = 3


class Registry(Codec):
    """Objects shared with the grader by reference, and the kernel's codec of values
    (``plaisante.student_side.wire``): what the kernel sends that is not data is registered and goes
    as a handle (``{"o": n}``) or a card (``{"k": …, "n": n}``), ``n`` > 0.

    One request read (``incoming``) and one answer made (``outgoing``) each have a ``Budget``
    of their own; ``message`` starts new ones."""

    def __init__(self) -> None:
        self.clear()
        self.message()

    def clear(self) -> None:
        """Forget every object shared so far (a new test cell starts afresh)."""
        self.objects: dict[int, Any] = {}
        self.refs: dict[int, int] = {}  # id(object) -> reference
        self.next_ref = 1
        self.shared: dict[int, Any] = {}  # the grader's mutable values: reference -> snapshot
        self.gone: list[int] = []  # shared values forgotten since the last answer

    def message(self) -> None:
        """Give the next request read and the next answer made budgets of their own."""
        self.incoming, self.outgoing = Budget(), Budget()

    def encode(self, value: Any, budget: Budget | None = None, depth: int = 0) -> Any:
        """Return the wire form of ``value``, within ``budget`` (the answer's by default);
        raises TooLarge past a limit."""
        return super().encode(value, self.outgoing if budget is None else budget, depth)

    def decode(self, data: Any, budget: Budget | None = None, depth: int = 0) -> Any:
        """Return the value the grader's ``data`` describes, within ``budget`` (the request's
        by default); raises Malformed or TooLarge."""
        return super().decode(data, self.incoming if budget is None else budget, depth)

    def encode_known(self, value: Any, budget: Budget, depth: int) -> Any:
        known = self.refs.get(id(value))
        return None if known is None else {"r": known}

    def encode_other(self, value: Any, budget: Budget, depth: int) -> Any:
        kind = type(value)
        ref = self.next_ref
        self.next_ref += 1
        self.objects[ref] = value
        self.refs[id(value)] = ref
        if isinstance(value, KitCard):  # the kit's own card (of a class built on it too:
            # step 1 refuses both) travels as its rank and suit, and a reference
            return {"k": [value.rank, value.suit], "n": ref}
        described = {"o": ref, "c": cut(class_name(kind), MAX_NAME)}
        if isinstance(value, NAMED):  # saves the grader a round trip for its messages
            name = getattr(value, "__name__", None)
            if type(name) is str:
                described["n"] = cut(name, MAX_NAME)
        return described

    def contents(self, value: Any, budget: Budget) -> Any:
        """Return the wire form of a shared value's contents (the values in it that are
        shared themselves by reference)."""
        if type(value) is random.Random:
            return {"rng": rng_body(value, budget)}
        budget.spend(0)  # the value itself, as the grader counts it
        return self.encode_items(value, budget, 0)

    def sync(self, forget: bool = True) -> list[list[Any]]:
        """Return ``[reference, contents]`` of each shared value changed since the grader last
        saw it (within the answer's budget); with ``forget``, then drop the shared values only
        the registry still holds (nothing can change them but the grader, which sends them
        whole again)."""
        changes: list[list[Any]] = []
        for ref in list(self.shared):
            value = self.objects[ref]
            now = snapshot(value)
            if changed(self.shared[ref], now):
                self.shared[ref] = now
                changes.append([ref, self.contents(value, self.outgoing)])
            if forget and sys.getrefcount(value) <= ONLY_THE_REGISTRY:
                del self.shared[ref], self.objects[ref], self.refs[id(value)]
                self.gone.append(ref)
            del value, now
        return changes

    def decode_tagged(self, data: dict[str, Any], budget: Budget, depth: int) -> Any:
        if "r" in data:
            ref = data["r"]
            if len(data) != 1 or type(ref) is not int or ref not in self.objects:
                raise Malformed(f"a reference to nothing known: {str(data)[:80]}")
            return self.objects[ref]
        if "n" in data and len(data) == 2:
            for tag in SHARED_TAGS:
                if tag in data:
                    return self._shared(tag, data, budget, depth)
            if "k" in data:
                ref = data["n"]
                if type(ref) is not int or ref >= 0:
                    raise Malformed(f"a card of the grader's needs a reference below 0, not "
                                    f"{ref!r:.20}")
                card = card_from(data["k"])
                self.objects[ref] = card
                self.refs[id(card)] = ref
                return card
        return super().decode_tagged(data, budget, depth)

    def _shared(self, tag: str, data: dict[str, Any], budget: Budget, depth: int) -> Any:
        """Return the kernel's object for the grader's shared value ``data``: the one already
        built for its reference, filled anew with the contents sent, or a new one."""
        ref, kind = data["n"], SHARED_TAGS[tag]
        if type(ref) is not int or ref >= 0:
            raise Malformed(f"a shared value needs a reference below 0, not {ref!r:.20}")
        body = data[tag]
        if kind is not random.Random and type(body) is not list:
            raise Malformed(f"a shared value's contents must be a list: {str(data)[:80]}")
        target: Any = self.objects.get(ref)
        if type(target) is not kind:
            target = kind()
            self.objects[ref] = target
            self.refs[id(target)] = ref
        if kind is random.Random:
            set_rng(target, body, budget, depth)
        elif kind is list:
            target[:] = [self.decode(item, budget, depth + 1) for item in body]
        else:  # a dict or a set: decoded whole first, then put in the same object
            items = self.decode_items(kind, body, budget, depth)
            target.clear()
            target.update(items)
        self.shared[ref] = snapshot(target)
        return target


#: The grader's stand-ins the request being answered carries (their indices): a stand-in
#: kept past its request refuses here, as the grader would.
_ANSWERING: set[int] = set()


def stand_in(spec: dict[str, Any], registry: Registry, name: str = "part") -> Any:
    """Return the callable a stand-in spec describes: a constant answer, or a known-good part
    of the grader's (``{"grader": index}``): each call asks the grader over the stdin channel,
    with plain data and kit cards, and the grader answers only while the request that carries
    it runs (``plaisante.grading.judge.Session.answer_stand_in``). No implementation of a
    graded part is ever here."""
    if "always" in spec:
        answer = registry.decode(spec["always"], Budget())  # sent as a message of its own
        return lambda *args, **kwargs: answer
    index = spec.get("grader")
    if type(index) is not int:
        raise ValueError("a stand-in that is neither a constant nor the grader's")
    return _asking(index, name)


#: How this process asks the grader a question and reads its reply, when it is not an IPython
#: kernel (the demo's plain process, ``plaisante.kernel.live``, sets it); else the kernel's
#: stdin channel.
_ASK_GRADER: list[Callable[[str], str]] = []


def ask_grader_with(send: Callable[[str], str]) -> None:
    """Send the grader's stand-ins' questions with ``send(text) -> reply text``."""
    _ASK_GRADER[:] = [send]


def _asking(index: int, name: str) -> Any:
    from .routed import kernel_send, sent

    def ask(*args: Any, **kwargs: Any) -> Any:
        if index not in _ANSWERING:
            raise RuntimeError("the kit's stand-in for an earlier part answers only while the "
                               "kit checks another part with it")
        send = _ASK_GRADER[0] if _ASK_GRADER else kernel_send()
        reply = json.loads(send(json.dumps({"si": index, **sent(list(args), kwargs)})))
        if type(reply) is not dict:
            raise RuntimeError("the grader's stand-in gave no answer")
        if "err" in reply:
            error = reply["err"] if type(reply["err"]) is dict else {}
            kind = getattr(builtins, str(error.get("cls")), None)
            kind = kind if isinstance(kind, type) and issubclass(kind, Exception) \
                and kind.__name__ in ROUTED_ERRORS else RuntimeError
            raise kind(str(error.get("msg", "")))
        return PLAIN.decode(reply.get("ok"), Budget())

    ask.__name__ = ask.__qualname__ = name
    return ask


@contextlib.contextmanager
def _carrying(request: dict[str, Any]) -> Any:
    """While the block runs, the grader's stand-ins of ``request`` may ask the grader."""
    indices = {spec["grader"] for spec in request.get("with", {}).values()
               if type(spec) is dict and type(spec.get("grader")) is int}
    _ANSWERING.clear()
    _ANSWERING.update(indices)
    try:
        yield
    finally:
        _ANSWERING.clear()


def call(function: Any, args: list[Any], kwargs: dict[str, Any],
         stand_ins: dict[str, Any]) -> Any:
    """Call ``function`` with ``stand_ins`` put in its globals for the duration of the call
    (how a later step is judged on known-good earlier parts, as in the student's notebook)."""
    from plaisante.student_side.checking import substituted

    with substituted(function, **stand_ins):
        return function(*args, **kwargs)


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
        stand_ins = {name: stand_in(spec, registry, name)
                     for name, spec in request["with"].items()}
        with _carrying(request):
            result = call(decode(request["f"]), args, kwargs, stand_ins)
        return {"ok": registry.encode(result)}
    if op == "routed":  # one run of a student's own tests (plaisante.kernel.routed)
        return {"ok": registry.encode(run_routed(decode(request["f"]), request["params"]))}
    if op == "calls":  # several calls of one part, in order; stops at the first that raises
        function = decode(request["f"])
        stand_ins = {name: stand_in(spec, registry, name)
                     for name, spec in request["with"].items()}
        answers: list[dict[str, Any]] = []
        from plaisante.student_side.checking import substituted

        with substituted(function, **stand_ins), _carrying(request):  # once for the batch
            for each in request["each"][:MAX_CALLS]:
                registry.message()  # each call and its answer are messages of their own
                try:
                    args = [decode(item) for item in each["a"]]
                    kwargs = {key: decode(value) for key, value in each["kw"]}
                    one = {"ok": registry.encode(function(*args, **kwargs))}
                except BaseException as error:  # noqa: B036  student code may raise anything
                    one = {"err": error_data(error)}
                # the batch's later calls may be given these values again: keep them all
                one["sync"] = registry.sync(forget=False)
                answers.append(one)
                if "err" in one:
                    break
        registry.outgoing = Budget()  # and so is the batch's own answer around them
        return {"ok": answers}
    if op == "run" and shell is not None:
        return {"ok": run_cell(shell, str(request["code"]), request.get("q"),
                               quiet=request.get("quiet") is True)}
    if op == "getattr":
        return {"ok": registry.encode(getattr(decode(request["x"]), request["name"]))}
    if op == "unary":
        result = UNARY[request["fn"]](decode(request["x"]))
        if type(result) is str:
            result = cut(result)
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


class _Discard(io.TextIOBase):
    """A text stream that keeps nothing: ``sys.stdout`` of a cell run again, whose outputs
    the grader would drop anyway."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def run_cell(shell: Any, code: str, seq: Any, quiet: bool = False) -> dict[str, Any]:
    """Run one of the notebook's own cells as the kernel runs an ``execute_request``: in the
    notebook's namespace, with history, its outputs (streams, displays, its result, its
    error) published on iopub as usual, and ``input()`` refused. Then flush the streams and
    publish ``RAN`` with ``seq`` (the grader keeps the outputs that came before it). Returns
    ``{"count": execution count}``, with ``"error"``: the class name of what the cell raised,
    when it raised (the grader notes a cell run again that fails when its first run did not).

    ``quiet``: a cell run again in a new kernel, whose outputs nobody reads; what it prints
    to ``sys.stdout`` and displays is discarded here rather than published, so a cell that
    printed a flood costs its flood once, not once a run of a student's tests. ``sys.stderr``
    stays: replaced by a Python object, it made IPython ten times slower at every print.
    (What a cell writes to stderr or past ``sys.stdout``, to the file descriptors, is still
    published, and still dropped.)"""
    import getpass
    import sys

    count = shell.execution_count
    saved = builtins.input, getpass.getpass
    builtins.input = getpass.getpass = _no_input
    stdout, publish = sys.stdout, shell.display_pub.publish
    discard = _Discard()

    def unpublished(*_args: Any, **_kwargs: Any) -> None:
        return None

    if quiet:
        sys.stdout = discard
        shell.display_pub.publish = unpublished
    try:
        result = shell.run_cell(code, store_history=True, silent=False)
    finally:
        builtins.input, getpass.getpass = saved
        if quiet:  # what the cell itself put in their place stays, as in its first run
            if sys.stdout is discard:
                sys.stdout = stdout
            if shell.display_pub.publish is unpublished:
                shell.display_pub.publish = publish
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001  a cell may have replaced the streams
            pass
    kernel = shell.kernel
    kernel.session.send(kernel.iopub_socket, RAN, {"q": seq}, parent=kernel.get_parent())
    if result.success:
        return {"count": count}
    # never the error's truth value: a student's exception class may define __bool__
    raised = result.error_in_exec if result.error_before_exec is None else result.error_before_exec
    return {"count": count, "error": class_name(type(raised))[:80]}


def respond(text: str, registry: Registry, user_ns: dict[str, Any],
            shell: Any = None) -> str | None:
    """Return the answer's JSON text to the request ``text``, or None for ``end`` (``shell``:
    as for ``answer``)."""
    request = json.loads(text)
    if request.get("op") == "end":
        return None
    registry.message()
    try:
        pushes = Budget()  # a request's push is a message of its own
        for pushed in request.get("push", ()):  # what the grader changed in values kept here
            registry.decode(pushed, pushes)
        reply = answer(request, registry, user_ns, shell)
    except BaseException as error:  # noqa: B036  the student's code may raise anything
        reply = {"err": error_data(error)}
    try:
        changes = registry.sync()
    except BaseException as error:  # noqa: B036  e.g. a shared list grown past MAX_ITEMS
        reply = {"err": error_data(error)}
        changes = []
    if changes:
        reply["sync"] = changes
    if registry.gone:
        reply["gone"], registry.gone = registry.gone, []
    reply["q"] = request.get("q")
    try:
        return json.dumps(reply, allow_nan=True)
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5,000 digits
        return json.dumps({"q": request.get("q"), "err": error_data(error)})


def serve() -> None:
    """Answer the grader's requests until it sends ``end`` (see the module doc)."""
    from IPython import get_ipython

    shell = get_ipython()
    send = exchange_with(shell.kernel)
    registry = Registry()
    text: str | None = json.dumps({"q": 0, "ok": "ready"})
    while text is not None:
        text = respond(send(text), registry, shell.user_ns, shell)
