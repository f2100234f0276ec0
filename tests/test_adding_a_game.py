"""Adding a game touches only its own folders and the ``COURSE`` line (docs/course.md, "Adding
an assignment"): a throw-away sixth game, High card (one step, one part), is written from the
template below into a temporary course, its package found through ``plaisante.games``'s path
(as a plugin would be) and its id added to a patched ``COURSE``. Then its release is made by
nbgrader's preprocessors, its samples and manifest by ``python -m plaisante.authoring.samples``, its
mistakes judged by the loopback judge, and every sample's judged score is the manifest's."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from assignment_support import ROOT, unit
from loopback_judge import check_mistake, judged, kernel_namespace, verdicts

import plaisante.games
from plaisante.authoring import samples
from plaisante.course import CourseLayout

GAME = "scratch_high_card"  # no real game's id: a game named high_card may join the course

#: the game's package, plaisante/games/scratch_high_card/: its description, check and setup names
PACKAGE = {
    "__init__.py": '''"""High card: return the strongest of a few cards (one step)."""
from ...student_side.assignment import Assignment, Step
from . import checks

ASSIGNMENT = Assignment(id="scratch_high_card", title="High card",
                        steps=(Step(1, "high_card", (("high_card", checks.check_high_card),)),),
                        game=lambda **parts: parts["high_card"])
''',
    "checks.py": '''"""High card's check: the strongest of three cards, by value."""
from ...student_side.cards import hand, labels
from ...student_side.checking import expect_value

__all__ = ["check_high_card", "expect_value", "hand"]


def check_high_card(high_card):
    """Check step 1: K♥ is the strongest of 3♣ K♥ 7♠."""
    cards = hand("3♣ K♥ 7♠")
    expect_value(f"high_card([{labels(cards)}])", hand("K♥")[0], lambda: high_card(cards))
''',
    "setup.py": '''"""What High card's setup cell imports."""
from ...student_side.assignment import placeholders
from ...student_side.checking import visible_checks_pass
from . import ASSIGNMENT
from .checks import *  # noqa: F403
from .checks import __all__ as _checks

globals().update(placeholders(ASSIGNMENT))
__all__ = ["visible_checks_pass", *_checks, *ASSIGNMENT.parts]
''',
}

#: the source notebook's cells: (grade id, solution?, points or None, source)
CELLS = [
    ("setup", False, None, "from plaisante.games.scratch_high_card.setup import *"),
    ("step1_high_card_code", True, None,
     "def high_card(cards):\n    '''Return the card of highest value.'''\n"
     "    ### BEGIN SOLUTION\n    return max(cards, key=lambda card: card.value)\n"
     "    ### END SOLUTION"),
    ("step1_high_card", False, 6, "check_high_card(high_card)"),
    ("step1_high_card_hidden", False, 4,
     "### BEGIN HIDDEN TESTS\ncards = hand('2♣ A♦ 9♥')\n"
     "expect_value('high_card([2♣, A♦, 9♥])', hand('A♦')[0], lambda: high_card(cards))\n"
     "### END HIDDEN TESTS"),
]

#: assignments/samples/scratch_high_card/mistakes.py: the game's classic mistakes, written once
MISTAKES = '''from plaisante.authoring.mistakes import Mistake, replace

MISTAKES = (
    Mistake("ace_low", "high_card counts the ace as 1: A♦ loses to 9♥.",
            replace("step1_high_card_code", "key=lambda card: card.value",
                    "key=lambda card: 1 if card.rank == 'A' else card.value"),
            fails={"step1_high_card_hidden"}),
    Mistake("lowest_card", "high_card returns the weakest card (min, not max).",
            replace("step1_high_card_code", "max(", "min("),
            fails={"step1"}),
)
OTHER_SAMPLES = (
    Mistake("not_started", "high_card left as the starter has it.",
            {"step1_high_card_code": None}, fails={"step1"}),
)
'''


def source_notebook() -> nbformat.NotebookNode:
    cells = []
    for grade_id, solution, points, text in CELLS:
        meta = {"grade": points is not None, "grade_id": grade_id, "locked": not solution,
                "schema_version": 3, "solution": solution}
        if points is not None:
            meta["points"] = points
        cells.append(nbformat.v4.new_code_cell(text, metadata={"nbgrader": meta}))
    return nbformat.v4.new_notebook(cells=cells)


def release(root: Path) -> None:
    """Write the starter as ``generate_assignment`` makes it, with nbgrader's own preprocessors
    in this process (its command adds a gradebook and half a minute on a loaded machine)."""
    from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions

    layout = CourseLayout(root)
    notebook = nbformat.read(layout.source(GAME), as_version=4)
    for preprocessor in (ClearSolutions(), ClearHiddenTests()):
        notebook, _ = preprocessor.preprocess(notebook, {})
    layout.release(GAME).parent.mkdir(parents=True)
    nbformat.write(notebook, layout.release(GAME))


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A course holding the sixth game only, written by touching its folders and COURSE."""
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    package = tmp_path / "plaisante" / "games" / GAME
    package.mkdir(parents=True)
    for name, text in PACKAGE.items():
        (package / name).write_text(text, encoding="utf-8")
    (tmp_path / "solutions" / GAME).mkdir(parents=True)
    nbformat.write(source_notebook(), tmp_path / "solutions" / GAME / f"{GAME}.ipynb")
    (tmp_path / "assignments" / "samples" / GAME).mkdir(parents=True)
    (tmp_path / "assignments" / "samples" / GAME / "mistakes.py").write_text(MISTAKES,
                                                                             encoding="utf-8")
    monkeypatch.setattr(plaisante.games, "__path__", [*plaisante.games.__path__,
                                                      str(package.parent)])
    monkeypatch.setattr(plaisante.games, "COURSE", (*plaisante.games.COURSE, GAME))
    yield tmp_path
    for module in [m for m in sys.modules if m.startswith(f"plaisante.games.{GAME}")]:
        del sys.modules[module]


def test_a_sixth_game_gets_samples_judge_tests_and_scores_from_its_folders_alone(
        course: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plaisante.games.load(GAME).title == "High card"
    release(course)
    assert samples.main(["--course", str(course), GAME]) == 0
    written = capsys.readouterr().out.split()[1::2]
    folder = course / "assignments" / "samples" / GAME
    assert sorted(written) == sorted(str((folder / name).relative_to(course)) for name in (
        "full_marks.ipynb", "untouched.ipynb", "ace_low.ipynb", "lowest_card.ipynb",
        "not_started.ipynb", "manifest.json"))
    touched = {path.relative_to(course).parts[:3] for path in course.rglob("*")
               if path.is_file() and "__pycache__" not in path.parts}
    assert touched == {("nbgrader_config.py",), ("plaisante", "games", GAME),
                       ("solutions", GAME, f"{GAME}.ipynb"), ("starter", GAME, f"{GAME}.ipynb"),
                       ("assignments", "samples", GAME)}

    # the expected scores are computed from the notebook's points: 6 visible, 4 hidden
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["max"] == {"step1": 10, "total": 10}
    assert {name: sample["expected"]["total"] for name, sample in manifest["samples"].items()} == {
        "full_marks": 10, "untouched": 0, "ace_low": 6, "lowest_card": 0, "not_started": 0}
    assert "9♥" not in (course / "starter" / GAME / f"{GAME}.ipynb").read_text()  # hidden

    # the judge tests: each mistake fails exactly the cells its record names
    assert sorted(unit(GAME, course).mistakes) == ["ace_low", "lowest_card"]
    for mistake in unit(GAME, course).mistakes:
        check_mistake(GAME, mistake, root=course)

    # every sample, judged as written, scores what its manifest says
    _, tests, setup, names = judged(GAME, course)
    points = unit(GAME, course).points
    for name, sample in manifest["samples"].items():
        notebook = nbformat.read(folder / sample["notebook"], as_version=4)
        results = verdicts(tests, setup, names, kernel_namespace(notebook))
        assert sum(points[cell] for cell, verdict in results.items() if verdict.passed) == (
            sample["expected"]["total"]), (name, {k: v.error for k, v in results.items()})


def test_a_mistake_that_names_a_text_not_in_the_reference_is_refused(course: Path) -> None:
    path = course / "assignments" / "samples" / GAME / "mistakes.py"
    path.write_text(MISTAKES.replace('"max("', '"maximum("'), encoding="utf-8")
    release(course)
    with pytest.raises(ValueError, match="lowest_card: 'maximum\\(' is not in cell "
                                         "step1_high_card_code"):
        samples.build(course, GAME)
