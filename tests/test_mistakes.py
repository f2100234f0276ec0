"""A mistake's record (``plaisante.authoring.mistakes``) and the scores computed from it
(``plaisante.authoring.samples``): a bad record is refused naming what is wrong; expected scores
come from the notebook's points of the cells it fails."""

from __future__ import annotations

import pytest

from plaisante.authoring.mistakes import Mistake, left_undone, replace
from plaisante.authoring.samples import cell_scores, step_scores

POINTS = {"step1_trace": 3, "step1_sort": 5, "step1_sort_hidden": 4, "step2_my_tests": 10}


@pytest.mark.parametrize(("fields", "message"), [
    ({"name": "Bad Name"}, "mistake name 'Bad Name': use lowercase letters, digits and '_'"),
    ({"what": " "}, "mistake m: 'what' must say in words what the student did"),
    ({"edits": {"step1_sort_code": [("", "x")]}}, "cell step1_sort_code's edits must be"),
    ({"edits": [("a", "b")]}, "mistake m: 'edits' must map solution cells' grade ids"),
    ({"caught": {"step2_my_tests": (3, 2)}}, r"caught\['step2_my_tests'\] must be \(caught, of\)"),
    ({"fails": "step1"}, "'fails' must be a set of grade ids or steps such as 'step2', "
                         "not 'step1'"),
])
def test_a_bad_record_is_refused_naming_the_field(fields: dict, message: str) -> None:
    record = {"name": "m", "what": "sorts wrong", "edits": replace("step1_sort_code", "a", "b"),
              **fields}
    with pytest.raises(ValueError, match=message):
        Mistake(**record)


def test_expected_scores_are_the_points_of_the_cells_it_does_not_fail() -> None:
    hidden_only = Mistake("m", "sorts wrong", replace("step1_sort_code", "a", "b"),
                          fails={"step1_sort_hidden"})
    assert step_scores(cell_scores(POINTS, hidden_only)) == {"step1": 8, "step2": 10,
                                                             "total": 18}
    weak_tests = Mistake("w", "weak tests", replace("step2_my_tests_code", "a", "b"),
                         caught={"step2_my_tests": (2, 5)})
    assert cell_scores(POINTS, weak_tests)["step2_my_tests"] == 4
    assert step_scores(cell_scores(POINTS, left_undone(2, what="step 2 not started"))) == {
        "step1": 12, "step2": 0, "total": 12}


def test_a_failing_cell_the_notebook_does_not_grade_is_refused() -> None:
    typo = Mistake("m", "sorts wrong", replace("step1_sort_code", "a", "b"),
                   fails={"step1_sort_hiden"})
    with pytest.raises(ValueError, match="mistake m: no graded cell 'step1_sort_hiden'"):
        cell_scores(POINTS, typo)
