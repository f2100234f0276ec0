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
