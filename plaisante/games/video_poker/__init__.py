"""Video poker (SPEC §6): a five-card draw machine with bets, holds, a pay table and
saved credits. This package is the whole assignment: its description (``ASSIGNMENT``), its
rules, its checks, the saved-credits file (``saving``), the machine on the student's code
(model and view) and the names its notebook's setup cell imports (``setup``).

Step 5, find the bugs: the notebook holds a port of a tutorial's machine, bugs included; the
student's ``my_port_tests(hand_name, Machine)`` is graded as students' own tests are
(``plaisante.student_side.student_tests``), on a correct version and on one buggy version per bug of
the port (its hidden test cell holds both).
"""

from __future__ import annotations

from typing import Any

from ...student_side.assignment import Assignment, Step
from . import checks

#: Where the last cell's machine keeps its credits, beside the notebook.
SAVE_FILE = "video_poker_credits.json"

ASSIGNMENT = Assignment(
    id="video_poker",
    title="Video poker",
    steps=(
        Step(1, "frequencies", (("frequencies", checks.check_frequencies),)),
        Step(2, "hand_name", (("hand_name", checks.check_hand_name),)),
        Step(3, "payout", (("payout", checks.check_payout),)),
        Step(4, "Machine", (("Machine", checks.check_machine),
                            ("Machine", checks.check_saved_credits))),
        Step(5, "your tests of the port", (("my_port_tests", checks.check_port_tests),)),
    ),
    game=lambda **parts: machine_view(**parts),
    presenter=lambda **parts: presenter_view(**parts),
)


def presenter_view(*, seed: int | None = None, **parts: Any) -> Any:
    """Return the lecture-hall presenter view (the hand, the draw, the pay table) on
    ``parts``."""
    from .presenter import presenter_view as view

    return view(seed=seed, **parts)


def machine_view(*, seed: int | None = None, path: str | None = SAVE_FILE,
                 **parts: Any) -> Any:
    """Return the machine's view on the student's ``Machine`` (built with
    ``random.Random(seed)`` and the saved-credits file ``path``; None saves nothing)."""
    from .model import MachinePlay
    from .view import MachineView

    return MachineView(MachinePlay(parts["Machine"], seed=seed, path=path))
