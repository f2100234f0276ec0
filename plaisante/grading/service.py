"""The resident grader: ``plaisante grader`` keeps one course's grading code imported and its
grading worker warm, and ``plaisante grade ID --student S`` hands it the submission instead of
starting all that itself: a submission graded and recorded in under 1.5 s.

Both ends of one local socket:

* ``serve(root)`` — the resident grader. It starts a ``pool.LocalPool`` (one worker by
  default), has each worker grade the likely assignment's released notebook once, writing
  nothing (``submission.warm_up``: the kernel zygote started, nbgrader's and the judge's
  first-use costs paid), then answers requests one at a time until Ctrl-C or SIGTERM
  (``plaisante grader --stop``: ``ask_to_stop``). A ``grade`` request is graded exactly as
  ``plaisante grade`` grades it (the same worker code, the same limits, recorded by this
  process through the same ``RunResults``), and answered with the table ``plaisante grade``
  would print.
* ``ask_to_grade(root, …)`` — the command's side: the answer, or None when no resident grader
  serves this course (the command then grades by itself, as always).

Who may talk to whom: the socket lives in a folder of this user's, mode 0700
(``socket_folder``); one grader per course holds its lock; each end checks the other's user
id (``SO_PEERCRED``), so another local user can neither ask for grading nor pose as the
grader. A request names only an assignment, student ids (checked as ``plaisante grade``
checks them) and limits: the grader reads the submissions from its own course folder. A
request from other kit code than the grader's is refused, and the command grades by itself;
a grader whose own code changed restarts itself. The command never waits long: a grader that
has not taken its request within ``CONNECT_SECONDS`` (busy, paused) is passed over.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import stat
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Largest request or answer line read (bytes); an answer holds one table.
MOST_BYTES = 4 * 1024 * 1024

#: Seconds the command waits for the grader to take its request (the grader reads a request
#: within this too); a grader busy with another request, or paused, past it is not waited for.
CONNECT_SECONDS = 5.0

#: Seconds the command waits for an answer beyond the submissions' own time limits.
ANSWER_MARGIN_SECONDS = 120.0


@dataclass(frozen=True)
class Answer:
    """What ``plaisante grade`` prints and returns, as the resident grader made it."""

    status: int
    stdout: str
    stderr: str


# ------------------------------------------------------------------------------ both ends

def _private_folder(folder: Path, create: bool) -> bool:
    """Return whether ``folder`` is a real folder of this user's that no one else may open,
    making it (mode 0700) first if it is missing and ``create``."""
    try:
        if create:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
            and not info.st_mode & 0o077)


def socket_folder(create: bool = False) -> Path | None:
    """Return this user's folder for resident graders' sockets: the first of
    ``~/.cache/plaisante-grader`` (the home folder from the user database, not ``$HOME``, so
    every terminal of the user agrees) and ``/var/tmp/plaisante-grader-<uid>`` that is a folder of
    this user's with mode 0700 (made so if missing and ``create``: the grader makes it, a
    command only looks). None when neither is: anyone could make the second one first, so a
    folder someone else owns is passed over, never used."""
    import pwd

    candidates = [Path(f"/var/tmp/plaisante-grader-{os.geteuid()}")]
    try:
        home = Path(pwd.getpwuid(os.geteuid()).pw_dir)
        candidates.insert(0, home / ".cache" / "plaisante-grader")
    except KeyError:  # a uid with no entry in the user database
        pass
    return next((folder for folder in candidates if _private_folder(folder, create)), None)


def socket_path(root: Path, create: bool = False) -> Path | None:
    """Return the socket of the resident grader of the course at ``root`` (None when this
    user has no private folder for it: ``socket_folder(create)``)."""
    folder = socket_folder(create)
    if folder is None:
        return None
    name = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:16]
    path = folder / f"plaisante-grader-{name}.sock"
    return path if len(str(path).encode()) < 108 else None  # a Unix socket's longest path


def kit_stamp() -> str:
    """Return a fingerprint of the kit's code as installed now (its folder and its Python
    files' sizes and modification times): a grader running older code is not used."""
    package = Path(__file__).resolve().parents[1]
    seen = []
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                seen.append(f"{folder}/{name}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha256("\n".join([str(package), *seen]).encode()).hexdigest()[:16]


def _peer_uid(conn: socket.socket) -> int:
    """Return the user id of the process at the other end of the Unix socket ``conn``."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    conn.sendall(json.dumps(message).encode() + b"\n")


def _receive(conn: socket.socket) -> dict[str, Any]:
    """Read one JSON object line from ``conn``. Raises ValueError for anything else (too
    long, not JSON, not an object), EOFError when the other end closed without sending a
    byte, and ConnectionError when it closed in the middle of a message."""
    data = b""
    timeout = conn.gettimeout()
    deadline = None if timeout is None else time.monotonic() + timeout
    while not data.endswith(b"\n"):
        if deadline is not None:  # the whole message, not each piece, within the timeout
            conn.settimeout(max(0.001, deadline - time.monotonic()))
        chunk = conn.recv(65536)
        if not chunk and not data:
            raise EOFError("closed before any message")
        if not chunk:
            raise ConnectionError("closed before a whole message")
        data += chunk
        if len(data) > MOST_BYTES:
            raise ValueError(f"a message over {MOST_BYTES} bytes")
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
        raise ValueError("a message that is not JSON") from None
    if not isinstance(message, dict):
        raise ValueError("a message that is not a JSON object")
    return message


# ------------------------------------------------------------------------------ the command's end

def _connect(root: Path) -> socket.socket | None:
    """Return a connection to the course's resident grader, or None when there is none that
    can take it now (no socket; one left by a grader that ended uncleanly; its queue full;
    a socket served by another user, said on stderr)."""
    path = socket_path(root)
    if path is None or not path.exists():
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(CONNECT_SECONDS)
    try:
        conn.connect(str(path))
        if _peer_uid(conn) == os.geteuid():
            return conn
        print(f"plaisante: {path} is served by another user; not used", file=sys.stderr)
    except OSError:
        pass
    conn.close()
    return None


def ask_to_grade(root: Path, assignment: str, students: list[str], *,
                 cell_seconds: float | None, submission_seconds: float,
                 sandbox: bool) -> Answer | None:
    """Have the resident grader of the course at ``root`` grade and record ``students``'
    submissions of ``assignment`` (as ``plaisante grade ID --student S…`` would, with these
    limits: ``cell_seconds`` None means the course's); return its ``Answer``. Return None —
    grade here then — when no grader serves the course, it runs other kit code, or it
    stopped before answering (the last two said on stderr)."""
    conn = _connect(root)
    if conn is None:
        return None
    with conn:
        try:
            _receive(conn)  # the grader's greeting: it has taken this connection
        except (OSError, ValueError, EOFError):  # socket.timeout is an OSError
            print(f"plaisante grade: the resident grader did not take the request within "
                  f"{CONNECT_SECONDS:g} s (busy with another, or paused); grading here "
                  "instead", file=sys.stderr)
            return None
        try:
            _send(conn, {"op": "grade", "kit": kit_stamp(), "assignment": assignment,
                         "students": students, "cell_seconds": cell_seconds,
                         "submission_seconds": submission_seconds, "sandbox": sandbox})
            # the grader keeps the submissions' own time limits; past them and a margin it
            # is stuck (paused, say), and this command grades by itself
            conn.settimeout(len(students) * 2 * submission_seconds + ANSWER_MARGIN_SECONDS)
            reply = _receive(conn)
        except (OSError, ValueError, EOFError) as error:
            print(f"plaisante grade: the resident grader stopped before answering ({error}); "
                  "grading here instead", file=sys.stderr)
            return None
    if reply.get("stale"):
        print("plaisante grade: the resident grader ran other kit code than this command (the "
              "kit changed since it started); grading here instead while it restarts itself",
              file=sys.stderr)
        return None
    return Answer(int(reply.get("status", 2)), str(reply.get("stdout", "")),
                  str(reply.get("stderr", "")))


def ask_to_stop(root: Path, wait: float = 30.0) -> int | None:
    """Stop the course's resident grader: SIGTERM to the process that holds its lock (its pid
    is in the lock file), which stops at once, even in the middle of a request (the command
    waiting on it then grades by itself); wait up to ``wait`` seconds for it to end. Return
    its pid, or None when no grader runs."""
    import fcntl

    path = socket_path(root)
    if path is None:
        return None
    try:
        lock = open(path.with_suffix(".lock"))  # noqa: SIM115  closed below
    except FileNotFoundError:
        return None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return None  # nobody holds it: no grader runs
        except BlockingIOError:
            text = lock.read().strip()
        if not text.isdigit():
            return None
        os.kill(int(text), signal.SIGTERM)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.1)
    return int(text)


# ------------------------------------------------------------------------------ the grader's end

class _Stop(BaseException):
    """Raised in the grader's loop to end it (SIGTERM: ``grader --stop``); a BaseException,
    so that no handler of a request's errors takes it for one."""


class _Restart(BaseException):
    """Raised in the grader's loop when the kit's code changed since it started."""


def likely_assignment(root: Path) -> str | None:
    """Return the released assignment a submission most likely comes for next: the one with
    the newest submission, else the first released in teaching order; None when none is
    released."""
    from ..course import CourseLayout
    from ..games import COURSE

    layout = CourseLayout(root)
    found = layout.assignments()
    ordered = [a for a in COURSE if a in found] + [a for a in found if a not in COURSE]
    released = [a for a in ordered if layout.release(a).is_file()]
    newest = {a: max((layout.submitted(s, a).parent.stat().st_mtime
                      for s in layout.submitted_students(a)), default=0.0) for a in released}
    if not any(newest.values()):
        return released[0] if released else None
    return max(released, key=lambda a: newest[a])


def serve(root: Path, *, assignment: str | None = None, workers: int = 1,
          sandbox: bool = True) -> int:
    """Run the resident grader of the course at ``root`` until Ctrl-C or SIGTERM (``grader
    --stop``); return 0. ``assignment``: the one to get ready for (default
    ``likely_assignment``); any assignment can be graded. ``workers``: grading processes
    (each holds a kernel zygote; one grades a submission at a time). Says what it does on
    stdout, one line per request. Raises RuntimeError when a grader already serves the
    course, and what grading raises when it cannot run at all (no sandbox here)."""
    from ..course import CourseLayout

    root = Path(root).resolve()
    if assignment is not None and assignment not in CourseLayout(root).assignments():
        raise ValueError(f"no assignment {assignment!r} in {root / 'source'}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    path = socket_path(root, create=True)
    if path is None:
        raise RuntimeError("no private folder for the grader's socket: ~/.cache/plaisante-"
                           f"grader and /var/tmp/plaisante-grader-{os.geteuid()} are each "
                           "missing and cannot be made, not this user's, or open to others "
                           "(mode 0700)")
    lock = _hold_lock(path.with_suffix(".lock"), root)  # held until this process ends
    path.unlink(missing_ok=True)  # whoever holds the lock owns the socket: this is a leftover
    if sandbox:
        from .sandbox import require_sandbox

        require_sandbox()
    from .pool import LocalPool
    from .result import Limits

    stamp = kit_stamp()
    pool = LocalPool(root, workers)  # forked now, while this process has one thread
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    restart = False
    try:
        ready = assignment or likely_assignment(root)
        if CourseLayout(root).gradebook_missing():
            print("plaisante grader: nothing released yet (no gradebook): run `plaisante "
                  "release`; meanwhile requests are graded, the first one slower", flush=True)
        elif ready is not None:
            problems = pool.warm(ready, Limits.for_course(root), sandbox)
            if problems:
                print(f"plaisante grader: could not get ready for {ready!r} ({problems[0]}); "
                      "its first submission will be graded, more slowly", flush=True)
            else:
                _warm_recording(root, ready)
                print(f"plaisante grader: ready for {ready!r}", flush=True)
        old_mask = os.umask(0o177)
        try:
            listener.bind(str(path))
        finally:
            os.umask(old_mask)
        listener.listen(16)
        print(f"plaisante grader: serving {root} on {path}; `plaisante grade ID --student S` "
              "hands its submissions here. Ctrl-C or `plaisante grader --stop` stops it.",
              flush=True)
        while True:
            conn, _ = listener.accept()
            with conn:
                _answer(conn, root, pool, stamp)
    except (KeyboardInterrupt, _Stop):
        print("plaisante grader: stopped", flush=True)
    except _Restart:
        restart = True
        print("plaisante grader: the kit's code changed since I started: restarting",
              flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
        listener.close()
        path.unlink(missing_ok=True)
        pool.close()
        lock.close()
    if restart:  # the same command line, now running the kit's new code
        os.execv(sys.executable, sys.orig_argv)
    return 0


def _hold_lock(path: Path, root: Path) -> Any:
    """Open ``path`` and lock it for this process (released when it ends or execs); return
    the open file. Raises RuntimeError when another grader of the course holds it."""
    import fcntl

    lock = open(path, "a")  # noqa: SIM115  held open for the grader's whole life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise RuntimeError(f"a resident grader already serves {root}; to start a new one, "
                           "stop it first: plaisante grader --stop") from None
    lock.truncate(0)
    lock.write(str(os.getpid()))  # for ``ask_to_stop``
    lock.flush()
    return lock


def _raise_stop(_signum: int, _frame: Any) -> None:
    raise _Stop


def _warm_recording(root: Path, assignment: str) -> None:
    """Pay this process's first-use costs of reading the gradebook and drawing the table."""
    from ..results import scores

    try:
        scores.cell_maxima(root, assignment)
        scores.step_titles(assignment)
    except Exception:  # noqa: BLE001  only a warm-up: a real request says what is wrong
        pass


def _answer(conn: socket.socket, root: Path, pool: Any, stamp: str) -> None:
    """Read one request on ``conn`` and answer it. Raises _Restart when this grader's own
    code changed."""
    try:
        if _peer_uid(conn) != os.geteuid():
            return  # another user: no answer at all
        conn.settimeout(CONNECT_SECONDS)
        _send(conn, {"ready": True})
        request = _receive(conn)
    except (EOFError, BrokenPipeError, ConnectionResetError):
        return  # a command that only looked (is a grader running?) or gave up waiting
    except (OSError, ValueError) as error:
        print(f"plaisante grader: a request could not be read ({error})", flush=True)
        return
    op = request.get("op")
    if op != "grade":
        _reply(conn, {"status": 2, "stderr": f"plaisante grader: unknown request {op!r}"})
        return
    if request.get("kit") != stamp:
        _reply(conn, {"stale": True})
        if kit_stamp() != stamp:  # this grader's own code is what changed
            raise _Restart
        print("plaisante grader: refused a request from other kit code (another copy of the "
              "kit)", flush=True)
        return
    try:
        answer = _grade(root, pool, request)
    except Exception as error:  # noqa: BLE001  said to the command; the grader goes on
        print(f"plaisante grader: a request failed: {type(error).__name__}: {error}", flush=True)
        answer = {"status": 2, "stderr": f"plaisante grade: {type(error).__name__}: {error}"}
    _reply(conn, answer)


def _reply(conn: socket.socket, message: dict[str, Any]) -> None:
    try:
        conn.settimeout(CONNECT_SECONDS)
        _send(conn, message)
    except OSError:
        pass  # the command went away: the grades are recorded all the same


def _grade(root: Path, pool: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Grade and record a ``grade`` request as ``plaisante grade`` would; return the answer."""
    from .result import Limits
    from .run import submitted_among
    from .run_results import RunResults
    from .run_table import summary
    from .worker import SETUP_ERRORS

    assignment, students = request.get("assignment"), request.get("students")
    try:
        if not isinstance(assignment, str) or not isinstance(students, list) or not students \
                or not all(isinstance(s, str) for s in students):
            raise ValueError("a grade request names an assignment and a list of student ids")
        students = submitted_among(root, assignment, students)
        cell = request.get("cell_seconds")
        limits = Limits.for_course(root, float(cell) if cell else None,
                                   float(request.get("submission_seconds") or 300.0))
        run_results = RunResults(root, assignment, len(students), progress=False)
        try:
            pool.grade(assignment, students, run_results, limits=limits,
                       sandbox=request.get("sandbox") is not False, reread=True)
        finally:
            run_results.close()
    except SETUP_ERRORS as error:
        print(f"plaisante grader: {assignment}: {error}", flush=True)
        return {"status": 2, "stderr": f"plaisante grade: {error}"}
    results = [run_results.results[student] for student in students]
    status, table, problem = summary(root, assignment, results)
    for result in results:
        print(f"plaisante grader: {assignment} {result.student}: {result.status} "
              f"{result.total:g}/{result.max_total:g} in {result.seconds:.2f} s", flush=True)
    return {"status": status, "stdout": table, "stderr": problem}
