"""The two grading modes give every cell the same points (tests/differential.py): each notebook
below is graded by ``plaisante grade`` (the judge) and by ``plaisante autograde`` (plain
nbgrader, the notebook's own kernel), and every grade cell must get the same points from both.
A disagreement is a bug of the judge or of a check.

``make test`` compares a fixed seeded sample of ``SAMPLED_MUTANTS`` mutants of each assignment's
reference and Plaisante's samples on the course graded once a session (shared_course.py; six
samples of each of the other four assignments are compared cell by cell in
test_course_samples.py, on the same course); ``make test-slow``
grades every sample and every mutant of all five. Samples that attack the grader (manifest
field ``attacks_grader``) are left out.
"""

from __future__ import annotations

import pytest
from differential import (
    Case,
    Verdicts,
    attacks,
    explain,
    graded_both_ways,
    mutant_cases,
    sample_cases,
)
from mutation import ASSIGNMENTS
from shared_course import (
    IN_PLACE_CHANGES,
    SAMPLED_MUTANT_CASES,
    SAMPLED_MUTANTS,
    in_place_change,
)

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]


def params(cases: list[Case]) -> list[pytest.param]:
    """Each case as a test parameter, its id the notebook's."""
    return [pytest.param(case, id=f"{case.assignment}-{case.student}") for case in cases]


EVERY = [case for assignment in ASSIGNMENTS
         for case in sample_cases(assignment) + mutant_cases(assignment)]
SAMPLED = sample_cases("plaisante") + SAMPLED_MUTANT_CASES


@pytest.fixture(scope="module")
def sampled(shared_course) -> dict[Case, Verdicts]:
    return {case: shared_course.verdicts(case) for case in SAMPLED}


@pytest.fixture(scope="module")
def every(tmp_path_factory: pytest.TempPathFactory) -> dict[Case, Verdicts]:
    return graded_both_ways(tmp_path_factory.mktemp("differential-all"), EVERY)


def assert_agree(case: Case, verdicts: Verdicts) -> None:
    assert verdicts.judge and set(verdicts.judge) == set(verdicts.plain), case.name
    assert verdicts.disagreements() == {}, explain(case, verdicts)


@pytest.mark.parametrize("case", params(SAMPLED))
def test_a_sampled_notebook_gets_the_same_points_in_both_modes(
        sampled: dict[Case, Verdicts], case: Case) -> None:
    assert_agree(case, sampled[case])


@pytest.mark.slow
@pytest.mark.parametrize("case", params(EVERY))
def test_every_notebook_gets_the_same_points_in_both_modes(
        every: dict[Case, Verdicts], case: Case) -> None:
    assert_agree(case, every[case])


def test_the_sample_is_fixed_and_reaches_every_assignment() -> None:
    again = [case for assignment in ASSIGNMENTS
             for case in mutant_cases(assignment, SAMPLED_MUTANTS)]
    assert [case for case in SAMPLED if case.mutant and case in again] == again
    assert sorted({case.assignment for case in again}) == sorted(ASSIGNMENTS)
    assert len(again) == SAMPLED_MUTANTS * len(ASSIGNMENTS)
    regressions = [(case.assignment, case.mutant.id) for case in SAMPLED
                   if case.mutant and in_place_change(case)]
    assert sorted(regressions) == sorted(IN_PLACE_CHANGES)  # each still a mutant


def test_only_samples_marked_as_attacks_are_left_out() -> None:
    """The samples left out are exactly those the manifests mark, each with a reason; the
    marks are on the samples that probe the versions they are given instead of testing them."""
    left_out = {(assignment, name): why for assignment in ASSIGNMENTS
                for name, why in attacks(assignment).items()}
    assert sorted(left_out) == [("deck", "deal_tests_fingerprint_code"),
                                ("holdem", "settle_tests_fingerprint"),
                                ("plaisante", "own_tests_fingerprint_code"),
                                ("plaisante", "own_tests_probe_names"),
                                ("tricks", "trick_winner_tests_fingerprint_code"),
                                ("video_poker", "port_tests_fingerprint_code"),
                                ("video_poker", "port_tests_probe_names")]
    assert all(isinstance(why, str) and why for why in left_out.values())
    compared = {(case.assignment, case.student) for case in EVERY if case.mutant is None}
    assert not compared & set(left_out)


def test_a_mutant_notebook_is_full_marks_with_one_answer_cell_changed() -> None:
    import nbformat
    from differential import LAYOUT, mutant_notebook

    case = mutant_cases("holdem")[0]
    assert case.mutant is not None
    full = nbformat.read(LAYOUT.samples("holdem") / "full_marks.ipynb", as_version=4)
    mutant = mutant_notebook("holdem", case.mutant)
    changed = [new.metadata.nbgrader["grade_id"] for old, new in zip(full.cells, mutant.cells)
               if old.source != new.source]
    assert changed == [case.mutant.cell]
    assert len(full.cells) == len(mutant.cells)
