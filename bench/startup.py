"""CPU seconds a process spends before it does anything: the imports every command, grading
worker and nbgrader run pays (``python bench/startup.py``; median of 5 runs, user + system).

Prints one line per probe: a bare interpreter, the command table (``plaisante --help``),
nbformat's validator, nbgrader's gradebook API, and ``nbgrader --help``.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys

PROBES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "plaisante --help": [sys.executable, "-m", "plaisante.cli", "--help"],
    "import nbformat.validator": [sys.executable, "-c", "import nbformat.validator"],
    "import plaisante, nbgrader.api": [sys.executable, "-c", "import plaisante, nbgrader.api"],
    "nbgrader --help": [sys.executable, "-m", "nbgrader", "--help"],
}


def cpu_of(command: list[str]) -> float:
    """CPU seconds (user + system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    for name, command in PROBES.items():
        runs = [cpu_of(command) for _ in range(5)]
        print(f"{name:34s} {statistics.median(runs):6.2f} s CPU (median of 5)")


if __name__ == "__main__":
    main()
