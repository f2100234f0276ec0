"""Start a submission's kernel inside a bubblewrap sandbox; no root needed.

The kernel command becomes::

    bwrap [--unshare-user] --unshare-pid --unshare-net --unshare-ipc --unshare-uts
          --die-with-parent
          --ro-bind <python, venv> --ro-bind <the kit's student side> <kit package>
          --tmpfs /dev/shm /tmp <work dir> (sized)
          --bind <sockets> --remount-ro /dev / --clearenv --setenv … --chdir <work dir> --
      [setpriv --reuid=U --regid=U --clear-groups --inh-caps=-all --bounding-set=-all
               --no-new-privs --]
        prlimit --cpu=… --as=… --nproc=… --fsize=… --core=0 --
          python -m plaisante.kernel.syscall_filter -f <connection file>

(behind ``/bin/sh -c`` that first moves itself into the sandbox's memory cgroup, where one can
be had: ``plaisante.grading.memory_cgroup``; ``plaisante.kernel.syscall_filter`` loads the
system-call filter, then runs ``ipykernel_launcher``)

so the kernel sees a file system holding only the Python it needs (read-only) and its own
work folder, has no network (it talks to the grader over Unix sockets in a folder bound into
the sandbox, ZeroMQ's ``ipc`` transport), runs under resource limits, and lives in its own PID
namespace: when the kernel ends, every process it started ends with it.

* **As an ordinary user** (an instructor's laptop, a JupyterHub server): bubblewrap makes an
  unprivileged user namespace (``--unshare-user``), so no root, setuid helper or capability is
  needed; the kernel runs as the grader's own user id, but can see no process, file or socket
  of the grader's beyond those bound above.
* **As root**: bwrap keeps only CAP_SETUID/CAP_SETGID, which ``setpriv`` drops with every other
  capability as it switches to a throw-away user id no other process uses (``pick_uid``);
  ``kill_user`` is the belt to the PID namespace's braces. The grader then follows no path the
  kernel can write: the connection file is rewritten fresh (never through a symbolic link the
  kernel left) and changes owner without following links.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from functools import lru_cache
from pathlib import Path

from . import cpu_cgroup, memory_cgroup
from .kernel_tree import assignments_of, kernel_tree
from .result import Limits

UID_BASE = 3_100_000  # throw-away user ids: far above any real account
UID_SPAN = 800_000


class SandboxUnavailable(RuntimeError):
    """bubblewrap (or root, or setpriv) is missing, so the sandbox cannot be built here."""


def as_root() -> bool:
    """Return True when the grader runs as root (then kernels get throw-away user ids)."""
    return os.geteuid() == 0


@lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    """Return why the sandbox cannot run on this machine, or None when it can."""
    for tool in ("bwrap", "setpriv", "prlimit"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed (Debian: apt-get install -y bubblewrap util-linux)"
    mistyped = memory_cgroup.setting_problem() or cpu_cgroup.setting_problem()
    if mistyped:
        return mistyped
    if as_root():
        probe = ["bwrap", "--unshare-pid", "--unshare-net", "--die-with-parent",
                 "--ro-bind", "/", "/", "--cap-add", "CAP_SETUID,CAP_SETGID", "--",
                 "setpriv", f"--reuid={UID_BASE}", f"--regid={UID_BASE}", "--clear-groups",
                 "--inh-caps=-all", "--no-new-privs", "--", "true"]
    else:
        probe = ["bwrap", "--unshare-user", "--unshare-pid", "--unshare-net",
                 "--die-with-parent", "--ro-bind", "/", "/", "--", "true"]
    done = subprocess.run(probe, check=False, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        hint = "" if as_root() else (" (unprivileged user namespaces may be off: "
                                     "sysctl kernel.unprivileged_userns_clone=1)")
        return (f"bubblewrap cannot start a sandbox here: "
                f"{done.stderr.strip() or done.returncode}{hint}")
    return None


def require_sandbox() -> None:
    """Raise SandboxUnavailable with the reason when the sandbox cannot run here."""
    problem = sandbox_problem()
    if problem:
        raise SandboxUnavailable(problem)


def is_throwaway(uid: int) -> bool:
    """Return True for a user id of the throw-away range (a root grader's kernels)."""
    return UID_BASE <= uid < UID_BASE + UID_SPAN


def pick_uid() -> int:
    """Return the user id a kernel runs as: as root, a throw-away id no running process uses;
    otherwise the grader's own (the user namespace keeps the kernel apart)."""
    if not as_root():
        return os.getuid()
    used = processes_by_uid()
    while True:
        uid = UID_BASE + random.SystemRandom().randrange(UID_SPAN)
        if uid not in used:
            return uid


def processes_by_uid() -> dict[int, list[int]]:
    """Return {uid: [pid, …]} for every process on the machine (read from /proc)."""
    table: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                uid = entry.stat().st_uid
            except OSError:
                continue
            table.setdefault(uid, []).append(int(entry.name))
    return table


def kill_user(uid: int, grace: float = 1.0, patience: float = 5.0) -> int:
    """Wait up to ``grace`` seconds for the processes of ``uid`` to end on their own (a
    sandbox's PID namespace is torn down as its kernel ends), then SIGKILL whatever is left
    until nothing is; return how many processes had to be killed.

    Only ever called with a throw-away sandbox uid. Raises ValueError for any other uid.
    """
    if not is_throwaway(uid):
        raise ValueError(f"refusing to kill processes of uid {uid}: not a sandbox uid")
    deadline = time.monotonic() + grace
    while processes_by_uid().get(uid) and time.monotonic() < deadline:
        time.sleep(0.05)
    killed: set[int] = set()
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        pids = processes_by_uid().get(uid, [])
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    return len(killed)


def scratch_base() -> str | None:
    """Return where private grading folders go: /dev/shm (memory: the private gradebook's
    many small commits cost nothing) when it is usable, else the system's temporary folder."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None


def _ancestors(path: Path) -> list[Path]:
    return list(reversed(path.parents))[1:]  # without "/"


def kit_package() -> Path:
    """Return the folder of the kit's ``plaisante`` package, as this process imports it."""
    import plaisante

    return Path(plaisante.__file__).resolve().parent


def private_folder() -> Path:
    """Return this user's folder for files the sandboxes read (``/var/tmp/plaisante-<uid>``:
    on disk, never under the ``/tmp`` each kernel gets afresh): made if missing, others may
    pass through it but not list it. Raises PermissionError when another user owns it."""
    folder = Path("/var/tmp") / f"plaisante-{os.getuid()}"
    folder.mkdir(mode=0o711, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != os.getuid():
        raise PermissionError(f"{folder} belongs to another user: remove it, or grade as "
                              "the user it belongs to")
    return folder


def read_only_paths() -> list[Path]:
    """Return the paths the kernel needs, read-only: the Python installation, this venv and
    the folder holding the ``plaisante`` package (an editable install points into the course
    checkout; only the package folder is bound, never the course root)."""
    import plaisante

    paths = [Path(sys.base_prefix).resolve(), Path(sys.prefix)]
    package = Path(plaisante.__file__).resolve().parent
    paths.append(package)
    return paths


def bwrap_command(work_dir: Path, socket_dir: Path, uid: int, limits: Limits,
                  env: dict[str, str], preload: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Return the command prefix that runs a program in the sandbox (see the module doc);
    ``preload``: the modules the release's setup cells import, which name the assignments
    whose student side the kernel sees (none: the whole course's)."""
    cmd = [shutil.which("bwrap") or "bwrap", *([] if as_root() else ["--unshare-user"]),
           "--unshare-pid", "--unshare-net", "--unshare-ipc",
           "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--hostname", "sandbox",
           "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = Path("/") / name
        if top.is_symlink():
            cmd += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            cmd += ["--ro-bind", str(top), str(top)]
    for name in ("ld.so.cache", "ld.so.conf", "localtime", "alternatives"):
        path = Path("/etc") / name
        if path.exists():
            cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--proc", "/proc", "--dev", "/dev",
            "--size", str(limits.file_bytes), "--perms", "1777", "--tmpfs", "/dev/shm",
            "--size", str(limits.file_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
    made: set[Path] = {Path("/"), Path("/tmp"), Path("/usr"), Path("/dev"), Path("/dev/shm")}

    def mount(flag: str, path: Path, source: Path | None = None) -> None:
        for parent in _ancestors(path):
            if parent not in made and not any(parent == p or p in parent.parents
                                              for p in mounted):
                cmd.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)
        if flag == "--tmpfs":
            cmd.extend(["--size", str(limits.file_bytes), "--perms", "1777", flag, str(path)])
        else:
            cmd.extend([flag, str(source or path), str(path)])
        mounted.append(path)

    mounted: list[Path] = []
    package = kit_package()
    for path in read_only_paths():
        if path != package and not any(path == m or m in path.parents for m in mounted):
            mount("--ro-bind", path)
    # the kit as the kernel may see it: its student side only, where the package is
    mount("--ro-bind", package, kernel_tree(private_folder(), assignments_of(preload)))
    mount("--tmpfs", work_dir)  # the working folder lives and dies with the sandbox
    mount("--bind", socket_dir)
    # bubblewrap's own root and /dev are tmpfs mounts of no size, writable by an ordinary
    # user's sandbox: read-only, so that only the sized folders above take files
    cmd += ["--remount-ro", "/dev", "--remount-ro", "/", "--clearenv"]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    cmd += ["--chdir", str(work_dir)]
    if as_root():
        cmd += ["--cap-add", "CAP_SETUID,CAP_SETGID", "--",
                "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    return [*cmd, "--", *rlimit_command(limits)]


def rlimit_command(limits: Limits) -> list[str]:
    """Return the ``prlimit … --`` prefix that applies ``limits`` to the kernel."""
    cpu = int(limits.cpu_seconds)  # SIGXCPU at the soft limit (a stated cause), SIGKILL 2 s on
    return ["prlimit", f"--cpu={cpu}:{cpu + 2}", f"--as={int(limits.memory_bytes)}",
            f"--nproc={int(limits.processes)}", f"--fsize={int(limits.file_bytes)}",
            "--core=0", "--nofile=256", "--"]


def kernel_env(home: str = "/tmp") -> dict[str, str]:
    """Return the kernel's whole environment: UTF-8 whatever the grader's locale, no proxies,
    ``NBGRADER_EXECUTION=autograde`` as nbgrader sets it."""
    import plaisante

    venv_bin = str(Path(sys.executable).parent)
    return {
        "PYTHONPATH": str(Path(plaisante.__file__).resolve().parents[1]),
        "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "IPYTHONDIR": f"{home}/.ipython",
        "MPLCONFIGDIR": f"{home}/.matplotlib",
        "JUPYTER_RUNTIME_DIR": f"{home}/.jupyter-runtime",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        "NBGRADER_EXECUTION": "autograde",
    }


def folder_usage(folder: Path, max_entries: int = 10_000) -> tuple[int, int, bool]:
    """Return (bytes on disk, entries, hidden) under ``folder``, links not followed; stops
    counting past ``max_entries`` entries. ``hidden`` is True when a folder (``folder``
    itself included) could not be listed or an entry could not be read for want of
    permission, or lies deeper than a path can name (past PATH_MAX): what such a folder holds
    is not counted, so an owner that makes one (a kernel, as an ordinary user, owns its
    sockets folder) could hide any amount there."""
    used = entries = 0
    hidden = False

    # by hand, not os.walk, which recurses: a kernel's folder 3,000 deep stopped the count
    # (and the watch's thread) with a RecursionError
    pending = [os.fspath(folder)]
    while pending and entries <= max_entries:
        try:
            with os.scandir(pending.pop()) as found:
                listed = list(found)
        except FileNotFoundError:  # removed meanwhile
            continue
        except OSError:  # unreadable, or deeper than a path can name (ENAMETOOLONG)
            hidden = True
            continue
        for entry in listed:
            entries += 1
            try:
                used += entry.stat(follow_symlinks=False).st_blocks * 512
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
            except FileNotFoundError:  # removed meanwhile
                pass
            except OSError:
                hidden = True
    return used, entries, hidden


def restore_folder(folder: Path) -> None:
    """Give ``folder`` back what its owner may change on the folder itself, which emptying
    it does not undo: mode 0700, none of the extended attributes an owner may set (``user.``
    ones, and ACLs), access and modification times now. A kernel that runs as the folder's
    owner (an ordinary user's sandbox) could otherwise make it unreadable to the grader, or
    leave a note for the next kernel in its mode, times or attributes. The system's own
    attributes (an SELinux label: ``security.``) are left alone. Raises OSError when
    ``folder`` is not there."""
    os.chmod(folder, 0o700)
    try:
        names = os.listxattr(folder, follow_symlinks=False)
    except OSError:  # a file system without extended attributes: none to remove
        names = []
    for name in names:
        if name.startswith(OWNER_ATTRIBUTES):
            os.removexattr(folder, name, follow_symlinks=False)
    os.utime(folder, follow_symlinks=False)


#: the extended attributes a folder's owner may set without privileges
OWNER_ATTRIBUTES = ("user.", "system.posix_acl_")


def empty_folder(folder: Path, keep: tuple[str, ...] = ()) -> None:
    """Remove everything in ``folder`` but the names in ``keep``, never following a link;
    folders the kernel made unreadable are opened up first."""
    # a folder is emptied one level at a time, its folders moved up to ``folder``: rmtree
    # recurses, and a kernel's folder 3,000 deep stopped it with a RecursionError (and with
    # it every later kernel's start in this folder)
    while True:
        with os.scandir(folder) as found:
            left = [entry for entry in found if entry.name not in keep]
        if not left:
            return
        for entry in left:
            if not entry.is_dir(follow_symlinks=False):
                os.unlink(entry.path)
                continue
            os.chmod(entry.path, 0o700)
            with os.scandir(entry.path) as found:
                inside = list(found)
            for inner in inside:
                if inner.is_dir(follow_symlinks=False):
                    os.chmod(inner.path, 0o700)  # moving a folder rewrites its '..'
                    os.rename(inner.path, os.path.join(folder, f".emptied-{uuid.uuid4().hex}"))
                else:
                    os.unlink(inner.path)
            os.rmdir(entry.path)
