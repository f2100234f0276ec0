"""The lab board and ``plaisante watch`` against what any local user can do to them: a flood of
idle connections to the board's port, from another process, while submissions arrive.

The watcher runs under a lowered open-file limit (as a hub terminal's 1,024, lower still so
that the flood is several times it); the flood comes from a child process of its own."""

from __future__ import annotations

import json
import os
import queue
import resource
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from course_cli import KIT, cli, new_course

from plaisante.course import CourseLayout

FLOOD = 1000
#: the watcher's open-file limit: the flood is about four times it
WATCH_FILES = 256

needs_descriptors = pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 4096,
    reason="the flood needs 4,096 descriptors of its own")

FLOODER = """
import resource, socket, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
port, count = int(sys.argv[1]), int(sys.argv[2])
held = []
for _ in range(count):
    s = socket.socket()
    s.settimeout(3)
    try:
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        continue
    held.append(s)
print("holding", len(held), flush=True)
sys.stdin.read()  # idle until the test closes our stdin
"""


def flood(port: int, count: int = FLOOD) -> tuple[subprocess.Popen[str], int]:
    """Start a child process holding ``count`` idle connections to ``port``; return it and how
    many connections it opened."""
    child = subprocess.Popen([sys.executable, "-c", FLOODER, str(port), str(count)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("holding "), line
    return child, int(line.split()[1])


def end_flood(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None
    child.stdin.close()
    child.wait(timeout=60)


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def board_json(url: str) -> dict:
    with urllib.request.urlopen(url + "board.json", timeout=10) as answer:
        return json.loads(answer.read())


@needs_descriptors
def test_a_flood_holds_few_of_the_boards_descriptors_and_it_answers_after(
        tmp_path: Path) -> None:
    from plaisante.live.watch import BOARD_CONNECTIONS, Board

    root = new_course(tmp_path / "course", ("solutions", "starter"))
    made = Board(CourseLayout(root), "plaisante", anonymous=True, port=0)
    try:
        made.update({})
        before = open_files()
        child, opened = flood(made.server.server_address[1])  # type: ignore[union-attr]
        try:
            assert opened >= FLOOD // 2  # the kernel's backlog took them: a real flood
            during = open_files()
            assert during - before <= BOARD_CONNECTIONS + 8, (before, during)  # not the flood
            assert made.server.turned_away > 0  # type: ignore[union-attr]
        finally:
            end_flood(child)
        assert board_json(made.url)["roster"] == 0
    finally:
        made.close()


TRICKLER = """
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(0.2)
for sent in range(300):  # a byte every 0.2 s, never a whole request line: 60 s at most
    try:
        s.send(b"G")
        if s.recv(1) == b"":
            break
    except socket.timeout:
        continue
    except OSError:
        break
print("closed" if sent < 299 else "never closed", flush=True)
"""


@needs_descriptors
def test_a_connection_that_trickles_bytes_is_closed_after_the_request_deadline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import plaisante.live.watch as watch

    monkeypatch.setattr(watch, "BOARD_REQUEST_SECONDS", 2.0)
    root = new_course(tmp_path / "course", ("solutions", "starter"))
    made = watch.Board(CourseLayout(root), "plaisante", anonymous=True, port=0)
    try:
        made.update({})
        port = made.server.server_address[1]  # type: ignore[union-attr]
        slow = [subprocess.Popen([sys.executable, "-c", TRICKLER, str(port)],
                                 stdout=subprocess.PIPE, text=True)
                for _ in range(watch.BOARD_CONNECTIONS)]  # every slot held
        said = [child.communicate(timeout=120)[0].strip() for child in slow]
        assert said == ["closed"] * watch.BOARD_CONNECTIONS
        assert board_json(made.url)["roster"] == 0
    finally:
        made.close()


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """Return a queue that gets each line ``process`` writes on stdout (then "" at its end)."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue[str], text: str, said: list[str]) -> str:
    """Return the first line holding ``text`` (every line read goes to ``said``); fail when the
    process ends first."""
    while True:
        line = lines.get(timeout=600)
        said.append(line)
        assert line, f"the watcher ended before saying {text!r}:\n{''.join(said)[-3000:]}"
        if text in line:
            return line


WATCHER = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[2]),
                                            resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from plaisante.live.watch import watch
sys.exit(watch(Path(sys.argv[1]), "plaisante", port=0, sandbox=False))
"""


@needs_descriptors
def test_watch_grades_through_a_flood_and_its_board_answers_after(tmp_path: Path) -> None:
    import pwd

    me = pwd.getpwuid(os.geteuid()).pw_name
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    root = new_course(tmp_path / "course", ("solutions", "starter"))
    with (root / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write(f"c.Exchange.root = {str(exchange)!r}\n"
                "c.CourseDirectory.course_id = 'flood101'\n")
    cli("release", "plaisante", cwd=root)
    inbound = exchange / "flood101" / "inbound"
    inbound.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(KIT))
    watcher = subprocess.Popen([sys.executable, "-c", WATCHER, str(root), str(WATCH_FILES)],
                               cwd=root, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    said: list[str] = []
    child = None
    try:
        lines = lines_of(watcher)
        url = wait_for(lines, "the board: ", said).split("the board: ", 1)[1].strip()
        port = int(url.split(":")[2].split("/")[0])
        child, opened = flood(port)
        assert opened > WATCH_FILES  # more than the watcher could hold
        folder = inbound / f"{me}+plaisante+2026-12-01 10:00:00.000000 UTC+flood"
        folder.mkdir()
        shutil.copy(KIT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb",
                    folder / "plaisante.ipynb")
        folder.chmod(0o777)
        graded = wait_for(lines, f"{me}: ", said)
        assert f"{me}: graded" in graded, "".join(said)
        end_flood(child)
        child = None
        board = board_json(url)
        assert board["submitted"] == 1 and board["graded"] == 1, board
        assert board["students"][0]["student"] == me
        assert watcher.poll() is None  # still watching
        assert "Too many open files" not in "".join(said)
    finally:
        if child is not None:
            end_flood(child)
        watcher.send_signal(signal.SIGINT)
        try:
            watcher.wait(timeout=60)
        except subprocess.TimeoutExpired:
            watcher.kill()
