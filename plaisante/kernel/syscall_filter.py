"""The system-call filter (seccomp) every sandboxed kernel runs under: no memory outside its limits.

A kernel's rlimits bound each process's address space, but some memory is held without being
mapped, so no rlimit sees it: memory files (``memfd_create`` then ``ftruncate``/``fallocate``,
kept open), SysV shared memory and message queues (``shmget``, ``msgget``; held by the IPC
namespace until it ends), and any tmpfs a process could mount after making itself a new user
namespace (where it has every capability). ``install()`` makes these calls end the process
that asks (SIGSYS, so the grader can say why the kernel died):

* ``memfd_create``, ``memfd_secret``, ``shmget``, ``msgget``, ``semget``;
* ``clone`` and ``unshare`` with ``CLONE_NEWUSER`` (``clone3``, whose flags a filter cannot
  read, answers ENOSYS: the C library then falls back to ``clone``);
* on x86-64, every x32 or 32-bit system call (the same calls under other numbers).

And ``rt_sigaction`` on SIGCHLD answers EPERM to a process that would set its handling (only
reading it is allowed): a parent that ignores SIGCHLD, or sets ``SA_NOCLDWAIT``, has its
children reaped by Linux itself, and their CPU time is then added to no process's count, so
the host's clock of the sandbox (``plaisante.grading.sandbox_clock``) would not see it.

POSIX shared memory (``/dev/shm``) and files in ``/tmp`` or the working folder stay allowed:
they live in tmpfs mounts of a fixed size (``Limits.file_bytes`` each).

``python -m plaisante.kernel.syscall_filter ARG…`` installs the filter, then runs
``python -m ipykernel_launcher ARG…`` (a kernel started without the zygote); the zygote calls
``install()`` in each kernel it forks. Only the standard library is imported here.
"""

from __future__ import annotations

import ctypes
import platform
import runpy
import signal
import struct
import sys

CLONE_NEWUSER = 0x10000000
ENOSYS, EPERM = 38, 1
SIGCHLD = 17  # on x86-64 and aarch64 alike
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
RET_ALLOW, RET_KILL_PROCESS, RET_ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
LD_ABS_W, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
# struct seccomp_data: arg 0's low word, arg 1's low word (its high word follows)
NR_OFFSET, ARCH_OFFSET, ARG0_OFFSET, ARG1_OFFSET = 0, 4, 16, 24

#: machine -> (audit arch, lowest foreign syscall number or None, {name: number})
SYSCALLS: dict[str, tuple[int, int | None, dict[str, int]]] = {
    "x86_64": (0xC000003E, 0x40000000, {
        "memfd_create": 319, "memfd_secret": 447, "shmget": 29, "msgget": 68, "semget": 64,
        "clone": 56, "unshare": 272, "clone3": 435, "rt_sigaction": 13}),
    "aarch64": (0xC00000B7, None, {
        "memfd_create": 279, "memfd_secret": 447, "shmget": 194, "msgget": 186, "semget": 190,
        "clone": 220, "unshare": 97, "clone3": 435, "rt_sigaction": 134}),
}
REFUSED = ("memfd_create", "memfd_secret", "shmget", "msgget", "semget")


class FilterUnavailable(RuntimeError):
    """This machine's architecture has no filter here (the kernel would run without one)."""


def program(machine: str | None = None) -> bytes:
    """Return the classic-BPF program (``struct sock_filter`` array) for ``machine``
    (default: this one). Raises FilterUnavailable for an architecture not in ``SYSCALLS``."""
    machine = machine or platform.machine()
    if machine not in SYSCALLS:
        raise FilterUnavailable(f"no system-call filter for {machine}")
    arch, foreign, numbers = SYSCALLS[machine]
    # A tiny assembler: an instruction is (code, label if true, label if false, k), a label
    # None meaning the next instruction; a str alone marks where a label points.
    body: list[tuple[int, str | None, str | None, int] | str] = [
        (LD_ABS_W, None, None, ARCH_OFFSET), (JEQ, None, "kill", arch),
        (LD_ABS_W, None, None, NR_OFFSET)]
    if foreign is not None:
        body.append((JGE, "kill", None, foreign))
    body += [(JEQ, "kill", None, numbers[name]) for name in REFUSED]
    body.append((JEQ, "enosys", None, numbers["clone3"]))
    for name in ("clone", "unshare"):
        body += [(JEQ, None, f"not-{name}", numbers[name]),
                 (LD_ABS_W, None, None, ARG0_OFFSET), (JSET, "kill", "allow", CLONE_NEWUSER),
                 f"not-{name}"]
    body += [(JEQ, None, "allow", numbers["rt_sigaction"]),
             (LD_ABS_W, None, None, ARG0_OFFSET), (JEQ, None, "allow", SIGCHLD),
             (LD_ABS_W, None, None, ARG1_OFFSET), (JEQ, None, "eperm", 0),
             (LD_ABS_W, None, None, ARG1_OFFSET + 4), (JEQ, "allow", "eperm", 0)]
    returns = {"allow": RET_ALLOW, "kill": RET_KILL_PROCESS, "enosys": RET_ERRNO | ENOSYS,
               "eperm": RET_ERRNO | EPERM}
    body += [item for label, value in returns.items() for item in (label, (RET, None, None, value))]
    code: list[tuple[int, str | None, str | None, int]] = []
    where: dict[str, int] = {}
    for item in body:
        if isinstance(item, str):
            where[item] = len(code)
        else:
            code.append(item)

    def jump(label: str | None, at: int) -> int:
        return 0 if label is None else where[label] - at - 1

    words = [struct.pack("=HBBI", op, jump(true, at), jump(false, at), k)
             for at, (op, true, false, k) in enumerate(code)]
    return b"".join(words)


def install() -> bool:
    """Set ``no_new_privs`` and load the filter for this process and all it starts; return
    False (and load nothing) on an architecture ``SYSCALLS`` does not know. Raises OSError
    when the kernel refuses it."""
    try:
        code = program()
    except FilterUnavailable:
        return False

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    prog = SockFprog(len(code) // 8, code)
    for args in ((PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
                 (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0)):
        if libc.prctl(*[ctypes.c_ulong(a) for a in args]) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"prctl{args[:2]} refused")
    return True


def main() -> None:
    """Install the filter, then run ``ipykernel_launcher`` with this command's arguments; the
    kernel is the OOM killer's first choice in its sandbox (bubblewrap's own processes last)."""
    try:
        with open("/proc/self/oom_score_adj", "w", encoding="ascii") as score:
            score.write("1000")
    except OSError:
        pass  # an empty /proc: bubblewrap's processes are the killer's choice too
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # an inherited SIG_IGN would stay for good
    install()
    sys.argv = ["ipykernel_launcher", *sys.argv[1:]]
    runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
