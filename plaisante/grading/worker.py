"""What runs in a grading worker process, whichever runs it (this machine's pool, a Dask
cluster): one submission's task, the worker's warm-up and tuning, its memory bound, and the
flagged result of a task that failed.

A pool worker grades in the course (``grade_task``). A cluster's worker shares nothing with
the coordinator but the scheduler (``grade_shipped``): its task carries the submission's files
(``HandedIn``) and the assignment's facts (``AssignmentParcel``), and it returns the result with
the autograded notebook's bytes (``Graded``); the coordinator alone writes the course.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
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
    """Grade one submission of the course at ``root`` in a worker of this machine's pool,
    which sees the course; return its result.

    ``grader`` defaults to ``plaisante.grading.grade_submission``; tests pass a stand-in.
    Exceptions propagate to the coordinator, which decides whether they stop the run.
    """
    if grader is None:
        from . import grade_submission

        grader = grade_submission
    return grader(Path(root), student, assignment, limits=limits, sandbox=sandbox)


@dataclass(frozen=True)
class AssignmentParcel:
    """What a worker that cannot see the course needs of an assignment, read once by the
    coordinator: ``release`` the released notebook's bytes, ``facts`` its gradebook facts
    (``autograde.AssignmentFacts``), ``config`` the instructor's nbgrader config as
    ``submission.config_of`` gives it (a traitlets Config)."""

    assignment: str
    release: bytes
    facts: Any
    config: Any


#: the symbolic link a shipped submission's link becomes on a worker: it points nowhere
LINK_TARGET = "/nonexistent/plaisante-link"


@dataclass(frozen=True)
class HandedIn:
    """A student's submission folder as it travels to a worker: ``files`` {name: bytes} of
    its regular files; ``sizes`` {name: bytes} of those too big for any grading step to read
    (a notebook over ``MAX_FILE_BYTES``, another file over ``MAX_DATA_BYTES``), sent as their
    size only; ``links`` the names of its symbolic links (never followed). Subfolders are not
    sent: grading reads none."""

    student: str
    files: dict[str, bytes] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    links: tuple[str, ...] = ()

    @classmethod
    def pack(cls, student: str, folder: Path) -> HandedIn:
        """Read ``folder`` (a submitted folder; missing: an empty one) as ``HandedIn``."""
        from .handed_in import MAX_DATA_BYTES
        from .notebook_check import MAX_FILE_BYTES

        files: dict[str, bytes] = {}
        sizes: dict[str, int] = {}
        links = []
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            if path.is_symlink():
                links.append(path.name)
            elif path.is_file():
                size = path.stat().st_size
                limit = MAX_FILE_BYTES if path.suffix == ".ipynb" else MAX_DATA_BYTES
                if size > limit:
                    sizes[path.name] = size
                else:
                    files[path.name] = path.read_bytes()
        return cls(student, files, sizes, tuple(links))

    def unpack(self, folder: Path) -> None:
        """Make ``folder`` (new) the submission folder again: the files, files of the sizes
        sent (sparse, never read), and links pointing nowhere."""
        folder.mkdir(parents=True)
        for name, data in self.files.items():
            (folder / _plain(name)).write_bytes(data)
        for name, size in self.sizes.items():
            with open(folder / _plain(name), "wb") as handle:
                handle.truncate(size)
        for name in self.links:
            os.symlink(LINK_TARGET, folder / _plain(name))


def _plain(name: str) -> str:
    """Return ``name`` when it is a plain file name (no folder, not '.' or '..'); raise
    ValueError otherwise (a task never writes outside its own folder)."""
    if not name or "/" in name or "\0" in name or name in (".", ".."):
        raise ValueError(f"file name {name!r} in a shipped submission: plain names only")
    return name


@dataclass
class Graded:
    """What a shipped task returns: the submission's result and its autograded notebook's
    bytes (None when grading made none: a file that is no notebook, one nbgrader refused)."""

    result: SubmissionResult
    notebook: bytes | None


_releases: dict[bytes, Path] = {}  # a released notebook's sha256 → this process's copy of it


def _release_file(parcel: AssignmentParcel) -> Path:
    """Return a file of this process holding ``parcel``'s released notebook, written once per
    release (grading reads it by path, and caches what it parses by path and time)."""
    import hashlib

    key = hashlib.sha256(parcel.release).digest()
    path = _releases.get(key)
    if path is None or not path.is_file():
        folder = Path(tempfile.mkdtemp(prefix="plaisante-release-"))
        path = folder / f"{parcel.assignment}.ipynb"
        path.write_bytes(parcel.release)
        _releases[key] = path
    return path


def grade_shipped(assignment: str, parcel: AssignmentParcel | None, handed: HandedIn,
                  limits: Limits, sandbox: bool, grader: Grader | None = None) -> Graded:
    """Grade one shipped submission on a worker that cannot see the course (what a Dask task
    runs): unpack ``handed`` into a temporary folder of this worker, grade it with
    ``submission.grade_one`` from ``parcel`` (None only with a ``grader`` stand-in, given the
    temporary folder as its course root), and return its result with the autograded
    notebook's bytes. Nothing outside the temporary folder is written, and it is removed.
    Exceptions propagate to the coordinator, as ``grade_task``'s do."""
    from ..course import check_ids

    check_ids(handed.student, assignment)
    work = Path(tempfile.mkdtemp(prefix="plaisante-task-"))
    try:
        submitted, out = work / "submitted", work / "autograded"
        handed.unpack(submitted)
        if grader is not None:
            result = grader(work, handed.student, assignment, limits=limits, sandbox=sandbox)
        elif parcel is None:
            raise ValueError("grade_shipped needs the assignment's parcel (or a grader)")
        else:
            from .autograde import ShippedAssignment
            from .submission import grade_one

            course = ShippedAssignment(_release_file(parcel), parcel.facts, parcel.config)
            result = grade_one(work, handed.student, assignment, limits=limits,
                               sandbox=sandbox, submitted_dir=submitted, out_dir=out,
                               course=course)
        target = out / f"{assignment}.ipynb"
        notebook = target.read_bytes() if result.autograded and target.is_file() else None
        result.autograded = None  # a path of this worker: the coordinator says where it is
        return Graded(result, notebook)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def warm_worker() -> None:
    """Get a worker process ready before its first task: import the grading code and apply
    ``tune_worker``, so the first submission of every worker is not slower than the rest."""
    from . import submission  # noqa: F401  the grading code, imported once

    tune_worker()


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
    return None


_tuned = False


def tune_worker() -> None:
    """Take out a cost nbgrader pays again for every cell, in this process only: nbgrader
    validates every cell's metadata with ``jsonschema.validate(meta, schema)``, which checks
    the schema itself and builds a validator on every call; here a validator is built once per
    schema. The same checks run and the same ``ValidationError`` is raised, so it changes
    nothing graded (``tests/test_parallel.py`` checks that parallel scores equal serial ones).
    Safe to call more than once.
    """
    global _tuned
    if _tuned:
        return
    _tuned = True
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


#: glibc's ``mallopt`` parameter for how many malloc arenas a process may make
M_ARENA_MAX = -8
#: arenas a bounded worker keeps: glibc's default is eight a core, each reserving 64 MiB of
#: address space, which the bound counts
WORKER_ARENAS = 2


def bound_memory(limit: int) -> None:
    """Cap this process's address space at ``limit`` bytes (soft RLIMIT_AS, so a sandboxed
    kernel it starts can still be given its own limit by ``prlimit``), and its malloc arenas at
    ``WORKER_ARENAS``: glibc gives each thread that allocates (each kernel's watchers,
    ZeroMQ's) an arena of its own, up to sixteen on two cores, 64 MiB of address space each.
    Under load the watchers of one kernel and the next overlap, the arenas took the whole GiB,
    and a notebook of 38 MB failed with MemoryError before its kernel started."""
    import ctypes
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)  # glibc's; other C libraries differ
    if mallopt is not None:
        mallopt(M_ARENA_MAX, WORKER_ARENAS)
