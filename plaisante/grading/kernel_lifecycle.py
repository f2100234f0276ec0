"""A change to how jupyter_client stops a kernel, for kernel managers that start many kernels
one after another (the grader's) or that stop them in front of an instructor (the demo's).

``NoInterruptOnShutdown``: jupyter_client interrupts a kernel before every shutdown, even one
that kills it at once (a restart). Sent as a signal, the interrupt reaches a kernel busy in a
message handler, which logs "KeyboardInterrupt caught in kernel."; sent as a message, it can
wait queued on the control socket of a kernel killed before reading it, and reach the next
kernel bound to the same path. Interrupts asked for on purpose (a cell out of time) go
through ``interrupt_kernel`` and are unchanged.
"""

from __future__ import annotations

from jupyter_client.manager import AsyncKernelManager


class NoInterruptOnShutdown(AsyncKernelManager):
    """Mix in before a jupyter_client kernel manager class."""

    async def _async_interrupt_kernel(self) -> None:
        if self.shutting_down:
            return
        await super()._async_interrupt_kernel()
