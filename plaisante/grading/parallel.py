"""Grade a whole class in parallel: on every core of this machine, or on a Dask cluster (issue 5).

    from plaisante.grading.parallel import grade_parallel

    results = grade_parallel(root)                                  # every core, sandbox on
    results = grade_parallel(root, scheduler="tcp://10.0.0.5:8786")  # an existing Dask cluster

Each submission is one task: ``plaisante.grading.grade_submission`` (the sandboxed grading of
issue 4) run in a worker process. Without a scheduler address the workers are a Dask
``LocalCluster`` of ``workers`` single-threaded processes (default: every core this process may
run on); with one, the tasks fan out to that cluster's workers, which must see the course folder
at the same path (a shared file system) and have this kit installed. Only this process, the
coordinator, writes the gradebook: it collects every ``SubmissionResult`` and calls
``plaisante.grading.record`` once at the end (or, if interrupted, once for what was done).

A progress bar (tqdm, on stderr) shows done/total, rate, ETA and how many submissions were
flagged so far. The scores are those of serial grading: a worker runs exactly what
``grade_submission`` runs, and ``tests/test_parallel.py`` checks it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..reference import ASSIGNMENT
from .result import Limits, SubmissionResult

#: Exceptions ``grade_submission`` documents for a run that cannot work at all (bad id, no
#: gradebook entry, no sandbox here): they stop the whole run instead of flagging everyone.
SETUP_ERRORS: tuple[type[BaseException], ...] = (ValueError, FileNotFoundError, RuntimeError)

#: Tries a submission gets when its grading worker process dies under it.
ATTEMPTS = 2

Grader = Callable[..., SubmissionResult]


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
    return grader(Path(root), student, assignment, limits=limits, sandbox=sandbox)


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


def tune_worker() -> None:
    """Take out two costs nbgrader pays again for every submission, in this process only.

    * The private, throw-away gradebook each submission is graded against (a file under a
      ``plaisante-grade-`` temporary folder, deleted afterwards) is opened with SQLite's
      ``synchronous=OFF`` and an in-memory journal: nbgrader commits once per grade cell and
      each commit waited on the disk. The course gradebook is never touched by a worker
      (only the coordinator's ``record`` writes it, with SQLite's defaults).
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


def failed_result(student: str, error: BaseException) -> SubmissionResult:
    """Return a flagged result for a submission whose grading task itself failed (its worker
    died, or the grader raised something unexpected): no scores, a reason saying what to do."""
    name = type(error).__name__
    if name == "KilledWorker":  # distributed.KilledWorker, named so as not to import it here
        what = "the grading worker process died while grading it"
    else:
        detail = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        what = f"grading failed with {name}{': ' + detail if detail else ''}"
    result = SubmissionResult(student=student, status="flagged")
    result.flag(f"{what}; regrade it alone with `plaisante grade --student {student}`")
    return result


def _progress(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc="grading", unit="sub", disable=not enabled, file=sys.stderr,
                dynamic_ncols=True, smoothing=0.1, postfix={"flagged": 0})


@contextmanager
def dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    """Yield a Dask client connected to ``scheduler``, or to a LocalCluster of ``workers``
    single-threaded processes made here and closed on the way out."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler:
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


def run_tasks(root: Path, assignment: str, students: Sequence[str], *, limits: Limits,
              sandbox: bool, workers: int, scheduler: str | None, progress: bool,
              grader: Grader | None = None, done: dict[str, SubmissionResult] | None = None
              ) -> list[SubmissionResult]:
    """Grade ``students`` on Dask workers and return their results in the order given; never
    writes the gradebook.

    Stops, and raises, on a ``SETUP_ERRORS`` exception. A task whose worker process died is
    given ``ATTEMPTS`` tries in all, each on a fresh task; after that, or when the grader
    raised anything else, the student gets a flagged result. Results are fetched as soon as
    they are ready and released from the workers, so a worker dying later loses nothing. Each
    result is also put into ``done`` (student → result) as it arrives, so that a caller still
    has what was finished when the run is interrupted."""
    from collections import deque

    from distributed import as_completed

    results: dict[str, SubmissionResult] = {} if done is None else done
    tries: dict[str, int] = dict.fromkeys(students, 0)
    owner: dict[str, str] = {}  # task key → student
    waiting = deque(students)
    run_id = uuid.uuid4().hex[:8]
    flagged = 0
    with dask_client(workers, scheduler) as client, _progress(len(students), progress) as bar:
        client.run(warm_worker, str(root))
        queue = as_completed(with_results=True, raise_errors=False)

        def feed() -> None:
            """Keep one task per worker thread in flight: a worker never holds a queued
            submission that its death would take down, and a cluster that grows is used."""
            slots = max(1, sum(client.nthreads().values()))
            while waiting and queue.count() < slots:
                student = waiting.popleft()
                tries[student] += 1
                key = f"grade-{student}-{run_id}-{tries[student]}"
                owner[key] = student
                queue.add(client.submit(grade_task, str(root), student, assignment, limits,
                                        sandbox, grader, key=key, pure=False))

        feed()
        try:
            for future, value in queue:
                student = owner.pop(future.key)
                status = future.status
                future.release()
                if status == "finished":
                    result = value
                else:
                    error = value[1] if isinstance(value, tuple) else value
                    if isinstance(error, SETUP_ERRORS):
                        raise error
                    if type(error).__name__ == "KilledWorker" and tries[student] < ATTEMPTS:
                        waiting.appendleft(student)
                        feed()
                        continue
                    result = failed_result(student, error)
                results[student] = result
                flagged += result.status != "graded"
                bar.set_postfix(flagged=flagged, refresh=False)
                bar.update(1)
                feed()
        finally:
            pending = [f for f in list(queue.futures) if not f.done()]
            if pending:
                client.cancel(pending)
    return [results[student] for student in students]


def grade_parallel(root: Path, assignment: str = ASSIGNMENT,
                   students: Iterable[str] | None = None, *, limits: Limits | None = None,
                   sandbox: bool = True, workers: int | None = None,
                   scheduler: str | None = None, progress: bool = False,
                   grader: Grader | None = None) -> list[SubmissionResult]:
    """Grade ``students`` (default: every submitted student) in parallel and record the
    results in the course gradebook from this process; return them in student order.

    ``limits``: as for ``grade_submission`` (default ``Limits()``). ``workers``: processes of
    the local Dask cluster (default: every core); ignored when ``scheduler`` (a Dask scheduler
    address such as ``tcp://host:8786``) is given, the cluster then decides. ``progress`` shows
    a tqdm bar on stderr. If interrupted, what was graded is recorded before the interruption
    goes on. Raises ValueError for ``workers < 1`` or an unknown student, and what
    ``grade_submission`` raises for a run that cannot work (ValueError, FileNotFoundError,
    RuntimeError), after recording what was done.
    """
    from . import record
    from .run import check_ids, submitted_students

    root = Path(root).resolve()
    limits = limits if limits is not None else Limits()
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    available = submitted_students(root, assignment)
    chosen = list(students) if students is not None else available
    for student in chosen:
        check_ids(student, assignment)
        if student not in available:
            raise ValueError(f"no submission of {assignment!r} for student {student!r} in "
                             f"{root / 'assignments' / 'submitted'}")
    if not chosen:
        return []
    done: dict[str, SubmissionResult] = {}
    try:
        results = run_tasks(root, assignment, chosen, limits=limits, sandbox=sandbox,
                            workers=min(workers, len(chosen)), scheduler=scheduler,
                            progress=progress, grader=grader, done=done)
    except BaseException:
        if done:
            record(root, [done[s] for s in chosen if s in done], assignment)
        raise
    record(root, results, assignment)
    return results
