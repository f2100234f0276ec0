"""A kernel is ready when it answers this wait's ``kernel_info``, not an earlier one
(``SandboxKernelClient.wait_for_ready``). The grader's client outlives restarts: a kernel slower
than a second to answer got two requests and answered both, and the spare reply, read at the
next restart, made a kernel that had not started yet pass for ready. The grader then locked the
sockets folder before that kernel made its sockets, and the run of a student's tests it was for
died with it (exit status 72) and lost its points."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager

from plaisante.grading.kernel_manager import SandboxKernelManager


def ready_after(folder: Path, leave: Callable[[Any, Path], Awaitable[None]]) -> bool:
    """Start a kernel, wait until it is ready, have ``leave(client, folder)`` leave something
    in the client, end the kernel, and say whether ``wait_for_ready`` takes the ended kernel
    for ready."""

    async def run() -> bool:
        manager = SandboxKernelManager(sandbox_enabled=0, sandbox_socket_dir=str(folder),
                                       sandbox_work_dir=str(folder))
        await manager.start_kernel()
        client = manager.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            await leave(client, folder)
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


async def a_spare_reply(client: Any, folder: Path) -> None:
    """A ``kernel_info_reply`` nobody waits for, left in the client."""
    client.kernel_info()
    await asyncio.sleep(1)


def test_a_reply_to_an_earlier_wait_does_not_make_an_ended_kernel_ready(tmp_path):
    assert ready_after(tmp_path, a_spare_reply) is False


#: Run in the kernel: kernel_info replies to the next requests the client will make, by their
#: ids as jupyter_client numbers them (its session, the grader's pid, a count): a kernel reads
#: all three from the requests it gets (a student's cell found them with ``gc.get_objects``).
FORGE = """
import os
from collections.abc import Awaitable, Callable
k = get_ipython().kernel
shell = getattr(k, "shell_stream", None) or k.shell_socket
for number in range({first}, {first} + 20):
    parent = {{"msg_id": "{session}_{pid}_%d" % number, "msg_type": "kernel_info_request",
              "session": "{session}", "username": "", "date": "2026-01-01T00:00:00Z",
              "version": "5.3"}}
    k.session.send(shell, "kernel_info_reply", dict(k.kernel_info, status="ok"),
                   parent=parent, ident=[b"{session}"])
open({done!r}, "w").close()
"""


async def forged_replies(client: Any, folder: Path) -> None:
    """Replies the kernel forged to the client's next ``kernel_info`` requests (``FORGE``)."""
    done = folder / "forged"
    session = client.session
    client.execute(FORGE.format(first=session.message_count + 1, pid=os.getpid(),
                                session=session.session, done=str(done)))
    for _ in range(600):
        if done.exists():
            break
        await asyncio.sleep(0.05)
    assert done.exists(), "the kernel did not run the forging code"
    await asyncio.sleep(0.2)  # the last replies on their way to the client


def test_replies_a_kernel_forged_for_the_next_requests_do_not_make_an_ended_kernel_ready(
        tmp_path):
    # found by an attack review: as root, a student's cell that forged them had the next
    # kernel (a run of their own tests) pass for ready and die with exit status 72
    assert ready_after(tmp_path, forged_replies) is False


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
