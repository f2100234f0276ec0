"""A student's submitted parts, live for the lecture-hall demo (``plaisante demo ID --student S``):
the submission's cells run in the grader's sandbox (bubblewrap, the same limits; as
root a throw-away uid), in a plain process (``plaisante.kernel.live``), and every call of a part
is a judge request over a pipe. This process gets plain data and ``Remote`` handles, exactly as
the judge does (``plaisante.grading.judge``), so the gate's checks and the presenter view run
here on the student's code without the student's code running here.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

from ..student_side.wire import MAX_CHARS
from . import sandbox
from .cpu_cgroup import CpuCgroup, in_cpu_cgroup
from .execute import is_test
from .judge import KernelLost, Session
from .memory_cgroup import MemoryCgroup
from .result import Limits
from .submission import preload_modules

PLAY_CELL = "play"  # the last cell's grade id: the game is shown by the demo, not by the cell


def cell_sources(submitted: nbformat.NotebookNode, release: nbformat.NotebookNode) -> list[str]:
    """Return the code the demo runs, in order: every code cell of ``submitted`` except its
    test cells and the last cell's game, each locked cell replaced by the release's (as
    nbgrader's OverwriteCells does at grading)."""
    locked = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in release.cells
              if cell.metadata.get("nbgrader", {}).get("locked")
              and cell.metadata["nbgrader"].get("grade_id")}
    sources = []
    for cell in submitted.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type != "code" or is_test(cell) or grade_id == PLAY_CELL:
            continue
        sources.append(locked.get(grade_id, cell.source))
    return sources


class LiveSubmission:
    """The submission ``notebook`` running in a sandbox; ``parts(names)`` returns its parts.

    A live demo must not stall the lecture hall: running the cells may take ``start_seconds``,
    one call ``answer_seconds``, and all the calls of the demo's life together
    ``total_seconds`` (the reference makes the gate's ~700 calls in about a second); past any
    of them the process is stopped and KernelLost raised. Use as a context manager, or call
    ``close()``. Raises SandboxUnavailable when the sandbox cannot run here,
    FileNotFoundError for a missing notebook, ValueError for a file that is not a notebook."""

    def __init__(self, notebook: Path, release: Path, *, limits: Limits | None = None,
                 start_seconds: float = 20.0, answer_seconds: float = 3.0,
                 total_seconds: float = 30.0) -> None:
        sandbox.require_sandbox()
        try:
            submitted = nbformat.read(notebook, as_version=4)
        except (OSError, ValueError) as error:
            if isinstance(error, FileNotFoundError):
                raise
            raise ValueError(f"{notebook} is not a readable notebook: {error}") from None
        released = nbformat.read(release, as_version=4)
        self.sources = cell_sources(submitted, released)
        self.limits = limits or Limits()
        self.answer_seconds = answer_seconds
        self.time_left = total_seconds  # for all the calls, together
        self.stopped = ""  # why the process was stopped, said again by every later call
        self.folder = Path(tempfile.mkdtemp(prefix="plaisante-live-",
                                            dir=sandbox.scratch_base()))
        work, sockets = self.folder / "work", self.folder / "sockets"
        work.mkdir()
        sockets.mkdir()
        self.uid = sandbox.pick_uid() if sandbox.as_root() else os.getuid()
        command = sandbox.bwrap_command(work, sockets, self.uid, self.limits,
                                        sandbox.kernel_env(), preload_modules(released))
        self.cgroup = MemoryCgroup.create(int(self.limits.sandbox_memory_bytes))
        self.cpu_cgroup = CpuCgroup.create()
        self.process = subprocess.Popen(
            [*(self.cgroup.prefix() if self.cgroup else []), *in_cpu_cgroup(self.cpu_cgroup),
             *command, sys.executable, "-m", "plaisante.kernel.live"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.failed_cells: list[str] = []
        self.session = Session(self.transport)
        ready = self._send(json.dumps(self.sources), deadline=start_seconds)
        try:
            self.failed_cells = [str(cell) for cell in json.loads(ready)["ready"]]
        except (ValueError, KeyError, TypeError):
            self.close()
            raise KernelLost("the submission's process did not start the judge's protocol"
                             ) from None

    def parts(self, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
        """Return {name: value or Remote} for each of ``names`` the submission defines."""
        return self.session.fetch(list(names))

    def transport(self, text: str) -> str:
        """Send one judge request; return the answer's text (a Session's transport)."""
        if self.time_left <= 0:
            self.close()
            self.stopped = "the student's code has used the demo's time for calls"
        if self.stopped:
            raise KernelLost(self.stopped)
        started = time.monotonic()
        try:
            return self._send(text, deadline=min(self.answer_seconds, self.time_left))
        finally:
            self.time_left -= time.monotonic() - started

    def _send(self, text: str, deadline: float) -> str:
        if self.process.poll() is not None:
            raise KernelLost("the submission's process has ended")
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(text.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise KernelLost("the submission's process has ended") from None
        until = time.monotonic() + deadline
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = until - time.monotonic()
            if left <= 0 or len(self.buffer) > MAX_CHARS:
                self.close()
                self.stopped = (f"the student's code did not answer within {deadline:g} s"
                                if left <= 0 else "the student's answer was too large"
                                ) + " (stopped: run plaisante demo again to start it anew)"
                raise KernelLost(self.stopped)
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise KernelLost("the submission's process has ended")
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def close(self) -> None:
        """Stop the process (and, as root, everything of its uid); remove its folders."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if sandbox.as_root():
            sandbox.kill_user(self.uid)
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.cpu_cgroup is not None:
            self.cpu_cgroup.remove()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LiveSubmission:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
