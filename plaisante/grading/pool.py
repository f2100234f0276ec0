"""Grading on this machine: worker processes, forked from the coordinator once its grading
code is imported, each grading one submission at a time; a worker that dies is replaced and
its submission tried again (``ATTEMPTS``), then flagged."""

from __future__ import annotations

import signal
import threading
from collections import Counter, deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .collector import Collector
from .result import Limits
from .worker import (
    ATTEMPTS,
    SETUP_ERRORS,
    WORKER_MEMORY_BYTES,
    Grader,
    bound_memory,
    failed_result,
    grade_task,
    warm_worker,
)


def _start_method() -> str:
    """Return 'fork' while this process has one thread (a forked worker then starts at once,
    with everything already imported), else 'forkserver' (forking a threaded process is
    unsafe; its server imports the grading code once, for every worker it starts)."""
    if threading.active_count() == 1:
        return "fork"
    import multiprocessing

    multiprocessing.get_context("forkserver").set_forkserver_preload(
        ["plaisante.grading.pool", "plaisante.grading.submission"])
    return "forkserver"


def _local_worker(conn: Any, root: str, assignment: str, limits: Limits, sandbox: bool,
                  grader: Grader | None) -> None:
    """A worker process: grade each student id received, send back what happened, until
    None or the coordinator's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    bound_memory(WORKER_MEMORY_BYTES)
    warm_worker(root)
    try:
        _serve(conn, root, assignment, limits, sandbox, grader)
    finally:  # multiprocessing ends a worker with os._exit: no atexit, so close it here
        from .zygote import close_zygote

        close_zygote()


def _serve(conn: Any, root: str, assignment: str, limits: Limits, sandbox: bool,
           grader: Grader | None) -> None:
    """Grade each student id received on ``conn`` until None or its end closes."""
    while True:
        try:
            student = conn.recv()
        except (EOFError, OSError):
            return
        if student is None:
            return
        try:
            message: tuple[Any, ...] = (
                "done", grade_task(root, student, assignment, limits, sandbox, grader))
        except SETUP_ERRORS as error:
            message = ("setup", type(error).__name__, str(error))
        except Exception as error:  # noqa: BLE001  flagged by the coordinator
            message = ("error", type(error).__name__, str(error))
        conn.send(message)


class _Worker:
    """One worker process, its end of the pipe, and the student it is grading (or None)."""

    def __init__(self, args: tuple[Any, ...]) -> None:
        import multiprocessing

        context: Any = multiprocessing.get_context(_start_method())
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_local_worker, args=(child, *args),
                                       name="plaisante-grader", daemon=True)
        self.process.start()
        child.close()
        self.student: str | None = None

    def stop(self, timeout: float) -> None:
        """Ask the worker to finish, and kill it if it has not within ``timeout`` seconds."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run_local(root: Path, assignment: str, students: Sequence[str], collector: Collector, *,
              limits: Limits, sandbox: bool, workers: int, grader: Grader | None) -> None:
    """Grade ``students`` on ``workers`` processes of this machine, handing each result to
    ``collector``. Raises the first ``SETUP_ERRORS`` exception a worker meets (type kept)."""
    from multiprocessing.connection import wait

    if sandbox and grader is None:
        from . import sandbox as sb

        sb.require_sandbox()  # say it once, here, rather than in every worker
    warm_worker(str(root))  # imported once here; forked workers start with it
    args = (str(root), assignment, limits, sandbox, grader)
    waiting = deque(students)
    tries: Counter[str] = Counter()
    pool = [_Worker(args) for _ in range(min(workers, len(students)))]
    collector.start()
    try:
        while True:
            for worker in pool:
                if worker.student is None and waiting:
                    worker.student = waiting.popleft()
                    tries[worker.student] += 1
                    worker.conn.send(worker.student)
            busy = [w for w in pool if w.student is not None]
            if not busy:
                break
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for worker in busy:
                message = None
                if worker.conn in ready:
                    try:
                        message = worker.conn.recv()
                    except (EOFError, OSError):  # its end closed: the worker is gone
                        message = None
                    if message is not None:
                        student, worker.student = str(worker.student), None
                        if message[0] == "done":
                            collector.add(message[1])
                        elif message[0] == "setup":
                            kind = next(e for e in SETUP_ERRORS if e.__name__ == message[1]) \
                                if message[1] in {e.__name__ for e in SETUP_ERRORS} \
                                else RuntimeError
                            raise kind(message[2])
                        else:
                            collector.add(failed_result(student, (message[1], message[2])))
                        continue
                if worker.conn in ready or worker.process.sentinel in ready:
                    student, worker.student = str(worker.student), None
                    worker.stop(0)
                    pool[pool.index(worker)] = _Worker(args)
                    if tries[student] < ATTEMPTS:
                        waiting.appendleft(student)
                    else:
                        collector.add(failed_result(student, ("KilledWorker", "")))
    finally:
        for worker in pool:
            if worker.student is not None:  # interrupted: do not wait for it
                worker.process.kill()
        for worker in pool:
            worker.stop(10)
