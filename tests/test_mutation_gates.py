"""The mutation gate of every gated assignment (``make test-slow``): each one-change mutant of
the reference's answer cells is judged by its step's test cells through the loopback judge
(tests/mutation.py, docs/mutation.md). An assignment is gated by its
``tests/games/<id>/test_mutation.py``, which holds the data: ``EQUIVALENT`` (every survivor and
why it behaves as the reference does), ``GOAL_VISIBLE`` and ``GOAL_ALL`` (the shares of the
non-equivalent mutants of each step the visible tests, and all tests, must kill) and
``AT_LEAST`` (mutants in all: the operators must reach the whole solution). Here, for each:
the goals are met, the survivors are exactly ``EQUIVALENT`` and docs/mutation.md lists each
with its reason."""

from __future__ import annotations

import pytest
from mutation import (
    answer_cells,
    assert_documented,
    assert_goals,
    assert_survivors_are,
    assignment_run,
    gate_module,
    gated_assignments,
)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", gated_assignments())
def test_every_step_meets_the_goals_and_only_the_equivalent_mutants_survive(
        assignment: str) -> None:
    gate = gate_module(assignment)
    outcomes = assignment_run(assignment)
    steps = sorted(set(answer_cells(assignment).values()))  # every step the student codes
    assert_goals(outcomes, gate.EQUIVALENT, steps=steps, at_least=gate.AT_LEAST,
                 visible=gate.GOAL_VISIBLE, everything=gate.GOAL_ALL)
    assert_survivors_are(outcomes, gate.EQUIVALENT)
    assert_documented(gate.EQUIVALENT)


def test_every_gate_names_its_goals_and_survivors() -> None:
    """Each gate's data is there and sane, so a gate cannot pass by leaving a goal out."""
    from plaisante.games import COURSE

    gated = gated_assignments()
    assert "plaisante" in gated and set(gated) <= set(COURSE)
    for assignment in gated:
        gate = gate_module(assignment)
        assert 0.9 <= gate.GOAL_VISIBLE <= gate.GOAL_ALL <= 1, assignment
        assert gate.AT_LEAST > 0 and all(why for why in gate.EQUIVALENT.values()), assignment
