"""A memory cgroup around one sandbox: all the memory of a submission, counted together.

Per-process rlimits cannot bound a submission's memory: 64 processes may each hold their
address-space limit, and memory files, SysV shared memory and tmpfs files are held by no
process's address space at all. A memory cgroup counts every page any of its processes
touched, those included (they are charged to the cgroup that first wrote them), and past its
limit the kernel's OOM killer ends one of its processes (the submission's first: they are
marked as the preferred victims, ``plaisante.kernel.zygote``).

Where the cgroups come from (cgroup v1's memory controller, ``/sys/fs/cgroup/memory``), the
first that this process may create folders in:

1. ``$PLAISANTE_MEMORY_CGROUP``: a folder of that hierarchy, or ``off`` for none;
2. the grader's own memory cgroup (a root grader may always create one there);
3. ``/sys/fs/cgroup/memory/plaisante-<user>``: the one-time root step for an ordinary user
   (``docs/threat-model.md``, "Memory"; ``tools/grader-user.sh`` does it for the tests).

Without one, ``MemoryCgroup.create`` returns None and only the rlimits, the system-call
filter (``plaisante.kernel.syscall_filter``) and the tmpfs sizes bound the sandbox.
"""

from __future__ import annotations

import os
import secrets
import signal
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import cgroup_folders as folders
from .cgroup_folders import PREFIX, remove_when_empty, sweep_stale

V1_ROOT = Path("/sys/fs/cgroup/memory")
SETTING = "PLAISANTE_MEMORY_CGROUP"


def own_cgroup() -> Path | None:
    """Return this process's memory cgroup folder (cgroup v1), or None when there is none."""
    return folders.own_cgroup(V1_ROOT, "memory")


def delegated_cgroup() -> Path:
    """Return the folder root hands over to this user once (see the module doc)."""
    return folders.delegated_cgroup(V1_ROOT)


@lru_cache(maxsize=1)
def cgroup_base() -> tuple[Path | None, str]:
    """Return (the folder new sandbox cgroups go into, "") or (None, why there is none)."""
    return folders.cgroup_base(V1_ROOT, "memory", SETTING, "memory.limit_in_bytes")


def setting_problem() -> str | None:
    """Why ``$SETTING`` names a folder no sandbox cgroup can go in, or None."""
    return folders.setting_problem(V1_ROOT, "memory", SETTING, "memory.limit_in_bytes")


class MemoryCgroup:
    """One memory cgroup, made for one sandbox and removed with it.

    ``bound`` is its limit in bytes (memory and, where the kernel counts swap, memory plus
    swap). ``prefix`` is the command prefix that starts a program inside it."""

    def __init__(self, path: Path, bound: int) -> None:
        self.path, self.bound = path, bound

    @classmethod
    def create(cls, bound: int) -> MemoryCgroup | None:
        """Return a new cgroup limited to ``bound`` bytes, or None when none can be had here
        (``cgroup_base``). Raises OSError when the folder is there but refuses the limit."""
        base, _ = cgroup_base()
        if base is None:
            return None
        sweep_stale(base)
        path = base / f"{PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        path.mkdir()
        group = cls(path, bound)
        try:
            group._write("memory.limit_in_bytes", bound)
            if (path / "memory.memsw.limit_in_bytes").exists():
                group._write("memory.memsw.limit_in_bytes", bound)
        except OSError:
            group.remove()
            raise
        return group

    def _write(self, name: str, value: int) -> None:
        (self.path / name).write_text(f"{int(value)}\n", encoding="ascii")

    def prefix(self) -> list[str]:
        """The command prefix that moves itself into this cgroup, then runs the command (so
        every process the command starts is inside; a move that fails starts nothing)."""
        return ["/bin/sh", "-c", 'echo 0 > "$0/cgroup.procs" && exec "$@"', str(self.path)]

    def oom_kills(self) -> int:
        """Return how many processes the OOM killer has ended in this cgroup so far."""
        try:
            text = (self.path / "memory.oom_control").read_text(encoding="ascii")
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def usage(self) -> int:
        """Return the bytes charged to this cgroup now."""
        return int((self.path / "memory.usage_in_bytes").read_text(encoding="ascii"))

    def peak(self) -> int:
        """Return the most bytes charged to this cgroup at once since it was made."""
        return int((self.path / "memory.max_usage_in_bytes").read_text(encoding="ascii"))

    def pids(self) -> list[int]:
        """Return the pids of the processes in this cgroup (as the host numbers them)."""
        try:
            text = (self.path / "cgroup.procs").read_text(encoding="ascii")
        except OSError:
            return []
        return [int(word) for word in text.split()]

    def remove(self, patience: float = 5.0) -> None:
        """SIGKILL whatever is left in the cgroup, then remove it (within ``patience`` s)."""
        remove_when_empty(self.path, patience, self._kill_all)

    def _kill_all(self) -> None:
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def describe(self) -> str:
        """The reason a submission is flagged with when the bound ended one of its processes."""
        return (f"memory bound: its processes held over {self.bound // (1024 * 1024)} MiB "
                "together (memory files, shared memory and tmpfs files counted); killed")


class MemoryWatch(threading.Thread):
    """While the kernel's ``process`` lives, checks every 0.1 s whether the OOM killer ended
    a process of ``group`` past ``seen`` kills; if so, kills the kernel (the whole submission:
    a process it started may have been the one ended, and the kernel go on) and returns."""

    def __init__(self, group: MemoryCgroup, process: Any, seen: int) -> None:
        super().__init__(name="plaisante-memory-watch", daemon=True)
        self.group, self.process, self.seen = group, process, seen

    def run(self) -> None:
        while self.process.poll() is None:
            if self.group.oom_kills() > self.seen:
                self.process.kill()
                return
            time.sleep(0.1)
