"""``plaisante demo`` as a command: a busy port is an error naming it (never a silent move to
another port, which would leave the printed address serving someone else's demo), and `kill`
stops Voila with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAISANTE = Path(sys.executable).with_name("plaisante")


def env() -> dict[str, str]:
    return dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])


def test_a_busy_port_stops_the_demo_with_a_line_naming_it() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([str(PLAISANTE), "--course", str(ROOT), "demo", "plaisante",
                               "--no-browser", f"--port={port}"], env=env(), text=True,
                              capture_output=True, timeout=120)
    assert done.returncode != 0
    assert f"is port {port} in use? Try --port with another number." in done.stderr


def test_kill_stops_voila_too() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo = subprocess.Popen([str(PLAISANTE), "--course", str(ROOT), "demo", "plaisante",
                             "--no-browser", f"--port={port}"], env=env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:  # until Voila listens
        with socket.socket() as client:
            if client.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.2)
    else:
        demo.kill()
        raise AssertionError("Voila never listened")
    demo.send_signal(signal.SIGTERM)
    demo.wait(timeout=30)
    time.sleep(1)
    with socket.socket() as client:
        assert client.connect_ex(("127.0.0.1", port)) != 0  # nothing serves the demo any more


def interrupted_at_shutdown(manager_class: type, folder: Path) -> bool:
    """Start a real kernel with ``manager_class``, have it note any SIGINT, shut it down the
    way Voila does when it stops or a page closes; return whether the kernel was interrupted."""
    import asyncio

    note = folder / f"{manager_class.__name__}.sigint"

    async def run() -> None:
        manager = manager_class(transport="ipc", connection_file=str(folder / "kernel.json"))
        await manager.start_kernel()
        client = manager.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            # ipykernel puts back its own SIGINT handler after each message: install the note's
            # once the cell's message is done, from the kernel's event loop
            code = ("import asyncio, signal\n"
                    "asyncio.get_running_loop().call_later(0.2, signal.signal, signal.SIGINT,"
                    f" lambda *_: open({str(note)!r}, 'w').close())")
            reply = await client.execute_interactive(code, timeout=60)
            assert reply["content"]["status"] == "ok", reply
            await asyncio.sleep(1)
        finally:
            client.stop_channels()
        await manager.shutdown_kernel()

    # in a thread of its own: a browser test before it in this process may hold a running loop
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, run()).result(timeout=180)
    return note.exists()


def test_the_demo_kernel_is_not_interrupted_when_voila_shuts_it_down(tmp_path: Path) -> None:
    """jupyter_client interrupts a kernel before it asks it to shut down; a kernel busy in a
    comm message then logged "KeyboardInterrupt caught in kernel." on the instructor's
    terminal each time the demo stopped or a page closed."""
    from importlib import import_module

    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    from plaisante.live.demo import QUIET

    named = QUIET["AsyncMappingKernelManager"]["kernel_manager_class"]
    module, _, name = named.rpartition(".")
    demo_manager = getattr(import_module(module), name)
    assert issubclass(demo_manager, ServerKernelManager)
    assert interrupted_at_shutdown(ServerKernelManager, tmp_path)  # what jupyter_client does
    assert not interrupted_at_shutdown(demo_manager, tmp_path)
