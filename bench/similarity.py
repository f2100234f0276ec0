"""How long ``plaisante similarity`` takes for a class of N generated submissions.

    python bench/similarity.py [--submissions 200 2000] [--keep]

Builds a private course in a temporary folder and N submissions of plaisante generated from
the planted class of ``tests/similarity_support.py``: each student takes, step by step, one of
the three solutions (two honest hands and the reference), renames its names at random, reorders
its functions, and writes a statement of their own after nine lines in ten (a name and a number
of their own; dead code after a ``return``), so that students are about as unlike as a real
class; one in fifty is a copy of
another student (renamed and reordered again). Then it times, in this process, each phase of
``plaisante.similarity.compare.similarity`` and the page: reading the class (notebooks, the starter
diff), fingerprinting (copydetect), scoring every pair (``Fingerprints.matrix``), comparing
the pairs at or above the threshold step by step, and writing the page and the table.

The line per class is exactly ``submissions=N pairs=… listed=… copies_found=F/C read_s=…
fingerprint_s=… score_s=… detail_s=… page_s=… total_s=… cpu_s=…``: the wall-clock seconds of
each phase, and the CPU seconds of them all (on a shared machine the wall clock also waits
for other work; the CPU time does not).
Not part of the test suite: run it on demand.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests"))

import similarity_support as planted  # noqa: E402
from course_cli import new_course  # noqa: E402

from plaisante.intake import submitted  # noqa: E402

WORDS = ("alpha", "beta", "gamma", "delta", "omega", "tmp", "val", "item", "thing", "part",
         "acc", "cur", "res", "out", "box", "pile", "card_x", "hand_y", "row", "col")


def student_cells(rng: random.Random, bases: list[dict[str, str]]) -> dict[str, str]:
    """One generated student's answer cells (see the module doc)."""
    cells: dict[str, str] = {}
    for gid in bases[0]:
        base = rng.choice([b for b in bases if gid in b])
        cells[gid] = base[gid]
    names = {name: f"{rng.choice(WORDS)}{rng.randrange(1000)}"
             for name in ("result", "counts", "values", "total", "n", "c", "v", "card", "got",
                          "pairs", "distinct", "vals", "first", "moving", "check", "name")}
    cells = planted.reorder(planted.rename(cells, names), seed=rng.randrange(1, 10**6))
    out = {}
    for gid, text in cells.items():
        lines = []
        for line in text.split("\n"):
            lines.append(line)
            code = line.strip()
            if code and not code.startswith(("#", '"', "'", "def ", "class ", "@", ")", "]",
                                              "}")) \
                    and not code.endswith(("(", "[", "{", ",", "\\")) and '"""' not in line \
                    and rng.random() < 0.9:
                indent = line[:len(line) - len(line.lstrip())]
                if code.endswith(":"):
                    indent += "    "
                lines.append(f"{indent}{rng.choice(WORDS)}_{rng.randrange(10**6)} = "
                             f"{rng.randrange(10**9)}")
        out[gid] = "\n".join(lines)
    return out


def copy_of(rng: random.Random, cells: dict[str, str]) -> dict[str, str]:
    """A copy of a student's cells: its names renamed again, its functions reordered."""
    found = set(re.findall(r"\b[a-z]+_?\d+\b", "\n".join(cells.values())))
    return planted.reorder(planted.rename(cells, {n: f"z{i}" for i, n in enumerate(found)}
                                          if found else {"x": "x"}), seed=rng.randrange(1, 99))


def build(root: Path, count: int, seed: int = 31) -> set[frozenset[str]]:
    """Submit ``count`` generated students into the course at ``root``; return the planted
    copies (pairs of student ids)."""
    rng = random.Random(seed)
    bases = [planted.cells_of(planted.HONEST_A), planted.cells_of(planted.HONEST_B),
             planted.leaked_reference()]
    made = root / "generated"
    written: dict[str, dict[str, str]] = {}
    copies = set()
    for i in range(count):
        student = f"s{i:04d}"
        if i and i % 50 == 0:
            original = f"s{rng.randrange(i):04d}"
            cells = copy_of(rng, written[original])
            copies.add(frozenset((student, original)))
        else:
            cells = student_cells(rng, bases)
        written[student] = cells
        path = planted.write(made / f"{student}.ipynb", cells)
        submitted.submit(path, student, root, assignment="plaisante")
        path.unlink()
    return copies


def run(count: int, keep: bool) -> str:
    from plaisante.similarity import compare as sim
    from plaisante.similarity.page import table, write

    folder = Path(tempfile.mkdtemp(prefix=f"plaisante-similarity-{count}-"))
    try:
        root = new_course(folder / "course", ("solutions", "starter"))
        copies = build(root, count)
        import copydetect  # noqa: F401  imported once, outside the timings (it loads matplotlib)

        cpu, start = time.process_time(), time.perf_counter()
        works, skipped, release = sim.read_class(root, "plaisante")
        read = time.perf_counter()
        prints = sim.Fingerprints(works, release, sim.DEFAULT_MIN_MATCH)
        fingerprinted = time.perf_counter()
        shares = prints.matrix(works)
        scored = time.perf_counter()
        pairs = []
        for i in range(len(works)):
            for j in range(i + 1, len(works)):
                if max(shares[i, j], shares[j, i]) >= sim.DEFAULT_THRESHOLD - 1e-9:
                    pairs.append(prints.compare(works[i], works[j]))
        pairs.sort(key=lambda p: (-p.likeness, p.a.student, p.b.student))
        detailed = time.perf_counter()
        result = sim.Result("plaisante", sim.DEFAULT_THRESHOLD, sim.DEFAULT_MIN_MATCH, pairs,
                            works, skipped, len(works) * (len(works) - 1) // 2)
        write(root, result, "Plaisante")
        table(result)
        done = time.perf_counter()
        cpu = time.process_time() - cpu
        found = {frozenset((p.a.student, p.b.student)) for p in pairs}
        if keep:
            print(f"kept {folder}")
        return (f"submissions={count} pairs={result.pair_count} listed={len(pairs)} "
                f"copies_found={len(copies & found)}/{len(copies)} "
                f"read_s={read - start:.1f} fingerprint_s={fingerprinted - read:.1f} "
                f"score_s={scored - fingerprinted:.1f} detail_s={detailed - scored:.1f} "
                f"page_s={done - detailed:.1f} total_s={done - start:.1f} cpu_s={cpu:.1f}")
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--keep", action="store_true", help="keep the generated course")
    args = parser.parse_args()
    for count in args.submissions:
        print(run(count, args.keep), flush=True)


if __name__ == "__main__":
    main()
