"""nbgrader's autograde of one notebook, in memory: its own preprocessors, the gradebook read once.

nbgrader's ``Autograde`` converter runs two nbconvert passes over a file copy of the course,
writes and re-reads the notebook between them, validates it after every preprocessor, and keeps
every grade in a gradebook it opens about ten times per notebook. In a grading worker that
bookkeeping cost more CPU than the kernel. Here the same nbgrader preprocessors run once each,
in nbgrader's order, on the notebook in memory::

    sanitize   ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
               CheckCellMetadata (its schema checked once per process, not at every cell)
    autograde  JudgedExecute (nbgrader's Execute, test cells judged), IgnorePattern,
               ClearMetadataPreprocessor, LimitOutput
    scores     nbgrader.utils.determine_grade for each grade cell (SaveAutoGrades' rule), and
               the course's late-submission plugin (AssignLatePenalties' rule)

OverwriteKernelspec and OverwriteCells read the assignment's source cells from
``AssignmentFacts`` — read once per worker process from the course gradebook, never written, or
sent with each task to a cluster's worker that cannot see the course — instead of opening a
gradebook. The course gradebook stays nbgrader's system of record: the
coordinator writes every result into it through nbgrader's own API (``plaisante.grading.record``),
so formgrader, feedback and export see the grades as nbgrader would have stored them.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import nbformat
from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbformat import validator
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.nbgraderformat import (
    MetadataValidator,
    SchemaTooNewError,
    SchemaTooOldError,
    ValidationError,
)
from nbgrader.nbgraderformat.common import BaseMetadataValidator
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    IgnorePattern,
    LimitOutput,
    OverwriteCells,
    OverwriteKernelspec,
)
from traitlets.config import Config

from ..course import CourseLayout

QUIET = logging.getLogger("plaisante.grading.autograde")
QUIET.addHandler(logging.NullHandler())
QUIET.propagate = False


@dataclass(frozen=True)
class SourceCell:
    """A source cell as the gradebook keeps it (what OverwriteCells reads)."""

    name: str
    cell_type: str
    locked: bool
    checksum: str | None
    source: str


@dataclass(frozen=True)
class ScoredCell:
    """A grade or task cell: its id, points and type."""

    name: str
    max_score: float
    cell_type: str


@dataclass
class AssignmentFacts:
    """What grading one notebook of ``assignment`` needs from the course gradebook, read once.

    ``points``: {grade_id: max points}; ``test_sources``: {grade_id: source} of every
    autograded test cell (hidden tests included); ``extensions``: {student: timedelta} given
    in the gradebook; ``duedate``: naive UTC or None. Also answers, for nbgrader's
    OverwriteCells and OverwriteKernelspec, the few ``Gradebook`` questions they ask.
    """

    course_id: str
    assignment: str
    notebook: str
    kernelspec: str | None
    source_cells: list[SourceCell]
    grade_cells: list[ScoredCell]
    solution_cells: list[SourceCell]
    task_cells: list[ScoredCell]
    duedate: datetime.datetime | None
    extensions: dict[str, datetime.timedelta] = field(default_factory=dict)

    @property
    def points(self) -> dict[str, float]:
        return {cell.name: cell.max_score for cell in self.grade_cells}

    @property
    def test_sources(self) -> dict[str, str]:
        graded = {cell.name for cell in self.grade_cells}
        answers = {cell.name for cell in self.solution_cells}
        return {cell.name: cell.source for cell in self.source_cells
                if cell.name in graded and cell.name not in answers and cell.cell_type == "code"}

    # --- the Gradebook questions of OverwriteCells / OverwriteKernelspec, answered from here

    def __enter__(self) -> AssignmentFacts:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def _mine(self, notebook: str, assignment: str) -> None:
        if (notebook, assignment) != (self.notebook, self.assignment):
            raise MissingEntry()

    def find_notebook(self, notebook: str, assignment: str) -> AssignmentFacts:
        self._mine(notebook, assignment)
        return self

    def find_source_cell(self, name: str, notebook: str, assignment: str) -> SourceCell:
        self._mine(notebook, assignment)
        for cell in self.source_cells:
            if cell.name == name:
                return cell
        raise MissingEntry()

    def find_graded_cell(self, name: str, notebook: str, assignment: str) -> ScoredCell:
        self._mine(notebook, assignment)
        for cell in (*self.grade_cells, *self.task_cells):
            if cell.name == name:
                return cell
        raise MissingEntry()


def read_facts(root: Path, assignment: str) -> AssignmentFacts:
    """Read ``assignment``'s facts from the course gradebook (the database the course's
    nbgrader config names), in one read-only transaction, so a coordinator writing it at the
    same time is no problem. Raises FileNotFoundError when there is no gradebook or no such
    assignment in it (run ``plaisante release``), GradebookUnreachable when its database
    cannot be reached."""
    layout = CourseLayout(root)
    if layout.gradebook_missing():
        raise FileNotFoundError(f"no gradebook at {layout.gradebook_file}: run `plaisante "
                                "release` first")
    from .gradebook import require_assignment

    with layout.open_gradebook() as gradebook:
        try:
            found = require_assignment(gradebook, assignment)
            notebook = next((nb for nb in found.notebooks if nb.name == assignment), None)
            if notebook is None:
                raise FileNotFoundError(f"the gradebook has no notebook {assignment!r} in "
                                        f"assignment {assignment!r}: run `plaisante release`")
            sources = [SourceCell(c.name, c.cell_type, bool(c.locked), c.checksum, c.source)
                       for c in notebook.source_cells]
            by_name = {cell.name: cell for cell in sources}
            return AssignmentFacts(
                course_id=layout.course_id, assignment=assignment, notebook=notebook.name,
                kernelspec=notebook.kernelspec, source_cells=sources,
                grade_cells=[ScoredCell(c.name, float(c.max_score), c.cell_type)
                             for c in notebook.grade_cells],
                solution_cells=[by_name[c.name] for c in notebook.solution_cells
                                if c.name in by_name],
                task_cells=[ScoredCell(c.name, float(c.max_score), c.cell_type)
                            for c in notebook.task_cells],
                duedate=found.duedate,
                extensions={s.student_id: s.extension for s in found.submissions
                            if s.extension is not None})
        finally:
            gradebook.db.rollback()  # nothing was written: end the read transaction


_facts: dict[tuple[str, str, int, int], AssignmentFacts] = {}


def assignment_facts(root: Path, assignment: str) -> AssignmentFacts:
    """Return ``read_facts(root, assignment)``, read once per process for as long as the
    released notebook stays the same file (``plaisante release`` rewrites both it and the
    gradebook's source cells). Raises as ``read_facts``."""
    release = CourseLayout(root).release(assignment)
    try:
        stat = release.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, 0)
    key = (str(root), assignment, *version)
    if key not in _facts:
        _facts.clear()
        _facts[key] = read_facts(root, assignment)
    return _facts[key]


def forget_facts() -> None:
    """Forget the facts ``assignment_facts`` read, so the next call reads the gradebook again
    (a long-lived process: the due date and extensions change without a new release)."""
    _facts.clear()


class OverwriteCellsFrom(OverwriteCells):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's OverwriteCells, asking ``resources['plaisante_facts']`` instead of a
    gradebook."""

    def preprocess(self, nb: Any, resources: Any) -> Any:
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.gradebook = resources["plaisante_facts"]
        nb, resources = super(OverwriteCells, self).preprocess(nb, resources)
        if self.add_missing_cells:
            nb, resources = self.add_missing_grade_cells(nb, resources)
            nb, resources = self.add_missing_task_cells(nb, resources)
        return nb, resources


class _SchemaCheckedOnce(BaseMetadataValidator):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's check of one cell's metadata against its schema (``BaseMetadataValidator
    .validate_cell``), with the schema's validator made once per process: nbgrader calls
    ``jsonschema.validate``, which first checks the schema itself against the JSON Schema
    metaschema, at every cell (about a third of a worker's CPU a submission)."""

    _validator: Any = None

    def validate_cell(self, cell: Any) -> None:
        if "nbgrader" not in cell.metadata:
            return
        schema = cell.metadata["nbgrader"].get("schema_version", 0)
        if schema < self.schema_version:
            raise SchemaTooOldError(f"Outdated schema version: {schema} (expected "
                                    f"{self.schema_version})", schema, self.schema_version)
        if schema > self.schema_version:
            raise SchemaTooNewError(f"Schema version is too new: {schema} (expected "
                                    f"{self.schema_version})", schema, self.schema_version)
        cls = type(self)
        if cls._validator is None:
            checker = jsonschema.validators.validator_for(self.schema)
            checker.check_schema(self.schema)
            cls._validator = checker(self.schema)
        error = jsonschema.exceptions.best_match(cls._validator.iter_errors(
            cell.metadata["nbgrader"]))
        if error is not None:
            raise error


class _MetadataValidator(MetadataValidator, _SchemaCheckedOnce):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's metadata validator (every check of its own), the schema's validator made
    once (``_SchemaCheckedOnce`` comes after it, in the place of ``BaseMetadataValidator``)."""


class CheckCellMetadataOnce(CheckCellMetadata):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's CheckCellMetadata, with ``_MetadataValidator``: the same checks, the same
    error."""

    def preprocess(self, nb: Any, resources: Any) -> Any:
        try:
            _MetadataValidator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg) from None
        return nb, resources


class OverwriteKernelspecFrom(OverwriteKernelspec):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's OverwriteKernelspec, from ``resources['plaisante_facts']``."""

    def preprocess(self, nb: Any, resources: Any) -> Any:
        kernelspec = resources["plaisante_facts"].kernelspec
        if kernelspec:
            nb.metadata["kernelspec"] = json.loads(kernelspec)
        return nb, resources


@dataclass
class Autograded:
    """The outcome of ``autograde``: the autograded notebook, {grade_id: score} (a cell
    nbgrader leaves to manual grading scores 0 here) and the late penalty."""

    notebook: nbformat.NotebookNode
    scores: dict[str, float]
    late_penalty: float


def seconds_late(facts: AssignmentFacts, student: str, timestamp: str | None) -> float:
    """Return how late ``timestamp`` (timestamp.txt's text) is, extension included, as
    nbgrader's ``SubmittedAssignment.total_seconds_late`` computes it (0 when on time, with no
    timestamp or no due date)."""
    if not timestamp or facts.duedate is None:
        return 0.0
    due = facts.duedate + facts.extensions.get(student, datetime.timedelta(0))
    submitted: datetime.datetime = utils.parse_utc(timestamp)
    return max(0.0, (submitted - due).total_seconds())


def autograde(nb: nbformat.NotebookNode, facts: AssignmentFacts, student: str,
              timestamp: str | None, config: Config, cwd: str) -> Autograded:
    """Autograde ``nb`` (a sanitized submission) as nbgrader's ``Autograde`` converter would,
    in memory (see the module doc). ``config`` is the instructor's nbgrader config with the
    grader's own ``JudgedExecute`` and ``SandboxKernelManager`` settings merged in; ``cwd`` is
    the kernel's working folder when it runs unsandboxed. Raises what nbgrader's preprocessors
    raise for a notebook they cannot process (the caller flags the submission)."""
    from .execute import JudgedExecute

    resources: dict[str, Any] = {
        "unique_key": facts.notebook, "output_files_dir": f"{facts.notebook}_files",
        "nbgrader": {"student": student, "assignment": facts.assignment,
                     "notebook": facts.notebook, "db_url": ""},
        "metadata": {"name": facts.notebook, "path": cwd},
        "plaisante_facts": facts}
    if hasattr(validator, "normalize"):
        _, nb = validator.normalize(nb)
        nb = nbformat.from_dict(nb)
    steps = [ClearOutput, DeduplicateIds, OverwriteKernelspecFrom, OverwriteCellsFrom,
             CheckCellMetadataOnce, JudgedExecute, IgnorePattern, ClearMetadataPreprocessor,
             LimitOutput]
    for step in steps:
        preprocessor = step(config=config)
        preprocessor.log = QUIET
        if step is JudgedExecute:
            with utils.setenv(NBGRADER_EXECUTION="autograde"):
                nb, resources = preprocessor(nb, resources)
        else:  # as nbconvert applies it: nothing unless enabled (ClearMetadata is not, unless
            nb, resources = preprocessor(nb, resources)  # the course config says so)
    scores: dict[str, float] = {}
    for cell in nb.cells:
        if utils.is_grade(cell):
            score, _ = utils.determine_grade(cell, QUIET)
            scores[cell.metadata.nbgrader["grade_id"]] = float(score or 0.0)
    return Autograded(nb, scores, late_penalty(facts, student, timestamp, scores, config))


def late_penalty(facts: AssignmentFacts, student: str, timestamp: str | None,
                 scores: dict[str, float], config: Config) -> float:
    """Return the penalty the course's late-submission plugin gives (AssignLatePenalties'
    rule: never below 0 nor above the notebook's score); 0.0 when on time."""
    late = seconds_late(facts, student, timestamp)
    if late <= 0:
        return 0.0
    assign = AssignLatePenalties(config=config)
    assign.log = QUIET
    assign.init_plugin()
    score = sum(scores.values())
    penalty = assign.plugin_inst.late_submission_penalty(student, score, late)
    if penalty is None:
        return 0.0
    return float(min(max(0.0, penalty), score))


#: a lone surrogate: text JSON can carry (``"\\ud800"``) and UTF-8 cannot
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def notebook_bytes(nb: nbformat.NotebookNode) -> bytes:
    """Return ``nb`` as nbgrader writes it (nbformat v4, UTF-8), a lone surrogate (in a
    student's source, or in a message quoting what their code raised) written as U+FFFD:
    encoding it failed, so a submission could choose to leave no autograded notebook (and so
    no feedback page of nbgrader's). Not validated again: ``nbformat.writes`` would only log
    what it finds (and cost a twentieth of a grading's CPU); nbgrader validates what it
    reads."""
    return LONE_SURROGATE.sub("\ufffd", nbformat.v4.writes(nb)).encode("utf-8")


def publish(out_dir: Path, assignment: str, data: bytes, result: Any) -> None:
    """Write the autograded notebook ``data`` (bytes) to ``out_dir/<assignment>.ipynb``
    atomically and ``result``'s timestamp beside it as ``timestamp.txt`` (removed when it has
    none); set ``result.autograded`` (the path) and ``result.autograded_sha256``."""
    target = out_dir / f"{assignment}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.parent / f".{target.name}.{os.getpid()}.partial"
    partial.write_bytes(data)
    os.replace(partial, target)
    result.autograded = str(target)
    result.autograded_sha256 = hashlib.sha256(data).hexdigest()
    if result.timestamp:
        (out_dir / "timestamp.txt").write_text(result.timestamp + "\n", encoding="utf-8")
    else:
        (out_dir / "timestamp.txt").unlink(missing_ok=True)


@dataclass(frozen=True)
class ShippedAssignment:
    """What grading a submission of an assignment reads of the course, given to a worker that
    cannot see it: the released notebook (a file the worker wrote), the assignment's facts
    and the instructor's nbgrader config (``submission.config_of``)."""

    release: Path
    facts: AssignmentFacts
    config: Config
