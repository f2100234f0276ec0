"""Each grading sandbox is a CPU cgroup of its own (``plaisante.grading.cpu_cgroup``).

The scheduler shares the cores between groups first: in a cgroup of its own a sandbox holds
one share whatever it starts (what it is for: ``test_hostile.py``'s
``test_a_submission_that_starts_a_crowd_does_not_starve_its_neighbour``). Here: a worker's
sandbox really runs in its cgroup, as root and as the grading user (whose cgroup root
delegates once: ``tools/grader-user.sh``), the cgroup goes with the sandbox, one a killed
grader left behind is removed by the next grader, and a setting naming a folder it cannot use
stops grading with a line saying so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from grader_user import OUTSIDE_TMP, as_root, run_python_as_grader

pytestmark = [pytest.mark.sandbox]

ROOT = Path(__file__).resolve().parents[1]

#: Start a worker's sandbox (the zygote), say which processes its CPU cgroup holds, close it.
IN_ITS_CGROUP = """\
import json, os
from plaisante.grading import Limits
from plaisante.grading.zygote import Zygote
zygote = Zygote(Limits(), ())
group = zygote.cpu_cgroup
held = [int(pid) for pid in (group.path / "cgroup.procs").read_text().split()] if group else []
answer = {"group": str(group.path) if group else None,
          "holds_the_sandbox": zygote.process.pid in held, "processes": len(held)}
zygote.close()
answer["removed"] = group is not None and not group.path.exists()
print(json.dumps(answer))
"""

LEFT_BEHIND = """\
import json, os, subprocess, sys
from plaisante.grading.cpu_cgroup import CpuCgroup
first = subprocess.run([sys.executable, "-c", "from plaisante.grading.cpu_cgroup import "
                        "CpuCgroup; print(CpuCgroup.create().path)"],
                       capture_output=True, text=True, check=True).stdout.strip()
left = os.path.exists(first)  # its process ended without removing it (as when killed)
group = CpuCgroup.create()
answer = {"left": left, "swept": not os.path.exists(first)}
group.remove()
print(json.dumps(answer))
"""


@pytest.mark.parametrize("who", ["root", "user"])
def test_a_workers_sandbox_runs_in_a_cpu_cgroup_of_its_own_that_goes_with_it(who):
    if who == "root" and not as_root():
        pytest.skip("the root grader's cgroup: the suite runs as a user")
    if who == "root":
        done = subprocess.run([sys.executable, "-c", IN_ITS_CGROUP], cwd="/", text=True,
                              capture_output=True, timeout=120, check=False,
                              env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
                                   "PYTHONPATH": str(ROOT)})
    else:
        done = run_python_as_grader(IN_ITS_CGROUP, cwd=Path(OUTSIDE_TMP or "/"), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["group"] is not None, (
        "no CPU cgroup for this grader: as root, once, `make grader-user` "
        "(tools/grader-user.sh) delegates one to the grading user")
    assert "/plaisante-sandbox-" in answer["group"], answer
    assert answer["holds_the_sandbox"] and answer["processes"] >= 2, answer
    assert answer["removed"], answer


def test_a_cpu_cgroup_a_dead_grader_left_is_removed_by_the_next_one():
    done = run_python_as_grader(LEFT_BEHIND, cwd=Path(OUTSIDE_TMP or "/"), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"left": True, "swept": True}


def test_a_mistyped_cgroup_setting_stops_grading_with_a_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder that is not there would leave every sandbox without its bound, and the
    grades of a crowded machine untrue, with nothing said."""
    from course_cli import cli, new_course

    root = new_course(tmp_path / "course")
    cli("release", "plaisante", cwd=root)
    sample = ROOT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb"
    cli("submit", str(sample), "--student", "ada", cwd=root)
    typo = "/sys/fs/cgroup/no-such-controller/plaisante"
    for setting, controller in (("PLAISANTE_CPU_CGROUP", "cpu"),
                                ("PLAISANTE_MEMORY_CGROUP", "memory")):
        monkeypatch.setenv(setting, typo)
        done = cli("grade", "plaisante", cwd=root, check=False)
        assert done.returncode != 0
        assert done.stderr.strip().splitlines() == [
            f"plaisante grade: ${setting} is {typo}, not a cgroup v1 {controller} folder this "
            "user may create folders in: set it to one, or to off"], done.stderr
        monkeypatch.setenv(setting, "off")  # said outright: graded without that bound
    assert cli("grade", "plaisante", cwd=root).returncode == 0
