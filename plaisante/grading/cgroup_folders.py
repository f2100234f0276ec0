"""Where a grader may make cgroup v1 folders for its sandboxes, for one controller.

A sandbox's cgroups (``memory_cgroup``, ``cpu_cgroup``) go in the first folder of the
controller's hierarchy (``root``, e.g. ``/sys/fs/cgroup/memory``) that this process may create
folders in: ``$SETTING`` (a folder, or ``off`` for none), the process's own cgroup there (a
root grader may always create one), or ``ROOT/plaisante-<user>``, which root delegates to an
ordinary user once (``tools/grader-user.sh``). Each sandbox's folder is named after its
grading process (``PREFIX<pid>-<random>``), so one a killed grader left is found and removed
by the next (``sweep_stale``).
"""

from __future__ import annotations

import os
import pwd
import time
from collections.abc import Callable
from pathlib import Path

PREFIX = "plaisante-sandbox-"


def own_cgroup(root: Path, controller: str) -> Path | None:
    """Return this process's cgroup folder under ``root`` for ``controller`` (cgroup v1), or
    None when there is none."""
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return root / path.lstrip("/")
    return None


def delegated_cgroup(root: Path) -> Path:
    """Return the folder under ``root`` that root hands over to this user once."""
    return root / f"plaisante-{pwd.getpwuid(os.geteuid()).pw_name}"


def cgroup_base(root: Path, controller: str, setting: str, control_file: str
                ) -> tuple[Path | None, str]:
    """Return (the folder new sandbox cgroups go into, "") or (None, why there is none): the
    first of ``$setting``, this process's own cgroup and the delegated one that holds
    ``control_file`` and that this process may write in."""
    chosen = os.environ.get(setting, "").strip()
    if chosen == "off":
        return None, f"${setting} is off"
    candidates = [Path(chosen)] if chosen else [
        c for c in (own_cgroup(root, controller), delegated_cgroup(root)) if c is not None]
    for folder in candidates:
        if (folder / control_file).is_file() and os.access(folder, os.W_OK | os.X_OK):
            return folder, ""
    tried = ", ".join(str(c) for c in candidates) or f"no cgroup v1 {controller} controller"
    return None, f"no {controller} cgroup this user may create ({tried})"


def setting_problem(root: Path, controller: str, setting: str, control_file: str
                    ) -> str | None:
    """Return why ``$setting``, when it names a folder, cannot hold the sandboxes' cgroups,
    or None (unset, ``off``, or a folder it may use): a mistyped folder would otherwise leave
    every sandbox without its bound, silently."""
    chosen = os.environ.get(setting, "").strip()
    if not chosen or chosen == "off":
        return None
    base, _ = cgroup_base(root, controller, setting, control_file)
    if base is not None:
        return None
    return (f"${setting} is {chosen}, not a cgroup v1 {controller} folder this user may "
            f"create folders in: set it to one, or to off")


def sweep_stale(base: Path) -> None:
    """Remove the cgroups in ``base`` that a grading process, now gone, left behind (killed
    before it could remove them): each is named after its process, and is empty once its
    sandbox died (one still holding processes stays)."""
    for folder in base.glob(f"{PREFIX}*-*"):
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                folder.rmdir()
            except OSError:
                pass
        except OSError:
            continue


def remove_when_empty(path: Path, patience: float,
                      emptying: Callable[[], None] = lambda: None) -> None:
    """Remove the cgroup folder ``path`` once its processes are gone (the kernel refuses
    before), trying for ``patience`` seconds and calling ``emptying`` before each try (to kill
    what is left, say); one still busy then is left to the next grader's ``sweep_stale``."""
    deadline = time.monotonic() + patience
    while path.exists():
        emptying()
        try:
            path.rmdir()
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.02)
