"""What a grading run takes (``Limits``) and what it gives back (``SubmissionResult``).

Both are plain, picklable dataclasses so that a pool or a Dask worker can return them to the
one coordinator that writes the gradebook (``plaisante.grading.record``).
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["graded", "flagged"]

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission's kernel (SPEC §5).

    * ``cell_seconds``: time of one cell; past it the kernel is interrupted, then killed. Wall
      time, but a cell still computing then goes on while its sandbox has used less CPU than
      this, up to three times this in wall time (``plaisante.grading.conversation``), so a busy
      machine does not cut an honest cell short.
    * ``submission_seconds``: wall time of the whole notebook; cells not reached by then score 0.
    * ``cpu_seconds``: CPU time of each process of the submission (RLIMIT_CPU).
    * ``memory_bytes``: address space of each process of the submission (RLIMIT_AS).
    * ``processes``: processes and threads the submission may have at once (RLIMIT_NPROC,
      counted for the submission's own user id, so the kernel's own threads count too).
    * ``output_bytes``: bytes of output kept per notebook; the rest is cut and the cut stated.
    * ``file_bytes``: largest file the submission may write (RLIMIT_FSIZE) and the size of each
      of its tmpfs folders (/tmp, the working folder, /dev/shm).
    * ``sandbox_memory_bytes``: memory of the whole sandbox (a memory cgroup, where one can be
      had: every process, memory files, shared memory and tmpfs files together; with the
      zygote, its own pages count too). Past it one of the submission's processes is ended and
      the submission flagged (``plaisante.grading.memory_cgroup``).

    Raises ValueError for a limit that is not positive.
    """

    cell_seconds: float = 30.0
    submission_seconds: float = 300.0
    cpu_seconds: int = 300
    memory_bytes: int = 2048 * MiB
    processes: int = 64
    output_bytes: int = 1 * MiB
    file_bytes: int = 64 * MiB
    sandbox_memory_bytes: int = 2048 * MiB

    @classmethod
    def for_course(cls, root: Path, cell_seconds: float | None = None,
                   submission_seconds: float = 300.0) -> Limits:
        """Return the limits ``plaisante grade`` uses: ``cell_seconds`` when given, else the
        course's ``c.Execute.timeout`` (nbgrader_config.py), else 30; the rest the defaults."""
        from ..course import configured_cell_timeout

        return cls(cell_seconds=cell_seconds or configured_cell_timeout(root) or 30.0,
                   submission_seconds=submission_seconds)

    def __post_init__(self) -> None:
        for name in ("cell_seconds", "submission_seconds", "cpu_seconds", "memory_bytes",
                     "processes", "output_bytes", "file_bytes", "sandbox_memory_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    not math.isfinite(value) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive, finite number, got "
                                 f"{value!r}")


#: Why a result was neither published nor recorded.
REPLACED = ("the submission was replaced while it was being graded: this grading of the "
            "earlier one is not recorded (the newer one is graded on its own)")


@dataclass
class SubmissionResult:
    """How one submission ended.

    * ``student``: the student id.
    * ``status``: ``'graded'`` (scored, nothing for the instructor to look at) or ``'flagged'``
      (scored as far as it could be, and ``reasons`` says what went wrong).
    * ``reasons``: one short sentence per problem, e.g. ``"timeout: cell step3_has_pair ran
      over 30 s"``, ``"kernel died in cell step2_count_values_code"``, ``"invalid notebook:
      …"``, ``"cell step1_card deleted (restored from the source)"``. Empty when graded.
    * ``notes``: those of ``reasons`` that leave the grade sound, said for the instructor to
      check (``note``: a notebook graded under another name, work its LMS marked late). A
      flagged result all of whose reasons are notes is ``noted``: its score counts.
    * ``cell_scores``: {grade_id: points} for every grade cell of the assignment (0 for what
      could not be graded).
    * ``total`` / ``max_total``: the sum of ``cell_scores`` less ``late_penalty`` (never below
      0), and the assignment's maximum.
    * ``late_penalty``: points taken off for lateness, by the course's nbgrader late
      submission plugin (``AssignLatePenalties.plugin_class``, the due date in the gradebook).
    * ``seconds_late``: how long after the due date (and any extension) it was submitted, as
      nbgrader computes it (0 when on time, without a timestamp or a due date); shown with or
      without a late penalty method.
    * ``seconds``: wall time spent grading this submission.
    * ``autograded``: path of the autograded notebook written under
      ``assignments/autograded/<student>/<assignment>/``, or None when none could be made.
    * ``failed_in``: {grade_id: "visible" | "hidden"} for each test cell that failed, saying
      whether its visible tests or its hidden ones failed (feedback may show the message of a
      visible test; the judge knows which statement failed).
    * ``rules``: {grade_id: rule} for each test cell whose hidden check failed under a
      ``# Rule:`` line: that line's text, the rule the code broke (feedback shows it; it never
      names the hidden input or the expected value).
    * ``autograded_sha256``: the sha256 of the autograded notebook this result describes.
    * ``timestamp``: the submission's timestamp.txt content, if any and if it is a date
      (recorded in the gradebook); one that is not a date is flagged and left out.
    * ``submission_sha256``: the sha256 of the submitted notebook and its timestamp.txt as
      they were when grading began (``submission_digest``): a result whose
      submission was replaced since is neither published nor recorded.
    * ``kernel_ran``: whether the submission's code ran (a kernel was started for it): its
      ``reasons`` may then quote what that code said, after the hidden checks too, so they
      are the instructor's to read, never put on the student's page.
    """

    student: str
    status: Status
    reasons: list[str] = field(default_factory=list)
    cell_scores: dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    max_total: float = 0.0
    late_penalty: float = 0.0
    seconds_late: float = 0.0
    seconds: float = 0.0
    autograded: str | None = None
    timestamp: str | None = None
    failed_in: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    autograded_sha256: str | None = None
    submission_sha256: str | None = None
    notes: list[str] = field(default_factory=list)
    kernel_ran: bool = False

    @property
    def noted(self) -> bool:
        """Whether the work is flagged only with notes: a sound grade, counted and exported."""
        return self.status == "flagged" and bool(self.reasons) and \
            all(reason in self.notes for reason in self.reasons)

    def note(self, reason: str) -> None:
        """Flag the submission with ``reason``, a note that leaves its grade sound."""
        self.flag(reason)
        if reason not in self.notes:
            self.notes.append(reason)

    def still_current(self, submitted_dir: Path, assignment: str) -> bool:
        """Return False, flagging this result, when the submission in ``submitted_dir`` is no
        longer the one it graded (replaced while it was being graded); True otherwise."""
        if self.submission_sha256 is None or \
                submission_digest(submitted_dir, assignment) == self.submission_sha256:
            return True
        self.flag(REPLACED)
        return False

    def flag(self, reason: str) -> None:
        """Add ``reason`` (once) and mark the submission flagged."""
        if reason not in self.reasons:
            self.reasons.append(reason)
        self.status = "flagged"


def submission_digest(submitted_dir: Path, assignment: str) -> str | None:
    """Return the sha256 (hex) of the submitted notebook and timestamp.txt in
    ``submitted_dir`` (None when the notebook is not a regular file that can be read): what
    tells a resubmission apart (``SubmissionResult.still_current``). Each file is read a chunk
    at a time and at most ``DIGESTED_BYTES`` of it (past that, its size stands for the rest),
    never through a link, pipe or device: the folder is the student's, a notebook of many
    GiB is only flagged as too large, and this runs before that check and in the coordinator."""
    digest = hashlib.sha256()
    if not _digested(submitted_dir / f"{assignment}.ipynb", digest):
        return None
    _digested(submitted_dir / "timestamp.txt", digest, b"\0")
    return digest.hexdigest()


DIGESTED_BYTES = 128 * 1024 * 1024  # of one file; grading reads none larger (100 MiB)
_CHUNK = 1024 * 1024


def _digested(path: Path, digest: Any, prefix: bytes = b"") -> bool:
    """Feed ``prefix`` and the regular file at ``path`` to ``digest`` (see
    ``submission_digest``); return False, feeding nothing, when it is no such file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as file:
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode):
                return False
            digest.update(prefix)
            left = DIGESTED_BYTES
            while left > 0 and (chunk := file.read(min(_CHUNK, left))):
                digest.update(chunk)
                left -= len(chunk)
        except OSError:
            return True  # read in part: still this file, as far as it could be read
        if found.st_size > DIGESTED_BYTES:
            digest.update(f"\0{found.st_size}".encode())
    return True
