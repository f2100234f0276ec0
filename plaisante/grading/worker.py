"""What runs in a grading worker process, whichever runs it (this machine's pool, a Dask
cluster): one submission's task, the worker's warm-up and tuning, its memory bound, and the
flagged result of a task that failed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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

Grader = Callable[..., SubmissionResult]

WORKER_DIED = "the grading worker process died while grading it"


def grade_task(root: str, student: str, assignment: str, limits: Limits, sandbox: bool,
               grader: Grader | None = None) -> SubmissionResult:
    """Grade one submission in a worker; return its result (what a Dask task runs).

    ``grader`` defaults to ``plaisante.grading.grade_submission``; tests pass a stand-in.
    Exceptions propagate to the coordinator, which decides whether they stop the run.
    """
    if grader is None:
        from . import grade_submission

        grader = grade_submission
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


def warm_assignment(root: str, assignment: str, limits: Limits, sandbox: bool) -> str | None:
    """Get this worker ready to grade ``assignment`` under ``limits`` at full speed
    (``submission.warm_up``: its kernel zygote started, first-use costs paid); return None
    when ready, else why not, in one line (grading still works, the first submission is
    slower)."""
    from .submission import warm_up

    try:
        warm_up(Path(root), assignment, limits=limits, sandbox=sandbox)
    except Exception as error:  # noqa: BLE001  said to whoever asked; grading goes on
        first = (str(error).strip().splitlines() or [""])[0]
        if isinstance(error, (FileNotFoundError, ValueError)) and first:
            return first  # the kit's own one-line message says what to do
        return f"{type(error).__name__}: {first}" if first else type(error).__name__
    finally:
        _forget_engines()
    return None


_tuned = False
_engines: dict[tuple[str, tuple[Any, ...]], Any] = {}  # throw-away gradebook URL → its engine


def _forget_engines() -> None:
    """Close the shared engines of the submission just graded (its gradebook is gone)."""
    while _engines:
        _engines.popitem()[1].dispose()


def tune_worker() -> None:
    """Take out costs nbgrader pays again for every submission, in this process only. (Since
    issue 16 ``grade_one`` opens no per-submission gradebook: the first two points only matter
    to code that still does; the third still speeds up nbgrader's CheckCellMetadata.)

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


def bound_memory(limit: int) -> None:
    """Cap this process's address space at ``limit`` bytes (soft RLIMIT_AS, so a sandboxed
    kernel it starts can still be given its own limit by ``prlimit``)."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
