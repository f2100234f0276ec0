"""A grading worker's address space is bounded (``worker.bound_memory``, 1 GiB): what it
holds of a notebook must fit there, whatever its threads did before. glibc reserves 64 MiB of
address space for each thread that allocates, up to sixteen arenas on two cores; the bound
counts them, so a notebook of 38 MB once failed with MemoryError in a busy worker. The worker
keeps two."""

from __future__ import annotations

import subprocess
import sys

THREADS_THEN_NOTEBOOK = """
import threading, time
from plaisante.grading.worker import WORKER_MEMORY_BYTES, bound_memory

def reserved() -> int:
    with open("/proc/self/status") as status:
        return int(status.read().split("VmSize:")[1].split()[0]) * 1024

bound_memory(WORKER_MEMORY_BYTES)
before = reserved()

def allocate() -> None:  # as a kernel's watcher thread does, a little at a time
    for _ in range(40):
        chunk = bytearray(200_000)
        del chunk
        time.sleep(0.002)

threads = [threading.Thread(target=allocate) for _ in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
grown = reserved() - before
notebook = bytearray(300 * 1024 * 1024)  # what reading a big notebook takes at once
print(grown)
"""


def test_threads_leave_room_in_the_workers_address_space_for_a_big_notebook() -> None:
    done = subprocess.run([sys.executable, "-c", THREADS_THEN_NOTEBOOK], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) < 256 * 1024 * 1024, f"{int(done.stdout) >> 20} MiB reserved"
