"""The kit's command as the tests run it: ``plaisante ARGS…`` in a child process with this venv
first on PATH, and a fresh course copy to run it in."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]


def cli(*args: str, cwd: Path, check: bool = True, course: Path | None = None,
        timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run ``plaisante ARGS…`` from ``cwd`` (PLAISANTE_COURSE set to ``course`` when given,
    else unset, so the course is found from ``cwd``). With ``check``, assert it exited 0,
    showing the end of its output otherwise."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    if course is not None:
        env["PLAISANTE_COURSE"] = str(course)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, timeout=timeout)
    if check:
        assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done


def new_course(root: Path, folders: tuple[str, ...] = ("solutions",)) -> Path:
    """Make ``root`` a course: the kit's nbgrader_config.py, a copy of ``folders`` and an empty
    ``assignments/``; return it."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(KIT / "nbgrader_config.py", root / "nbgrader_config.py")
    for folder in folders:
        shutil.copytree(KIT / folder, root / folder)
    (root / "assignments").mkdir()
    return root
