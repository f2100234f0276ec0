"""The CPU clock a cell's time limit is counted in (``plaisante.grading.sandbox_clock``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from plaisante.grading.sandbox_clock import tree_cpu_seconds

BUSY = "import time\nend = time.process_time() + {0}\nwhile time.process_time() < end: pass\n"


def test_a_tree_counts_the_cpu_of_a_grandchild_a_sleeping_parent_started():
    """A shell that only waits starts a Python that computes 0.6 s: the shell's tree has used
    at least that much CPU, while the shell itself has used almost none."""
    shell = subprocess.Popen(["/bin/sh", "-c", f'{sys.executable} -c "$0"; sleep 30',
                              BUSY.format(0.6)])
    try:
        deadline = time.monotonic() + 60
        used = 0.0
        while time.monotonic() < deadline:
            used = tree_cpu_seconds(shell.pid) or 0.0
            if used >= 0.6:
                break
            time.sleep(0.05)
        assert 0.6 <= used < 5.0
        with open(f"/proc/{shell.pid}/stat", "rb") as stat:
            own = stat.read().rsplit(b")", 1)[1].split()
        own_seconds = (int(own[11]) + int(own[12])) / os.sysconf("SC_CLK_TCK")  # user + system
        assert own_seconds < 0.3
    finally:
        shell.kill()
        shell.wait()


def test_a_process_that_is_gone_has_no_clock():
    gone = subprocess.Popen(["/bin/true"])
    gone.wait()
    assert tree_cpu_seconds(gone.pid) is None
