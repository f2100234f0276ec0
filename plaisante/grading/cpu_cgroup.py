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
import secrets
from functools import lru_cache
from pathlib import Path

from . import cgroup_folders as folders
from .cgroup_folders import PREFIX, remove_when_empty, sweep_stale

V1_ROOT = Path("/sys/fs/cgroup/cpu")
SETTING = "PLAISANTE_CPU_CGROUP"


@lru_cache(maxsize=1)
def cgroup_base() -> tuple[Path | None, str]:
    """Return (the folder new sandbox cgroups go into, "") or (None, why there is none)."""
    return folders.cgroup_base(V1_ROOT, "cpu", SETTING, "cpu.shares")


def setting_problem() -> str | None:
    """Why ``$SETTING`` names a folder no sandbox cgroup can go in, or None."""
    return folders.setting_problem(V1_ROOT, "cpu", SETTING, "cpu.shares")


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
        remove_when_empty(self.path, patience)


def in_cpu_cgroup(group: CpuCgroup | None) -> list[str]:
    """The command prefix that runs a command in ``group`` (nothing without one)."""
    return group.prefix() if group is not None else []
