"""Sandboxed autograding on top of nbgrader (SPEC §5).

The API, in the order a grading run uses it::

    from plaisante.grading import Limits, grade_submission, record, grade

    result = grade_submission(root, "alice", "deck")  # one submission, in a sandbox; pure
                                               # w.r.t. the course gradebook: safe in parallel
    record(root, [result, ...], "deck")        # the ONLY writer of the course gradebook
    results = grade(root, "deck")              # both, for every submitted student, serially

``grade_submission`` runs nbgrader's own autograde preprocessors (overwrite cells from the
source, execute, score as SaveAutoGrades would) on the notebook in memory
(``autograde``), with the kernel forked by the worker's zygote inside a bubblewrap sandbox
(``kernel_manager``, ``zygote``; see ``docs/threat-model.md``). It copies the autograded
notebook to ``assignments/autograded/<student>/<assignment>/`` and returns a
``SubmissionResult``; it never opens the course gradebook for writing. ``record`` writes
results into the course gradebook through nbgrader's ``Gradebook`` API, from one process.

The path from ``plaisante grade`` to the gradebook, one module a step:

* ``parallel.grade_parallel`` — the run: which students, how many workers, where
  (``parallel.grade``: the same, or one after another in this process);
* ``pool`` (this machine's worker processes) or ``cluster`` (a Dask cluster) hand each
  submission to a worker;
* ``worker`` — what a worker runs (``grade_task``), its tuning and memory bound;
* ``run.grade_submission`` → ``submission.grade_one`` — one submission: nbgrader's
  preprocessors in memory (``autograde``) with ``execute.JudgedExecute``, whose student cells
  run in the kernel ``kernel_manager`` starts (forked by the ``zygote``, in the ``sandbox``)
  and whose test cells are judged by ``judge`` over a ``conversation`` with the kernel
  (``plaisante.kernel`` on its side);
* ``run_results`` — the coordinator's one recording thread, calling ``record``
  (``gradebook.record_results``) as results arrive; ``report`` prints the final table.
"""

from __future__ import annotations

from .parallel import grade
from .result import Limits, SubmissionResult
from .routed import give_own_tests_their_grader_side
from .run import grade_submission, record, submitted_students

give_own_tests_their_grader_side()  # every process that judges has imported this package

__all__ = ["Limits", "SubmissionResult", "grade", "grade_submission", "record",
           "submitted_students"]
