"""A kernel is ready when it answers this wait's ``kernel_info``, not an earlier one
(``SandboxKernelClient.wait_for_ready``). The grader's client outlives restarts: a kernel slower
than a second to answer got two requests and answered both, and the spare reply, read at the
next restart, made a kernel that had not started yet pass for ready. The grader then locked the
sockets folder before that kernel made its sockets, and the run of a student's tests it was for
died with it (exit status 72) and lost its points."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager

from plaisante.grading.kernel_manager import SandboxKernelManager


def ready_after_a_spare_reply(folder: Path) -> bool:
    """Leave a spare ``kernel_info_reply`` in the client, end the kernel, and say whether
    ``wait_for_ready`` still takes the ended kernel for ready."""

    async def run() -> bool:
        manager = SandboxKernelManager(sandbox_enabled=0, sandbox_socket_dir=str(folder),
                                       sandbox_work_dir=str(folder))
        await manager.start_kernel()
        client = manager.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            client.kernel_info()  # answered while nobody waits for it
            await asyncio.sleep(1)
            await manager.shutdown_kernel(now=True)
            try:
                await client.wait_for_ready(timeout=5)
            except RuntimeError:
                return False
            return True
        finally:
            client.stop_channels()
            if manager.has_kernel:
                await manager.shutdown_kernel(now=True)

    with ThreadPoolExecutor(max_workers=1) as pool:  # a loop of its own, whatever runs here
        return pool.submit(asyncio.run, run()).result(timeout=120)


def test_a_reply_to_an_earlier_wait_does_not_make_an_ended_kernel_ready(tmp_path):
    assert ready_after_a_spare_reply(tmp_path) is False


class NoKernel(SandboxKernelManager):
    """The grader's manager, told to start a program that is not there."""

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return ["/nonexistent/kernel", "-f", self.connection_file]


def pending_states(folder: Path) -> dict[str, object]:
    """Start and shut down a kernel through the grader's manager (no sandbox), then fail to
    start one, and say what its ``ready`` future held after each."""

    async def run() -> dict[str, object]:
        manager = SandboxKernelManager(sandbox_enabled=0, sandbox_socket_dir=str(folder),
                                       sandbox_work_dir=str(folder))
        seen: dict[str, object] = {}
        await manager.start_kernel()
        seen["started"] = manager.ready.done() and manager.ready.exception() is None
        await manager.shutdown_kernel(now=True)
        seen["shut down"] = manager.ready.done() and manager.ready.exception() is None
        broken = NoKernel(sandbox_enabled=0, sandbox_socket_dir=str(folder),
                          sandbox_work_dir=str(folder))
        try:
            await broken.start_kernel()
        except OSError as error:
            seen["failed start"] = type(broken.ready.exception()).__name__
            seen["raised"] = type(error).__name__
        return seen

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=120)


def test_the_manager_keeps_jupyter_clients_pending_state_without_its_pauses(tmp_path):
    # the grader's start and shutdown skip jupyter_client's 10 ms sleeps: still the same
    # decorated methods underneath, and the same ready future for anyone who waits on it
    assert SandboxKernelManager._async_start_kernel is not AsyncKernelManager._async_start_kernel
    assert SandboxKernelManager.start_kernel is SandboxKernelManager._async_start_kernel
    assert pending_states(tmp_path) == {"started": True, "shut down": True,
                                        "failed start": "FileNotFoundError",
                                        "raised": "FileNotFoundError"}
