"""Every assignment's test cells under the loopback judge (the kernel replaced by the oracle's
wire format in this process, tests/loopback_judge.py): each classic mistake of its
``mistakes.py`` fails exactly the cells it says, with the error it says. What is particular to
one assignment (how many cells, what the reference prints, call budgets) stays in its own
tests/test_<id>_judge.py."""

from __future__ import annotations

import pytest
from assignment_support import unit
from loopback_judge import check_mistake

from plaisante.games import COURSE


@pytest.mark.parametrize(("assignment", "mistake"),
                         [(a, m) for a in COURSE for m in unit(a).mistakes])
def test_each_mistake_fails_exactly_its_cells(assignment: str, mistake: str) -> None:
    check_mistake(assignment, mistake)
