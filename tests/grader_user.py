"""Run the kit as the grading user: an ordinary user, as on a grading machine (SPEC §5).

When the suite runs as an ordinary user, that user grades: ``run_as_grader`` runs this venv's
Python as it is. When the suite runs as root (CI, ``make test`` as root), it grades as the
system user ``$PLAISANTE_GRADER_USER`` (``plaisante-grader``) with
``$PLAISANTE_GRADER_PYTHON`` (``/var/lib/plaisante-grader/venv/bin/python``), both made by
``make grader-user`` (``tools/grader-user.sh``), which ``make test`` runs first. That venv is
built from Debian's ``/usr/bin/python3`` (root's own Python lives in root's home, which other
users cannot enter) and holds the pinned dependencies but not the kit: the kit comes from a
world-readable copy of this checkout's ``plaisante/`` package, made once per test session and
put on ``PYTHONPATH`` (the checkout itself may not be readable by that user).

    from grader_user import prepare_course, run_as_grader
    prepare_course(root)                       # the grading user may read and write it
    done = run_as_grader(["grade", "plaisante"], cwd=root, timeout=600)
"""

from __future__ import annotations

import atexit
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
DEFAULT_USER = "plaisante-grader"
DEFAULT_PYTHON = "/var/lib/plaisante-grader/venv/bin/python"


def as_root() -> bool:
    return os.geteuid() == 0


def grader_name() -> str:
    """The user the tests grade as: $PLAISANTE_GRADER_USER as root, else the current user."""
    if not as_root():
        return pwd.getpwuid(os.geteuid()).pw_name
    name = os.environ.get("PLAISANTE_GRADER_USER") or DEFAULT_USER
    try:
        pwd.getpwnam(name)
    except KeyError:
        raise RuntimeError(f"grading user {name!r} does not exist: run `make grader-user` as root "
                           "(`make test` does it first)") from None
    return name


def grader_python() -> str:
    """The interpreter to grade with: $PLAISANTE_GRADER_PYTHON as root, else this one."""
    if not as_root():
        return sys.executable
    python = os.environ.get("PLAISANTE_GRADER_PYTHON") or DEFAULT_PYTHON
    if not os.access(python, os.X_OK):
        raise RuntimeError(f"the grading user's Python {python} is missing: run "
                           "`make grader-user` as root (`make test` does it first)")
    return python


def _ids() -> tuple[int, int]:
    entry = pwd.getpwnam(grader_name())
    return entry.pw_uid, entry.pw_gid


#: Where the grading user's copies live: not under /tmp, whose private copy in each kernel
#: would hide them, so that grading uses the kernel zygote (``plaisante.grading.zygote``).
OUTSIDE_TMP = "/var/tmp" if os.access("/var/tmp", os.W_OK | os.X_OK) else None


@lru_cache(maxsize=1)
def _session_folder() -> Path:
    """A world-readable folder for this test session: ``kit/plaisante`` (a copy of this
    checkout's package, for PYTHONPATH) and ``home`` (the grading user's, writable). Removed
    when the session's Python exits."""
    folder = Path(tempfile.mkdtemp(prefix="plaisante-grader-", dir=OUTSIDE_TMP))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    shutil.copytree(KIT / "plaisante", folder / "kit" / "plaisante",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for path in walk(folder):
        path.chmod(0o755 if path.is_dir() else 0o644)
    (folder / "home").mkdir(mode=0o700)
    if as_root():
        os.chown(folder / "home", *_ids())
    return folder


def walk(folder: Path) -> list[Path]:
    """``folder`` and everything under it, symbolic links not followed."""
    paths = [folder]
    for top, dirs, files in os.walk(folder):
        paths += [Path(top, name) for name in dirs + files]
    return paths


def kit_path() -> Path:
    """The folder to put on PYTHONPATH for the grading user's ``import plaisante``."""
    return _session_folder() / "kit" if as_root() else KIT


def grader_env() -> dict[str, str]:
    """The grading user's environment: a clean one as root, this one (venv first) otherwise."""
    venv_bin = str(Path(grader_python()).parent)
    if as_root():
        folder = _session_folder()
        return {"PATH": os.pathsep.join([venv_bin, "/usr/local/bin", "/usr/bin", "/bin"]),
                "HOME": str(folder / "home"), "LANG": "C.UTF-8",
                "PYTHONPATH": str(folder / "kit")}
    env = dict(os.environ, PATH=venv_bin + os.pathsep + os.environ.get("PATH", ""))
    env.pop("PLAISANTE_COURSE", None)
    return env


def prepare_course(folder: Path) -> None:
    """Make ``folder`` (a course copy) readable and writable by the grading user: as root, it
    becomes theirs (chown -R), and every folder above it lets them through (the x bit for
    others: pytest's temporary folders are 0700)."""
    if not as_root():
        return
    uid, gid = _ids()
    folder = Path(folder).resolve()
    for path in walk(folder):
        os.lchown(path, uid, gid)
    for parent in folder.parents:
        mode = parent.stat().st_mode
        if not mode & 0o001:
            parent.chmod(mode | 0o001)


def grader_command(argv: list[str]) -> list[str]:
    """``argv`` run as the grading user (itself, when that is the current user)."""
    if not as_root():
        return argv
    uid, gid = _ids()
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups", "--", *argv]


def _run(argv: list[str], cwd: Path, timeout: float | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(grader_command(argv), cwd=cwd, env=grader_env(), text=True,
                          capture_output=True, timeout=timeout, check=False)


def run_as_grader(args: list[str], cwd: Path, timeout: float | None = None
                  ) -> subprocess.CompletedProcess[str]:
    """Run ``plaisante ARGS…`` (``<grader python> -m plaisante.cli``) as the grading user."""
    return _run([grader_python(), "-m", "plaisante.cli", *args], cwd, timeout)


def run_python_as_grader(code: str, cwd: Path, timeout: float | None = None,
                         args: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``<grader python> -c CODE ARGS…`` as the grading user."""
    return _run([grader_python(), "-c", code, *(args or [])], cwd, timeout)


def grader_uid() -> int:
    """The user id the tests grade as (see ``grader_name``)."""
    return _ids()[0] if as_root() else os.geteuid()
