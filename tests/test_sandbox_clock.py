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


def test_a_kernel_cannot_hide_its_childrens_cpu_by_ignoring_sigchld():
    """Children reaped by Linux itself (their parent ignores SIGCHLD, or sets SA_NOCLDWAIT)
    take their CPU time with them: no process's /proc counts it any more. Under the kernel's
    system-call filter a process may not change how SIGCHLD is handled, so the 1 s its
    children compute stays in its tree's clock (the attack review: a cell that computed 6 s in
    such children under a 3 s cell limit read as idle, ran on towards three times its time and
    kept step 1's 12 points, 90 or 100, where the same work in the kernel itself is cut at 3 s:
    88)."""
    code = (
        "import os, signal, sys, time\n"
        "from plaisante.kernel import syscall_filter\n"
        "syscall_filter.install()\n"
        "try:\n"
        "    signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
        "except OSError:\n"
        "    pass\n"
        "print('ready', flush=True)\n"
        "for _ in range(4):\n"
        "    if os.fork() == 0:\n"
        "        end = time.process_time() + 0.25\n"
        "        while time.process_time() < end: pass\n"
        "        os._exit(0)\n"
        "    time.sleep(0.4)\n"
        "    try:\n"
        "        os.wait()\n"
        "    except ChildProcessError:\n"
        "        pass\n"
        "print('done', flush=True)\n"
        "time.sleep(30)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == "ready\n"
        start = tree_cpu_seconds(parent.pid) or 0.0
        assert parent.stdout.readline() == "done\n"
        used = (tree_cpu_seconds(parent.pid) or 0.0) - start
        assert used >= 0.9, f"the tree's clock counted {used:.2f} s of its children's 1 s"
    finally:
        parent.kill()
        parent.wait()
