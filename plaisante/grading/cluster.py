"""Grading on a Dask cluster (``--scheduler tcp://host:8786``, or ``"local"`` for a
LocalCluster made here): one task per submission, one in flight per worker thread.

The cluster shares nothing with the coordinator but the scheduler: its workers need this kit
installed, not the course. The coordinator reads the assignment once (``assignment_parcel``:
released notebook, gradebook facts, nbgrader config), sends it to every worker once, and sends
each task its submission's files (``HandedIn``); a task returns the result with the autograded
notebook (``Graded``), which the coordinator writes into the course (``settle``) before the
result is recorded. Recipe: docs/capacity.md.

Only the instructor's workers may join: a worker is handed submissions and returns the
results (pickled: unpickling them runs code as the coordinator), so the cluster speaks Dask's
mutual TLS (``cluster_security``). The local cluster's certificates are made for the run and
never leave this process and its workers; a remote scheduler must be ``tls://`` with the
cluster's CA and a certificate for this coordinator, unless the instructor opts out
(``insecure=True``, ``--insecure-scheduler``: a private network only).
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..course import CourseLayout
from .result import Limits, SubmissionResult
from .run_results import RunResults
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

if TYPE_CHECKING:
    from distributed.security import Security

TLS_CONFIG = ("distributed.comm.tls.ca-file", "distributed.comm.tls.client.cert",
              "distributed.comm.tls.client.key")


def cluster_security(scheduler: str, security: Security | None = None, *,
                     insecure: bool = False) -> Security | None:
    """Return the Dask ``Security`` to reach ``scheduler`` with, or None for an opted-out
    plain connection.

    ``"local"``: fresh mutual-TLS credentials made for this run (``Security.temporary``: a
    key and certificate in memory, the cluster's only CA). A ``tls://`` address: ``security``
    when given, else Dask's own configuration (``distributed.comm.tls.ca-file``,
    ``.client.cert``, ``.client.key``; ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``...), which must
    name a CA and a certificate. Any other address (``tcp://``...) only with ``insecure``.
    Raises ValueError, in one line, for a scheduler that anyone could join or TLS without
    the files it needs."""
    from distributed.security import Security

    if scheduler == "local":
        made: Security = Security.temporary()
        return made
    scheme = scheduler.split("://", 1)[0] if "://" in scheduler else "tcp"
    if scheme != "tls":
        if insecure:
            return None
        raise ValueError(
            f"refusing the {scheme}:// scheduler {scheduler}: any machine that reaches it can "
            "join as a worker, forge scores and run code as this coordinator; use a tls:// "
            "scheduler with the cluster's certificates (--tls-ca-file, --tls-cert, --tls-key; "
            "docs/capacity.md), or --insecure-scheduler on a private network only")
    if security is None:
        security = Security(require_encryption=True)
    if not getattr(security, "tls_ca_file", None) or not getattr(security, "tls_client_cert",
                                                                     None):
        raise ValueError(
            f"the tls:// scheduler {scheduler} needs the cluster's CA file and this "
            "coordinator's certificate and key: --tls-ca-file, --tls-cert and --tls-key, or "
            "Dask's config " + ", ".join(TLS_CONFIG))
    return security


def tls_files(ca_file: str | None, cert: str | None, key: str | None) -> Security | None:
    """The ``Security`` of a coordinator holding the cluster's CA file and its own
    certificate and key (PEM file paths), or None when none is given (Dask's configuration
    then decides). Raises ValueError for a CA without a certificate or the reverse, or a file
    that does not exist."""
    from distributed.security import Security

    given = {"--tls-ca-file": ca_file, "--tls-cert": cert}
    if not any((ca_file, cert, key)):
        return None
    missing = [flag for flag, value in given.items() if not value]
    if missing:
        raise ValueError(f"TLS to the scheduler needs {' and '.join(missing)} too "
                         "(the cluster's CA file and this coordinator's certificate)")
    for path in (ca_file, cert, key):
        if path and not Path(path).is_file():
            raise ValueError(f"no such TLS file: {path} (a PEM file: docs/capacity.md)")
    return Security(tls_ca_file=ca_file, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)


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
def dask_client(workers: int, scheduler: str, security: Security | None) -> Iterator[Any]:
    """Yield a Dask client connected to ``scheduler`` with ``security`` (what
    ``cluster_security`` chose), or, for ``"local"``, to a LocalCluster of ``workers``
    single-threaded processes made here, speaking mutual TLS with ``security`` (its own
    workers are the only ones holding it), and closed on the way out."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler != "local":
        with Client(scheduler, timeout="30s", security=security) as client:
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
                               silence_logs=logging.CRITICAL, security=security,
                               protocol="tls://")
    with cluster, Client(cluster, security=security) as client:
        yield client


def run_dask(root: Path, assignment: str, students: Sequence[str], run_results: RunResults, *,
             limits: Limits, sandbox: bool, workers: int, scheduler: str,
             grader: Grader | None, security: Security | None = None,
             insecure: bool = False) -> None:
    """Grade ``students`` on a Dask cluster, handing each result to ``run_results``.

    Stops, and raises, on a ``SETUP_ERRORS`` exception. One task per worker thread is in
    flight, so a worker that dies takes no queued submission with it; a task whose worker
    died is tried ``ATTEMPTS`` times in all, each as a fresh task, then flagged; a task that
    raised anything else is flagged. Results are fetched as soon as they are ready and
    released from the workers, so a worker dying later loses nothing. ``security`` and
    ``insecure``: as for ``cluster_security``, which decides who may join."""
    from distributed import as_completed

    tries: Counter[str] = Counter()
    owner: dict[str, str] = {}  # task key → student
    waiting = deque(students)
    run_id = uuid.uuid4().hex[:8]
    parcel = assignment_parcel(root, assignment) if grader is None else None
    layout = CourseLayout(root)
    security = cluster_security(scheduler, security, insecure=insecure)  # before any work
    run_results.start()
    with dask_client(workers, scheduler, security) as client:
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
                    run_results.add(settle(root, assignment, student, value))
                else:
                    error = value[1] if isinstance(value, tuple) else value
                    if isinstance(error, SETUP_ERRORS):
                        raise error
                    if type(error).__name__ == "KilledWorker" and tries[student] < ATTEMPTS:
                        waiting.appendleft(student)
                    else:
                        run_results.add(failed_result(student, error))
                feed()
        finally:
            pending = [f for f in list(tasks.futures) if not f.done()]
            if pending:
                client.cancel(pending)
