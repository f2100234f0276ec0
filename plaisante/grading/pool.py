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

from .result import Limits
from .run_results import RunResults
from .worker import (
    ATTEMPTS,
    SETUP_ERRORS,
    WORKER_MEMORY_BYTES,
    Grader,
    bound_memory,
    failed_result,
    grade_task,
    warm_assignment,
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


def _local_worker(conn: Any, root: str, grader: Grader | None) -> None:
    """A worker process: answer each task received (``_serve``) until None or the
    coordinator's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    _die_with_parent()
    from . import submission

    submission.RUN_SAYS_UNUSABLE = True  # LocalPool.grade says it once, for every worker
    bound_memory(WORKER_MEMORY_BYTES)
    warm_worker()
    try:
        _serve(conn, root, grader)
    finally:  # multiprocessing ends a worker with os._exit: no atexit, so close it here
        from .zygote import close_zygote

        close_zygote()


def _die_with_parent() -> None:
    """Have Linux kill this worker when the process that started it dies, even by SIGKILL
    (a forked worker holds its own pipe's other end, so it would never see the pipe close);
    its sandbox dies with it (bubblewrap's --die-with-parent). Elsewhere, do nothing."""
    import ctypes
    import os

    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)


def _serve(conn: Any, root: str, grader: Grader | None) -> None:
    """Answer each task received on ``conn`` until None or its end closes. A task is
    ``("grade", student, assignment, limits, sandbox, reread)``, answered with how it went
    (``reread``: read the assignment's facts from the gradebook again first, as a long-lived
    worker must: a due date or an extension may have been set since), or ``("warm", None,
    assignment, limits, sandbox, False)``: get the kernel zygote for that assignment ready
    now (a resident grader's worker, before anyone asks), answered with ``("warm", problem
    or None)``."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        kind, student, assignment, limits, sandbox, reread = task
        if reread:
            from .autograde import forget_facts

            forget_facts()
        if kind == "warm":
            conn.send(("warm", warm_assignment(root, assignment, limits, sandbox)))
            continue
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

    def __init__(self, root: str, grader: Grader | None) -> None:
        import multiprocessing

        context: Any = multiprocessing.get_context(_start_method())
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_local_worker, args=(child, root, grader),
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


class LocalPool:
    """``workers`` grading processes of this machine, forked from this one once its grading
    code is imported (``warm_worker``); they live until ``close``, so a resident service
    (``plaisante.grading.service``) keeps them, and their kernel zygotes, across requests.
    Each worker grades any assignment, with the limits of each task."""

    def __init__(self, root: Path, workers: int, grader: Grader | None = None) -> None:
        warm_worker()  # imported once here; forked workers start with it
        self.root, self.grader = str(root), grader
        self.workers = [_Worker(self.root, grader) for _ in range(workers)]

    def warm(self, assignment: str, limits: Limits, sandbox: bool) -> list[str]:
        """Have every worker get ready to grade ``assignment`` (its kernel zygote started);
        return the problems met (none when all are ready)."""
        if sandbox:
            from .submission import say_no_zygote

            say_no_zygote()  # once, here, rather than by every worker
        self._replace_dead()
        for worker in self.workers:
            try:
                worker.conn.send(("warm", None, assignment, limits, sandbox, False))
            except OSError:
                pass  # it died just now: its recv below says so
        problems = []
        for index, worker in enumerate(self.workers):
            try:
                answer = worker.conn.recv()
            except (EOFError, OSError):
                answer = ("warm", "the worker process ended")
                self.workers[index] = _Worker(self.root, self.grader)
            if answer[1]:
                problems.append(answer[1])
        return problems

    def grade(self, assignment: str, students: Sequence[str], run_results: RunResults, *,
              limits: Limits, sandbox: bool, reread: bool = False) -> None:
        """Grade ``students`` on the workers, handing each result to ``run_results`` (started
        here); with ``reread``, each worker reads the assignment's facts (due date,
        extensions, source cells) from the gradebook again for each submission. Raises the
        first ``SETUP_ERRORS`` exception a worker meets (type kept). A worker still grading
        when this ends early (an interruption, a setup error) is killed and replaced."""
        from multiprocessing.connection import wait

        if sandbox:
            from .submission import say_no_zygote

            say_no_zygote()  # once, here, rather than by every worker
        if sandbox and self.grader is None:
            from . import sandbox as sb

            sb.require_sandbox()  # say it once, here, rather than in every worker
        self._replace_dead()
        waiting = deque(students)
        tries: Counter[str] = Counter()
        pool = self.workers
        run_results.start()
        try:
            while True:
                for worker in pool:
                    if worker.student is None and waiting:
                        worker.student = waiting.popleft()
                        tries[worker.student] += 1
                        try:
                            worker.conn.send(("grade", worker.student, assignment, limits,
                                              sandbox, reread))
                        except OSError:
                            pass  # it died just now: its sentinel below says so
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
                                run_results.add(message[1])
                            elif message[0] == "setup":
                                raise _setup_error(message[1])(message[2])
                            else:
                                run_results.add(failed_result(student, (message[1], message[2])))
                            continue
                    if worker.conn in ready or worker.process.sentinel in ready:
                        student, worker.student = str(worker.student), None
                        self._replace(worker)
                        if tries[student] < ATTEMPTS:
                            waiting.appendleft(student)
                        else:
                            run_results.add(failed_result(student, ("KilledWorker", "")))
        finally:
            for worker in list(pool):
                if worker.student is not None:  # interrupted: do not wait for it
                    worker.process.kill()
                    self._replace(worker)

    def _replace_dead(self) -> None:
        """Replace the workers that died while idle (killed, out of memory) since last used."""
        for worker in list(self.workers):
            if not worker.process.is_alive():
                self._replace(worker)

    def _replace(self, worker: _Worker) -> None:
        worker.stop(0)
        self.workers[self.workers.index(worker)] = _Worker(self.root, self.grader)

    def close(self) -> None:
        """Stop every worker (each closes its zygote), killing any that will not stop."""
        for worker in self.workers:
            worker.stop(10)
        self.workers = []


def _setup_error(name: str) -> type[BaseException]:
    """Return the ``SETUP_ERRORS`` class named ``name`` (RuntimeError for any other name)."""
    return next((e for e in SETUP_ERRORS if e.__name__ == name), RuntimeError)


def run_local(root: Path, assignment: str, students: Sequence[str], run_results: RunResults, *,
              limits: Limits, sandbox: bool, workers: int, grader: Grader | None) -> None:
    """Grade ``students`` on ``workers`` processes of this machine, handing each result to
    ``run_results``. Raises the first ``SETUP_ERRORS`` exception a worker meets (type kept)."""
    if sandbox and grader is None:
        from . import sandbox as sb

        sb.require_sandbox()
    pool = LocalPool(root, min(workers, len(students)), grader)
    try:
        pool.grade(assignment, students, run_results, limits=limits, sandbox=sandbox)
    finally:
        pool.close()
