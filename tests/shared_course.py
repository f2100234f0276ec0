"""The graded course most grading tests share, made once a session (the ``shared_course``
fixture of conftest.py): every sample of every assignment and a fixed seeded sample of each
reference's mutants, released and submitted once, then graded once by the judge (``plaisante
grade``), and ``PLAIN_CASES`` of them once by plain nbgrader (``plaisante autograde``), with
``differential.grade_both_ways``. test_course_samples, test_differential, test_pipeline and
test_parallel read it; a test that changes a course works on a copy (``copy_of``).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from differential import Case, mutant_cases, sample_cases
from mutation import ASSIGNMENTS

SAMPLED_MUTANTS = 2  # per assignment, in `make test`
#: Samples of each new assignment plain nbgrader grades beside full_marks and untouched, a fixed
#: seeded choice: plain nbgrader runs one kernel at a time, the shared course's costliest part.
#: Plaisante's samples and the sampled mutants are all graded (test_pipeline.py reads them);
#: ``make test-slow`` grades every sample both ways (test_differential.py).
PLAIN_SAMPLED = 4
#: Mutants that change a dict, set, nested or object argument in place: the judge once copied
#: back only list arguments, so they scored more under grade. ``make test`` grades them beside
#: the sample.
IN_PLACE_CHANGES: set[tuple[str, str]] = {
    ("holdem", "step4_betting_code:49: new = copy.deepcopy(state) -> new = state"),
}


def in_place_change(case: Case) -> bool:
    return case.mutant is not None and (case.assignment, case.mutant.id) in IN_PLACE_CHANGES


def _sampled_mutants() -> list[Case]:
    cases = [case for assignment in ASSIGNMENTS
             for case in mutant_cases(assignment, SAMPLED_MUTANTS)]
    return cases + [case for assignment in ASSIGNMENTS for case in mutant_cases(assignment)
                    if in_place_change(case) and case not in cases]


SAMPLED_MUTANT_CASES = _sampled_mutants()
#: Every notebook of the shared course.
SHARED_CASES = [case for assignment in ASSIGNMENTS
                for case in sample_cases(assignment, attackers=True)] + SAMPLED_MUTANT_CASES


def _plain_cases() -> list[Case]:
    chosen = []
    for assignment in ASSIGNMENTS:
        samples = sample_cases(assignment, attackers=True)
        if assignment == "plaisante":
            chosen += samples
            continue
        always = [case for case in samples if case.student in ("full_marks", "untouched")]
        others = [case for case in samples if case not in always]
        chosen += always + random.Random(f"plain {assignment}").sample(others, PLAIN_SAMPLED)
    return chosen + SAMPLED_MUTANT_CASES


#: The notebooks of the shared course plain nbgrader grades too.
PLAIN_CASES = _plain_cases()


def plain_students(assignment: str) -> list[str]:
    """The students of ``assignment`` in ``PLAIN_CASES``, samples and mutants."""
    return [case.student for case in PLAIN_CASES if case.assignment == assignment]


def copy_of(course: Path, folder: Path) -> Path:
    """A copy of ``course`` in ``folder`` (made here), for a test that changes it."""
    copy = folder / "course"
    shutil.copytree(course, copy)
    return copy


def why_graded(root: Path, assignment: str, student: str) -> str:
    """Return what a failing comparison needs to be read: the student's report's reasons and
    every error the autograded notebook's cells show (a lost kernel, a time limit…)."""
    import json

    from plaisante.course import CourseLayout

    layout = CourseLayout(root)
    report = layout.report(assignment, student)
    lines = [f"{student}: reasons {json.loads(report.read_text())['reasons']}"
             if report.is_file() else f"{student}: no report"]
    autograded = layout.autograded(student, assignment)
    if autograded.is_file():
        for cell in json.loads(autograded.read_text(encoding="utf-8"))["cells"]:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
            lines += [f"  {grade_id}: {output.get('ename')}: {str(output.get('evalue'))[:300]}"
                      for output in cell.get("outputs", ()) if output.get("output_type") == "error"]
    return "\n".join(lines)
