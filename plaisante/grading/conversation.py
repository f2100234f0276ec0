"""The grader's line to a sandboxed kernel: the notebook's cells run, and test cells' requests
answered, over the stdin channel.

``KernelConversation.transport`` is the ``Transport`` that ``plaisante.grading.judge`` asks
through. The first request starts ``plaisante.kernel.oracle.serve()`` in the kernel as a silent
``execute_request`` whose only work is a user expression (IPython's input transformers and
AST hooks never see it) with ``allow_stdin``; after that each request and each answer is two
bare ZeroMQ frames on the stdin channel, ``[channel.RAW, JSON text]`` (no Jupyter header or
signature: this socket is connected to the kernel alone, and the kernel is the party being
asked anyway). A Jupyter ``input_request`` there (the student's own ``input()`` during a call)
is read as an answer, and so breaks the protocol, as before. One conversation serves a whole
notebook: ``run`` runs each of the notebook's own cells through it (one exchange a cell instead
of an ``execute_request`` and its half-dozen signed messages), until a timeout, a dead kernel
or a broken protocol ends it.

While it waits, the conversation reads the stdin, shell and iopub channels together: iopub
(whatever the student's code prints during the calls) is read and dropped at once, so it never
piles up, and a verdict never depends on it, except while ``run`` runs a cell, whose outputs
it hands on; each message is at most ``MAX_MESSAGE_BYTES`` (ZeroMQ drops a larger one before
the grader holds it, see ``bound_client``). Each cell has its time; past it the wait ends
with ``KernelTimeout``, and a kernel whose process ended gives ``KernelDied``.

A cell's time is wall time, as nbgrader's ``Execute.timeout``, but for what a busy machine
takes from it (``plaisante.grading.sandbox_clock``): once its wall time is over, a cell that
is still computing (its sandbox and the grader's thread working on it use at least
``MIN_BUSY`` of a core) goes on while its sandbox has used less CPU than that time, up to
``WAITING_ALLOWANCE`` times it in wall time. So a machine with more work than cores (more
workers than cores, other work beside the grader) does not cut an honest cell short: its
grade is the one a quiet machine gives. A cell that waits rather than computes (a sleep, a
lock, a blocked read) is cut at its wall time, as nbgrader cuts it; one that computes, once
it has used its time in CPU.
"""

from __future__ import annotations

import builtins
import json
import time
from collections.abc import Callable
from typing import Any, Literal

import zmq
from jupyter_core.utils import run_sync

from ..kernel.channel import RAW
from ..kernel.oracle import RAN
from .judge import KernelDied, KernelLost, KernelTimeout

#: The kernel side, started as a user expression (see the module doc).
SERVE = "__import__('plaisante.kernel.oracle', fromlist=['serve']).serve()"
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # one frame of one kernel message (ZMQ_MAXMSGSIZE)
QUEUED_MESSAGES = 64  # messages ZeroMQ queues per channel before it drops or waits (RCVHWM)
INTERRUPT_GRACE = 3.0  # seconds a timed-out call has to give way to an interrupt
DRAIN_AT_ONCE = 256  # iopub messages read in one go
HANDSHAKE_WAIT = 5.0  # seconds a conversation's stdin socket has to connect to the kernel
RAN_GRACE = 5.0  # seconds a cell's outputs have to arrive after the kernel ran it
SMALL_MESSAGE = 4096  # bytes of an iopub message always read while a cell runs (RAN is one)
WAITING_ALLOWANCE = 3.0  # a cell's wall time, in multiples of its time, while it computes
CPU_MARK_AFTER = 1.0  # seconds into a cell when its sandbox's CPU clock is first read
MIN_BUSY = 0.02  # share of a core a cell past its wall time uses, at least, to be computing
LONGEST_STEP = 1.0  # seconds a cell is given at a time past its wall time (then looked at)

#: how often a socket tries again to connect to a kernel not listening yet, in ms
RECONNECT_MS = 5


def bound_context(context: Any) -> Any:
    """Cap what ZeroMQ accepts from the kernel on every socket ``context`` makes from now on:
    frames over ``MAX_MESSAGE_BYTES`` cut the connection instead of being received, and at
    most ``QUEUED_MESSAGES`` wait per socket. Its sockets also try again to connect every
    ``RECONNECT_MS`` rather than ZeroMQ's 100 ms: they connect to a kernel that has not bound
    its sockets yet, and every run of a student's tests waited out that interval once (a
    fresh kernel answered in 120 ms instead of 30). Returns ``context``."""
    context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
    context.setsockopt(zmq.RCVHWM, QUEUED_MESSAGES)
    context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)
    return context


def bound_client(client: Any) -> Any:
    """Cap what ZeroMQ accepts on every channel of ``client`` (``bound_context``; call before
    its channels start). Returns ``client``."""
    bound_context(client.context)
    return client


def cell_count(answer: str) -> int | None:
    """Return the execution count in the text of a ``run`` answer, or None."""
    try:
        count = json.loads(answer)["ok"]["count"]
    except (ValueError, KeyError, TypeError):
        return None
    return count if type(count) is int else None


def vetted_class_name(value: Any) -> str | None:
    """Return ``value`` when it reads as a class name the kernel may put in an instructor's
    reason (an ASCII identifier of at most 80 characters: no spaces, no look-alike letters),
    else None."""
    if type(value) is str and value.isascii() and value.isidentifier() and len(value) <= 80:
        return value
    return None


def cell_error(answer: str) -> str | None:
    """Return the class name of what the cell raised, in the text of a ``run`` answer (the
    kernel's word, read by ``vetted_class_name``), or None."""
    try:
        return vetted_class_name(json.loads(answer)["ok"]["error"])
    except (ValueError, KeyError, TypeError):
        return None


def stopped_by(reply: dict[str, Any]) -> str:
    """Return " (it raised NAME)" when the execute_reply ``reply`` says the judge's serve loop
    ended on an error of a builtin class (the kernel's word, read by ``vetted_class_name``), " (it
    raised an error of a class of its own)" for any other name, else "". Only builtin names
    are quoted: a student's class may be named as a sentence to the instructor."""
    expressions = reply.get("user_expressions")
    judge = expressions.get("judge") if type(expressions) is dict else None
    name = vetted_class_name(judge.get("ename")) if type(judge) is dict else None
    if name is None:
        return ""
    builtin = getattr(builtins, name, None)
    if isinstance(builtin, type) and issubclass(builtin, BaseException):
        return f" (it raised {name})"
    return " (it raised an error of a class of its own)"


class KernelConversation:
    """The conversation of a notebook's cells with the kernel of ``execute`` (a
    ``JudgedExecute``), its current cell ending at ``deadline`` (``time.monotonic()``). It has
    sockets of its own (synchronous, used only by this thread, with a session of its own and
    the kernel's key), so it never touches the sockets nbclient's event-loop thread is using
    (sharing them aborted libzmq once in a while); ``close()`` releases them."""

    def __init__(self, execute: Any, deadline: float) -> None:
        from jupyter_client.session import Session

        self.km = execute.km
        # the latest any cell may end (the notebook's own time) and the sandbox's CPU clock
        self.latest: Callable[[], float] = getattr(execute, "latest_end", lambda: deadline)
        self.cpu_clock: Callable[[], float | None] = getattr(self.km, "sandbox_cpu_seconds",
                                                            lambda: None)
        info = self.km.get_connection_info()
        self.session = Session(key=info["key"], signature_scheme=info["signature_scheme"])
        self.context = zmq.Context()
        bound_context(self.context)
        identity = self.session.bsession
        # the kernel sends its input_request to our stdin socket's identity, and drops it if
        # that socket has not finished connecting: the handshake is awaited (watched from
        # before the connection starts, so it cannot be missed) before anything is asked
        self.stdin = self.context.socket(zmq.DEALER)
        self.stdin.setsockopt(zmq.IDENTITY, identity)
        monitor = self.stdin.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED)
        self.stdin.connect(self.km._make_url("stdin"))
        try:
            monitor.poll(int(HANDSHAKE_WAIT * 1000))
        finally:
            self.stdin.disable_monitor()
            monitor.close(linger=0)
        self.shell = self.context.socket(zmq.DEALER)
        self.shell.setsockopt(zmq.IDENTITY, identity)
        self.shell.connect(self.km._make_url("shell"))
        self.iopub = self.context.socket(zmq.SUB)
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.iopub.connect(self.km._make_url("iopub"))
        self._await_subscription(identity)
        self.poller = zmq.Poller()
        for socket in (self.stdin, self.shell, self.iopub):
            self.poller.register(socket, zmq.POLLIN)
        self.renew(deadline)
        self.msg_id: str | None = None
        self.dropped_bytes = 0
        self.timed_out = False
        self.died = False
        self.signed = False  # the last prompt came as a signed Jupyter input_request
        self.collect: Callable[[dict[str, Any]], None] | None = None  # a run's outputs
        self.full: Callable[[], bool] = lambda: False  # True: the run's outputs are cut
        self.runs = 0  # cells run so far (their sequence numbers, below the judge's)
        self.raised: str | None = None  # what the last cell run raised, by the kernel's word
        self.ran: Any = None  # the sequence number of the last RAN the kernel published
        self.late_answer = ""  # what the kernel answered while being interrupted

    def _await_subscription(self, identity: bytes) -> None:
        """Wait until the kernel's iopub socket has taken this conversation's subscription, so
        that the outputs of the first cell it runs are not published before anyone listens
        (ZeroMQ's slow joiner). ipykernel answers a new topic with an ``iopub_welcome``
        message on that topic: a topic of this conversation's own is subscribed after the
        catch-all one, and its welcome awaited (at most ``HANDSHAKE_WAIT`` seconds; a kernel
        that sends none costs that wait, nothing else)."""
        topic = b"plaisante-" + identity
        self.iopub.setsockopt(zmq.SUBSCRIBE, topic)
        deadline = time.monotonic() + HANDSHAKE_WAIT
        while (remaining := deadline - time.monotonic()) > 0:
            if not self.iopub.poll(int(remaining * 1000) + 1):
                break
            frames = self.iopub.recv_multipart()
            if frames[0] == topic:
                break
        self.iopub.setsockopt(zmq.UNSUBSCRIBE, topic)

    def close(self) -> None:
        """Release this conversation's sockets and their context."""
        self.context.destroy(linger=0)

    def renew(self, deadline: float) -> None:
        """Go on with the next cell, whose wall time ends at ``deadline``: its time is
        ``deadline`` less now, counted in CPU past that (see the module doc)."""
        now = time.monotonic()
        self.deadline = deadline
        self.seconds = max(0.0, deadline - now)
        self.started = now
        self.allowance_end = min(now + WAITING_ALLOWANCE * self.seconds,
                                 max(deadline, self.latest()))
        # (when, the sandbox's CPU, this thread's CPU): at the first reading, and at the last
        self.cpu_mark: tuple[float, float, float] | None = None
        self.cpu_last: tuple[float, float, float] | None = None
        self.cpu_unread = False  # the clock gave no reading: this cell keeps its wall time

    def _reading(self, now: float) -> tuple[float, float, float] | None:
        cpu = self.cpu_clock()
        return None if cpu is None else (now, cpu, time.thread_time())

    def _mark_cpu(self, now: float) -> None:
        """Read the sandbox's CPU clock once the cell has run a while (most cells end before:
        they never pay for the reading)."""
        if self.cpu_mark is None and not self.cpu_unread \
                and now - self.started >= min(CPU_MARK_AFTER, self.seconds / 2):
            self.cpu_mark = self.cpu_last = self._reading(now)
            self.cpu_unread = self.cpu_mark is None

    def _more_time(self) -> bool:
        """Once the cell's wall time is over: move its deadline on (by ``LONGEST_STEP`` at
        most) and return True while the cell is computing (since the last reading, its
        sandbox and this thread used ``MIN_BUSY`` of a core or more) and its sandbox has used
        less CPU than the cell's time (the time before the first reading counts as CPU),
        within the allowance; else return False."""
        now = time.monotonic()
        mark, last = self.cpu_mark, self.cpu_last
        if mark is None or last is None or now >= self.allowance_end:
            return False
        reading = self._reading(now)
        if reading is None:
            return False
        self.cpu_last = reading
        busy = (reading[1] - last[1] + reading[2] - last[2]) / max(now - last[0], 1e-3)
        left = self.seconds - (mark[0] - self.started) - (reading[1] - mark[1])
        if busy < MIN_BUSY or left <= 0:
            return False
        self.deadline = min(now + min(max(left, 0.25), LONGEST_STEP), self.allowance_end)
        return True

    # ------------------------------------------------------------------ the judge's side

    def transport(self, text: str) -> str:
        """Send one request's text; return the answer's text (see ``judge.Transport``)."""
        if self.msg_id is None:
            request: Any = self.session.send(self.shell, "execute_request", {
                "code": "", "silent": True, "store_history": False, "allow_stdin": True,
                "user_expressions": {"judge": SERVE}, "stop_on_error": False})
            self.msg_id = request["header"]["msg_id"]
            ready = self._prompt()
            try:
                greeting = json.loads(ready)
            except ValueError:
                greeting = None
            if greeting != {"q": 0, "ok": "ready"}:
                raise KernelLost(f"the kernel did not start the judge's side: {ready[:80]!r}")
        self._reply(text)
        return self._prompt()

    def run(self, code: str, on_output: Callable[[dict[str, Any]], None],
            full: Callable[[], bool], quiet: bool = False) -> int | None:
        """Run one of the notebook's own cells in the kernel (``run_cell`` of
        ``plaisante.kernel.oracle``): hand each output message it publishes (stream, display_data,
        execute_result, error, clear_output, comm…; signed by the kernel, addressed to this
        conversation) to ``on_output``, in order, until the kernel says they are all out; return
        the cell's execution count (and keep in ``raised`` what the kernel says the cell raised:
        ``cell_error``). Raises KernelLost as ``transport`` does; when the kernel
        answers but never says its outputs are out (``RAN_GRACE`` seconds), the cell keeps those
        that came. While ``full()`` is True, messages over ``SMALL_MESSAGE`` bytes are dropped
        unread (counted as dropped): a flood costs no parsing once the output allowance is
        spent. ``quiet``: a cell run again, whose outputs nobody reads; the kernel discards
        what it prints and displays instead of publishing it."""
        self.runs += 1
        self.raised = None
        seq = -self.runs  # the judge's own requests count up from 1
        self.collect, self.full = on_output, full
        finished = False
        request = {"q": seq, "op": "run", "code": code, **({"quiet": True} if quiet else {})}
        try:
            text = self.transport(json.dumps(request))
            try:
                reply = json.loads(text)
            except ValueError:
                reply = None
            if type(reply) is not dict or reply.get("q") != seq or "ok" not in reply:
                raise KernelLost(f"the kernel did not run the cell: {text[:80]!r}")
            grace = min(self.deadline, time.monotonic() + RAN_GRACE)
            while self.ran != seq and time.monotonic() < grace:
                if self.iopub.poll(int(max(0.0, grace - time.monotonic()) * 1000) + 1):
                    self._drop_output()
            finished = True
        finally:
            if finished or not self.timed_out:  # timed out: the interrupt's outputs go on
                self.collect = None
        self.raised = cell_error(text)
        return cell_count(text)

    def interrupt(self) -> bool:
        """Interrupt a call (or a cell's run) that ran out of time; return True when the kernel
        gave way (the serve loop answered and ended), False when it ignored the interrupt.
        The answer it gave meanwhile is kept in ``late_answer``; ``collect``, when set, goes
        on receiving the outputs (the interrupted cell's traceback)."""
        self.timed_out = False
        self.late_answer = ""
        try:
            run_sync(self.km.interrupt_kernel)()
            self.renew(time.monotonic() + INTERRUPT_GRACE)
            self.allowance_end = self.deadline  # a kernel that ignores it is restarted
            while (answer := self._next())[0] != "reply":
                self.late_answer = answer[1]
                self._reply(json.dumps({"op": "end"}))
            return True
        except (KernelLost, Exception):  # noqa: BLE001  whatever stops it, restart instead
            return False

    # ------------------------------------------------------------------ waiting

    def _reply(self, text: str) -> None:
        if self.signed:  # the kernel asked with a Jupyter input_request: answer in kind
            self.session.send(self.stdin, "input_reply", {"value": text})
        else:
            self.stdin.send_multipart([RAW, text.encode("utf-8")])

    def _prompt(self) -> str:
        answer = self._next()
        if answer[0] != "prompt":
            raise KernelLost("the judge's side in the kernel stopped before the cell was done"
                             + stopped_by(answer[1]))
        return answer[1]

    def _next(self) -> tuple[Literal["prompt"], str] | tuple[Literal["reply"], dict[str, Any]]:
        """Wait for the serve loop's next prompt or its execute_reply; return ("prompt",
        text) or ("reply", content). Raises KernelTimeout or KernelDied."""
        while True:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0 and self._more_time():
                remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                raise KernelTimeout(f"no answer from the kernel within {self.seconds:.0f} s")
            events = dict(self.poller.poll(timeout=int(min(remaining, 0.5) * 1000) + 1))
            self._mark_cpu(time.monotonic())
            if self.iopub in events:
                self._drop_output()
            if self.stdin in events:
                frames = self.stdin.recv_multipart(zmq.NOBLOCK)
                if len(frames) == 2 and frames[0] == RAW:
                    self.signed = False
                    return "prompt", frames[1].decode("utf-8", "replace")
                msg = self._jupyter(frames)
                if msg and msg["msg_type"] == "input_request" and self._mine(msg):
                    self.signed = True
                    prompt = msg["content"].get("prompt")
                    return "prompt", prompt if isinstance(prompt, str) else ""
            if self.shell in events:
                msg = self._jupyter(self.shell.recv_multipart(zmq.NOBLOCK))
                if msg and msg["msg_type"] == "execute_reply" and self._mine(msg):
                    return "reply", msg["content"]
            if not events and not run_sync(self.km.is_alive)():
                self.died = True
                raise KernelDied("the kernel died")

    def _jupyter(self, frames: list[bytes]) -> dict[str, Any] | None:
        """Return the signed Jupyter message ``frames`` hold, or None when they hold none or
        one whose type is not text or whose parent header or content is not an object: the
        kernel holds the key, so its signature says only that the kernel sent it, and a
        message of another shape is not one of this conversation's."""
        try:
            _, parts = self.session.feed_identities(frames)
            msg: dict[str, Any] = self.session.deserialize(parts)
        except Exception:  # noqa: BLE001  unsigned, malformed: not a message
            return None
        shaped = (type(msg.get("msg_type")) is str and type(msg.get("parent_header")) is dict
                  and type(msg.get("content")) is dict)
        return msg if shaped else None

    def _drop_output(self) -> None:
        """Read and drop what the student's code printed during the calls (never part of a
        verdict), counting its bytes in ``dropped_bytes``; while a cell runs, hand its
        outputs to ``collect`` instead."""
        for _ in range(DRAIN_AT_ONCE):
            try:
                frames = self.iopub.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            size = sum(len(frame.buffer) for frame in frames)
            if self.collect is not None and (size <= SMALL_MESSAGE or not self.full()):
                msg = self._jupyter([frame.bytes for frame in frames])
                if msg is not None and self._mine(msg):
                    if msg["msg_type"] == RAN:
                        self.ran = msg["content"].get("q")
                    else:
                        self.collect(msg)
                    continue
            self.dropped_bytes += size

    def take_dropped(self) -> int:
        """Return the bytes of output dropped since the last call, and start counting anew."""
        dropped, self.dropped_bytes = self.dropped_bytes, 0
        return dropped

    def _mine(self, msg: dict[str, Any]) -> bool:
        parent: dict[str, Any] = msg.get("parent_header", {})
        msg_id: object = parent.get("msg_id")
        return msg_id == self.msg_id
