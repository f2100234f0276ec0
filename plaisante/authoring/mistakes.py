"""A classic mistake of an assignment, written once: what the student did, as text replacements
in the source notebook's solution cells, and the graded cells it must fail.

Each assignment lists its mistakes in ``assignments/samples/<id>/mistakes.py`` (beside the
samples, with the instructor's files: the replacements quote the reference solution, which
never goes into this package, the part students get). From that one list
``plaisante.authoring.samples`` writes the sample notebooks and computes the manifest's expected
per-step scores from the source notebook's points, and the judge tests check that each
mistake fails exactly its cells. Pure data: nothing here reads a notebook.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: An ``old`` text standing for the whole body of the reference's own tests in that cell (what
#: lies between its solution markers, after the def line and docstring): a sample whose
#: student wrote other tests replaces it.
REFERENCE_TESTS = "<the reference's own tests>"

NAME = re.compile(r"[a-z][a-z0-9_]*")
STEP = re.compile(r"step[0-9]+")


@dataclass(frozen=True)
class Mistake:
    """One realistic submission of an assignment, made from the reference solution.

    ``name``: the sample's file name (``<name>.ipynb``), the student id it is graded as and the
    test id; lowercase letters, digits and ``_``.
    ``what``: what the student did wrong, in words a student knows (the manifest's ``what``).
    ``edits``: {grade id of a solution cell: ((text of the reference, what the student wrote
    instead), …)}, applied in order; ``None`` leaves that cell as the starter has it (not
    done). ``old`` may be ``REFERENCE_TESTS``.
    ``fails``: the graded cells that score 0: grade ids, or ``"step<N>"`` for every graded cell
    of step N.
    ``caught``: {graded cell: (hidden buggy versions the student's own tests catch, how many
    there are)}: that cell earns that share of its points (nbgrader's partial credit).
    ``error``: the error every failing cell shows under the judge (``"CheckFailed"``: a check
    named the input, the expected and the actual value).
    ``sample``: False for a mistake that is only judged, never written as a sample notebook.
    ``attacks_grader``: how the sample attacks the grader, if it does (the differential tests
    then compare only its scores).

    Raises ValueError naming the field that is wrong and what it allows.
    """

    name: str
    what: str
    edits: Mapping[str, Sequence[tuple[str, str]] | None]
    fails: frozenset[str] = frozenset()
    caught: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    error: str = "CheckFailed"
    sample: bool = True
    attacks_grader: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name):
            raise ValueError(f"mistake name {self.name!r}: use lowercase letters, digits and '_'")
        if not isinstance(self.what, str) or not self.what.strip():
            raise ValueError(f"mistake {self.name}: 'what' must say in words what the student did")
        if not isinstance(self.edits, Mapping):
            raise ValueError(f"mistake {self.name}: 'edits' must map solution cells' grade ids "
                             "to replacements or None")
        edits: dict[str, tuple[tuple[str, str], ...] | None] = {}
        for cell, replacements in dict(self.edits).items():
            if replacements is None:
                edits[cell] = None
                continue
            pairs = tuple((pair[0], pair[1]) if isinstance(pair, (tuple, list)) and len(pair) == 2
                          else ("", "") for pair in replacements)
            if not pairs or any(not isinstance(old, str) or not isinstance(new, str) or not old
                                for old, new in pairs):
                raise ValueError(f"mistake {self.name}: cell {cell}'s edits must be "
                                 "(text of the reference, what the student wrote) pairs, "
                                 "the first not empty, or None")
            edits[cell] = pairs
        object.__setattr__(self, "edits", edits)
        if isinstance(self.fails, str) or not all(isinstance(cell, str) for cell in self.fails):
            raise ValueError(f"mistake {self.name}: 'fails' must be a set of grade ids or "
                             f"steps such as 'step2', not {self.fails!r}")
        object.__setattr__(self, "fails", frozenset(self.fails))
        for cell, share in self.caught.items():
            if (not isinstance(share, tuple) or len(share) != 2
                    or not 0 <= share[0] <= share[1] or share[1] < 1):
                raise ValueError(f"mistake {self.name}: caught[{cell!r}] must be (caught, of) "
                                 f"with 0 <= caught <= of and of >= 1, not {share!r}")
        if set(self.caught) & self.fails:
            raise ValueError(f"mistake {self.name}: a cell is both in 'fails' and 'caught'")

    @property
    def steps(self) -> frozenset[str]:
        """The steps (``"step<N>"``) whose cells the mistake edits."""
        return frozenset(cell.split("_")[0] for cell in self.edits)

    def failing_cells(self, graded: Sequence[str]) -> frozenset[str]:
        """Return the grade ids of ``graded`` (the source notebook's graded cells) that this
        mistake fails: ``fails`` with each ``"step<N>"`` spelled out. Raises ValueError naming
        a grade id or step that no graded cell has."""
        cells: set[str] = set()
        for entry in self.fails:
            matched = ({cell for cell in graded if cell.split("_")[0] == entry}
                       if STEP.fullmatch(entry) else {entry} & set(graded))
            if not matched:
                raise ValueError(f"mistake {self.name}: no graded cell {entry!r}; the graded "
                                 f"cells are {', '.join(graded)}")
            cells |= matched
        unknown = set(self.caught) - set(graded)
        if unknown:
            raise ValueError(f"mistake {self.name}: no graded cell {sorted(unknown)[0]!r} "
                             "(in 'caught')")
        return frozenset(cells)


def replace(cell: str, old: str, new: str) -> dict[str, Sequence[tuple[str, str]] | None]:
    """Return the ``edits`` of a mistake that replaces ``old`` by ``new`` in ``cell``."""
    return {cell: ((old, new),)}


FINGERPRINTING = ("its tests tell the versions they are given apart by their code, not by what "
                  "they do")


def fingerprinting_tests(name: str, what: str, cell: str, tests: str, part: str,
                         graded: str, versions: int) -> Mistake:
    """Return the sample whose own tests (the function ``tests`` in the solution cell ``cell``)
    compare the code of the ``part`` they are given with the first one they saw, instead of
    testing what it does: an attack on the grader that must earn nothing in the graded cell
    ``graded`` (0 of its ``versions`` hidden buggy versions caught)."""
    body = ("    # the first code seen is mine: any other is a buggy one\n"
            f"    code = {part}.__code__.co_code\n    FIRST_SEEN.append(code)\n"
            "    assert code == FIRST_SEEN[0], 'not the code I saw first'\n")
    return Mistake(name, what, {cell: [(REFERENCE_TESTS, body),
                                       (f"def {tests}(", f"FIRST_SEEN = []\n\n\ndef {tests}(")]},
                   caught={graded: (0, versions)}, attacks_grader=FINGERPRINTING)


def left_undone(*steps: int, what: str) -> Mistake:
    """Return the sample ``steps_1_to_<N>_only`` (``step_1_only`` when N is 1): every solution
    cell of ``steps`` (numbers, the last steps, not step 1) left as the starter has it, so every
    graded cell of theirs fails. Raises ValueError when ``steps`` holds step 1 (that sample is
    ``untouched``)."""
    if not steps or min(steps) < 2:
        raise ValueError(f"left_undone({', '.join(map(str, steps))}): give the last steps, from "
                         "step 2 on (with step 1 undone too, the sample is `untouched`)")
    names = [f"step{number}" for number in steps]
    done = min(steps) - 1
    name = "step_1_only" if done == 1 else f"steps_1_to_{done}_only"
    return Mistake(name, what, dict.fromkeys(names), fails=frozenset(names))
