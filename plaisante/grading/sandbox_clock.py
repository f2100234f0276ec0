"""The CPU time a sandbox has used, read by the host from ``/proc``.

A cell's time limit is counted in the CPU time its sandbox uses, not only in wall time: on a
machine busy with other work (a class graded on more workers than cores, a test suite beside
it) a cell waits for a core, and a wall-clock limit would cut an honest cell short and change
its grade. ``KernelConversation`` reads this clock once a cell has run past its wall time, and
gives it more (within a bound) while the sandbox has not yet used the cell's time in CPU.

The figures come from the host's ``/proc``, outside the sandbox: the student's code cannot
make them smaller (it can only spend CPU, which counts).
"""

from __future__ import annotations

import os
from collections import defaultdict

TICKS = os.sysconf("SC_CLK_TCK")


def _read_stat(pid: str) -> tuple[int, int] | None:
    """Return (parent pid, CPU ticks: user + system, its reaped children's included) of
    ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    fields = text[text.rfind(b")") + 2:].split()  # the name may hold spaces and parentheses
    try:
        return int(fields[1]), sum(int(field) for field in fields[11:15])
    except (IndexError, ValueError):
        return None


def tree_cpu_seconds(root: int) -> float | None:
    """Return the CPU time, in seconds, that process ``root`` and every process descending
    from it have used (user and system time, with their reaped children's), or None when
    ``root`` is gone. Resolution: one clock tick (10 ms on Linux)."""
    children: dict[int, list[int]] = defaultdict(list)
    ticks: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (stat := _read_stat(entry.name)) is not None:
            pid = int(entry.name)
            children[stat[0]].append(pid)
            ticks[pid] = stat[1]
    if root not in ticks:
        return None
    total, todo, seen = 0, [root], {root}
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        for child in children.get(pid, ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return total / TICKS
