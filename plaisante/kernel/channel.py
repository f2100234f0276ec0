"""The kernel's end of the judge's channel: bare frames on the kernel's stdin socket.

Both conversations of a graded kernel ride on it: the judge's requests and their answers
(``plaisante.kernel.oracle``), and the routed questions of a student's own tests
(``plaisante.kernel.routed``), which are sent the same way while a request is being answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

#: The first frame of every judge message on the stdin channel (see ``exchange_with``).
RAW = b"plaisante-judge/1"


class FrameSocket(Protocol):
    """What of a ZeroMQ socket the channel uses: whole messages of bytes frames."""

    def send_multipart(self, frames: list[bytes]) -> Any: ...

    def recv_multipart(self) -> list[bytes]: ...


def exchange_with(kernel: Any) -> Callable[[str], str]:
    """Return ``send(text) -> reply text`` over ``kernel``'s stdin socket.

    After the grader's ``execute_request`` has started ``serve``, each exchange is two bare
    ZeroMQ frames each way, ``[RAW, JSON text]``, routed to the grader's stdin socket: no
    Jupyter header, date or signature to build and check on either side (they cost more than
    the request itself). The grader's socket is connected to this kernel alone, so what it
    reads there can only come from here, as the signed messages could. Falls back to
    ``kernel.raw_input`` (one ``input_request`` per exchange) where ipykernel's internals
    differ."""
    socket: FrameSocket
    ident: list[bytes]
    try:
        ident, socket = list(kernel._parent_ident["shell"]), kernel.stdin_socket
        socket.send_multipart  # noqa: B018  (a plain ZeroMQ socket)
    except (AttributeError, KeyError, TypeError):
        raw_input: Callable[[str], str] = kernel.raw_input
        return raw_input

    def send(text: str) -> str:
        socket.send_multipart([*ident, RAW, text.encode("utf-8")])
        while True:  # only from the grader's socket that started this serve: a request an
            frames = socket.recv_multipart()  # earlier conversation left queued is not one
            if len(frames) == len(ident) + 2 and frames[:-2] == ident and frames[-2] == RAW:
                return frames[-1].decode("utf-8", "replace")
    return send
