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
