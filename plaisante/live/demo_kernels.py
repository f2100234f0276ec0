"""The kernel manager Voila uses for ``plaisante demo`` (named in ``demo.QUIET``): jupyter_server's,
without the interrupt before shutdown that made the kernel log an error on the instructor's
terminal each time the demo stopped or a page closed."""

from __future__ import annotations

from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

from ..grading.kernel_lifecycle import NoInterruptOnShutdown


class DemoKernelManager(NoInterruptOnShutdown, ServerKernelManager):
    """A ServerKernelManager that does not interrupt a kernel it shuts down."""
