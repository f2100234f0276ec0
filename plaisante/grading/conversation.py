"""The judge's line to a sandboxed kernel: test cells' requests over the stdin channel.

``KernelConversation.transport`` is the ``Transport`` that ``plaisante.grading.judge`` asks
through. The first request starts ``plaisante.oracle.serve()`` in the kernel as a silent
``execute_request`` whose only work is a user expression (IPython's input transformers and
AST hooks never see it) with ``allow_stdin``; after that each request and each answer is two
bare ZeroMQ frames on the stdin channel, ``[oracle.RAW, JSON text]`` (no Jupyter header or
signature: this socket is connected to the kernel alone, and the kernel is the party being
asked anyway). A Jupyter ``input_request`` there (the student's own ``input()`` during a call)
is read as an answer, and so breaks the protocol, as before.

While it waits, the conversation reads the stdin, shell and iopub channels together: iopub
(whatever the student's code prints during the calls) is read and dropped at once, so it never
piles up, and a verdict never depends on it; each message is at most ``MAX_MESSAGE_BYTES``
(ZeroMQ drops a larger one before the grader holds it, see ``bound_client``). The whole cell
has one deadline; past it the wait ends with ``KernelTimeout``, and a kernel whose process
ended gives ``KernelDied``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import zmq
from jupyter_core.utils import run_sync

from ..oracle import RAW
from .judge import KernelDied, KernelLost, KernelTimeout, Verdict

#: The kernel side, started as a user expression (see the module doc).
SERVE = "__import__('plaisante.oracle', fromlist=['serve']).serve()"
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # one frame of one kernel message (ZMQ_MAXMSGSIZE)
QUEUED_MESSAGES = 64  # messages ZeroMQ queues per channel before it drops or waits (RCVHWM)
END_GRACE = 5.0  # seconds the serve loop has to return once told to end
INTERRUPT_GRACE = 3.0  # seconds a timed-out call has to give way to an interrupt
DRAIN_AT_ONCE = 256  # iopub messages read and dropped in one go
HANDSHAKE_WAIT = 5.0  # seconds a conversation's stdin socket has to connect to the kernel


def bound_context(context: Any) -> Any:
    """Cap what ZeroMQ accepts from the kernel on every socket ``context`` makes from now on:
    frames over ``MAX_MESSAGE_BYTES`` cut the connection instead of being received, and at
    most ``QUEUED_MESSAGES`` wait per socket. Returns ``context``."""
    context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
    context.setsockopt(zmq.RCVHWM, QUEUED_MESSAGES)
    return context


def bound_client(client: Any) -> Any:
    """Cap what ZeroMQ accepts on every channel of ``client`` (``bound_context``; call before
    its channels start). Returns ``client``."""
    bound_context(client.context)
    return client


async def drain(channel: Any) -> None:
    """Read and drop what is waiting on ``channel`` (at most ``DRAIN_AT_ONCE`` messages)."""
    for _ in range(DRAIN_AT_ONCE):
        if not await channel.msg_ready():
            return
        await channel.get_msg(timeout=0)


class KernelConversation:
    """A run of test cells' conversation with the kernel of ``execute`` (a ``JudgedExecute``),
    ending at ``deadline`` (``time.monotonic()``). It has sockets of its own (synchronous, used
    only by this thread, with a session of its own and the kernel's key), so it never touches
    the sockets nbclient's event-loop thread is using (sharing them aborted libzmq once in a
    while); ``close()`` releases them."""

    def __init__(self, execute: Any, deadline: float) -> None:
        from jupyter_client.session import Session

        self.km = execute.km
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
        self.poller = zmq.Poller()
        for socket in (self.stdin, self.shell, self.iopub):
            self.poller.register(socket, zmq.POLLIN)
        self.deadline = deadline
        self.seconds = max(0.0, deadline - time.monotonic())
        self.msg_id: str | None = None
        self.dropped_bytes = 0
        self.timed_out = False
        self.died = False
        self.signed = False  # the last prompt came as a signed Jupyter input_request

    def close(self) -> None:
        """Release this conversation's sockets and their context."""
        self.context.destroy(linger=0)

    def renew(self, deadline: float) -> None:
        """Go on with the next test cell, which has its own ``deadline``."""
        self.deadline = deadline
        self.seconds = max(0.0, deadline - time.monotonic())

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

    def end(self, verdict: Verdict) -> Verdict:
        """Tell the kernel the cell is done and wait for it to finish; return ``verdict``, or
        a lost one when the kernel does not finish in time."""
        if self.msg_id is None:
            return verdict
        self._reply(json.dumps({"op": "end"}))
        self.deadline = max(self.deadline, time.monotonic() + END_GRACE)
        try:
            while self._next()[0] == "prompt":  # an input() of the student's
                self._reply(json.dumps({"op": "end"}))
        except KernelLost as lost:
            return Verdict(False, verdict.printed, (type(lost).__name__, str(lost)),
                           lost=str(lost))
        return verdict

    def interrupt(self) -> bool:
        """Interrupt a call that ran out of time; return True when the kernel gave way (the
        serve loop answered and ended), False when it ignored the interrupt."""
        self.timed_out = False
        try:
            run_sync(self.km.interrupt_kernel)()
            self.deadline = time.monotonic() + INTERRUPT_GRACE
            while self._next()[0] != "reply":
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
        what, content = self._next()
        if what != "prompt":
            raise KernelLost("the judge's side in the kernel stopped before the cell was done")
        return content

    def _next(self) -> tuple[str, Any]:
        """Wait for the serve loop's next prompt or its execute_reply; return ("prompt",
        text) or ("reply", content). Raises KernelTimeout or KernelDied."""
        while True:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                raise KernelTimeout(f"no answer from the kernel within {self.seconds:.0f} s")
            events = dict(self.poller.poll(timeout=int(min(remaining, 0.5) * 1000) + 1))
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
                msg = self.session.recv(self.shell, mode=zmq.NOBLOCK)[1]
                if msg and msg["msg_type"] == "execute_reply" and self._mine(msg):
                    return "reply", msg["content"]
            if not events and not run_sync(self.km.is_alive)():
                self.died = True
                raise KernelDied("the kernel died")

    def _jupyter(self, frames: list[bytes]) -> dict[str, Any] | None:
        """Return the signed Jupyter message ``frames`` hold, or None when they hold none."""
        try:
            _, parts = self.session.feed_identities(frames)
            return self.session.deserialize(parts)
        except Exception:  # noqa: BLE001  unsigned, malformed: not a message
            return None

    def _drop_output(self) -> None:
        """Read and drop what the student's code printed during the calls (never part of a
        verdict), counting its bytes in ``dropped_bytes``."""
        for _ in range(DRAIN_AT_ONCE):
            try:
                frames = self.iopub.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            self.dropped_bytes += sum(len(frame.buffer) for frame in frames)

    def take_dropped(self) -> int:
        """Return the bytes of output dropped since the last call, and start counting anew."""
        dropped, self.dropped_bytes = self.dropped_bytes, 0
        return dropped

    def _mine(self, msg: dict[str, Any]) -> bool:
        return msg.get("parent_header", {}).get("msg_id") == self.msg_id
