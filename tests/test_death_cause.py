"""Why a kernel died, in the instructor's reason, names a limit only when the kernel hit it
(``plaisante.kernel.zygote._kernel_exit_code``, ``JudgedExecute._death_cause``).

A kernel chooses how it ends: ``os._exit(152)`` (read as 128, earlier), a SIGXCPU it sends
itself, or a CPU time limit it lowers itself and then spends. Read from the signal alone, the
last two passed for the kit's CPU time limit ("CPU time limit (SIGXCPU)"), a reason a student
could hold up as the kit's fault. The kernel's init counts the CPU time the kernel used (as
``wait`` reports it) against the limit the kit gave it. SIGXFSZ and SIGSYS cannot be told
from a signal of the kernel's own: their reason says so."""

from __future__ import annotations

import json
import shutil
import signal
import tempfile
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course
from grader_user import prepare_course, run_python_as_grader
from hostile.corpus import base, cell

from plaisante.course import CourseLayout
from plaisante.kernel.zygote import SIGXCPU_UNDER_LIMIT, _kernel_exit_code

SIGXCPU_STATUS = signal.SIGXCPU  # a wait status: ended by that signal, no core


def test_sigxcpu_reads_as_the_cpu_limit_only_when_the_kernel_spent_it():
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=0.2, cpu_limit=300) == SIGXCPU_UNDER_LIMIT
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=1.01, cpu_limit=300) == \
        SIGXCPU_UNDER_LIMIT
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=200.0, cpu_limit=300) == \
        SIGXCPU_UNDER_LIMIT
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=300.01, cpu_limit=300) == 128 + 24
    # Linux's own clock of the limit runs ahead of wait's count (0.94 s at a 1 s limit seen)
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=0.94, cpu_limit=1) == 128 + 24
    assert _kernel_exit_code(SIGXCPU_STATUS, cpu_used=285.0, cpu_limit=300) == 128 + 24
    assert _kernel_exit_code(signal.SIGKILL, cpu_used=0.0, cpu_limit=300) == 128 + 9
    assert _kernel_exit_code(152 << 8, cpu_used=0.0, cpu_limit=300) == 128  # os._exit(152)
    assert _kernel_exit_code(3 << 8, cpu_used=0.0, cpu_limit=300) == 3


SELF_SIGNAL = "import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)"
LOWERED_LIMIT = ("import resource\n"
                 "resource.setrlimit(resource.RLIMIT_CPU, "
                 "(1, resource.getrlimit(resource.RLIMIT_CPU)[1]))\n"
                 "while True:\n    pass")
SPENT_LIMIT = "while True:\n    pass"
SELF_XFSZ = ("import os, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
             "os.kill(os.getpid(), signal.SIGXFSZ)")
SELF_SYS = "import os, signal\nos.kill(os.getpid(), signal.SIGSYS)"
#: each submission graded with a 3 s CPU time limit (the cell's wall time well above it)
GRADE = """import json, sys
from dataclasses import asdict
from pathlib import Path
from plaisante.grading import Limits, grade_submission
result = grade_submission(Path(sys.argv[1]), sys.argv[2], "plaisante",
                          limits=Limits(cell_seconds=40, cpu_seconds=3))
print(json.dumps(asdict(result)))
"""
FAKED = ("kernel died in step3_has_checks (SIGXCPU before the kit's CPU time limit: not the "
         "limit, a signal or a lower limit of its own; kernel restarted)")


@pytest.mark.slow  # five graders in turn, one spending 3 s of CPU (test_hostile.py's
# ``self_sigxcpu`` kind runs the first case in the main suite)
def test_a_kernel_that_fakes_the_cpu_limit_is_not_reported_as_hitting_it():
    """Three kernels end on SIGXCPU in step 3's cell: one sent it itself, one lowered its
    limit to 1 s and spent that, one spent the kit's 3 s. Only the last reads as the limit.
    Two send themselves SIGXFSZ (Python ignores it: the kernel sets it back first) and
    SIGSYS, which nothing tells from the kit's limit and system-call filter: the reason says
    it may be the kernel's own. The points are the same for all (the has-checks die with the
    kernel)."""
    folder = Path(tempfile.mkdtemp(prefix="plaisante-death-", dir="/var/tmp"))
    folder.chmod(0o755)
    try:
        reasons = _graded_reasons(folder / "course")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert reasons == {
        "signalled": [FAKED], "lowered": [FAKED],
        "spent": ["kernel died in step3_has_checks (CPU time limit (SIGXCPU); kernel "
                  "restarted)"],
        "sigxfsz": ["kernel died in step3_has_checks (SIGXFSZ: its code stopped ignoring that "
                    "signal, then went over the file size limit or sent it itself; kernel "
                    "restarted)"],
        "sigsys": ["kernel died in step3_has_checks (a refused system call (SIGSYS: memory "
                   "files, SysV IPC or a new user namespace), or a SIGSYS it sent itself; "
                   "kernel restarted)"]}


def _graded_reasons(root: Path) -> dict[str, list[str]]:
    new_course(root)
    cli("release", "plaisante", cwd=root, course=root)
    codes = {"signalled": SELF_SIGNAL, "lowered": LOWERED_LIMIT, "spent": SPENT_LIMIT,
             "sigxfsz": SELF_XFSZ, "sigsys": SELF_SYS}
    for student, code in codes.items():
        nb = base()
        cell(nb, "step3_has_checks").source += "\n" + code
        submitted = CourseLayout(root).submitted(student, "plaisante").parent
        submitted.mkdir(parents=True)
        nbformat.write(nb, submitted / "plaisante.ipynb")
    prepare_course(root)
    reasons = {}
    for student in codes:
        done = run_python_as_grader(GRADE, cwd=root, timeout=600, args=[str(root), student])
        assert done.returncode == 0, done.stderr[-2000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["cell_scores"]["step3_has_pair"] == 0.0, student
        assert result["cell_scores"]["step4_evaluate"] == 8.0, student
        reasons[student] = result["reasons"]
    return reasons
