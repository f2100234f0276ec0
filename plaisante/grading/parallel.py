"""Grade a whole class in parallel: on every core of this machine, or on a Dask cluster.

    from plaisante.grading.parallel import grade_parallel

    results = grade_parallel(root, "deck")                          # every core, sandbox on
    results = grade_parallel(root, "deck", scheduler="tls://10.0.0.5:8786",  # a Dask cluster
                             security=Security(tls_ca_file="ca.pem", tls_client_cert="me.pem",
                                               tls_client_key="me.key", require_encryption=True))

Each submission is one task: ``plaisante.grading.grade_submission`` (the sandboxed grading of
one submission) run in a worker process, one submission per worker at a time.

* Without a scheduler address the workers are ``workers`` processes of this machine (default:
  every core this process may run on), forked from this one once its grading code is
  imported, and each grading submission after submission: no interpreter, import or
  nbgrader start-up per student. A worker whose process dies is replaced; the submission it
  was grading is tried again once (``ATTEMPTS``), then flagged; no other submission is
  touched.
* With a scheduler address (``tls://host:8786``) the tasks fan out to that Dask cluster's
  workers, which need this kit installed but share nothing else with the course: each task
  carries its submission's files and the assignment's facts and returns the autograded
  notebook (``cluster``; docs/capacity.md); ``scheduler="local"`` makes a Dask
  ``LocalCluster`` of ``workers`` processes here instead. The coordinator keeps one task per
  worker thread in flight. Only workers holding the cluster's certificates may join (mutual
  TLS): a worker returns results the coordinator unpickles.

Only this process, the coordinator, writes the gradebook: results are handed, as they arrive,
to one recording thread that calls ``plaisante.grading.record`` in batches, so the gradebook
writes overlap the grading instead of following it. If the run is interrupted, what was
graded is recorded before the interruption goes on.

A progress bar (tqdm, on stderr) shows done/total, rate, ETA and how many submissions were
flagged so far. The scores are those of serial grading: a worker runs exactly what
``grade_submission`` runs, and ``tests/test_parallel.py`` checks it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .result import Limits, SubmissionResult
from .run import DEFAULT_LIMITS, grade_submission, record, submitted_among
from .run_results import RunResults
from .worker import Grader

if TYPE_CHECKING:
    from distributed.security import Security


def default_workers() -> int:
    """Return how many cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def grade_parallel(root: Path, assignment: str,
                   students: Iterable[str] | None = None, *, limits: Limits | None = None,
                   sandbox: bool = True, workers: int | None = None,
                   scheduler: str | None = None, progress: bool = False,
                   grader: Grader | None = None, security: Security | None = None,
                   insecure_scheduler: bool = False) -> list[SubmissionResult]:
    """Grade ``students`` (default: every submitted student) in parallel and record the
    results in the course gradebook from this process; return them in student order.

    ``limits``: as for ``grade_submission`` (default ``Limits()``). ``workers``: worker
    processes on this machine (default: every core). ``scheduler``: a Dask scheduler address
    such as ``tls://host:8786`` to fan out to instead (its cluster decides how many workers),
    or ``"local"`` for a Dask LocalCluster of ``workers`` processes, always over mutual TLS:
    ``"local"`` with credentials made for the run, an address only as ``tls://`` with
    ``security`` (default: Dask's ``distributed.comm.tls`` configuration), a plain ``tcp://``
    one only with ``insecure_scheduler`` (``cluster.cluster_security``). ``progress`` shows a tqdm
    bar on stderr. ``grader`` replaces ``grade_submission`` (tests). If interrupted, what was
    graded is recorded before the interruption goes on. Raises ValueError for ``workers < 1``,
    an unknown student or a scheduler ``cluster_security`` refuses, and what
    ``grade_submission`` raises for a run that cannot work (ValueError, FileNotFoundError,
    RuntimeError), after recording what was done.
    """
    root = Path(root).resolve()
    limits = limits if limits is not None else Limits()
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    chosen = submitted_among(root, assignment, students)
    if not chosen:
        return []
    workers = min(workers, len(chosen))
    run_results = RunResults(root, assignment, len(chosen), progress)
    try:
        if scheduler is None:
            from .pool import run_local

            run_local(root, assignment, chosen, run_results, limits=limits, sandbox=sandbox,
                      workers=workers, grader=grader)
        else:
            from .cluster import run_dask

            run_dask(root, assignment, chosen, run_results, limits=limits, sandbox=sandbox,
                     workers=workers, scheduler=scheduler, grader=grader,
                     security=security, insecure=insecure_scheduler)
    finally:
        run_results.close()
    return [run_results.results[student] for student in chosen]


def grade(root: Path, assignment: str, students: Iterable[str] | None = None, *,
          limits: Limits = DEFAULT_LIMITS, sandbox: bool = True, workers: int = 1
          ) -> list[SubmissionResult]:
    """Grade ``students`` (default: every submitted student) and record the results; return
    them in student order.

    ``workers == 1`` grades one after another in this process (``grade_submission`` each,
    then ``record`` once); ``workers > 1`` is ``grade_parallel`` on that many worker
    processes. Raises ValueError for ``workers < 1`` or an unknown student.
    """
    root = Path(root).resolve()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    chosen = submitted_among(root, assignment, students)
    if workers > 1:
        return grade_parallel(root, assignment, chosen, limits=limits, sandbox=sandbox,
                              workers=workers)
    results = [grade_submission(root, student, assignment, limits=limits, sandbox=sandbox)
               for student in chosen]
    record(root, results, assignment)
    return results
