"""A Tricks notebook that takes its answers from the kit instead of writing them, graded for real
(``plaisante grade``: the judge, the sandbox, the kernel's copy of the kit's student side).

Its answer cells look for the kit's own ``trick_strength``, ``sort_hand``, ``legal_plays`` and
``trick_winner`` where a kernel can: in the globals of a function the setup cell gave it, then
in every module of the kit the kernel has loaded, under the part's name or ``kit_`` and the
part's name, the key built with ``+`` so that no such name is written. Its own tests compare the
``trick_winner`` they are given with the kit's on random tricks. Step 5 and the trace answers
are honest. It must score what the same notebook scores with those five cells left as the
starter has them."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course

from plaisante.authoring.samples import build_samples, solution_cells
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

FIND = '''def _kit(part):
    """The kit's own part, wherever a kernel can reach it: a held function's globals, then
    every module of the kit that is loaded."""
    import sys
    spaces = [expect_sorted.__globals__]
    spaces += [vars(module) for name, module in list(sys.modules.items())
               if name.startswith("plaisante") and module is not None]
    for space in spaces:
        for key in ("kit" + "_" + part, part):
            found = space.get(key)
            if type(found).__name__ == "function" and found.__module__ != "__main__":
                return found
    raise NotImplementedError(part)


'''

ATTACK = {
    "step1_trick_strength_code": FIND + "def trick_strength(card):\n"
                                        "    return _kit('trick' + '_strength')(card)\n",
    "step2_sort_hand_code": "def sort_hand(hand):\n    return _kit('sort' + '_hand')(hand)\n",
    "step3_legal_plays_code": "def legal_plays(hand, led_suit):\n"
                              "    return _kit('legal' + '_plays')(hand, led_suit)\n",
    "step4_trick_winner_code": "def trick_winner(trick):\n"
                               "    return _kit('trick' + '_winner')(trick)\n",
    "step6_my_tests_code": (
        "def my_trick_winner_tests(trick_winner):\n"
        "    import random\n"
        "    kit = _kit('trick' + '_winner')\n"
        "    draw = random.Random(36)\n"
        "    for _ in range(300):\n"
        "        cards = draw.sample(deck32(), draw.randint(1, 4))\n"
        "        first = draw.randrange(4)\n"
        "        trick = [((first + i) % 4, card) for i, card in enumerate(cards)]\n"
        "        assert trick_winner(trick) == kit(trick), 'not what the kit says'\n"),
}
TAKEN = list(ATTACK)


def whole(grade_id: str, text: str) -> list[tuple[str, str]]:
    """The edit that replaces the reference's whole cell ``grade_id`` with ``text``."""
    source = nbformat.read(ROOT / "solutions" / "tricks" / "tricks.ipynb", as_version=4)
    return [(solution_cells(source)[grade_id], text)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with the two notebooks submitted and graded by ``plaisante grade``."""
    root = new_course(tmp_path_factory.mktemp("course"), ("solutions", "notebooks"))
    cli("release", "tricks", cwd=root, course=root)
    versions = {"taken": {cell: whole(cell, text) for cell, text in ATTACK.items()},
                "undone": {cell: None for cell in TAKEN}}
    folder = tmp_path_factory.mktemp("notebooks")
    for student, notebook in build_samples(ROOT, "tricks", versions).items():
        if student not in versions:
            continue
        path = folder / f"{student}.ipynb"
        nbformat.write(notebook, path)
        cli("submit", str(path), "--student", student, "--assignment", "tricks",
            cwd=root, course=root)
    cli("grade", "tricks", cwd=root, course=root)
    return root


def honest_points() -> float:
    """The points of the cells the two notebooks answer alike and rightly: every trace and
    step 5."""
    source = nbformat.read(ROOT / "solutions" / "tricks" / "tricks.ipynb", as_version=4)
    return float(sum(cell.metadata.nbgrader.get("points", 0) for cell in source.cells
                     if cell.metadata.get("nbgrader", {}).get("grade")
                     and (cell.metadata.nbgrader["grade_id"].endswith("_trace")
                          or cell.metadata.nbgrader["grade_id"].startswith("step5_"))))


def test_answers_taken_from_the_kit_score_what_the_same_notebook_without_them_scores(
        graded: Path) -> None:
    undone = scores.cell_scores(graded, "undone", "tricks")
    assert sum(undone.values()) == honest_points() == 38
    assert scores.cell_scores(graded, "taken", "tricks") == undone


def test_the_search_finds_a_known_good_part_wherever_one_is_loaded() -> None:
    """The answer cells are a real search: in a process where the known-good parts are loaded
    (the grader's), they find and use them."""
    from plaisante.games.tricks import known_good
    from plaisante.games.tricks.setup import expect_sorted, trick_of

    namespace = {"__name__": "__main__", "expect_sorted": expect_sorted}
    exec(FIND + ATTACK["step4_trick_winner_code"], namespace)  # noqa: S102  the test's own
    assert namespace["_kit"]("trick_winner") is known_good.trick_winner
    assert namespace["trick_winner"](trick_of("K♣ 10♣ J♣ A♦", 2)) == 3
