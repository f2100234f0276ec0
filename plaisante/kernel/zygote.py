"""A pre-imported kernel that forks one fresh, isolated kernel per submission (runs in the sandbox).

Started once per grading worker, inside the worker's bubblewrap sandbox
(``plaisante.grading.zygote`` builds the command), as ``python -m plaisante.kernel.zygote
WORK_DIR TMPFS_BYTES [MODULE …]``. It imports the interpreter's share of a kernel start once
(ipykernel, IPython, ZeroMQ's bindings, the judge's ``plaisante.kernel.oracle`` and the MODULEs the
assignment's setup cells import), makes itself non-dumpable, and then obeys one JSON line at a
time on its stdin, answering one JSON line on its stdout:

* ``{"op": "spawn", "argv": [...], "limits": {...}}`` → ``{"ok": true}``: kill what is left of
  the previous child, check that nothing but the zygote itself and bubblewrap's init live in
  the sandbox, then fork a child that makes a new user, mount, PID, IPC, UTS and network
  namespace, a fresh tmpfs ``/tmp``, ``WORK_DIR`` and ``/dev/shm`` (``TMPFS_BYTES`` each)
  with the rest of the file system read-only, a fresh ``/proc``
  where the kernel allows it (else an empty read-only one), drops every capability, lowers its
  rlimits to ``limits`` (``plaisante.grading.result.Limits`` as a dict), loads the system-call
  filter (``plaisante.kernel.syscall_filter``) and starts an ``IPKernelApp`` with ``argv``
  (``-f CONNECTION_FILE …``); the child's processes are the OOM killer's first choice
  (``oom_score_adj`` 1000) at the sandbox's memory bound;
* ``{"op": "poll"}`` → ``{"exit": null}`` while the child lives, else its exit code (a signal
  N that ended the kernel reads 128 + N, as from a shell; a kernel that exited by itself with
  128 or more reads 128, ``EXITED_HIGH``, and a SIGXCPU before the kernel used the CPU time
  it was given reads ``SIGXCPU_UNDER_LIMIT``, so that no kernel passes its own end for a
  limit's);
* ``{"op": "kill"}`` → ``{"exit": code}``: SIGKILL the child's PID namespace (every process
  of the submission dies with its init) and reap it.

An answer ``{"err": text}`` says a command failed. The zygote never reads anything of a
submission: no notebook, no connection file, no key. What a child can and cannot reach is in
``docs/threat-model.md`` ("One kernel per submission, forked from a zygote").

The chain of one child: zygote → *C* (makes the namespaces; waits) → *G* (PID 1 of the new
namespace: mounts, drops capabilities, reaps) → *K* (PID 2: the kernel). The zygote kills G,
the namespace's init, so nothing K started outlives it.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import json
import os
import resource
import signal
import sys
import time
from typing import Any

from plaisante.kernel import syscall_filter

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
              | CLONE_NEWNET)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP = 1, 4, 24
PR_SET_NO_NEW_PRIVS = 38
#: The file beside the connection file where a kernel that could not start says why.
START_FAILED = "kernel-start-failed.txt"
CAP_LAST = 63
KILL_WAIT = 5.0  # seconds a killed namespace has to be gone before its C is killed too
PRELOAD = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger",
           "IPython", "IPython.core.completerlib", "IPython.core.debugger",
           "IPython.core.oinspect", "IPython.extensions.storemagic", "sqlite3", "pdb",
           "tornado.platform.asyncio", "jupyter_client.session", "plaisante.kernel.oracle",
           "plaisante.student_side.checking")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _mount(source: bytes, target: str, kind: bytes | None, flags: int,
           data: bytes | None = None) -> None:
    _check(_libc.mount(source, target.encode(), kind, flags, data), f"mount {target}")


#: statvfs flag -> mount flag, for the flags a remount must keep (a user namespace may not
#: clear them): nosuid, nodev, noexec, noatime, nodiratime, relatime.
KEPT_FLAGS = ((2, 2), (4, 4), (8, 8), (1024, 1024), (2048, 2048), (4096, 1 << 21))


def remount_read_only(path: str) -> None:
    """Make the mount at ``path`` read-only in this mount namespace, keeping its other flags."""
    now = os.statvfs(path).f_flag
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY
    for statvfs_flag, mount_flag in KEPT_FLAGS:
        if now & statvfs_flag:
            flags |= mount_flag
    _mount(b"none", path, None, flags)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def drop_capabilities() -> None:
    """Drop every capability (bounding set, then effective/permitted/inheritable) and set
    no_new_privs: what is left cannot undo the mounts or gain privileges by exec."""
    for cap in range(CAP_LAST + 1):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last: fine

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(0x20080522, 0), (Data * 2)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def wanted_limits(limits: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Return {rlimit: (soft, hard)} a kernel gets for ``limits`` (a ``Limits`` as a dict),
    each at most this process's hard limit."""
    cpu = int(limits["cpu_seconds"])
    wanted = {resource.RLIMIT_CPU: (cpu, cpu + 2),
              resource.RLIMIT_AS: (int(limits["memory_bytes"]),) * 2,
              resource.RLIMIT_NPROC: (int(limits["processes"]),) * 2,
              resource.RLIMIT_FSIZE: (int(limits["file_bytes"]),) * 2,
              resource.RLIMIT_CORE: (0, 0), resource.RLIMIT_NOFILE: (256, 256)}
    for which, (soft, hard) in wanted.items():
        _, old_hard = resource.getrlimit(which)
        if old_hard != resource.RLIM_INFINITY:
            wanted[which] = min(soft, old_hard), min(hard, old_hard)
    return wanted


def set_limits(limits: dict[str, Any]) -> None:
    """Lower this process's rlimits to ``limits`` (a ``Limits`` as a dict)."""
    for which, (soft, hard) in wanted_limits(limits).items():
        resource.setrlimit(which, (soft, hard))


#: the exit code G reports for a kernel that exited by itself with 128 or more: 128 + N is a
#: signal N's (SIGXCPU, the CPU time limit, is 152), and a kernel's own exit must not read as one
EXITED_HIGH = 128


def _exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


#: the exit code G reports for a kernel ended by SIGXCPU before it had used the CPU time the
#: kit gave it: a signal it sent itself, or a lower limit it set itself, not the kit's limit
#: (255 is no signal's 128 + N, and a kernel's own exit code reads 128 at most)
SIGXCPU_UNDER_LIMIT = 255
#: share of its CPU time limit a kernel ended by SIGXCPU has used, at least, as ``wait``
#: reports it, to read as that limit: Linux checks the limit on its tick-sampled clock, and
#: ``wait``'s count (the scheduler's) was 2 to 6 % short of it on a loaded machine
CPU_READ_SHARE = 0.8


def _kernel_exit_code(status: int, cpu_used: float, cpu_limit: float) -> int:
    """How the kernel ended, as G exits: a signal N as 128 + N, an exit code under 128 as
    itself, and any exit code from 128 up as ``EXITED_HIGH``; SIGXCPU as 128 + SIGXCPU only
    when ``cpu_used`` (seconds, the kernel's CPU time as ``wait`` reports it) reached
    ``CPU_READ_SHARE`` of ``cpu_limit`` (the soft RLIMIT_CPU the kit gave it, seconds), else
    as ``SIGXCPU_UNDER_LIMIT``."""
    code = os.waitstatus_to_exitcode(status)
    if code == -signal.SIGXCPU and cpu_used < CPU_READ_SHARE * cpu_limit:
        return SIGXCPU_UNDER_LIMIT
    return 128 - code if code < 0 else min(code, EXITED_HIGH)


def _reaped(pid: int, wait: bool) -> int | None:
    """Reap child ``pid`` and return its exit code (a signal N reads 128 + N), or None when it
    has not ended (``wait`` False). Read through ``waitid``: every number it leaves in this
    process is 255 or under, one of Python's shared small ints, so no object of its own
    holds how a kernel ended (the next kernel forks from this memory)."""
    ended = os.waitid(os.P_PID, pid, os.WEXITED | (0 if wait else os.WNOHANG))
    if ended is None:
        return None
    return ended.si_status if ended.si_code == os.CLD_EXITED else 128 + ended.si_status


#: An exit code's digits, as the constants an answer is written from (see ``write_exit``).
DIGITS = tuple(str(digit).encode() for digit in range(10))


def write_exit(fd: int, code: int | None) -> None:
    """Write ``{"exit": code}`` and a newline to ``fd`` from constant pieces: no string or
    buffer of this process ever holds the number written, so a kernel forked later finds
    nothing of how the one before it ended in the memory it starts from."""
    if code is None:
        os.write(fd, b'{"exit": null}\n')
        return
    os.write(fd, b'{"exit": ')
    if code >= 100:
        os.write(fd, DIGITS[code // 100])
    if code >= 10:
        os.write(fd, DIGITS[code // 10 % 10])
    os.write(fd, DIGITS[code % 10])
    os.write(fd, b"}\n")


def _quiet_fds() -> None:
    """Point 0, 1 and 2 at /dev/null and close every other descriptor."""
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 4096)


def child(work_dir: str, tmpfs_bytes: int, report: int, request: dict[str, Any]) -> None:
    """C: make the namespaces, fork G (PID 1 there), tell the zygote G's pid, wait for G and
    exit as it did. Never returns."""
    code = 70
    try:
        uid, gid = os.geteuid(), os.getegid()
        _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # so it may write its own id maps
        # the submission's processes, never the zygote, are ended first at the memory bound
        _write("/proc/self/oom_score_adj", "1000")
        _check(_libc.unshare(NAMESPACES), "unshare")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # the kernel must not reach into C
        init = os.fork()
        if init == 0:
            os.close(report)
            namespace_init(work_dir, tmpfs_bytes, request)
        os.write(report, f"{init}\n".encode())
        os.close(report)
        code = _exit_code(os.waitpid(init, 0)[1])
    finally:
        os._exit(code)


def namespace_init(work_dir: str, tmpfs_bytes: int, request: dict[str, Any]) -> None:
    """G: PID 1 of the submission's namespace. Mount its private folders, drop every
    capability, fork the kernel, reap until the kernel ends, then exit as it did (and the
    namespace, everything in it, with it). Never returns."""
    code = 71
    try:
        _quiet_fds()
        _mount(b"none", "/", None, MS_REC | MS_PRIVATE)
        size = f"size={int(tmpfs_bytes)},mode=1777".encode()
        for folder in ("/tmp", work_dir, "/dev/shm"):
            _mount(b"tmpfs", folder, b"tmpfs", MS_NOSUID | MS_NODEV, size)
        # Everything else this kernel could write is shared with the next submission's
        # kernel (bubblewrap's root and /dev, writable for an ordinary user's sandbox): it is
        # made read-only here, so nothing a kernel writes outlives it.
        for shared in ("/", "/dev"):
            remount_read_only(shared)
        try:
            _mount(b"proc", "/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        except OSError:  # a root grader's bwrap covers parts of /proc: hide it instead
            _mount(b"tmpfs", "/proc", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
                   b"size=4k,mode=555")
        drop_capabilities()
        cpu_limit = wanted_limits(request["limits"])[resource.RLIMIT_CPU][0]
        kernel = os.fork()
        if kernel == 0:
            start_kernel(work_dir, request)
        while True:
            pid, status, usage = os.wait3(0)
            if pid == kernel:
                code = _kernel_exit_code(status, usage.ru_utime + usage.ru_stime, cpu_limit)
                break
    finally:
        os._exit(code)


def start_kernel(work_dir: str, request: dict[str, Any]) -> None:
    """K: the submission's kernel, with its limits, in its working folder. Never returns."""
    code = 72
    try:
        _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        set_limits(request["limits"])
        for name in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(name, signal.SIG_DFL)  # before the filter, which keeps SIGCHLD's
        syscall_filter.install()
        os.chdir(work_dir)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from ipykernel.kernelapp import IPKernelApp

        sys.argv = ["ipykernel_launcher", *request["argv"]]
        app = IPKernelApp.instance()
        app.initialize(list(request["argv"]))
        app.start()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    except Exception as error:  # noqa: BLE001  said for the grader's reason, then exit 72
        leave_start_failure(request, error)
    finally:
        os._exit(code)


def leave_start_failure(request: dict[str, Any], error: Exception) -> None:
    """Write why the kernel did not start (one line) beside its connection file, where the
    grader reads it for its reason (``START_FAILED``); never raises."""
    try:
        argv = [str(arg) for arg in request["argv"]]
        folder = os.path.dirname(argv[argv.index("-f") + 1])
        with open(os.path.join(folder, START_FAILED), "w", encoding="utf-8") as note:
            note.write(f"{type(error).__name__}: {error}"[:300])
    except Exception:  # noqa: BLE001, S110  the exit status still says it failed
        pass


class Zygote:
    """The zygote's own state: the one child it has (C's and G's pids) and its set-up."""

    def __init__(self, work_dir: str, tmpfs_bytes: int) -> None:
        self.work_dir, self.tmpfs_bytes = work_dir, tmpfs_bytes
        self.child: int | None = None  # C
        self.init: int | None = None  # G
        self.exit: int | None = None

    def kill(self) -> int | None:
        """SIGKILL the child's namespace (its init, G: the kernel kills and reaps every other
        process of the namespace before G's death is reported to C), wait for C to see it and
        end (SIGKILL it after ``KILL_WAIT`` seconds); reap C; return its exit code."""
        if self.child is None:
            return self.exit
        for pid in (self.init,) if self.init else (self.child,):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + KILL_WAIT
        while (code := _reaped(self.child, wait=False)) is None:
            if time.monotonic() > deadline:
                os.kill(self.child, signal.SIGKILL)
                code = _reaped(self.child, wait=True)
                break
            time.sleep(0.002)
        self.exit = code
        self.child = self.init = None
        return self.exit

    def poll(self) -> int | None:
        if self.child is None:
            return self.exit
        code = _reaped(self.child, wait=False)
        if code is None:
            return None
        self.exit = code
        if self.init:
            try:  # C ended: make sure its namespace did too
                os.kill(self.init, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.child = self.init = None
        return self.exit

    def leftovers(self) -> list[int]:
        """Return pids in the sandbox other than bubblewrap's init (1) and the zygote."""
        me = os.getpid()
        return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]

    def spawn(self, request: dict[str, Any]) -> None:
        self.kill()
        for pid in self.leftovers():  # none should be: C and G are reaped, G's namespace died
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.leftovers():
            raise RuntimeError("processes of an earlier kernel are still there")
        if len(os.listdir("/proc/self/task")) != 1:
            raise RuntimeError("it runs threads, so forking it is unsafe")
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            self.exit = None  # how the kernel before ended is not this one's to know
            os.close(read_end)
            os.dup2(write_end, 100)
            os.closerange(0, 100)
            os.closerange(101, 4096)
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            child(self.work_dir, self.tmpfs_bytes, 100, request)
        os.close(write_end)
        self.child, self.exit = pid, None
        with os.fdopen(read_end, "rb") as report:
            line = report.readline()
        if not line.strip().isdigit():
            self.kill()
            raise RuntimeError("the kernel's namespace could not be made")
        self.init = int(line)


def preload(modules: list[str]) -> None:
    """Import what every kernel imports, once; a module that fails to import is left to the
    kernel (which then reports it as the notebook runs)."""
    for name in (*PRELOAD, *modules):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001
            pass


def main(argv: list[str]) -> int:
    work_dir, tmpfs_bytes, modules = argv[0], int(argv[1]), argv[2:]
    # answers go straight to the pipe: a buffered writer would keep the last one, how the
    # kernel before ended, in its buffer, in the memory the next kernel forks from
    commands, answers = sys.stdin.buffer, sys.stdout.fileno()
    preload(modules)
    gc.freeze()  # what the zygote imported is never traversed by a kernel's collections
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # no process of its uid may read or write it
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    zygote = Zygote(work_dir, tmpfs_bytes)
    os.write(answers, b'{"ok": "ready"}\n')
    for line in commands:
        try:
            request = json.loads(line)
            op = request["op"]
            if op == "spawn":
                zygote.spawn(request)
                os.write(answers, b'{"ok": true}\n')
            elif op in ("poll", "kill"):  # an exit code: written with no object holding it
                write_exit(answers, zygote.poll() if op == "poll" else zygote.kill())
            else:
                os.write(answers, json.dumps({"err": f"unknown op {op!r}"}).encode() + b"\n")
        except Exception as error:  # noqa: BLE001  answered, never fatal
            os.write(answers, json.dumps({"err": f"{type(error).__name__}: {error}"}).encode()
                     + b"\n")
    zygote.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
