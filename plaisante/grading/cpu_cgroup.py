"""A CPU cgroup around one sandbox: its processes share the processor as one.

Linux shares the cores between scheduling groups first, then between the processes of a
group. Outside any cgroup of its own, a process's group is its session (an autogroup), so a
submission that starts many processes, each in a session of its own (``setsid``), held as
many shares as it had processes, and a submission graded beside it got a sliver: its honest
cells ran over their time even with the CPU-aware limit (``plaisante.grading.conversation``
gives a computing cell at most three times its time). In a cgroup of its own (cgroup v1's
``cpu`` controller, default ``cpu.shares``), the sandbox counts as one, whatever it starts,
beside every other sandbox of the grader.

Where the cgroups come from, the first that this process may create folders in:

1. ``$PLAISANTE_CPU_CGROUP``: a folder of that hierarchy, or ``off`` for none;
2. the grader's own CPU cgroup (a root grader may always create one there);
3. ``/sys/fs/cgroup/cpu/plaisante-<user>``: the one-time root step for an ordinary user
   (``docs/threat-model.md``, "CPU"; ``tools/grader-user.sh`` does it for the tests).

Without one, ``CpuCgroup.create`` returns None: sandboxes then share the processor as their
sessions do.
"""

from __future__ import annotations

import os
import pwd
import secrets
import time
from functools import lru_cache
from pathlib import Path

from .memory_cgroup import PREFIX, sweep_stale

V1_ROOT = Path("/sys/fs/cgroup/cpu")
SETTING = "PLAISANTE_CPU_CGROUP"


def own_cgroup() -> Path | None:
    """Return this process's CPU cgroup folder (cgroup v1), or None when there is none."""
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return V1_ROOT / path.lstrip("/")
    return None


def delegated_cgroup() -> Path:
    """Return the folder root hands over to this user once (see the module doc)."""
    return V1_ROOT / f"plaisante-{pwd.getpwuid(os.geteuid()).pw_name}"


def _usable(folder: Path) -> bool:
    return (folder / "cpu.shares").is_file() and os.access(folder, os.W_OK | os.X_OK)


@lru_cache(maxsize=1)
def cgroup_base() -> tuple[Path | None, str]:
    """Return (the folder new sandbox cgroups go into, "") or (None, why there is none)."""
    setting = os.environ.get(SETTING, "").strip()
    if setting == "off":
        return None, f"${SETTING} is off"
    candidates = [Path(setting)] if setting else [c for c in (own_cgroup(), delegated_cgroup())
                                                  if c is not None]
    for folder in candidates:
        if _usable(folder):
            return folder, ""
    tried = ", ".join(str(c) for c in candidates) or "no cgroup v1 cpu controller"
    return None, f"no CPU cgroup this user may create ({tried})"


class CpuCgroup:
    """One CPU cgroup, made for one sandbox and removed with it (``prefix`` starts a program
    inside it)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls) -> CpuCgroup | None:
        """Return a new cgroup with the default share, or None when none can be had here
        (``cgroup_base``)."""
        base, _ = cgroup_base()
        if base is None:
            return None
        sweep_stale(base)
        path = base / f"{PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        try:
            path.mkdir()
        except OSError:
            return None
        return cls(path)

    def prefix(self) -> list[str]:
        """The command prefix that moves itself into this cgroup, then runs the command (so
        every process the command starts is inside; a move that fails starts nothing)."""
        return ["/bin/sh", "-c", 'echo 0 > "$0/cgroup.procs" && exec "$@"', str(self.path)]

    def remove(self, patience: float = 2.0) -> None:
        """Remove the cgroup once its sandbox's processes are gone (within ``patience`` s;
        one still holding processes then is left to the next grader's sweep)."""
        deadline = time.monotonic() + patience
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.02)


def in_cpu_cgroup(group: CpuCgroup | None) -> list[str]:
    """The command prefix that runs a command in ``group`` (nothing without one)."""
    return group.prefix() if group is not None else []
