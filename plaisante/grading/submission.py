"""Grade one submission: a private course copy, nbgrader's Autograde converter, a sandboxed
kernel, and a ``SubmissionResult`` (see ``plaisante.grading.grade_submission``)."""

from __future__ import annotations

import ast
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import warnings
from dataclasses import asdict
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import (
    AssignLatePenalties,
    IgnorePattern,
    LimitOutput,
    SaveAutoGrades,
)
from nbgrader.utils import parse_utc
from traitlets.config import Config

from ..course import CourseLayout, course_config
from . import sandbox as sb
from .execute import JudgedExecute, is_setup
from .notebook_check import Unreadable, read_submission, sanitize
from .result import Limits, SubmissionResult

TMP_PREFIX = "plaisante-grade-"

#: Fork each kernel from the worker's zygote (``plaisante.grading.zygote``) rather than start
#: a new sandbox and interpreter per submission; when the zygote cannot start, grading falls
#: back to a sandbox of its own for that submission.
USE_ZYGOTE = True


# ------------------------------------------------------------------------- the course, read-only

def snapshot_gradebook(root: Path, target: Path) -> str:
    """Copy the course gradebook to ``target`` (SQLite's backup API: a consistent copy even
    while the coordinator writes) and return its course id. The course file is opened
    read-only. Raises FileNotFoundError when there is no gradebook."""
    source = CourseLayout(root).gradebook
    if not source.is_file():
        raise FileNotFoundError(f"no gradebook at {source}: run `plaisante release` first")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=60)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        row = dst.execute("SELECT id FROM course LIMIT 1").fetchone()
    finally:
        src.close()
        dst.close()
    return row[0] if row else "default_course"


def assignment_points(db_url: str, course_id: str, assignment: str) -> dict[str, float]:
    """Return {grade_id: max points} of ``assignment`` in the gradebook at ``db_url``.

    Raises FileNotFoundError when the gradebook has no such assignment.
    """
    with Gradebook(db_url, course_id) as gradebook:
        found = _find_assignment(gradebook, assignment)
        return {cell.name: float(cell.max_score)
                for notebook in found.notebooks for cell in notebook.grade_cells}


def test_sources(db_url: str, course_id: str, assignment: str) -> dict[str, str]:
    """Return {grade_id: source} of every autograded test cell of ``assignment``, hidden tests
    included, from the gradebook at ``db_url`` (what the judge runs)."""
    with Gradebook(db_url, course_id) as gradebook:
        found = _find_assignment(gradebook, assignment)
        sources = {}
        for notebook in found.notebooks:
            graded = {cell.name for cell in notebook.grade_cells}
            answers = {cell.name for cell in notebook.solution_cells}
            sources.update({cell.name: cell.source for cell in notebook.source_cells
                            if cell.name in graded and cell.name not in answers
                            and cell.cell_type == "code"})
        return sources


def _find_assignment(gradebook: Gradebook, assignment: str) -> Any:
    try:
        return gradebook.find_assignment(assignment)
    except MissingEntry:
        raise FileNotFoundError(f"assignment {assignment!r} is not in the gradebook: run "
                                "`plaisante release` first") from None


def config_of(root: Path) -> Config:
    """Return the course's nbgrader config, without what must stay the grader's own (the
    folders, the gradebook, the preprocessors and how the kernel runs)."""
    config = course_config(root)
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

def grade_one(root: Path, student: str, assignment: str, *, limits: Limits,
              sandbox: bool) -> SubmissionResult:
    """See ``plaisante.grading.grade_submission``."""
    started = time.monotonic()
    if sandbox:
        sb.require_sandbox()
    result = SubmissionResult(student=student, status="graded")
    layout = CourseLayout(root)
    release_path = layout.release(assignment)
    if not release_path.is_file():
        raise FileNotFoundError(f"no released notebook at {release_path}: run `plaisante release`")
    release = nbformat.read(release_path, as_version=4)
    submitted_dir = layout.submitted(student, assignment).parent
    out_dir = layout.autograded(student, assignment).parent
    work = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=sb.scratch_base()))
    zygote = _zygote(limits, release) if sandbox else None
    uid = zygote.uid if zygote is not None else (sb.pick_uid() if sandbox else 0)
    try:  # the course's own set-up: a problem here stops the run, it is no student's fault
        course_id = snapshot_gradebook(root, work / "gradebook.db")
        db_url = f"sqlite:///{work / 'gradebook.db'}"
        points = assignment_points(db_url, course_id, assignment)
        tests = test_sources(db_url, course_id, assignment)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    result.cell_scores = {grade_id: 0.0 for grade_id in points}
    result.max_total = sum(points.values())
    try:
        result.timestamp = read_timestamp(submitted_dir / "timestamp.txt", result)
        try:
            clean = sanitize(read_submission(submitted_dir / f"{assignment}.ipynb"), release,
                             assignment)
        except Unreadable as problem:
            result.flag(str(problem))
            _remove_stale(out_dir, assignment)
            return result
        for reason in clean.reasons:
            result.flag(reason)
        judge = {"test_sources": tests, "student_names": student_names(release),
                 "setup_sources": setup_sources(release)}
        _run_autograde(work, student, assignment, course_id, clean.notebook, result, limits,
                       sandbox, uid, judge, config_of(root), zygote)
        scores, result.late_penalty = _scores(db_url, course_id, assignment, student)
        for grade_id in result.cell_scores:
            result.cell_scores[grade_id] = scores.get(grade_id, 0.0)
        produced = work / "course" / "autograded" / student / assignment / f"{assignment}.ipynb"
        if produced.is_file():
            result.autograded = str(_publish(produced, out_dir, assignment))
            result.autograded_sha256 = hashlib.sha256(produced.read_bytes()).hexdigest()
        else:
            _remove_stale(out_dir, assignment)
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


def _zygote(limits: Limits, release: nbformat.NotebookNode) -> Any:
    """Return this worker's kernel zygote for ``limits`` and the release's setup modules, or
    None when ``USE_ZYGOTE`` is off or it cannot start (then the kernel gets a sandbox of its
    own). Raises SandboxUnavailable when there is no sandbox at all."""
    if not USE_ZYGOTE:
        return None
    from .zygote import ZygoteError, zygote_for

    try:
        return zygote_for(limits, preload_modules(release))
    except ZygoteError:
        return None


def _run_autograde(work: Path, student: str, assignment: str, course_id: str,
                   notebook: nbformat.NotebookNode, result: SubmissionResult, limits: Limits,
                   sandbox: bool, uid: int, judge: dict[str, Any], instructor: Config,
                   zygote: Any = None) -> None:
    """Run nbgrader's Autograde converter on the private copy, test cells judged from
    ``judge`` (``JudgedExecute``'s test_sources, setup_sources and student_names); add its
    incidents to result. With a ``zygote`` (``plaisante.grading.zygote.Zygote``) the kernel is
    forked by it, in its working and sockets folders (emptied by ``zygote.clean()``)."""
    course = work / "course"
    inbox = course / "submitted" / student / assignment
    inbox.mkdir(parents=True)
    (course / "source" / assignment).mkdir(parents=True)
    nbformat.write(notebook, inbox / f"{assignment}.ipynb")
    if result.timestamp:
        (inbox / "timestamp.txt").write_text(result.timestamp + "\n", encoding="utf-8")
    # the kernel's working folder: a size-limited tmpfs inside the sandbox (a plain folder
    # when unsandboxed); its sockets: on disk, outside the memory-backed private copy
    if zygote is not None:
        scratch, sockets = zygote.work_dir, zygote.sockets
    else:
        scratch = work / "scratch"
        scratch.mkdir()
        sockets = Path(tempfile.mkdtemp(prefix=TMP_PREFIX)) / "sockets"
        sockets.mkdir()
    incidents = work / "incidents.jsonl"
    log_file = work / "nbgrader.log"

    config = Config()
    config.merge(instructor)  # the instructor's settings (late penalties, Execute.timeout…)
    coursedir = config.CourseDirectory
    coursedir.root = str(course)
    coursedir.source_directory = "source"
    coursedir.release_directory = "release"
    coursedir.submitted_directory = "submitted"
    coursedir.autograded_directory = "autograded"
    coursedir.feedback_directory = "feedback"
    coursedir.db_url = f"sqlite:///{work / 'gradebook.db'}"
    coursedir.course_id = course_id
    coursedir.assignment_id = assignment
    coursedir.student_id = student
    # nbgrader's own list with Execute swapped for JudgedExecute, and without its second
    # CheckCellMetadata: the sanitizing pass just checked the same metadata (~0.2 s saved).
    config.Autograde.autograde_preprocessors = [
        JudgedExecute, IgnorePattern, ClearMetadataPreprocessor, LimitOutput, SaveAutoGrades,
        AssignLatePenalties]
    config.Autograde.create_student = True
    config.OverwriteCells.add_missing_cells = True
    execute = config.JudgedExecute
    execute.kernel_manager_class = sb.SandboxKernelManager
    execute.kernel_name = "python3"
    execute.timeout = max(1, int(limits.cell_seconds))
    execute.submission_seconds = float(limits.submission_seconds)
    execute.output_bytes = int(limits.output_bytes)
    execute.incident_file = str(incidents)
    for name, value in judge.items():
        setattr(execute, name, value)
    execute.extra_arguments = ["--HistoryManager.hist_file=:memory:"]
    execute.shutdown_kernel = "immediate"
    execute.store_widget_state = False  # widget messages would escape the output allowance
    manager = config.SandboxKernelManager
    manager.sandbox_enabled = 1 if sandbox else 0
    manager.sandbox_work_dir = str(scratch)
    manager.sandbox_socket_dir = str(sockets)
    manager.sandbox_uid = uid
    manager.sandbox_limits = asdict(limits)
    manager.sandbox_extra_env = {"NBGRADER_EXECUTION": "autograde"}
    if zygote is not None:
        manager.sandbox_zygote = 1
        manager.sandbox_preload = list(zygote.modules)

    logger = logging.getLogger(f"plaisante.grading.{student}.{os.getpid()}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = logging.FileHandler(log_file, encoding="utf-8")
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nbgrader's SQLAlchemy session warnings
            directory = CourseDirectory(config=config)
            converter = Autograde(coursedir=directory, config=config)
            converter.log = logger
            converter.start()
    except Exception:  # noqa: BLE001  nbgrader already logged why; read it below
        errors = [line.strip() for line in log_file.read_text(encoding="utf-8").splitlines()
                  if line.strip() and not line.startswith(("Traceback", "  "))]
        detail = errors[-3] if len(errors) >= 3 else (errors[-1] if errors else "no log")
        result.flag(f"nbgrader could not autograde this notebook: {detail[:300]}")
    finally:
        logger.removeHandler(handler)
        handler.close()
        if zygote is None:
            try:  # what the kernel left there, even in folders it made unreadable
                sb.empty_folder(sockets.parent)
            except OSError:
                pass
            shutil.rmtree(sockets.parent, ignore_errors=True)
    if incidents.is_file():
        for line in incidents.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["kind"] == "verdict":
                result.failed_in[entry["cell"]] = entry["failed_in"]
            else:
                result.flag(entry["text"])


def _scores(db_url: str, course_id: str, assignment: str, student: str
            ) -> tuple[dict[str, float], float]:
    """Return ({grade_id: score}, late penalty) of the private gradebook's submission
    (({}, 0.0) if none)."""
    with Gradebook(db_url, course_id) as gradebook:
        try:
            submission = gradebook.find_submission(assignment, student)
        except MissingEntry:
            return {}, 0.0
        scores = {grade.name: float(grade.score or 0.0)
                  for notebook in submission.notebooks for grade in notebook.grades}
        penalty = sum(float(notebook.late_submission_penalty or 0.0)
                      for notebook in submission.notebooks)
        return scores, penalty


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


def _publish(produced: Path, out_dir: Path, assignment: str) -> Path:
    """Copy the autograded notebook into the course, atomically; return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{assignment}.ipynb"
    partial = out_dir / f".{assignment}.ipynb.{os.getpid()}.partial"
    shutil.copyfile(produced, partial)
    os.replace(partial, target)
    stamp = produced.parent / "timestamp.txt"
    if stamp.is_file():
        shutil.copyfile(stamp, out_dir / "timestamp.txt")
    return target


def _remove_stale(out_dir: Path, assignment: str) -> None:
    """Remove an earlier autograded notebook so it is not mistaken for this run's."""
    stale = out_dir / f"{assignment}.ipynb"
    if stale.is_file():
        stale.unlink()
