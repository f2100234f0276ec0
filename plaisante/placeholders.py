"""Stand-ins for every part the student writes, imported by the notebook's setup cell.

Until the student's own cell defines ``count_values`` (say), the name exists and calling it
raises ``PartNotDefined`` naming the step. So a cell that failed to run (a syntax error, a cell
skipped) shows up in the last cell's checklist as "not defined yet" instead of a NameError that
hides every other step. The parts and their steps come from the assignment's description.
"""

from __future__ import annotations

from .assignment import placeholders
from .games.plaisante import ASSIGNMENT

_STAND_INS = placeholders(ASSIGNMENT)
__all__ = list(_STAND_INS)
globals().update(_STAND_INS)
del _STAND_INS
