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
    """Import the grading code in a worker before its first task, and let issue 4's code
    prepare what it reuses across submissions (``plaisante.grading.prepare_worker(root)``,
    if it exists), so the first submission of every worker is not slower than the rest."""
    from .. import grading

    prepare = getattr(grading, "prepare_worker", None)
    if prepare is not None:
        prepare(Path(root))


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
    # A task whose worker dies twice is flagged rather than tried on every worker; no memory
    # limit of Dask's own (the sandbox limits the kernel); no dashboard; the coordinator
    # reports failures itself, so Dask's logs stay quiet.
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
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
    writes the gradebook. Stops, and raises, on a ``SETUP_ERRORS`` exception; a task failing
    any other way (its worker died, an unexpected exception) gives a flagged result. Each
    result is also put into ``done`` (student → result) as it arrives, so that a caller still
    has what was finished when the run is interrupted."""
    from distributed import as_completed

    results: dict[str, SubmissionResult] = {} if done is None else done
    flagged = 0
    with dask_client(workers, scheduler) as client, _progress(len(students), progress) as bar:
        client.run(warm_worker, str(root))
        run_id = uuid.uuid4().hex[:8]
        futures = {client.submit(grade_task, str(root), student, assignment, limits, sandbox,
                                 grader, key=f"grade-{student}-{run_id}", pure=False): student
                   for student in students}
        try:
            for future in as_completed(futures):
                student = futures[future]
                try:
                    result = future.result()
                except SETUP_ERRORS:
                    raise
                except Exception as error:  # noqa: BLE001 - a worker died or the grader broke
                    result = failed_result(student, error)
                results[student] = result
                flagged += result.status != "graded"
                bar.set_postfix(flagged=flagged, refresh=False)
                bar.update(1)
        finally:
            pending = [f for f in futures if not f.done()]
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
