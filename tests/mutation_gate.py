"""The checks every assignment's mutation gate makes (``tests/games/<id>/test_mutation.py``):
the per-step goals, the survivors exactly the listed equivalent mutants, and docs/mutation.md
naming each with its reason. ``outcomes`` are ``mutation.assignment_run``'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mutation import markdown, table

ROOT = Path(__file__).resolve().parents[1]


def assert_every_step_meets_the_goals(outcomes: list[Any], equivalent: dict[str, str],
                                      steps: list[int], least: int, goal_visible: float,
                                      goal_all: float) -> None:
    """Assert the run covers ``steps`` with at least ``least`` mutants and, per step, the
    visible tests kill ``goal_visible`` (a share, 0 to 1) of the non-equivalent mutants and
    all tests ``goal_all``; prints the table."""
    rows = table(outcomes, equivalent)
    assert [row["step"] for row in rows] == steps
    assert sum(row["mutants"] for row in rows) >= least  # the operators reach every solution
    print("\n" + markdown(rows))
    for row in rows:
        assert row["visible"] >= goal_visible * row["counted"], row
        assert row["all"] >= goal_all * row["counted"], row


def assert_the_survivors_are_exactly(outcomes: list[Any], equivalent: dict[str, str]) -> None:
    """Assert each mutant has one id, none timed out or died, and the survivors of all tests
    are exactly the keys of ``equivalent``."""
    ids = [o.mutant.id for o in outcomes]
    assert len(ids) == len(set(ids))  # one id, one mutant
    assert sorted(o.mutant.id for o in outcomes if not o.any) == sorted(equivalent)
    assert [o.how for o in outcomes if o.how in ("timeout", "died")] == []


def assert_the_docs_list(equivalent: dict[str, str]) -> None:
    """Assert docs/mutation.md names every equivalent mutant and its reason (whitespace
    folded)."""
    text = " ".join((ROOT / "docs" / "mutation.md").read_text(encoding="utf-8").split())
    for mutant, why in equivalent.items():
        assert mutant in text, mutant
        assert why in text, why
