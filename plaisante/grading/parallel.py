"""Grade a whole class in parallel: on every core of this machine, or on a Dask cluster (issue 5).

    from plaisante.grading.parallel import grade_parallel

    results = grade_parallel(root)                                  # every core, sandbox on
    results = grade_parallel(root, scheduler="tcp://10.0.0.5:8786")  # an existing Dask cluster

Each submission is one task: ``plaisante.grading.grade_submission`` (the sandboxed grading of
issue 4) run in a worker process, one submission per worker at a time.

* Without a scheduler address the workers are ``workers`` processes of this machine (default:
  every core this process may run on), forked from this one once its grading code is
  imported, and each grading submission after submission: no interpreter, import or
  nbgrader start-up per student. A worker whose process dies is replaced; the submission it
  was grading is tried again once (``ATTEMPTS``), then flagged; no other submission is
  touched.
* With a scheduler address (``tcp://host:8786``) the tasks fan out to that Dask cluster's
  workers, which must see the course folder at the same path (a shared file system) and have
  this kit installed; ``scheduler="local"`` makes a Dask ``LocalCluster`` of ``workers``
  processes here instead. The coordinator keeps one task per worker thread in flight.

Only this process, the coordinator, writes the gradebook: results are handed, as they arrive,
to one recording thread that calls ``plaisante.grading.record`` in batches, so the gradebook
writes overlap the grading instead of following it. If the run is interrupted, what was
graded is recorded before the interruption goes on.

A progress bar (tqdm, on stderr) shows done/total, rate, ETA and how many submissions were
flagged so far. The scores are those of serial grading: a worker runs exactly what
``grade_submission`` runs, and ``tests/test_parallel.py`` checks it.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import sys
import threading
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..reference import ASSIGNMENT
from .result import Limits, SubmissionResult

#: Exceptions ``grade_submission`` documents for a run that cannot work at all (bad id, no
#: gradebook entry, no sandbox here): they stop the whole run instead of flagging everyone.
SETUP_ERRORS: tuple[type[BaseException], ...] = (ValueError, FileNotFoundError, RuntimeError)

#: Address space of one local grading worker (RLIMIT_AS, soft): whatever a kernel sends, the
#: process that reads it stays under this; past it the worker fails, the submission is tried
#: again once and then flagged. A worker uses ~0.4 GB of address space (~0.15 GB resident).
WORKER_MEMORY_BYTES = 1024 ** 3

#: Tries a submission gets when its grading worker process dies under it.
ATTEMPTS = 2

#: Results recorded per call of ``record`` (at most; fewer when grading is faster than that).
RECORD_BATCH = 25

Grader = Callable[..., SubmissionResult]

WORKER_DIED = "the grading worker process died while grading it"


def default_workers() -> int:
    """Return how many cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def grade_task(root: str, student: str, assignment: str, limits: Limits, sandbox: bool,
               grader: Grader | None = None) -> SubmissionResult:
    """Grade one submission in a worker; return its result (what a Dask task runs).

    ``grader`` defaults to ``plaisante.grading.grade_submission``; tests pass a stand-in.
    Exceptions propagate to the coordinator, which decides whether they stop the run.
    """
    if grader is None:
        from . import grade_submission as grader
    try:
        return grader(Path(root), student, assignment, limits=limits, sandbox=sandbox)
    finally:
        _forget_engines()


def warm_worker(root: str) -> None:
    """Get a worker process ready before its first task: import the grading code, apply
    ``tune_worker``, and let issue 4's code prepare what it reuses across submissions
    (``plaisante.grading.prepare_worker(root)``, if it exists), so the first submission of
    every worker is not slower than the rest."""
    from .. import grading

    tune_worker()
    prepare = getattr(grading, "prepare_worker", None)
    if prepare is not None:
        prepare(Path(root))


_tuned = False
_engines: dict[tuple[str, tuple[Any, ...]], Any] = {}  # throw-away gradebook URL → its engine


def _forget_engines() -> None:
    """Close the shared engines of the submission just graded (its gradebook is gone)."""
    while _engines:
        _engines.popitem()[1].dispose()


def tune_worker() -> None:
    """Take out two costs nbgrader pays again for every submission, in this process only.

    * The private, throw-away gradebook each submission is graded against (a file under a
      ``plaisante-grade-`` temporary folder, deleted afterwards) is opened with SQLite's
      ``synchronous=OFF`` and an in-memory journal: nbgrader commits once per grade cell and
      each commit waited on the disk. The course gradebook is never touched by a worker
      (only the coordinator's ``record`` writes it, with SQLite's defaults).
    * nbgrader opens the gradebook about ten times per submission (the converter, each of
      its preprocessors, the scores), each time with a new SQLAlchemy engine whose first
      connection and every first-seen statement cost again. Here the engines of a throw-away
      gradebook are made once per submission and shared (each open still gets its own
      session and connection), and disposed of when the submission's task ends.
    * nbgrader validates every cell's metadata with ``jsonschema.validate(meta, schema)``,
      which checks the schema itself and builds a validator on every call; here a validator is
      built once per schema. The same checks run and the same ``ValidationError`` is raised.

    Neither changes what is graded or how: ``tests/test_parallel.py`` checks that parallel
    scores equal serial ones. Safe to call more than once.
    """
    global _tuned
    if _tuned:
        return
    _tuned = True
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from .submission import TMP_PREFIX

    @event.listens_for(Engine, "connect")
    def _throw_away_gradebook(dbapi_connection: Any, _record: Any) -> None:
        if type(dbapi_connection).__module__.split(".")[0] not in ("sqlite3", "_sqlite3"):
            return
        rows = dbapi_connection.execute("PRAGMA database_list").fetchall()
        if any(f"/{TMP_PREFIX}" in (row[2] or "") for row in rows):
            dbapi_connection.execute("PRAGMA synchronous=OFF")
            dbapi_connection.execute("PRAGMA journal_mode=MEMORY")

    from nbgrader import api

    make_engine = api.create_engine

    def engine_once(url: Any, **options: Any) -> Any:
        if f"/{TMP_PREFIX}" not in str(url):
            return make_engine(url, **options)
        key = (str(url), tuple(sorted(options.items())))
        if key not in _engines:
            _engines[key] = make_engine(url, **options)
        return _engines[key]

    api.create_engine = engine_once

    import jsonschema
    from nbgrader.nbgraderformat import common

    compiled: dict[str, Any] = {}  # the schema, as sorted JSON → its validator

    class _CompiledOnce:
        """``jsonschema`` as nbgrader's metadata validator uses it, with validators cached."""

        ValidationError = jsonschema.ValidationError

        @staticmethod
        def validate(instance: Any, schema: dict[str, Any]) -> None:
            key = json.dumps(schema, sort_keys=True)
            validator = compiled.get(key)
            if validator is None:
                cls = jsonschema.validators.validator_for(schema)
                cls.check_schema(schema)
                validator = compiled[key] = cls(schema)
            error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
            if error is not None:
                raise error

        def __getattr__(self, name: str) -> Any:
            return getattr(jsonschema, name)

    common.jsonschema = _CompiledOnce()


def failed_result(student: str, error: BaseException | tuple[str, str]) -> SubmissionResult:
    """Return a flagged result for a submission whose grading task itself failed (its worker
    died, or the grader raised something unexpected, given as the exception or as its
    (type name, message)): no scores, a reason saying what to do."""
    name, text = (error if isinstance(error, tuple) else (type(error).__name__, str(error)))
    if name == "KilledWorker":  # distributed.KilledWorker, named so as not to import it here
        what = WORKER_DIED
    else:
        detail = text.strip().splitlines()[0][:200] if text.strip() else ""
        what = f"grading failed with {name}{': ' + detail if detail else ''}"
    result = SubmissionResult(student=student, status="flagged")
    result.flag(f"{what}; regrade it alone with `plaisante grade --student {student}`")
    return result


class Collector:
    """What the coordinator keeps of a run: every result by student, the progress bar, and
    the recording thread that writes results to the gradebook in batches as they arrive.

    ``close()`` waits for every result handed over to be recorded, then re-raises the first
    error ``record`` raised, if any.
    """

    def __init__(self, root: Path, assignment: str, total: int, progress: bool) -> None:
        self.root, self.assignment = root, assignment
        self.total, self.progress = total, progress
        self.results: dict[str, SubmissionResult] = {}
        self.flagged = 0
        self.bar: Any = None
        self._queue: queue.Queue[SubmissionResult | None] = queue.Queue()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Show the bar and start the recording thread (after any worker is forked: both
        start threads in this process)."""
        from tqdm import tqdm

        self.bar = tqdm(total=self.total, desc="grading", unit="sub", disable=not self.progress,
                        file=sys.stderr, dynamic_ncols=True, smoothing=0.1,
                        postfix={"flagged": 0})
        self._thread = threading.Thread(target=self._record_loop, name="plaisante-record",
                                        daemon=True)
        self._thread.start()

    def add(self, result: SubmissionResult) -> None:
        """Keep ``result``, count it on the bar and queue it for the gradebook."""
        self.results[result.student] = result
        self.flagged += result.status != "graded"
        self.bar.set_postfix(flagged=self.flagged, refresh=False)
        self.bar.update(1)
        self._queue.put(result)

    def _record_loop(self) -> None:
        from .. import grading

        stop = False
        while not stop:
            batch = [self._queue.get()]
            while len(batch) < RECORD_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = batch[-1] is None
            batch = [r for r in batch if r is not None]
            if batch and self._error is None:
                try:
                    grading.record(self.root, batch, self.assignment)
                except BaseException as error:  # noqa: BLE001  re-raised by close()
                    self._error = error

    def close(self) -> None:
        """Record what is still queued, close the bar; raise what ``record`` raised."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self.bar is not None:
            self.bar.close()
        if self._error is not None:
            raise self._error


# ------------------------------------------------------------------ this machine: a process pool

def _start_method() -> str:
    """Return 'fork' while this process has one thread (a forked worker then starts at once,
    with everything already imported), else 'forkserver' (forking a threaded process is
    unsafe; its server imports the grading code once, for every worker it starts)."""
    if threading.active_count() == 1:
        return "fork"
    import multiprocessing

    multiprocessing.get_context("forkserver").set_forkserver_preload(
        ["plaisante.grading.parallel", "plaisante.grading.submission"])
    return "forkserver"


def _local_worker(conn: Any, root: str, assignment: str, limits: Limits, sandbox: bool,
                  grader: Grader | None) -> None:
    """A worker process: grade each student id received, send back what happened, until
    None or the coordinator's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    bound_memory(WORKER_MEMORY_BYTES)
    warm_worker(root)
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


def bound_memory(limit: int) -> None:
    """Cap this process's address space at ``limit`` bytes (soft RLIMIT_AS, so a sandboxed
    kernel it starts can still be given its own limit by ``prlimit``)."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class _Worker:
    """One worker process, its end of the pipe, and the student it is grading (or None)."""

    def __init__(self, args: tuple[Any, ...]) -> None:
        import multiprocessing

        context = multiprocessing.get_context(_start_method())
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
                        student, worker.student = worker.student, None
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
                    student, worker.student = worker.student, None
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


# --------------------------------------------------------------------------- a Dask cluster

@contextmanager
def dask_client(workers: int, scheduler: str) -> Iterator[Any]:
    """Yield a Dask client connected to ``scheduler``, or, for ``"local"``, to a LocalCluster
    of ``workers`` single-threaded processes made here and closed on the way out."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler != "local":
        with Client(scheduler, timeout="30s") as client:
            yield client
        return
    # A task whose worker dies fails at once and the coordinator decides whether to try it
    # again (``ATTEMPTS``); no memory limit of Dask's own (the sandbox limits the kernel); no
    # dashboard; the coordinator reports failures itself, so Dask's logs stay quiet.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, memory_limit=0,
                               silence_logs=logging.CRITICAL)
    with cluster, Client(cluster) as client:
        yield client


def run_dask(root: Path, assignment: str, students: Sequence[str], collector: Collector, *,
             limits: Limits, sandbox: bool, workers: int, scheduler: str,
             grader: Grader | None) -> None:
    """Grade ``students`` on a Dask cluster, handing each result to ``collector``.

    Stops, and raises, on a ``SETUP_ERRORS`` exception. One task per worker thread is in
    flight, so a worker that dies takes no queued submission with it; a task whose worker
    died is tried ``ATTEMPTS`` times in all, each as a fresh task, then flagged; a task that
    raised anything else is flagged. Results are fetched as soon as they are ready and
    released from the workers, so a worker dying later loses nothing."""
    from distributed import as_completed

    tries: Counter[str] = Counter()
    owner: dict[str, str] = {}  # task key → student
    waiting = deque(students)
    run_id = uuid.uuid4().hex[:8]
    collector.start()
    with dask_client(workers, scheduler) as client:
        client.run(warm_worker, str(root))
        tasks = as_completed(with_results=True, raise_errors=False)

        def feed() -> None:
            """Keep one task per worker thread in flight (a cluster that grows is used)."""
            slots = max(1, sum(client.nthreads().values()))
            while waiting and tasks.count() < slots:
                student = waiting.popleft()
                tries[student] += 1
                key = f"grade-{student}-{run_id}-{tries[student]}"
                owner[key] = student
                tasks.add(client.submit(grade_task, str(root), student, assignment, limits,
                                        sandbox, grader, key=key, pure=False))

        feed()
        try:
            for future, value in tasks:
                student = owner.pop(future.key)
                status = future.status
                future.release()
                if status == "finished":
                    collector.add(value)
                else:
                    error = value[1] if isinstance(value, tuple) else value
                    if isinstance(error, SETUP_ERRORS):
                        raise error
                    if type(error).__name__ == "KilledWorker" and tries[student] < ATTEMPTS:
                        waiting.appendleft(student)
                    else:
                        collector.add(failed_result(student, error))
                feed()
        finally:
            pending = [f for f in list(tasks.futures) if not f.done()]
            if pending:
                client.cancel(pending)


# ----------------------------------------------------------------------------------- the API

def grade_parallel(root: Path, assignment: str = ASSIGNMENT,
                   students: Iterable[str] | None = None, *, limits: Limits | None = None,
                   sandbox: bool = True, workers: int | None = None,
                   scheduler: str | None = None, progress: bool = False,
                   grader: Grader | None = None) -> list[SubmissionResult]:
    """Grade ``students`` (default: every submitted student) in parallel and record the
    results in the course gradebook from this process; return them in student order.

    ``limits``: as for ``grade_submission`` (default ``Limits()``). ``workers``: worker
    processes on this machine (default: every core). ``scheduler``: a Dask scheduler address
    such as ``tcp://host:8786`` to fan out to instead (its cluster decides how many workers),
    or ``"local"`` for a Dask LocalCluster of ``workers`` processes. ``progress`` shows a tqdm
    bar on stderr. ``grader`` replaces ``grade_submission`` (tests). If interrupted, what was
    graded is recorded before the interruption goes on. Raises ValueError for ``workers < 1``
    or an unknown student, and what ``grade_submission`` raises for a run that cannot work
    (ValueError, FileNotFoundError, RuntimeError), after recording what was done.
    """
    from .run import check_ids, submitted_students

    root = Path(root).resolve()
    limits = limits if limits is not None else Limits()
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    available = set(submitted_students(root, assignment))
    chosen = list(dict.fromkeys(students)) if students is not None else sorted(available)
    for student in chosen:
        check_ids(student, assignment)
        if student not in available:
            raise ValueError(f"no submission of {assignment!r} for student {student!r} in "
                             f"{root / 'assignments' / 'submitted'}")
    if not chosen:
        return []
    workers = min(workers, len(chosen))
    collector = Collector(root, assignment, len(chosen), progress)
    try:
        if scheduler is None:
            run_local(root, assignment, chosen, collector, limits=limits, sandbox=sandbox,
                      workers=workers, grader=grader)
        else:
            run_dask(root, assignment, chosen, collector, limits=limits, sandbox=sandbox,
                     workers=workers, scheduler=scheduler, grader=grader)
    finally:
        collector.close()
    return [collector.results[student] for student in chosen]
