"""Grade one submission: read it defensively, autograde it in memory with nbgrader's own
preprocessors (``plaisante.grading.autograde``) and a sandboxed kernel forked from the worker's
zygote, publish the autograded notebook, and return a ``SubmissionResult`` (see
``plaisante.grading.grade_submission``). The course gradebook is only read here."""

from __future__ import annotations

import ast
import copy
import json
import shutil
import sys
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbgrader.utils import parse_utc
from traitlets.config import Config

from ..course import CourseLayout, course_config
from . import sandbox as sb
from .autograde import (
    ShippedAssignment,
    assignment_facts,
    autograde,
    notebook_bytes,
    publish,
    seconds_late,
)
from .execute import is_setup, is_test
from .handed_in import Choice, chosen_notebook, data_files, lms_late
from .kernel_manager import DATA_FOLDER, SandboxKernelManager
from .notebook_check import Sanitized, Unreadable, read_submission, sanitize
from .result import Limits, SubmissionResult, submission_digest

TMP_PREFIX = "plaisante-grade-"

#: Fork each kernel from the worker's zygote (``plaisante.grading.zygote``) rather than start
#: a new sandbox and interpreter per submission; when the zygote cannot start, grading falls
#: back to a sandbox of its own for that submission.
USE_ZYGOTE = True


# ------------------------------------------------------------------------- the course, read-only

def config_of(root: Path) -> Config:
    """Return the course's nbgrader config, without what must stay the grader's own (the
    folders, the gradebook, the preprocessors and how the kernel runs)."""
    config: Config = course_config(root)
    for section in ("CourseDirectory", "Autograde", "Execute", "ExecutePreprocessor",
                    "KernelManager", "NbGrader"):
        config.pop(section, None)
    return config


def setup_sources(release: nbformat.NotebookNode) -> list[str]:
    """Return the sources of the release's setup cells: the locked, ungraded code cells before
    the first answer cell (the imports the tests rely on; never the last cell's game)."""
    sources = []
    for cell in release.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
            break
        if is_setup(cell):
            sources.append(cell.source)
    return sources


def preload_modules(release: nbformat.NotebookNode) -> tuple[str, ...]:
    """Return the modules the release's setup cells import (``import x.y``, ``from x.y import
    …``, absolute only, in order): what a kernel zygote imports once for every kernel."""
    modules: list[str] = []
    for source in setup_sources(release):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                modules.append(node.module)
    return tuple(dict.fromkeys(modules))


def order_of_tests(release: nbformat.NotebookNode) -> list[str]:
    """Return the grade ids of the release's test cells, in the release's order: the order
    their hidden checks run in, whatever order a submission put them in."""
    return [cell.metadata["nbgrader"]["grade_id"] for cell in release.cells
            if is_test(cell) and cell.metadata["nbgrader"].get("grade_id")]


def student_names(release: nbformat.NotebookNode) -> list[str]:
    """Return the names the release's solution cells define at top level (def, class,
    assignment): the student's own parts, which the judge looks up in the kernel."""
    names: set[str] = set()
    for cell in release.cells:
        if cell.cell_type != "code" or not cell.metadata.get("nbgrader", {}).get("solution"):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return sorted(names)


# ------------------------------------------------------------------------------ grading one

@dataclass(frozen=True)
class Job:
    """One submission's grading, as ``grade_one`` sets it up: everything the notebook's run
    in memory (``_grade_in_memory``) and its kernel's settings (``_kernel_config``) need.

    ``facts``: the assignment's ``autograde.AssignmentFacts`` (points, test sources, due
    date); ``uid``: the user id the kernel runs as (a throw-away one when sandboxed as root,
    else 0: the grader's own); ``zygote``: the worker's ``zygote.Zygote`` that forks the
    kernel, or None for a kernel started on its own; ``instructor``: the course's nbgrader
    config without the grader's own sections (``config_of``); ``setup_sources``,
    ``student_names`` and ``test_order``: the release's (``setup_sources``, ``student_names``,
    ``order_of_tests``);
    ``data_files``: {name: path} of the submission's data files; ``work``: a temporary
    folder of this grading's own; ``submitted_dir`` and ``out_dir``: the submission's
    folder and the folder its autograded notebook is published to.
    """

    student: str
    facts: Any
    limits: Limits
    sandbox: bool
    uid: int
    zygote: Any
    instructor: Config
    setup_sources: tuple[str, ...]
    student_names: tuple[str, ...]
    test_order: tuple[str, ...]
    data_files: dict[str, Path]
    work: Path
    submitted_dir: Path
    out_dir: Path


def _say_what_was_read(result: SubmissionResult, choice: Choice, clean: Sanitized,
                       assignment: str) -> None:
    """Note which notebook was graded when it is not the expected one, and note or flag what
    reading it found (``chosen_notebook``'s choice, ``sanitize``'s reasons)."""
    if choice.reason:  # the notebook holding the work is graded: a note, not a doubt
        result.note(choice.reason)
    elif choice.path.name != f"{assignment}.ipynb":
        result.note(f"graded {choice.path.name}, the only notebook of the assignment "
                    f"submitted (expected {assignment}.ipynb)")
    for reason in clean.reasons:
        if reason in clean.notes:
            result.note(reason)
        else:
            result.flag(reason)


def grade_one(root: Path, student: str, assignment: str, *, limits: Limits,
              sandbox: bool, submitted_dir: Path | None = None,
              out_dir: Path | None = None,
              course: ShippedAssignment | None = None) -> SubmissionResult:
    """See ``plaisante.grading.grade_submission``. ``submitted_dir`` and ``out_dir`` replace
    the course's submitted and autograded folders of the submission (``warm_up``);
    ``course`` replaces what is read of the course (a cluster's worker that cannot see it:
    ``worker.grade_shipped``)."""
    started = time.monotonic()
    if sandbox:
        sb.require_sandbox()
    result = SubmissionResult(student=student, status="graded")
    layout = CourseLayout(root)
    release_path = course.release if course is not None else layout.release(assignment)
    if not release_path.is_file():
        raise FileNotFoundError(f"no released notebook at {release_path}: run `plaisante release`")
    release, names, setup, modules = _release_facts(release_path)
    release = copy.deepcopy(release)  # sanitize reads it; no submission may touch the cached one
    submitted_dir = submitted_dir or layout.submitted(student, assignment).parent
    out_dir = out_dir or layout.autograded(student, assignment).parent
    result.submission_sha256 = submission_digest(submitted_dir, assignment)
    work = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=sb.scratch_base()))
    zygote = _zygote(limits, modules) if sandbox else None
    uid = zygote.uid if zygote is not None else (sb.pick_uid() if sandbox else 0)
    try:  # the course's own set-up: a problem here stops the run, it is no student's fault
        facts = course.facts if course is not None else assignment_facts(root, assignment)
        points = facts.points
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    result.cell_scores = {grade_id: 0.0 for grade_id in points}
    result.max_total = sum(points.values())
    try:
        result.timestamp = read_timestamp(submitted_dir / "timestamp.txt", result)
        # before anything can fail: work that cannot be graded is still as late as it is
        result.seconds_late = seconds_late(facts, student, result.timestamp)
        choice = chosen_notebook(submitted_dir, assignment, release.cells)
        try:
            clean = sanitize(read_submission(choice.path), release, assignment)
        except Unreadable as problem:
            result.flag(str(problem))
            _remove_stale(out_dir, assignment)
            return result
        _say_what_was_read(result, choice, clean, assignment)
        late = lms_late(submitted_dir)
        if late:
            result.note(late)
        data = data_files(submitted_dir)
        if data.reason:
            result.flag(data.reason)
        instructor = course.config if course is not None else config_of(root)
        job = Job(student=student, facts=facts, limits=limits, sandbox=sandbox, uid=uid,
                  zygote=zygote, instructor=instructor, setup_sources=tuple(setup),
                  student_names=tuple(names), test_order=tuple(order_of_tests(release)),
                  data_files=dict(data.files), work=work,
                  submitted_dir=submitted_dir, out_dir=out_dir)
        _grade_in_memory(job, clean.notebook, result)
    except Exception as error:  # noqa: BLE001  the grader's own failure: flag, never stop a batch
        result.flag(f"grader error: {type(error).__name__}: {error}")
    finally:
        if zygote is not None:
            left = zygote.clean()
            if left:
                result.flag(f"{left} process(es) outlived the kernel and were killed")
        elif sandbox and sb.is_throwaway(uid):
            left = sb.kill_user(uid)
            if left:
                result.flag(f"{left} process(es) outlived the kernel and were killed")
        shutil.rmtree(work, ignore_errors=True)
        result.total = round(max(0.0, sum(result.cell_scores.values()) - result.late_penalty), 6)
        result.seconds = round(time.monotonic() - started, 3)
    return result


def warm_up(root: Path, assignment: str, *, limits: Limits, sandbox: bool) -> None:
    """Grade ``assignment``'s released notebook once, as if submitted, writing nothing in the
    course (its folders are temporary): this process then has its kernel zygote running and
    has paid every first-use cost (nbgrader's validators, the judge's and the reference's
    imports), so the next real submission grades at full speed. Raises what ``grade_one``
    raises for a course that cannot be graded (FileNotFoundError: not released)."""
    release_path = CourseLayout(root).release(assignment)
    if not release_path.is_file():
        raise FileNotFoundError(f"no released notebook at {release_path}: run `plaisante release`")
    scratch = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=sb.scratch_base()))
    try:
        (scratch / "submitted").mkdir()
        shutil.copy(release_path, scratch / "submitted" / f"{assignment}.ipynb")
        grade_one(root, "warm-up", assignment, limits=limits, sandbox=sandbox,
                  submitted_dir=scratch / "submitted", out_dir=scratch / "autograded")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


_released: dict[tuple[str, int, int], tuple[Any, ...]] = {}


def _release_facts(path: Path) -> tuple[nbformat.NotebookNode, tuple[str, ...],
                                        tuple[str, ...], tuple[str, ...]]:
    """Return the released notebook at ``path`` (shared: copy it before use), its
    ``student_names``, ``setup_sources`` and ``preload_modules``; read once per process for as
    long as the file stays the same."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _released:
        _released.clear()
        release = nbformat.read(path, as_version=4)
        _released[key] = (release, tuple(student_names(release)),
                          tuple(setup_sources(release)), preload_modules(release))
    return _released[key]


def _zygote(limits: Limits, modules: tuple[str, ...]) -> Any:
    """Return this worker's kernel zygote for ``limits`` and the release's setup ``modules``,
    or None when ``USE_ZYGOTE`` is off or it cannot start (then the kernel gets a sandbox of
    its own). Raises SandboxUnavailable when there is no sandbox at all."""
    if not USE_ZYGOTE:
        return None
    from .zygote import ZygoteError, ZygoteUnusable, zygote_for

    try:
        return zygote_for(limits, modules)
    except ZygoteError as error:
        if not (RUN_SAYS_UNUSABLE and isinstance(error, ZygoteUnusable)):
            _say_no_zygote(error)
        return None


def say_no_zygote() -> None:
    """Say (once in this process, on stderr) that kernels start without a zygote when none can
    start on this machine as the kit is installed (``zygote.home_base``): a grading run's
    coordinator says it for all its workers, which then do not (``RUN_SAYS_UNUSABLE``)."""
    if not USE_ZYGOTE:
        return
    from .zygote import ZygoteUnusable, home_base

    try:
        home_base()
    except ZygoteUnusable as error:
        _say_no_zygote(error)


def _say_no_zygote(error: BaseException) -> None:
    global _SAID_NO_ZYGOTE
    if not _SAID_NO_ZYGOTE:  # once a process: the same grades, each kernel started anew
        _SAID_NO_ZYGOTE = True
        print(f"plaisante grade: each student's kernel starts a Python of its own, not a "
              f"copy of a pre-loaded one: {error}; the grades are the same, only slower "
              "(docs/capacity.md)", file=sys.stderr, flush=True)


_SAID_NO_ZYGOTE = False
#: True in a pool's worker process: its coordinator says what ``say_no_zygote`` says, once
#: for the whole run, so the worker does not say it again
RUN_SAYS_UNUSABLE = False


def _kernel_config(config: Config, job: Job, incidents: Path, scratch: Path,
                   sockets: Path) -> None:
    """Set, in ``config``, how ``JudgedExecute`` runs ``job``'s notebook (its limits, the
    judge's test and setup sources and the student's names, the file ``incidents`` it writes
    to) and how its ``SandboxKernelManager`` starts the kernel (in ``scratch``, talking over
    ``sockets``)."""
    execute = config.JudgedExecute
    execute.kernel_manager_class = SandboxKernelManager
    execute.kernel_name = "python3"
    limits = job.limits
    execute.timeout = max(1, int(limits.cell_seconds))
    execute.submission_seconds = float(limits.submission_seconds)
    execute.output_bytes = int(limits.output_bytes)
    execute.incident_file = str(incidents)
    execute.test_sources = job.facts.test_sources
    execute.setup_sources = list(job.setup_sources)
    execute.student_names = list(job.student_names)
    execute.test_order = list(job.test_order)
    execute.extra_arguments = ["--HistoryManager.hist_file=:memory:",
                               *_data_arguments(job.data_files, scratch, sockets, job.sandbox)]
    execute.shutdown_kernel = "immediate"
    execute.store_widget_state = False  # widget messages would escape the output allowance
    manager = config.SandboxKernelManager
    manager.sandbox_enabled = 1 if job.sandbox else 0
    manager.sandbox_work_dir = str(scratch)
    manager.sandbox_socket_dir = str(sockets)
    manager.sandbox_uid = job.uid
    manager.sandbox_limits = asdict(limits)
    manager.sandbox_extra_env = {"NBGRADER_EXECUTION": "autograde"}
    manager.sandbox_data_files = {name: str(path) for name, path in job.data_files.items()}
    if job.zygote is not None:
        manager.sandbox_zygote = 1
        manager.sandbox_preload = list(job.zygote.modules)


def _data_arguments(files: dict[str, Path], scratch: Path, sockets: Path,
                    sandbox: bool) -> list[str]:
    """Return the kernel arguments that copy the submission's data ``files`` (name -> path)
    into its working folder as it starts (again at each restart). A sandboxed kernel's working
    folder is a tmpfs of its own: the files wait in a folder of its sockets folder, the one
    host folder bound into its sandbox, where ``SandboxKernelManager`` puts them anew before
    every start. An unsandboxed kernel runs in ``scratch``: they are copied there."""
    if not files:
        return []
    if not sandbox:
        for name, path in files.items():
            shutil.copyfile(path, scratch / name)
        return []
    staged = sockets / DATA_FOLDER
    line = f"__import__('plaisante.kernel.data_files').kernel.data_files.copy_in({str(staged)!r})"
    return [f"--IPKernelApp.exec_lines={json.dumps([line])}"]




def _read_incidents(incidents: Path, result: SubmissionResult) -> None:
    """Add what ``JudgedExecute`` wrote to ``incidents`` to ``result``: flags and, for each
    failed test cell, whether the failure was in its hidden part (and that hidden check's rule)."""
    if incidents.is_file():
        for line in incidents.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["kind"] == "verdict":
                result.failed_in[entry["cell"]] = entry["failed_in"]
                if entry.get("rule"):
                    result.rules[entry["cell"]] = entry["rule"]
            else:
                result.flag(entry["text"])


def _grade_in_memory(job: Job, notebook: nbformat.NotebookNode,
                     result: SubmissionResult) -> None:
    """Autograde ``notebook`` (``job``'s submission, sanitized) in memory
    (``autograde.autograde``), put its scores and late penalty in ``result`` and publish the
    autograded notebook to ``job.out_dir``, unless the submission in ``job.submitted_dir``
    was replaced meanwhile."""
    submitted_dir, out_dir, zygote, work = job.submitted_dir, job.out_dir, job.zygote, job.work
    if zygote is not None:
        scratch, sockets = zygote.work_dir, zygote.sockets
    else:
        scratch = work / "scratch"
        scratch.mkdir()
        sockets = Path(tempfile.mkdtemp(prefix=TMP_PREFIX)) / "sockets"
        sockets.mkdir()
    incidents = work / "incidents.jsonl"
    config = Config()
    config.merge(job.instructor)  # the instructor's settings (late penalties, Execute.timeout…)
    config.OverwriteCells.add_missing_cells = True
    _kernel_config(config, job, incidents, scratch, sockets)
    assignment = job.facts.assignment
    result.kernel_ran = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            done = autograde(notebook, job.facts, job.student, result.timestamp, config,
                             str(scratch))
    except Exception as error:  # noqa: BLE001  nbgrader refused the notebook: flag it
        detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
        result.flag(f"nbgrader could not autograde this notebook: {type(error).__name__}"
                    f"{': ' + detail[:300] if detail else ''}")
        _remove_stale(out_dir, assignment)
        return
    finally:
        if zygote is None:
            try:  # what the kernel left there, even in folders it made unreadable
                sb.empty_folder(sockets.parent)
            except OSError:
                pass
            shutil.rmtree(sockets.parent, ignore_errors=True)
    _read_incidents(incidents, result)
    for grade_id in result.cell_scores:
        result.cell_scores[grade_id] = done.scores.get(grade_id, 0.0)
    result.late_penalty = done.late_penalty
    if not result.still_current(submitted_dir, assignment):
        return  # the newer submission's grading publishes its own
    publish(out_dir, assignment, notebook_bytes(done.notebook), result)


def read_timestamp(path: Path, result: SubmissionResult) -> str | None:
    """Return the text of a submission's ``timestamp.txt`` when it holds a date nbgrader can
    read; flag ``result`` and return None when it holds anything else."""
    if not path.is_file() or path.is_symlink():
        return None
    if path.stat().st_size > 200:
        result.flag("timestamp.txt is not a date (over 200 bytes): graded without a "
                    "submission time, so no late penalty was computed")
        return None
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    try:
        parse_utc(text)
    except Exception:  # noqa: BLE001  dateutil raises several kinds
        result.flag(f"timestamp.txt is not a date ({text[:60]!r}): graded without a "
                    "submission time, so no late penalty was computed")
        return None
    return text


def _remove_stale(out_dir: Path, assignment: str) -> None:
    """Remove an earlier autograded notebook so it is not mistaken for this run's."""
    stale = out_dir / f"{assignment}.ipynb"
    if stale.is_file():
        stale.unlink()
