"""Values that answer comparisons themselves, and values that share one list many times, graded
through the real commands (``plaisante grade``, the judge, and ``plaisante autograde``, the
notebook's own kernel).

* Hold'em: an apply that never moves a chip scores the same whether its lists are plain ints or
  objects whose ``==`` says True, and whether or not it also swaps the state it is given for
  such objects; a legal_actions that computes no amount scores 0 on its cells.
* Plaisante: a count_values that makes the list it is given hold itself 45,000 times and returns
  that list 45,000 times scores what any wrong count_values scores, and its failure message is
  short (its printing did bounded work).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course

from plaisante.authoring.samples import build_samples
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

BETTING = "step4_betting_code"
LIAR = ("class Liar:\n    def __eq__(self, other): return True\n"
        "    def __ne__(self, other): return False\n    __hash__ = object.__hash__\n\n\n")
#: an honest mistake: apply never takes chips from the stacks nor adds to put_in
NO_CHIPS = [("    stacks[me] -= put\n", "    pass\n"),
            ("    new[\"put_in\"][me] += put\n", "    pass\n")]
#: the same apply, each list of the state it returns replaced by two liars
LYING_APPLY = [("def apply(state, action, amount=None):",
                LIAR + "def apply(state, action, amount=None):\n"
                "    new = _apply(state, action, amount)\n"
                "    for key in ('stacks', 'bets', 'put_in', 'acted'):\n"
                "        new[key] = [Liar(), Liar()]\n    return new\n\n\n"
                "def _apply(state, action, amount=None):")]
#: legal_actions that computes no amount: each (least, most) is two liars
LYING_LEGAL = [("def legal_actions(state):",
                "def legal_actions(state):\n    return {k: (v if v is None else (Liar(), Liar()))"
                " for k, v in _legal(state).items()}\n\n\ndef _legal(state):"),
               ("    allowed = legal_actions(state)\n", "    allowed = _legal(state)\n")]
#: apply changes the state it is given (a mistake) ...
CHANGES_GIVEN = [("    new = copy.deepcopy(state)\n",
                  "    new = copy.deepcopy(state)\n"
                  "    state[\"acted\"][state[\"to_act\"]] = True\n")]
#: ... and then swaps that state's lists for liars, which come back into the grader's dict
HIDES_CHANGE = [("    new = copy.deepcopy(state)\n",
                 "    new = copy.deepcopy(state)\n    state[\"acted\"][state[\"to_act\"]] = True\n"
                 "    for _key in ('stacks', 'bets', 'put_in', 'acted'):\n"
                 "        state[_key] = [Liar(), Liar()]\n"),
                ("def apply(state, action, amount=None):",
                 LIAR + "def apply(state, action, amount=None):")]

COUNT = "def count_values(cards):\n"
WRONG_COUNT = COUNT + "    return [0] * 15\n"
SHARED_BOMB = COUNT + "    cards[:] = [cards] * 45000\n    return [cards] * 45000\n"

NOTEBOOKS = {
    "holdem": {"no_chips": {BETTING: NO_CHIPS}, "lying_apply": {BETTING: NO_CHIPS + LYING_APPLY},
               "lying_legal": {BETTING: NO_CHIPS + LYING_APPLY + LYING_LEGAL},
               "changes_given": {BETTING: CHANGES_GIVEN}, "hides_change": {BETTING: HIDES_CHANGE}},
    "plaisante": {"wrong_count": {"step2_count_values_code": [(COUNT, WRONG_COUNT)]},
                  "shared_bomb": {"step2_count_values_code": [(COUNT, SHARED_BOMB)]}},
}


#: the judge in ``make test``; the notebook's own kernel too in ``make test-slow``
@pytest.fixture(scope="module", params=["grade", pytest.param("autograde", marks=pytest.mark.slow)])
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with each notebook of NOTEBOOKS submitted, graded by the command."""
    root = new_course(tmp_path_factory.mktemp("course"), ("solutions", "notebooks"))
    cli("release", *NOTEBOOKS, cwd=root, course=root)
    for assignment, versions in NOTEBOOKS.items():
        # one submit of a class folder (<student>.ipynb) per assignment, not one per student
        folder = tmp_path_factory.mktemp(f"{assignment}-notebooks")
        for student, notebook in build_samples(ROOT, assignment, versions).items():
            nbformat.write(notebook, folder / f"{student}.ipynb")
        cli("submit", str(folder), "--assignment", assignment, cwd=root, course=root)
    cli(request.param, *NOTEBOOKS, cwd=root, course=root)
    return root


def points(*grade_ids: str) -> float:
    """The points of Hold'em's graded cells ``grade_ids`` in its source notebook."""
    source = nbformat.read(ROOT / "solutions" / "holdem" / "holdem.ipynb", as_version=4)
    given = {cell.metadata["nbgrader"]["grade_id"]: cell.metadata["nbgrader"].get("points", 0)
             for cell in source.cells if cell.metadata.get("nbgrader", {}).get("grade")}
    return float(sum(given[grade_id] for grade_id in grade_ids))


def test_an_apply_whose_lists_say_equal_scores_what_the_plain_mistake_scores(graded: Path):
    honest = scores.cell_scores(graded, "no_chips", "holdem")
    assert honest["step4_apply"] == honest["step4_apply_hidden"] == 0
    assert sum(honest.values()) == 100 - points("step4_apply", "step4_apply_hidden")
    assert scores.cell_scores(graded, "lying_apply", "holdem") == honest


def test_a_legal_actions_that_computes_no_amount_scores_0(graded: Path):
    honest = scores.cell_scores(graded, "no_chips", "holdem")
    lying = scores.cell_scores(graded, "lying_legal", "holdem")
    assert lying["step4_legal_actions"] == lying["step4_legal_actions_hidden"] == 0
    assert honest["step4_legal_actions"] + honest["step4_legal_actions_hidden"] == points(
        "step4_legal_actions", "step4_legal_actions_hidden")
    assert {cell: points for cell, points in lying.items() if "legal" not in cell} == {
        cell: points for cell, points in honest.items() if "legal" not in cell}


def test_a_changed_state_swapped_for_liars_is_still_seen_changed(graded: Path):
    honest = scores.cell_scores(graded, "changes_given", "holdem")
    assert honest["step4_apply"] == honest["step4_apply_hidden"] == 0
    assert scores.cell_scores(graded, "hides_change", "holdem") == honest


def failure_text(course: Path, student: str, cell_id: str) -> str:
    path = course / "assignments" / "autograded" / student / "plaisante" / "plaisante.ipynb"
    notebook = nbformat.read(path, as_version=4)
    cell = next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == cell_id)
    return "".join(str(output.get("evalue", "")) for output in cell.get("outputs", [])
                   if output.get("output_type") == "error")


def test_a_value_sharing_one_list_many_times_fails_with_a_short_message(graded: Path):
    honest = scores.cell_scores(graded, "wrong_count", "plaisante")
    assert honest["step2_count_values"] == 0 and sum(honest.values()) == 92
    assert scores.cell_scores(graded, "shared_bomb", "plaisante") == honest
    message = failure_text(graded, "shared_bomb", "step2_count_values")
    assert message.startswith("count_values((no cards)): expected a list of 15 ints, got a list "
                              "of 45000: [[[...], [...]")
    assert len(message) < 400
