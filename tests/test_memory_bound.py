"""A submission's memory is bounded as a whole, memory files and shared memory included
(docs/threat-model.md, "Memory").

Each attack hoards several GiB in one way (memory files, SysV shared memory, a tmpfs of its
own in a new user namespace, POSIX shared memory, files in /tmp and the working folder, many
processes each holding a little) from the
last step's cell of a full-marks notebook; they are graded one after the other by one process
(one zygote), then a full-marks notebook, with a 512 MiB bound on the sandbox. Meanwhile the
host's /proc/meminfo is sampled: its shared memory (``Shmem``) may not rise, nor its available
memory (``MemAvailable``) fall, by more than the bound (plus the grader's own processes).

Three ways a grader runs: as root (a cgroup under its own), as the ordinary grading user with
the cgroup root delegated to it (``tools/grader-user.sh``), and as that user without any
cgroup (``PLAISANTE_MEMORY_CGROUP=off``: the system-call filter and the tmpfs sizes alone;
there many processes are bounded only by processes x address space, so that attack is left out).
``make test`` grades the attacks the way it grades every class (the grading user, its cgroup);
the other ways are in ``make test-slow``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from grader_user import (
    OUTSIDE_TMP,
    as_root,
    prepare_course,
    run_as_grader,
    run_python_as_grader,
)
from hostile.corpus import FULL_MARKS, append

from plaisante.grading import Limits

ROOT = Path(__file__).resolve().parents[1]
MiB = 1024 * 1024
BOUND = 512 * MiB
# The grader's own processes (coordinator, nbgrader, the kernel conversation) are outside the
# sandbox and its bound; other work on the machine moves MemAvailable a little too.
GRADER_ROOM = 768 * MiB
LIMITS = Limits(cell_seconds=20, submission_seconds=120, cpu_seconds=60,
                memory_bytes=1024 * MiB, processes=64, output_bytes=256 * 1024,
                sandbox_memory_bytes=BOUND)
STEP = "step5_tableau"

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

MEMFD = """\
import os
held = []
for _ in range(64):                      # 64 x 64 MiB = 4 GiB, never mapped
    fd = os.memfd_create("hoard")
    os.posix_fallocate(fd, 0, 64 << 20)
    held.append(fd)
"""
SYSV_SHM = """\
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
for _ in range(48):                      # 48 x 64 MiB = 3 GiB, kept by the IPC namespace
    key = libc.shmget(0, 64 << 20, 0o1600)
    address = libc.shmat(key, None, 0)
    ctypes.memset(address, 1, 64 << 20)
    libc.shmdt(ctypes.c_void_p(address))
"""

OWN_TMPFS = """\
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.unshare(0x10000000 | 0x00020000)    # a user and a mount namespace of its own
os.makedirs("/tmp/big", exist_ok=True)
libc.mount(b"none", b"/tmp/big", b"tmpfs", 0, None)   # of no size: half the host's memory
for n in range(64):                      # 64 x 64 MiB = 4 GiB
    with open(f"/tmp/big/hoard{n}", "wb") as hoard:
        os.posix_fallocate(hoard.fileno(), 0, 64 << 20)
"""


def files_in(folder: str) -> str:
    return f"""\
import os
for n in range(64):                      # 64 x 64 MiB = 4 GiB of files in {folder}
    with open(os.path.join({folder!r}, f"hoard{{n}}"), "wb") as hoard:
        os.posix_fallocate(hoard.fileno(), 0, 64 << 20)
"""


MANY_PROCESSES = """\
import os, time
for _ in range(48):                      # 48 processes x 64 MiB = 3 GiB, each under its limits
    if os.fork() == 0:
        block = b"x" * (64 << 20)
        time.sleep(600)
        os._exit(0)
time.sleep(15)
"""
REFUSED = "kernel died in step5_tableau (a refused system call (SIGSYS"
FILES_FULL = "no space left in step5_tableau: the file space limit"
OVER_BOUND = ("kernel died in step5_tableau (memory bound: its processes held over 512 MiB "
              "together")
ATTACKS = {  # kind: (code, the reason it is flagged with)
    "memfd": (MEMFD, REFUSED),
    "sysv_shm": (SYSV_SHM, REFUSED),
    "own_tmpfs": (OWN_TMPFS, REFUSED),
    "posix_shm": (files_in("/dev/shm"), FILES_FULL),
    "tmp_files": (files_in("/tmp"), FILES_FULL),
    "work_files": (files_in("."), FILES_FULL),
    "many_processes": (MANY_PROCESSES, OVER_BOUND),
}
#: what a kernel killed in step 5's cell scores: step 5's parts are gone with it (the cell is
#: not replayed), the rest keeps its points; a cell that failed keeps its definitions
SCORE = {"memfd": 88.0, "sysv_shm": 88.0, "own_tmpfs": 88.0, "posix_shm": 100.0, "tmp_files": 100.0,
         "work_files": 100.0, "many_processes": 88.0}

GRADE_ALL = """\
import json, os, sys
from dataclasses import asdict
from pathlib import Path
cgroup, zygote = sys.argv[1].split("/")
if cgroup == "off":
    os.environ["PLAISANTE_MEMORY_CGROUP"] = "off"
from plaisante.grading import Limits, grade_submission, submission
from plaisante.grading.memory_cgroup import cgroup_base
submission.USE_ZYGOTE = zygote == "zygote"
limits = Limits(**json.loads(sys.argv[2]))
results = {"cgroup": str(cgroup_base()[0])}
for kind in sys.argv[3:]:
    results[kind] = asdict(grade_submission(Path.cwd(), kind, "plaisante", limits=limits))
print(json.dumps(results))
"""


def meminfo() -> dict[str, int]:
    """Return /proc/meminfo's figures in bytes."""
    figures = {}
    for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
        key, value = line.split(":", 1)
        figures[key] = int(value.split()[0]) * 1024
    return figures


class HostWatch(threading.Thread):
    """Samples /proc/meminfo every 50 ms until stopped: the lowest MemAvailable and the
    highest Shmem seen, next to what they were at the start."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        start = meminfo()
        self.available_before, self.shmem_before = start["MemAvailable"], start["Shmem"]
        self.lowest_available, self.highest_shmem = self.available_before, self.shmem_before
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            now = meminfo()
            self.lowest_available = min(self.lowest_available, now["MemAvailable"])
            self.highest_shmem = max(self.highest_shmem, now["Shmem"])

    def stop(self) -> tuple[int, int]:
        """Stop; return (the fall of MemAvailable, the rise of Shmem) in bytes."""
        self.done.set()
        self.join()
        return (self.available_before - self.lowest_available,
                self.highest_shmem - self.shmem_before)


@pytest.fixture(scope="module")
def course() -> Iterator[Path]:
    """A released course holding every attack and a full-marks ``after`` submission, all the
    grading user's."""
    root = Path(tempfile.mkdtemp(prefix="plaisante-memory-", dir=OUTSIDE_TMP))
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "assignments").mkdir()
    prepare_course(root)
    done = run_as_grader(["release"], cwd=root, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for kind, (code, _) in ATTACKS.items():
        folder = root / "assignments" / "submitted" / kind / "plaisante"
        folder.mkdir(parents=True)
        (folder / "plaisante.ipynb").write_bytes(append(STEP, code)(root))
    folder = root / "assignments" / "submitted" / "after" / "plaisante"
    folder.mkdir(parents=True)
    shutil.copy(FULL_MARKS, folder / "plaisante.ipynb")
    prepare_course(root)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def grade_all(root: Path, who: str, cgroup: str, kinds: list[str], zygote: bool = True
              ) -> tuple[dict, int, int]:
    """Grade ``kinds`` then ``after`` in one process, as root or as the grading user, with a
    cgroup or without (``cgroup`` "off"), each kernel forked by the zygote or in a sandbox of
    its own; return (results, MemAvailable fall, Shmem rise)."""
    mode = f"{cgroup}/{'zygote' if zygote else 'alone'}"
    args = [mode, json.dumps(asdict(LIMITS)), *kinds, "after"]
    prepare_course(root)  # what a root grading made is the grading user's again
    watch = HostWatch()
    watch.start()
    try:
        if who == "root":
            done = subprocess.run([sys.executable, "-c", GRADE_ALL, *args], cwd=root,
                                  capture_output=True, text=True, timeout=900, check=False,
                                  env=dict(os.environ, PATH=f"{Path(sys.executable).parent}:"
                                           f"{os.environ['PATH']}"))
        else:
            done = run_python_as_grader(GRADE_ALL, cwd=root, timeout=900, args=args)
    finally:
        fall, rise = watch.stop()
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1]), fall, rise


def check(results: dict, kinds: list[str], fall: int, rise: int) -> None:
    for kind in kinds:
        result = results[kind]
        reason = ATTACKS[kind][1]
        assert result["status"] == "flagged", (kind, result["reasons"])
        assert any(r.startswith(reason) for r in result["reasons"]), (kind, result["reasons"])
        assert result["total"] == SCORE[kind], (kind, result["total"], result["reasons"])
    assert (results["after"]["status"], results["after"]["total"]) == ("graded", 100.0), \
        results["after"]
    assert rise <= BOUND, f"the host's Shmem rose by {rise // MiB} MiB"
    assert fall <= BOUND + GRADER_ROOM, f"the host's MemAvailable fell by {fall // MiB} MiB"


@pytest.mark.slow
@pytest.mark.skipif(not as_root(), reason="the root grader's cgroup: the suite runs as a user")
def test_as_root_a_cgroup_bounds_the_whole_sandbox(course):
    kinds = list(ATTACKS)
    results, fall, rise = grade_all(course, "root", "auto", kinds)
    assert results["cgroup"].startswith("/sys/fs/cgroup/memory/"), results["cgroup"]
    check(results, kinds, fall, rise)


def test_as_the_grading_user_the_delegated_cgroup_bounds_the_whole_sandbox(course):
    kinds = list(ATTACKS)
    results, fall, rise = grade_all(course, "user", "auto", kinds)
    assert results["cgroup"] != "None", (
        "no memory cgroup for the grading user: as root, once, `make grader-user` "
        "(tools/grader-user.sh) delegates one")
    check(results, kinds, fall, rise)


@pytest.mark.slow
@pytest.mark.parametrize("cgroup", ["auto", "off"])
def test_a_kernel_in_a_sandbox_of_its_own_is_bounded_the_same(course, cgroup):
    """Without the zygote (it cannot start, e.g. the kit under /tmp), each kernel gets its own
    sandbox: with its own cgroup, or none (then /dev/shm is a small tmpfs of its own too)."""
    kinds = [kind for kind in ATTACKS if cgroup == "auto" or kind != "many_processes"]
    results, fall, rise = grade_all(course, "user", cgroup, kinds, zygote=False)
    assert (results["cgroup"] != "None") == (cgroup == "auto"), results["cgroup"]
    check(results, kinds, fall, rise)


@pytest.mark.slow
def test_without_a_cgroup_memory_files_shared_memory_and_tmpfs_are_still_bounded(course):
    kinds = [kind for kind in ATTACKS if kind != "many_processes"]
    results, fall, rise = grade_all(course, "user", "off", kinds)
    assert results["cgroup"] == "None"
    check(results, kinds, fall, rise)


HOARDS = {  # 2 GiB each, held by no process's address space
    "memfd": "import os\nfd = os.memfd_create('h')\nos.posix_fallocate(fd, 0, 2 << 30)\n",
    "sysv": SYSV_SHM.replace("range(48)", "range(32)"),
}
IN_A_CGROUP = """\
import json, subprocess, sys
from plaisante.grading.memory_cgroup import MemoryCgroup
group = MemoryCgroup.create(256 << 20)
# in an IPC namespace of its own, as in the sandbox: the SysV segments it made go with it, where
# the host's namespace would keep them (256 MiB a run) after the process and its cgroup
done = subprocess.run([*group.prefix(), "unshare", "--user", "--ipc", "--", sys.executable, "-c",
                       sys.argv[1]], check=False)
answer = {"code": done.returncode, "kills": group.oom_kills(), "peak": group.peak()}
group.remove()
answer["removed"] = not group.path.exists()
print(json.dumps(answer))
"""


def sysv_segments() -> set[str]:
    """The ids of the host's SysV shared memory segments (``ipcs -m``)."""
    listed = subprocess.run(["ipcs", "-m"], capture_output=True, text=True, check=True).stdout
    return {line.split()[1] for line in listed.splitlines() if line.startswith("0x")}


@pytest.mark.parametrize("who", ["root", "user"])
@pytest.mark.parametrize("hoard", ["memfd", "sysv"])
def test_the_cgroup_counts_memory_files_and_shared_memory_no_process_maps(course, hoard, who):
    """Without the system-call filter (a process started straight in the cgroup), 2 GiB of a
    memory file or of SysV shared memory ends at the cgroup's 256 MiB: the process is killed."""
    if who == "root" and not as_root():
        pytest.skip("the root grader's cgroup: the suite runs as a user")
    before = sysv_segments()
    watch = HostWatch()
    watch.start()
    try:
        if who == "root":
            done = subprocess.run([sys.executable, "-c", IN_A_CGROUP, HOARDS[hoard]],
                                  cwd=course, capture_output=True, text=True, timeout=120,
                                  check=False)
        else:
            done = run_python_as_grader(IN_A_CGROUP, cwd=course, timeout=120,
                                        args=[HOARDS[hoard]])
    finally:
        fall, rise = watch.stop()
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert (answer["code"], answer["kills"], answer["removed"]) == (-9, 1, True), answer
    assert answer["peak"] <= 256 * MiB, answer
    assert rise <= 256 * MiB + 64 * MiB, f"the host's Shmem rose by {rise // MiB} MiB"
    assert sysv_segments() <= before, "SysV segments outlived the hoard"



LEFT_BEHIND = """\
import json, os, subprocess, sys
from plaisante.grading.memory_cgroup import MemoryCgroup
first = subprocess.run([sys.executable, "-c", "from plaisante.grading.memory_cgroup import "
                        "MemoryCgroup; print(MemoryCgroup.create(1 << 28).path)"],
                       capture_output=True, text=True, check=True).stdout.strip()
left = os.path.exists(first)  # its process ended without removing it (as when killed)
group = MemoryCgroup.create(1 << 28)
answer = {"left": left, "swept": not os.path.exists(first)}
group.remove()
print(json.dumps(answer))
"""


def test_a_cgroup_a_dead_grader_left_is_removed_by_the_next_one():
    done = run_python_as_grader(LEFT_BEHIND, cwd=Path(OUTSIDE_TMP or "/"), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"left": True, "swept": True}
