"""The grading worker's side of the kernel zygote: one sandbox per worker, one fresh kernel
forked in it per submission (``plaisante.kernel.zygote`` is the side inside the sandbox).

A kernel start used to be a new sandbox and a new interpreter importing ipykernel (≈0.8 s, most
of a submission's CPU). A worker now starts one bubblewrap sandbox, built as before
(``sandbox.bwrap_command``), holding a *zygote*: an interpreter that has imported ipykernel and
the assignment's setup modules once. Each submission's kernel is a child the zygote forks into
new namespaces of its own (user, mount, PID, IPC, UTS, network), with a fresh ``/tmp`` and
working folder, no capabilities and the submission's rlimits; at the end of the submission the
child's PID namespace is killed whole, and before the next fork the zygote checks that nothing
of it is left. The boundary is in ``docs/threat-model.md``.

* ``zygote_for(limits, modules)`` returns this worker's zygote, started on first use and again
  whenever it died or the settings changed;
* ``ZygoteKernel`` is the ``Popen``-like handle jupyter_client's provisioner keeps for a
  forked kernel (``poll``, ``wait``, ``kill``, ``send_signal``);
* ``Zygote.sockets`` is the folder of the kernel's connection file and sockets (bound into
  the sandbox, emptied between submissions by ``grade_one``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from . import sandbox as sb
from .cpu_cgroup import CpuCgroup, in_cpu_cgroup
from .memory_cgroup import MemoryCgroup
from .result import Limits

TMP_PREFIX = "plaisante-zygote-"
READY_SECONDS = 60.0  # a zygote's start (imports) on a loaded machine


class ZygoteError(RuntimeError):
    """The zygote could not be started or did not do what it was asked. Its message is for
    the instructor (``submission._zygote`` prints it): what happened in plain words (the
    zygote is "the pre-loaded Python kernels are copied from") and what to do, if anything."""


class ZygoteUnusable(ZygoteError):
    """No zygote can start on this machine as the kit is installed (``home_base``): the same
    for every worker, so a grading run says it once (``submission.say_no_zygote``)."""


def home_base() -> str:
    """Return where a zygote's folders go: on disk, never under ``/tmp`` (each kernel gets a
    fresh ``/tmp`` of its own, which would hide them): ``/var/tmp``. Raises ZygoteUnusable when
    it is not writable, or when the Python installation, the venv or the kit lives under
    ``/tmp`` (a kernel's fresh ``/tmp`` would hide them too)."""
    for path in sb.read_only_paths():
        if Path("/tmp") in path.resolve().parents:
            raise ZygoteUnusable(f"the kit or its Python is installed under /tmp ({path}), which "
                                 "every graded kernel sees empty; install the kit and its "
                                 "venv outside /tmp to grade faster")
    base = Path("/var/tmp")
    if base.is_dir() and os.access(base, os.W_OK | os.X_OK):
        return str(base)
    raise ZygoteUnusable("/var/tmp, where the pre-loaded Python keeps its files, is not "
                         "writable; make it writable (chmod 1777 /var/tmp) to grade faster")


def sweep_stale(base: Path) -> None:
    """Remove the folders zygotes of this user left in ``base`` when their worker process
    ended without closing them (killed, or a worker that ends with ``os._exit``): each folder
    is named after its worker's pid, and one whose process is gone is removed."""
    for folder in base.glob(f"{TMP_PREFIX}*-*"):
        pid = folder.name[len(TMP_PREFIX):].split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.geteuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                sb.empty_folder(folder)
            except OSError:
                pass
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


class Zygote:
    """A sandboxed, pre-imported interpreter that forks kernels (see the module doc).

    ``limits`` bound every kernel it forks (and the zygote itself, but for CPU time: each
    kernel's own RLIMIT_CPU is set as it is forked); ``modules`` are imported once, before any
    kernel exists. Raises ZygoteError when the sandbox does not start.
    """

    def __init__(self, limits: Limits, modules: tuple[str, ...]) -> None:
        self.limits, self.modules = limits, modules
        base = home_base()
        sweep_stale(Path(base))
        self.home = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{os.getpid()}-", dir=base))
        self.sockets = self.home / "sockets"
        self.work_dir = self.home / "work"
        self.sockets.mkdir()
        self.uid = sb.pick_uid()
        self.lock = threading.Lock()
        self.host_pid: int | None = None  # the zygote as the host sees it (a root grader's)
        if sb.is_throwaway(self.uid):
            os.chown(self.sockets, self.uid, self.uid, follow_symlinks=False)
        zygote_limits = Limits(**{**asdict(limits), "cpu_seconds": 10 ** 9})
        # the whole sandbox (the zygote and the one kernel it runs) in one memory cgroup
        self.cgroup = MemoryCgroup.create(int(limits.sandbox_memory_bytes))
        # and in one CPU cgroup: one share of the processor, however many processes it runs
        self.cpu_cgroup = CpuCgroup.create()
        command = [*(self.cgroup.prefix() if self.cgroup else []),
                   *in_cpu_cgroup(self.cpu_cgroup),
                   *sb.bwrap_command(self.work_dir, self.sockets, self.uid, zygote_limits,
                                     sb.kernel_env(), modules),
                   sys.executable, "-m", "plaisante.kernel.zygote", str(self.work_dir),
                   str(int(limits.file_bytes)), *modules]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd="/", env={},
                                        start_new_session=True)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.commands: IO[bytes] = self.process.stdin
        self.answers: IO[bytes] = self.process.stdout
        ready = self._answer(READY_SECONDS)
        if ready != {"ok": "ready"}:
            self.close()
            raise ZygoteError(f"the pre-loaded Python did not start ({ready})")
        if sb.is_throwaway(self.uid):
            pids = sb.processes_by_uid().get(self.uid, [])
            self.host_pid = pids[0] if len(pids) == 1 else None

    def alive(self) -> bool:
        """Return True while the zygote's sandbox runs."""
        return self.process.poll() is None

    def _answer(self, timeout: float) -> dict[str, Any]:
        import select

        ready, _, _ = select.select([self.answers], [], [], timeout)
        line = self.answers.readline() if ready else b""
        try:
            answer = json.loads(line) if line else {"err": "no answer"}
        except ValueError:
            answer = {"err": f"unreadable answer {line[:80]!r}"}
        return answer if isinstance(answer, dict) else {"err": "unreadable answer"}

    def ask(self, request: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send one command, return its answer. Raises ZygoteError when the zygote is gone,
        does not answer within ``timeout`` seconds or answers an error."""
        with self.lock:
            try:
                self.commands.write(json.dumps(request).encode() + b"\n")
                self.commands.flush()
            except (BrokenPipeError, OSError, ValueError) as error:
                raise ZygoteError(f"the pre-loaded Python stopped ({error})") from None
            answer = self._answer(timeout)
        if "err" in answer:
            raise ZygoteError(f"the pre-loaded Python could not start a kernel "
                              f"({answer['err']})")
        return answer

    def spawn(self, argv: list[str]) -> ZygoteKernel:
        """Fork a fresh kernel started with ``argv`` (``-f CONNECTION_FILE …``)."""
        self.ask({"op": "spawn", "argv": argv, "limits": asdict(self.limits)})
        return ZygoteKernel(self)

    def clean(self) -> int:
        """After a submission: kill its kernel (its whole PID namespace), empty the sockets
        folder, and as root kill any process of the zygote's uid but the zygote itself.
        Returns how many such processes had to be killed (0 when all is well)."""
        killed: set[int] = set()
        if self.alive():
            try:
                self.ask({"op": "kill"})
            except ZygoteError:
                self.close()
        if sb.is_throwaway(self.uid):
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:
                left = [p for p in sb.processes_by_uid().get(self.uid, [])
                        if p != self.host_pid or not self.alive()]
                if not left:
                    break
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                        killed.add(pid)
                    except ProcessLookupError:
                        pass
                time.sleep(0.02)
            os.chown(self.sockets, self.uid, self.uid, follow_symlinks=False)
        try:
            sb.restore_folder(self.sockets)
            sb.empty_folder(self.sockets)
        except OSError:
            pass
        return len(killed)

    def close(self) -> None:
        """Stop the zygote's sandbox and remove its folders."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.commands, self.answers):
            try:
                stream.close()
            except OSError:
                pass
        if sb.is_throwaway(self.uid):
            sb.kill_user(self.uid, grace=0.2)
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.cpu_cgroup is not None:
            self.cpu_cgroup.remove()
        try:
            sb.empty_folder(self.home)
        except OSError:
            pass
        shutil.rmtree(self.home, ignore_errors=True)


def _exit_of(answer: dict[str, Any]) -> int | None:
    """Return the exit code a zygote's answer to "poll" or "kill" holds (None: still running).
    Raises ZygoteError when it is neither an int nor null (the zygote shares its sandbox with
    the kernels it forks: what it says is read as data, not trusted as typed)."""
    code = answer["exit"]
    if code is not None and type(code) is not int:
        raise ZygoteError(f"the pre-loaded Python answered an exit code that is not a number "
                          f"({str(code)[:40]!r})")
    return code


class ZygoteKernel:
    """A kernel forked by a zygote, as jupyter_client's LocalProvisioner uses a ``Popen``.

    Its pid is not given (the kernel's pid means nothing outside its sandbox): signals other
    than SIGKILL go through the kernel's control channel (interrupt mode "message")."""

    pid = None
    stdin = stdout = stderr = None

    def __init__(self, zygote: Zygote) -> None:
        self.zygote = zygote
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """Return the kernel's exit code, or None while it runs."""
        if self.returncode is None:
            try:
                self.returncode = _exit_of(self.zygote.ask({"op": "poll"}))
            except ZygoteError:
                self.returncode = -signal.SIGKILL
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until the kernel ends; return its exit code. Raises TimeoutExpired."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired("kernel", timeout or 0)
            time.sleep(0.02)
        return int(self.returncode or 0)

    def kill(self) -> None:
        """SIGKILL the kernel and everything it started."""
        if self.returncode is None:
            try:
                self.returncode = _exit_of(self.zygote.ask({"op": "kill"}))
            except ZygoteError:
                self.returncode = -signal.SIGKILL

    terminate = kill

    def send_signal(self, signum: int) -> None:
        """SIGKILL and SIGTERM end the kernel; other signals are not sent (use messages)."""
        if signum in (signal.SIGKILL, signal.SIGTERM):
            self.kill()


_zygote: Zygote | None = None


def zygote_for(limits: Limits, modules: tuple[str, ...]) -> Zygote:
    """Return this process's zygote for ``limits`` and ``modules``, starting one (and stopping
    an earlier one) when there is none, it died, or it was made for other settings. Raises
    ZygoteError when it cannot start, SandboxUnavailable when there is no sandbox."""
    global _zygote
    if _zygote is not None and (not _zygote.alive() or _zygote.limits != limits
                                or _zygote.modules != modules):
        _zygote.close()
        _zygote = None
    if _zygote is None:
        sb.require_sandbox()
        _zygote = Zygote(limits, modules)
    return _zygote


def close_zygote() -> None:
    """Stop this process's zygote, if any (a worker's last act; also registered at exit)."""
    global _zygote
    if _zygote is not None:
        _zygote.close()
        _zygote = None


import atexit  # noqa: E402

atexit.register(close_zygote)
