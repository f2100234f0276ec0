"""Where one submission's grading CPU goes: the worker and its kernel side.

    python bench/profile_grading.py [--rounds R] [--cprofile | --py-spy PATH] [--out FOLDER]

Builds a private course as ``bench/grading.py`` does, with the samples of
``assignments/samples/plaisante`` each handed in 1 + R times (default R = 3) under its own
student id, then grades them one after another in this process, as a grading worker does
(``grade_submission``, sandbox on): the first submission of each sample is not counted (it pays
the zygote's start and every first-use cost a worker pays once), the others are.

Prints, per counted submission: the worker's CPU (this process, ``time.process_time``) and the
kernel side's (every process this one started: bubblewrap, the zygote and the kernels it
forks, read from a cpuacct cgroup this process moves itself into, so root only). Then, with
``--cprofile``, the worker's profile (CPU clock; the top functions by own and by cumulative
time; it inflates code made of many small calls several times over), or with ``--py-spy
PATH`` (a py-spy binary) samples of this process and those it starts (``py-spy record
--subprocesses``): the top frames by own samples and by samples holding them. ``--out`` keeps
``worker.prof`` and ``sampled.txt``. Not part of the test suite: run it on demand
(``docs/capacity.md``, "Where one submission's CPU goes").
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from grading import (  # noqa: E402
    ASSIGNMENT,
    KIT,
    CpuMeter,
    load,
    make_course,
    make_submissions,
    sample_notebooks,  # noqa: E402
)


def cgroup_seconds(meter: CpuMeter) -> float | None:
    """CPU seconds used so far in ``meter``'s cgroup, or None without one."""
    if meter.group is None:
        return None
    text = (meter.group / meter.usage).read_text()
    if meter.usage == "cpuacct.usage":
        return int(text) / 1e9
    return int(dict(line.split() for line in text.splitlines())["usage_usec"]) / 1e6


def top_of_raw(path: Path, count: int) -> tuple[int, list[tuple[str, int]], list[tuple[str, int]]]:
    """From py-spy's raw (collapsed) stacks: (samples, top frames by own samples, top frames
    by samples that have them anywhere on the stack)."""
    own: collections.Counter[str] = collections.Counter()
    anywhere: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, samples = line.rpartition(" ")
        if not samples.isdigit():
            continue
        n = int(samples)
        frames = [f for f in stack.split(";") if not f.startswith("process ")]
        if not frames:
            continue
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            anywhere[frame] += n
    return total, own.most_common(count), anywhere.most_common(count)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="each sample handed in R times")
    parser.add_argument("--cprofile", action="store_true",
                        help="profile the worker with cProfile (it inflates many-call code)")
    parser.add_argument("--py-spy", default=None,
                        help="a py-spy binary: sample this process and every one it starts")
    parser.add_argument("--out", type=Path, default=None, help="keep the profiles here")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)

    from plaisante.grading import grade_submission

    where = Path(tempfile.mkdtemp(prefix="plaisante-profile-"))
    out = args.out or where
    out.mkdir(parents=True, exist_ok=True)
    meter = CpuMeter("profile")
    meter.enter()  # this process, and so every process it starts from now on
    spy = None
    try:
        root = make_course(KIT, where / "course")
        samples = sample_notebooks(KIT, root)
        which = make_submissions(root, samples, len(samples) * (1 + args.rounds))
        students = sorted(which)
        warm, counted = students[:len(samples)], students[len(samples):]
        for student in warm:
            grade_submission(root, student, ASSIGNMENT)
        if args.py_spy:
            spy = subprocess.Popen([args.py_spy, "record", "--pid", str(os.getpid()),
                                    "--subprocesses", "--rate", "250", "--format", "raw",
                                    "--nonblocking", "--output", str(out / "sampled.txt")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)  # py-spy attached before the first counted submission
        profile = cProfile.Profile(time.process_time) if args.cprofile else None
        cpu0, all0, wall0 = time.process_time(), cgroup_seconds(meter), time.perf_counter()
        if profile is not None:
            profile.enable()
        for student in counted:
            grade_submission(root, student, ASSIGNMENT)
        if profile is not None:
            profile.disable()
        cpu1, all1, wall1 = time.process_time(), cgroup_seconds(meter), time.perf_counter()
        n = len(counted)
        worker = (cpu1 - cpu0) / n
        line = (f"{n} submissions ({len(samples)} samples x {args.rounds}): wall "
                f"{(wall1 - wall0) / n:.3f} s each; CPU worker {worker:.3f} s each")
        if all0 is not None and all1 is not None:
            every = (all1 - all0) / n
            measured = "cgroup; the profiler's own CPU included" if profile or spy else "cgroup"
            line += (f", kernel side {every - worker:.3f} s each, all {every:.3f} s each "
                     f"({measured})")
        print(line + load(), flush=True)
        if profile is not None:
            profile.dump_stats(str(out / "worker.prof"))
            stats = pstats.Stats(profile, stream=sys.stdout).strip_dirs()
            print("\nworker, by cumulative CPU (cProfile):")
            stats.sort_stats("cumulative").print_stats(args.top)
            print("worker, by own CPU (cProfile):")
            stats.sort_stats("tottime").print_stats(args.top)
        if spy is not None:
            spy.send_signal(signal.SIGINT)  # py-spy writes its samples when interrupted
            spy.wait(120)
            spy = None
            total, own, anywhere = top_of_raw(out / "sampled.txt", args.top)
            print(f"{total} samples on CPU (py-spy, 250 a second, this process and those it "
                  "started):")
            print("  by own samples:")
            for frame, samples in own:
                print(f"    {100 * samples / max(1, total):5.1f}%  {frame}")
            print("  by samples with the frame on the stack:")
            for frame, samples in anywhere:
                print(f"    {100 * samples / max(1, total):5.1f}%  {frame}")
    finally:
        if spy is not None:
            spy.kill()
        from plaisante.grading.zygote import close_zygote

        close_zygote()
        if args.out is None:
            shutil.rmtree(where, ignore_errors=True)
        else:
            shutil.rmtree(where / "course", ignore_errors=True)
        if meter.group is not None:  # back to the root group, then the group can go
            (meter.group.parent / "cgroup.procs").write_text(str(os.getpid()))
            meter.seconds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
