"""How fast a class is graded: serial nbgrader, ``plaisante grade``, and the floor.

    python bench/grading.py [--submissions N] [--workers W] [--keep]
                            [--scaling [--scaling-n 50,200,1000] [--scaling-workers 1,2,4]
                             [--figure PNG]]

Builds a private copy of the course in a temporary folder (the real gradebook is never
touched), makes N realistic submissions from ``assignments/samples/plaisante`` (the classic
mistakes, untouched starters, full marks, a syntax error… cycled, each under its own student
id), then times, each from the same submissions and a fresh gradebook:

(a) ``nbgrader autograde plaisante``: plain nbgrader, one command for the whole class, serial;
(b) ``plaisante grade``: the kit's command, parallel on W workers (default: every core), with
    the sandbox on, from the command line (its start-up included);
(c) the floor: every submission's notebook, its test cells restored from the source as grading
    runs them, executed once in a fresh kernel with nbclient, on the same W worker processes;
    no nbgrader, no sandbox, no gradebook;
(d) with (b): ``plaisante grade --student`` of one student right after, from the command line,
    wall time: once by itself, then ``STUDENT_LOOP`` times (different students, as a "submit
    and see my grade" loop does) with ``plaisante grader`` running (the resident grader).

With ``--scaling``, first the scaling line: (b) alone for every N of ``--scaling-n`` (default
50, 200, 1000 submissions, the samples cycled) and every W of ``--scaling-workers`` (default 1,
2, 4), one ``scaling submissions=N workers=W plaisante_s=… cpu_per_submission_s=…`` line each,
and with ``--figure PNG`` a matplotlib figure of them: wall time against N for each W, each
line extended to 2,000 students (``docs/capacity.md``).

It also checks that (b) gives every submission the score (a) gives it. The last line is exactly
``submissions=N nbgrader_serial_s=… plaisante_s=… floor_s=… speedup=… floor_ratio=…
cpu_per_submission_s=… student_s=…`` with speedup = a/b, floor_ratio = b/c,
cpu_per_submission_s the CPU seconds (b) used, every process of it together (coordinator,
workers, sandboxes, kernels), divided by N, and student_s the slowest of (d)'s runs with the
resident grader. CPU is read from a cgroup made for the timed command when the bench can make one
(root, cgroup v1 ``cpuacct`` or v2), else from ``RUSAGE_CHILDREN`` (which misses processes
nobody waited for: then the figure is a lower bound, and the line says ``cpu_source=rusage``).
Not part of the test suite: run it on demand.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
KIT = HERE.parent
sys.path.insert(0, str(KIT))

ASSIGNMENT = "plaisante"  # the notebook the figures are measured on (docs/capacity.md)

SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def env() -> dict[str, str]:
    """Return the environment every timed command runs in: this venv first on PATH."""
    out = dict(os.environ)
    out["PATH"] = str(Path(sys.executable).parent) + os.pathsep + out.get("PATH", "")
    out.pop("PLAISANTE_COURSE", None)
    return out


def make_course(kit: Path, where: Path) -> Path:
    """Copy the course (config, source, release) into ``where`` and fill its gradebook with the
    assignment, as ``nbgrader generate_assignment`` does. Returns the new course root."""
    where.mkdir(parents=True, exist_ok=True)
    shutil.copy2(kit / "nbgrader_config.py", where / "nbgrader_config.py")
    shutil.copytree(kit / "solutions", where / "solutions")
    (where / "assignments").mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT,
                    "--force", "--log-level=ERROR"], cwd=where, env=env(), check=True)
    return where


def filled_starter(root: Path) -> nbformat.NotebookNode:
    """Return the starter notebook with every solution cell holding the reference solution."""
    source = nbformat.read(root / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    answers = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in source.cells
               if cell.metadata.get("nbgrader", {}).get("solution")}
    starter = nbformat.read(root / "starter" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    for cell in starter.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers and cell.metadata["nbgrader"].get("solution"):
            cell.source = "\n".join(line for line in answers[grade_id].splitlines()
                                    if line.strip() not in SOLUTION_MARKERS)
    return starter


def sample_notebooks(kit: Path, root: Path) -> list[tuple[str, bytes]]:
    """Return (name, bytes) of the sample submissions, in manifest order when there is one.

    Falls back to the starter filled with the reference solution (full marks) and the bare
    starter (nothing done) when the samples folder is empty."""
    samples = kit / "assignments" / "samples" / ASSIGNMENT
    manifest = samples / "manifest.json"
    names: list[str] = []
    if manifest.is_file():
        entries = json.loads(manifest.read_text(encoding="utf-8")).get("samples", {})
        names = [entry["notebook"] for entry in entries.values()]
    names = [n for n in names if (samples / n).is_file()] or \
        sorted(p.name for p in samples.glob("*.ipynb"))
    found = [(n, (samples / n).read_bytes()) for n in names]
    if found:
        return found
    full = nbformat.writes(filled_starter(root)).encode()
    bare = (root / "starter" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes()
    return [("full-marks", full), ("untouched", bare)]


def make_submissions(root: Path, samples: list[tuple[str, bytes]], count: int) -> dict[str, str]:
    """Write ``count`` submissions (the samples, cycled) under ids s0001…; return id → sample."""
    which = {}
    for i in range(count):
        student = f"s{i + 1:04d}"
        name, data = samples[i % len(samples)]
        target = root / "assignments" / "submitted" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        which[student] = name
    return which


def reset(root: Path, pristine_db: Path) -> None:
    """Forget every grading: no autograded folder, the gradebook as generate_assignment left it."""
    shutil.rmtree(root / "assignments" / "autograded", ignore_errors=True)
    shutil.rmtree(root / "assignments" / "feedback", ignore_errors=True)
    shutil.rmtree(root / "assignments" / "reports", ignore_errors=True)
    shutil.copy2(pristine_db, root / "assignments" / "gradebook.db")


def gradebook_totals(root: Path) -> dict[str, float]:
    """Return student id → total score for every autograded submission in the gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook("sqlite:///" + str(root / "assignments" / "gradebook.db")) as gradebook:
        return {s.student.id: float(s.score) for s in gradebook.assignment_submissions(ASSIGNMENT)}


class CpuMeter:
    """CPU seconds of one command and all its descendants: a fresh cgroup (cpuacct v1 or v2)
    when this process may make one, else ``RUSAGE_CHILDREN`` (a lower bound)."""

    ROOTS = (Path("/sys/fs/cgroup/cpuacct"), Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))

    def __init__(self, name: str) -> None:
        self.group: Path | None = None
        self.source = "rusage"
        for root in self.ROOTS:
            usage = "cpuacct.usage" if (root / "cpuacct.usage").is_file() else "cpu.stat"
            if not (root / usage).is_file() or not os.access(root, os.W_OK):
                continue
            group = root / f"plaisante-bench-{name}-{os.getpid()}"
            try:
                group.mkdir()
            except OSError:
                continue
            self.group, self.usage, self.source = group, usage, "cgroup"
            break
        self.before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def enter(self) -> None:
        """Move the calling process into the group (a subprocess's preexec_fn)."""
        if self.group is not None:
            (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        """Return the CPU seconds used so far; removes the group."""
        if self.group is not None:
            text = (self.group / self.usage).read_text()
            if self.usage == "cpuacct.usage":
                used = int(text) / 1e9
            else:
                used = int(dict(line.split() for line in text.splitlines())["usage_usec"]) / 1e6
            try:
                self.group.rmdir()
            except OSError:
                pass
            return used
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - self.before.ru_utime) + (after.ru_stime - self.before.ru_stime)


class MemorySampler:
    """Peak resident memory of a command's process tree, sampled every ``every`` seconds from
    /proc: ``grader`` (the coordinator and its grading workers) and ``all`` (with the
    sandboxes, zygotes and kernels), in bytes. Start it with the command's pid."""

    def __init__(self, every: float = 0.5) -> None:
        self.every, self.peak_grader, self.peak_all = every, 0, 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, pid: int) -> None:
        self._thread = threading.Thread(target=self._run, args=(pid,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self, root: int) -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        while not self._stop.is_set():
            parent: dict[int, int] = {}
            facts: dict[int, tuple[int, bool]] = {}
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                    rss = int(Path(f"/proc/{entry}/statm").read_text().split()[1]) * page
                    command = Path(f"/proc/{entry}/cmdline").read_bytes()
                except OSError:
                    continue
                parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
                sandboxed = b"bwrap" in command or b"plaisante.kernel.zygote" in command \
                    or b"ipykernel" in command
                facts[int(entry)] = (rss, sandboxed)
            grader = every = 0
            for pid, (rss, sandboxed) in facts.items():
                ancestor = pid
                while ancestor not in (root, 0, 1) and ancestor in parent:
                    ancestor = parent[ancestor]
                if ancestor == root:
                    every += rss
                    grader += 0 if sandboxed else rss
            self.peak_grader = max(self.peak_grader, grader)
            self.peak_all = max(self.peak_all, every)
            self._stop.wait(self.every)


def load() -> str:
    """Return '; load average 1 min …' (the machine may be shared: read the times with it)."""
    return f"; load average {os.getloadavg()[0]:.1f}"


def grading_seconds(root: Path) -> float:
    """Return the sum of every submission's grading time, from the reports ``record`` wrote."""
    reports = root / "assignments" / "reports" / ASSIGNMENT
    return sum(json.loads(p.read_text(encoding="utf-8")).get("seconds", 0.0)
               for p in reports.glob("*.json"))


def time_nbgrader_serial(root: Path) -> tuple[float, float]:
    """(a) Time one plain ``nbgrader autograde`` of the whole class; return (wall s, CPU s)."""
    meter = CpuMeter("nbgrader")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, "--force",
                    "--log-level=ERROR"], cwd=root, env=env(), check=True,
                   stdout=subprocess.DEVNULL, preexec_fn=meter.enter)
    return time.perf_counter() - start, meter.seconds()


def time_plaisante(root: Path, workers: int | None, scheduler: str | None = None
                   ) -> tuple[float, float, str]:
    """(b) Time ``plaisante grade`` of the whole class from the command line; return (wall s,
    CPU s of every process it made, where the CPU figure comes from)."""
    extra = ["--workers", str(workers)] if workers else []
    if scheduler:
        extra += ["--scheduler", scheduler]
    meter, memory = CpuMeter("plaisante"), MemorySampler()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "plaisante.cli", "--course", str(root),
                                "grade", ASSIGNMENT, *extra], cwd=root, env=env(),
                               stdout=subprocess.DEVNULL, preexec_fn=meter.enter)
    memory.start(process.pid)
    code = process.wait()
    seconds = time.perf_counter() - start
    memory.stop()
    if code != 0:
        raise subprocess.CalledProcessError(code, process.args)
    PEAKS["plaisante"] = (memory.peak_grader, memory.peak_all)
    return seconds, meter.seconds(), meter.source


PEAKS: dict[str, tuple[int, int]] = {}  # part → peak RSS (grader processes, all), bytes


def time_one_student(root: Path, student: str) -> tuple[float, float | None]:
    """(d) Time ``plaisante grade --student`` of one student, from the command line, as a
    "submit and see my grade" loop runs it; return (wall s, the total recorded)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "plaisante.cli", "--course", str(root), "grade",
                    ASSIGNMENT, "--student", student], cwd=root, env=env(), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return seconds, gradebook_totals(root).get(student)


#: (d): ``grade --student`` runs timed with the resident grader running.
STUDENT_LOOP = 5


def time_student_loop(root: Path, students: list[str]) -> list[tuple[float, float | None]]:
    """(d) Start ``plaisante grader`` on the course, wait until it serves, then time
    ``plaisante grade --student`` of each of ``students`` in turn; stop it. Return (wall s,
    the total recorded) per student. Raises RuntimeError if the grader never serves."""
    grader = subprocess.Popen([sys.executable, "-m", "plaisante.cli", "--course", str(root),
                               "grader"], cwd=root, env=env(), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert grader.stdout is not None
        said = ""
        while "serving" not in said:
            line = grader.stdout.readline()
            if not line:
                raise RuntimeError(f"plaisante grader stopped before serving: {said}")
            said += line
        if "not warmed" in said:
            print(f"    {said.strip()}", flush=True)
        return [time_one_student(root, student) for student in students]
    finally:
        grader.terminate()
        grader.wait(60)


def graded_copy(root: Path, student: str, tests: dict[str, str]) -> Path:
    """Write ``student``'s notebook with its test cells as the source has them (hidden tests
    included), the code grading runs, into ``floor/<student>/``; return its path."""
    nb = nbformat.read(root / "assignments" / "submitted" / student / ASSIGNMENT /
                       f"{ASSIGNMENT}.ipynb", as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in tests:
            cell.source = tests[grade_id]
    target = root / "floor" / student / f"{ASSIGNMENT}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    return target


def _execute_once(path: str) -> int:
    """Execute one notebook in a fresh kernel; return how many cells raised."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=30, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(Path(path).parent)}})
    client.execute()
    return sum(1 for cell in nb.cells if cell.cell_type == "code" and
               any(out.get("output_type") == "error" for out in cell.get("outputs", [])))


def time_floor(root: Path, students: list[str], workers: int) -> float:
    """(c) Time executing every graded notebook once in a fresh kernel, on ``workers``
    processes (the notebooks are written before the clock starts)."""
    source = nbformat.read(root / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    tests = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in source.cells
             if cell.metadata.get("nbgrader", {}).get("grade")}
    paths = [str(graded_copy(root, s, tests)) for s in students]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_execute_once, paths, chunksize=1))
    return time.perf_counter() - start


def scaling(root: Path, samples: list[tuple[str, bytes]], counts: list[int],
            workers: list[int]) -> list[tuple[int, int, float, float]]:
    """(b) alone for each N of ``counts`` and W of ``workers``, each from a fresh gradebook;
    print a line each; return (N, W, wall s, CPU s a submission) of each."""
    pristine = root.parent / "pristine-scaling.db"
    shutil.copy2(root / "assignments" / "gradebook.db", pristine)
    points = []
    for count in counts:
        shutil.rmtree(root / "assignments" / "submitted", ignore_errors=True)
        make_submissions(root, samples, count)
        for w in workers:
            reset(root, pristine)
            wall, cpu, source = time_plaisante(root, w)
            points.append((count, w, wall, cpu / count))
            print(f"scaling submissions={count} workers={w} plaisante_s={wall:.1f} "
                  f"cpu_per_submission_s={cpu / count:.3f}"
                  + ("" if source == "cgroup" else f" cpu_source={source}") + load(), flush=True)
    reset(root, pristine)
    shutil.rmtree(root / "assignments" / "submitted", ignore_errors=True)
    return points


def scaling_figure(points: list[tuple[int, int, float, float]], path: Path,
                   course: int = 2000) -> None:
    """Draw wall time against submissions for each worker count, each line fitted (least
    squares, start-up + N x time a submission) and extended to ``course`` students."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    for w in sorted({p[1] for p in points}):
        mine = sorted((n, wall) for n, ww, wall, _ in points if ww == w)
        ns, walls = [n for n, _ in mine], [wall for _, wall in mine]
        line = ax.plot(ns, walls, "o-", label=f"{w} worker{'s' * (w > 1)}")[0]
        if len(ns) > 1:
            mean_n, mean_w = sum(ns) / len(ns), sum(walls) / len(walls)
            slope = (sum((n - mean_n) * (t - mean_w) for n, t in mine)
                     / sum((n - mean_n) ** 2 for n in ns))
            start = mean_w - slope * mean_n
            at_course = start + slope * course
            ax.plot([ns[-1], course], [start + slope * ns[-1], at_course], "--",
                    color=line.get_color())
            ax.annotate(f"{at_course / 60:.0f} min", (course, at_course),
                        textcoords="offset points", xytext=(4, 0), fontsize=8)
    ax.set_xlabel("submissions graded (the samples, cycled)")
    ax.set_ylabel("plaisante grade, wall seconds")
    ax.set_title("Grading time against class size (dashed: extended to 2,000)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--submissions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes for (b) and (c) (default: every core)")
    parser.add_argument("--scheduler", default=None,
                        help="give (b) this --scheduler (e.g. 'local': a Dask LocalCluster)")
    parser.add_argument("--only", choices=["nbgrader", "plaisante", "floor"], action="append",
                        help="time only these (repeatable); the last line needs all three")
    parser.add_argument("--keep", action="store_true", help="keep the temporary course")
    parser.add_argument("--scaling", action="store_true",
                        help="first the scaling line: (b) for each N and W below")
    parser.add_argument("--scaling-n", default="50,200,1000", help="submissions (comma list)")
    parser.add_argument("--scaling-workers", default="1,2,4", help="workers (comma list)")
    parser.add_argument("--figure", type=Path, default=None,
                        help="with --scaling: draw it into this PNG")
    args = parser.parse_args(argv)
    parts = args.only or ["nbgrader", "plaisante", "floor"]

    where = Path(tempfile.mkdtemp(prefix="plaisante-bench-"))
    try:
        root = make_course(KIT, where / "course")
        pristine = where / "pristine.db"
        shutil.copy2(root / "assignments" / "gradebook.db", pristine)
        samples = sample_notebooks(KIT, root)
        if args.scaling:
            points = scaling(root, samples, [int(n) for n in args.scaling_n.split(",")],
                             [int(w) for w in args.scaling_workers.split(",")])
            if args.figure is not None:
                scaling_figure(points, args.figure)
                print(f"scaling figure: {args.figure}", flush=True)
        which = make_submissions(root, samples, args.submissions)
        students = sorted(which)
        print(f"course {root}: {len(students)} submissions from {len(samples)} samples "
              f"({', '.join(n for n, _ in samples)}); {args.workers} workers", flush=True)
        times: dict[str, float] = {}
        totals: dict[str, dict[str, float]] = {}
        if "nbgrader" in parts:
            reset(root, pristine)
            times["nbgrader"], cpu_a = time_nbgrader_serial(root)
            totals["nbgrader"] = gradebook_totals(root)
            print(f"(a) nbgrader autograde, serial: {times['nbgrader']:.1f} s "
                  f"({times['nbgrader'] / len(students):.3f} s each; CPU "
                  f"{cpu_a / len(students):.3f} s each){load()}", flush=True)
        if "plaisante" in parts:
            reset(root, pristine)
            times["plaisante"], cpu_b, cpu_source = time_plaisante(root, args.workers,
                                                                   args.scheduler)
            totals["plaisante"] = gradebook_totals(root)
            busy = grading_seconds(root)
            spread = f"Dask {args.scheduler}" if args.scheduler else "its own pool"
            print(f"(b) plaisante grade, {args.workers} workers ({spread}), sandbox on: "
                  f"{times['plaisante']:.1f} s ({times['plaisante'] / len(students):.3f} s each;"
                  f" CPU {cpu_b / len(students):.3f} s each ({cpu_source});"
                  f" a submission took {busy / max(1, len(students)):.2f} s in its worker, so "
                  f"{times['plaisante'] - busy / args.workers:.1f} s went to start-up, the "
                  f"last record and waiting){load()}", flush=True)
            grader_peak, all_peak = PEAKS["plaisante"]
            print(f"    peak resident memory: grader {grader_peak / 2**20:.0f} MiB, with the "
                  f"sandboxes and kernels {all_peak / 2**20:.0f} MiB", flush=True)
        if "plaisante" in parts and students:
            seconds, graded = time_one_student(root, students[0])
            print(f"(d) plaisante grade {ASSIGNMENT} --student {students[0]} (a regrade, "
                  f"recorded), by itself: {seconds:.2f} s wall; total {graded}{load()}",
                  flush=True)
            loop = students[1:1 + STUDENT_LOOP]
            runs = time_student_loop(root, loop)
            same = sum(totals["plaisante"].get(s) == graded for s, (_, graded) in zip(loop, runs))
            walls = sorted(seconds for seconds, _ in runs)
            times["student"] = walls[-1]
            print(f"    with `plaisante grader` running, {len(runs)} students in turn: "
                  f"{', '.join(f'{w:.2f}' for w, _ in runs)} s wall (median "
                  f"{walls[len(walls) // 2]:.2f}, slowest {walls[-1]:.2f}); totals as in (b): "
                  f"{same}/{len(runs)}{load()}", flush=True)
        if "floor" in parts:
            reset(root, pristine)
            times["floor"] = time_floor(root, students, args.workers)
            print(f"(c) floor, nbclient, {args.workers} workers: {times['floor']:.1f} s "
                  f"({times['floor'] / len(students):.3f} s each){load()}", flush=True)
        if "nbgrader" in totals and "plaisante" in totals:
            differ = sorted(s for s in students
                            if totals["nbgrader"].get(s) != totals["plaisante"].get(s))
            print(f"scores: plaisante grade and nbgrader agree on "
                  f"{len(students) - len(differ)}/{len(students)}"
                  + (f"; differ: {', '.join(differ[:10])}" if differ else ""), flush=True)
        if {"nbgrader", "plaisante", "floor"} <= set(times):
            a, b, c = times["nbgrader"], times["plaisante"], times["floor"]
            print(f"submissions={len(students)} nbgrader_serial_s={a:.1f} plaisante_s={b:.1f} "
                  f"floor_s={c:.1f} speedup={a / b:.2f} floor_ratio={b / c:.2f} "
                  f"cpu_per_submission_s={cpu_b / len(students):.3f}"
                  + (f" student_s={times['student']:.2f}" if "student" in times else "")
                  + ("" if cpu_source == "cgroup" else f" cpu_source={cpu_source}"))
    finally:
        if args.keep:
            print(f"kept {where}", file=sys.stderr)
        else:
            shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
