"""Stand-ins for every part the student writes, imported by the notebook's setup cell.

Until the student's own cell defines ``count_values`` (say), the name exists and calling it
raises ``PartNotDefined`` naming the step. So a cell that failed to run (a syntax error, a cell
skipped) shows up in the last cell's checklist as "not defined yet" instead of a NameError that
hides every other step.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .game import STEP_OF


class PartNotDefined(NotImplementedError):
    """A part the student has not defined yet (or whose cell failed to run)."""


class Placeholder:
    """Callable stand-in for a part; calling it raises PartNotDefined naming the step."""

    def __init__(self, name: str, step: int):
        self.__name__, self.step = name, step

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PartNotDefined(f"{self.__name__} (step {self.step}) is not defined yet: run the cell "
                             "that defines it; if that cell shows an error, fix it first")

    def __repr__(self) -> str:
        return f"<{self.__name__}: not defined yet (step {self.step})>"


_STEPS = {"Card": 1, "count_values": 2, "has_pair": 3, "has_three_of_a_kind": 3,
          "has_four_of_a_kind": 3, "has_two_pair": 3, "has_full_house": 3, "has_flush": 3,
          "has_straight": 3, "evaluate": 4, "total_value": 4, "base_mult": 4, "score": 4,
          "Tableau": STEP_OF["Tableau"]}

__all__ = list(_STEPS)
globals().update({name: Placeholder(name, step) for name, step in _STEPS.items()})
