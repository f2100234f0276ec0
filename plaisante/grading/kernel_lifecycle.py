"""Two changes to how jupyter_client starts and stops a kernel, for kernel managers that start
many kernels one after another (the grader's) or that stop them in front of an instructor (the
demo's).

* ``NoInterruptOnShutdown``: jupyter_client interrupts a kernel before every shutdown, even one
  that kills it at once (a restart). Sent as a signal, the interrupt reaches a kernel busy in a
  message handler, which logs "KeyboardInterrupt caught in kernel."; sent as a message, it can
  wait queued on the control socket of a kernel killed before reading it, and reach the next
  kernel bound to the same path. Interrupts asked for on purpose (a cell out of time) go
  through ``interrupt_kernel`` and are unchanged.
* ``NoPauseAroundStart``: jupyter_client's start and shutdown each sleep 10 ms before they
  return (so that its own tests can see the pending state); the grader restarts a kernel for
  every run of a student's tests, a dozen times a submission.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Future as ThreadFuture
from typing import Any

from jupyter_client.manager import AsyncKernelManager


class NoInterruptOnShutdown(AsyncKernelManager):
    """Mix in before a jupyter_client kernel manager class."""

    async def _async_interrupt_kernel(self) -> None:
        if self.shutting_down:
            return
        await super()._async_interrupt_kernel()


def _pending(method: Callable[..., Awaitable[Any]]) -> Any:
    """``method`` (decorated with jupyter_client's ``in_pending_state``) with the same pending
    state (the ``ready`` future) and without the pause; ``method`` itself if jupyter_client no
    longer says what it decorated."""
    inner = getattr(method, "__wrapped__", None)
    if inner is None:
        return method

    async def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self._attempted_start or not self._ready:
            try:
                asyncio.get_running_loop()
                self._ready = asyncio.Future()
            except RuntimeError:
                self._ready = ThreadFuture()
        try:
            out = await inner(self, *args, **kwargs)
        except Exception as error:
            self._ready.set_exception(error)
            raise
        if self.owns_kernel:
            self._ready.set_result(None)
        return out

    run.__doc__ = method.__doc__
    return run


class NoPauseAroundStart(AsyncKernelManager):
    """Mix in before a jupyter_client kernel manager class."""

    _async_start_kernel = _pending(AsyncKernelManager._async_start_kernel)
    _async_shutdown_kernel = _pending(AsyncKernelManager._async_shutdown_kernel)
    start_kernel = _async_start_kernel
    shutdown_kernel = _async_shutdown_kernel
