"""Read scores back from nbgrader's gradebook, per step of the assignment (SPEC §3).

Grade cells are named ``stepN_…``; a step's score is the sum of its cells' scores.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from nbgrader.api import Gradebook

from .course import CourseLayout

STEP_OF_GRADE_ID = re.compile(r"^step(\d+)_")


def gradebook_url(root: Path) -> str:
    """Return the SQLite URL of the course's gradebook (as nbgrader_config.py sets it)."""
    return CourseLayout(Path(root)).gradebook_url


def step_scores(root: Path, student: str, assignment: str) -> dict[str, float]:
    """Return {'step1': points, …, 'total': points} for one student's autograded submission;
    a late submission also has 'late_penalty' (points off), and its total is after it, as in
    nbgrader's export.

    Raises nbgrader's MissingEntry if the student or submission is not in the gradebook.
    """
    with Gradebook(gradebook_url(root)) as gradebook:
        submission = gradebook.find_submission(assignment, student)
        totals: dict[str, float] = defaultdict(float)
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                match = STEP_OF_GRADE_ID.match(grade.name)
                step = f"step{match.group(1)}" if match else grade.name
                totals[step] += float(grade.score or 0)
        penalty = float(submission.late_submission_penalty or 0.0)
        if penalty:
            totals["late_penalty"] = penalty
        totals["total"] = max(0.0, float(submission.score) - penalty)
    return dict(sorted(totals.items()))


def cell_scores(root: Path, student: str, assignment: str) -> dict[str, float]:
    """Return {grade_id: points} for every grade cell of one student's submission."""
    with Gradebook(gradebook_url(root)) as gradebook:
        submission = gradebook.find_submission(assignment, student)
        return {grade.name: float(grade.score or 0)
                for notebook in submission.notebooks for grade in notebook.grades}
