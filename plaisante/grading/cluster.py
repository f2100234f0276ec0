"""Grading on a Dask cluster (``--scheduler tcp://host:8786``, or ``"local"`` for a
LocalCluster made here): one task per submission, one in flight per worker thread.

The cluster shares nothing with the coordinator but the scheduler: its workers need this kit
installed, not the course. The coordinator reads the assignment once (``assignment_parcel``:
released notebook, gradebook facts, nbgrader config), sends it to every worker once, and sends
each task its submission's files (``HandedIn``); a task returns the result with the autograded
notebook (``Graded``), which the coordinator writes into the course (``settle``) before the
result is recorded. Recipe: docs/capacity.md.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..course import CourseLayout
from .collector import Collector
from .result import Limits, SubmissionResult
from .worker import (
    ATTEMPTS,
    SETUP_ERRORS,
    WORKER_MEMORY_BYTES,
    AssignmentParcel,
    Graded,
    Grader,
    HandedIn,
    failed_result,
    grade_shipped,
    warm_worker,
)


def assignment_parcel(root: Path, assignment: str) -> AssignmentParcel:
    """Read what a worker needs of ``assignment`` from the course at ``root``: its released
    notebook, its facts from the gradebook (read now) and the instructor's nbgrader config.
    Raises FileNotFoundError when it is not released, GradebookUnreachable when the
    gradebook's database cannot be reached."""
    from .autograde import read_facts
    from .submission import config_of

    release = CourseLayout(root).release(assignment)
    if not release.is_file():
        raise FileNotFoundError(f"no released notebook at {release}: run `plaisante release`")
    return AssignmentParcel(assignment, release.read_bytes(), read_facts(root, assignment),
                            config_of(root))


def settle(root: Path, assignment: str, student: str, graded: Graded) -> SubmissionResult:
    """Write the autograded notebook of ``student``'s shipped task into the course, as a
    worker grading in the course would have (``autograde.publish``; an earlier one removed
    when the task made none), unless the submission was replaced while it was graded; return
    its result. Where it goes is the coordinator's to say: a result naming another student
    raises ValueError."""
    from .autograde import publish

    result = graded.result
    if result.student != student:
        raise ValueError(f"the task grading {student!r} returned a result for "
                         f"{result.student!r}")
    layout = CourseLayout(root)
    if not result.still_current(layout.submitted(student, assignment).parent, assignment):
        return result  # the newer submission's grading publishes its own
    out_dir = layout.autograded(student, assignment).parent
    if graded.notebook is None:
        (out_dir / f"{assignment}.ipynb").unlink(missing_ok=True)
    else:
        publish(out_dir, assignment, graded.notebook, result)
    return result


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
    # again (``ATTEMPTS``). Each worker's memory is bounded as a local pool worker's is, by
    # Dask's own limit (its nanny ends a worker past it: a kernel's flood of output cannot
    # take the machine; the sandbox limits the kernel itself). No dashboard; the coordinator
    # reports failures itself, so Dask's logs stay quiet.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, memory_limit=WORKER_MEMORY_BYTES,
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
    parcel = assignment_parcel(root, assignment) if grader is None else None
    layout = CourseLayout(root)
    collector.start()
    with dask_client(workers, scheduler) as client:
        client.run(warm_worker)
        # sent once to each worker, not with every task
        shipped = (client.scatter(parcel, broadcast=True, hash=False) if parcel is not None
                   else None)
        tasks = as_completed(with_results=True, raise_errors=False)

        def feed() -> None:
            """Keep one task per worker thread in flight (a cluster that grows is used)."""
            slots = max(1, sum(client.nthreads().values()))
            while waiting and tasks.count() < slots:
                student = waiting.popleft()
                tries[student] += 1
                key = f"grade-{student}-{run_id}-{tries[student]}"
                owner[key] = student
                handed = HandedIn.pack(student, layout.submitted(student, assignment).parent)
                tasks.add(client.submit(grade_shipped, assignment, shipped, handed, limits,
                                        sandbox, grader, key=key, pure=False))

        feed()
        try:
            for future, value in tasks:
                student = owner.pop(future.key)
                status = future.status
                future.release()
                if status == "finished":
                    collector.add(settle(root, assignment, student, value))
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
