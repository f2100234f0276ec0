"""The judge sees every effect a check reads, and tells the kernel nothing of a test cell, on
all five assignments (two in `make test`, all in `make test-slow`), through the real commands.

* For each assignment, a notebook made from the reference with one mutation of what a part is
  given or of a model's state (a dict, a nested list, a list changed before an error, a list a
  machine keeps): ``plaisante grade`` (the judge) gives every cell the score plain nbgrader
  gives it in the notebook's own kernel (``plaisante autograde``), and the cells the mutation
  breaks score 0 in both.
* Everything the grader sends to the kernel while grading each assignment's reference is
  recorded; no name a hidden test cell defines (functions, classes, constants) and no
  description of a hidden buggy version is in it.
* Students' own tests that record every request their kernel gets, and fail with what they
  found, show no hidden name in their feedback.
"""

from __future__ import annotations

import ast
import builtins
import html
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course
from selection import selected, slow_except

from plaisante.authoring.samples import build_samples
from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.grading import Limits, grade_submission
from plaisante.grading.conversation import KernelConversation
from plaisante.grading.execute import is_test
from plaisante.grading.judge import hidden_lines, setup_namespace
from plaisante.grading.submission import setup_sources, student_names
from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

#: assignment -> (answer cell, text of the reference, what the mutated notebook has instead,
#: the test cells that must score 0 in both modes)
MUTATIONS: dict[str, tuple[str, str, str, set[str]]] = {
    # the case first seen: apply changes the dict it is given (and a list inside it)
    "holdem": ("step4_betting_code", "    new = copy.deepcopy(state)\n",
               "    new = copy.deepcopy(state)\n    state[\"acted\"][state[\"to_act\"]] = True\n",
               {"step4_apply", "step4_apply_hidden"}),
    # draw moves the cards, then refuses: the lists are changed before the error
    "deck": ("step4_draw_discard_code",
             "    if n < 0 or n > len(deck):\n        raise ValueError(",
             "    if n < 0 or n > len(deck):\n        hand.extend(reversed(deck))\n"
             "        deck.clear()\n        raise ValueError(",
             {"step4_draw", "step4_draw_hidden"}),
    # a refused toggle_hold(-1) first flips the last card of the list the machine keeps
    "video_poker": ("step4_machine_code",
                    "        if type(position) is not int or not 0 <= position < HAND_SIZE:\n",
                    "        if type(position) is int and position == -1:\n"
                    "            self.held[position] = not self.held[position]\n"
                    "        if type(position) is not int or not 0 <= position < HAND_SIZE:\n",
                    {"step4_machine", "step4_bets_hidden"}),
    # a refused play first moves the card to the front of the hand it keeps
    "tricks": ("step5_trick_code",
               "        if card not in legal_plays(held, led_suit):\n",
               "        if card not in legal_plays(held, led_suit):\n"
               "            held.remove(card)\n            held.insert(0, card)\n",
               {"step5_trick", "step5_trick_hidden"}),
    # evaluate sorts the cards it is given
    "plaisante": ("step4_scoring", "    if has_four_of_a_kind(cards):\n",
                  "    cards.sort(key=lambda card: card.value)\n"
                  "    if has_four_of_a_kind(cards):\n", {"step4_evaluate"}),
}

#: A student's own tests that learn what they can of the grader: every request their kernel
#: gets is recorded (``plaisante.kernel.oracle.answer`` wrapped), and the tests fail with every
#: private-looking name found in them, so that the feedback page shows it.
PROBE = '''import json as _json, re as _re
import plaisante.kernel.oracle as _oracle
_ASKED = []
if not hasattr(_oracle, "_recorded_by_the_student"):
    _oracle._recorded_by_the_student = _oracle.answer
    def _recording(request, *args, **kwargs):
        _ASKED.append(_json.dumps(request))
        return _oracle._recorded_by_the_student(request, *args, **kwargs)
    _oracle.answer = _recording


def {name}({params}):
    found = sorted({{word for text in _ASKED for word in _re.findall(r"\\b_[A-Za-z]\\w*", text)}})
    print("asked:", found)
    assert False, "asked: " + " ".join(found)
'''
PROBES = {"plaisante": ("step2_my_tests_code", "my_count_values_tests", "count_values"),
          "deck": ("step6_my_tests_code", "my_deal_tests", "deal"),
          "video_poker": ("step5_my_tests_code", "my_port_tests", "hand_name, Machine"),
          "tricks": ("step6_my_tests_code", "my_trick_winner_tests", "trick_winner"),
          "holdem": ("step6_my_tests_code", "my_settle_tests", "settle")}
PROBED_CELLS = {"plaisante": "step2_my_tests", "deck": "step6_my_tests",
                "video_poker": "step5_my_tests", "tricks": "step6_my_tests",
                "holdem": "step6_my_tests"}


def mutated(assignment: str) -> nbformat.NotebookNode:
    cell, old, new, _ = MUTATIONS[assignment]
    return build_samples(ROOT, assignment, {"m": {cell: [(old, new)]}})["m"]


def probing(assignment: str) -> nbformat.NotebookNode:
    cell, name, params = PROBES[assignment]
    notebook = build_samples(ROOT, assignment, {"p": {}})["p"]
    for each in notebook.cells:
        if each.metadata.get("nbgrader", {}).get("grade_id") == cell:
            each.source = PROBE.format(name=name, params=params)
    return notebook


#: What ``make test`` runs of each family; ``make test-slow`` runs every assignment.
FAST = {"holdem", "video_poker"}


@pytest.fixture(scope="module")
def assignments(request: pytest.FixtureRequest) -> list[str]:
    """The assignments the selected tests of this module are about."""
    return selected(request, "assignment")


@pytest.fixture(scope="module")
def submitted(tmp_path_factory: pytest.TempPathFactory, assignments: list[str]) -> Path:
    """A course with the selected assignments released and, for each, the mutated notebook
    (student ``mutated``), the reference (``reference``) and for the find-the-bugs steps the
    probe (``probe``) submitted."""
    root = new_course(tmp_path_factory.mktemp("course"), ("solutions", "notebooks"))
    cli("release", *assignments, cwd=root, course=root)
    for assignment in assignments:
        made = {"reference": nbformat.read(CourseLayout(ROOT).samples(assignment)
                                           / "full_marks.ipynb", as_version=4)}
        if assignment in MUTATIONS:  # a game whose parts change nothing they are given has none
            made["mutated"] = mutated(assignment)
        if assignment in PROBES:
            made["probe"] = probing(assignment)
        # a batch (a notebook a student, named after them) is submitted in one run
        folder = tmp_path_factory.mktemp(f"notebooks-{assignment}")
        for student, notebook in made.items():
            nbformat.write(notebook, folder / f"{student}.ipynb")
        done = cli("submit", str(folder), "--assignment", assignment, cwd=root, course=root)
        assert done.stdout.splitlines()[-1] == f"{len(made)} submitted, 0 refused", done.stdout
        assert set(made) <= set(CourseLayout(root).submitted_students(assignment))
    return root


def graded(submitted: Path, factory: pytest.TempPathFactory, command: str,
           assignments: list[str], students: tuple[str, ...]) -> Path:
    """A copy of ``submitted`` where ``plaisante COMMAND`` graded ``students``' notebooks of
    ``assignments``."""
    course = factory.mktemp(command) / "course"
    shutil.copytree(submitted, course)
    cli(command, *assignments, *(f"--student={student}" for student in students), cwd=course,
        course=course)
    return course


@pytest.fixture(scope="module")
def judged(submitted: Path, tmp_path_factory: pytest.TempPathFactory,
           assignments: list[str]) -> Path:
    # the reference is graded by the test that records what the kernel hears, in-process
    return graded(submitted, tmp_path_factory, "grade", assignments, ("mutated", "probe"))


@pytest.fixture(scope="module")
def own_kernel(submitted: Path, tmp_path_factory: pytest.TempPathFactory,
               assignments: list[str]) -> Path:
    # only the mutated notebook's scores are compared across the two modes
    return graded(submitted, tmp_path_factory, "autograde", assignments, ("mutated",))


@pytest.mark.parametrize("assignment", slow_except(sorted(MUTATIONS), FAST))
def test_a_mutation_scores_under_the_judge_what_it_scores_in_its_own_kernel(
        judged: Path, own_kernel: Path, assignment: str) -> None:
    judge = scores.cell_scores(judged, "mutated", assignment)
    own = scores.cell_scores(own_kernel, "mutated", assignment)
    assert judge == own
    broken = MUTATIONS[assignment][3]
    assert {cell for cell, points in judge.items() if points == 0} == broken
    if assignment == "holdem":
        assert sum(judge.values()) == 89  # 100 less step4_apply (5) and step4_apply_hidden (6)


def hidden_names(assignment: str, submission: nbformat.NotebookNode) -> tuple[set[str], set[str]]:
    """Return (the names the hidden regions of ``assignment``'s test cells define: functions,
    classes, constants and private methods, less those the student's own cells also use and
    the public names of the kit and the notebook; the descriptions of hidden buggy
    versions)."""
    source = nbformat.read(ROOT / "solutions" / assignment / f"{assignment}.ipynb",
                           as_version=4)
    release = nbformat.read(ROOT / "starter" / assignment / f"{assignment}.ipynb", as_version=4)
    public = set(setup_namespace(setup_sources(release))) | set(student_names(release)) | set(
        dir(builtins))
    public |= {word for cell in submission.cells if cell.cell_type == "code"
               and not is_test(cell) for word in re.findall(r"\w+", cell.source)}
    names: set[str] = set()
    descriptions: set[str] = set()
    for cell in source.cells:
        if not is_test(cell):
            continue
        hidden = hidden_lines(cell.source)
        tree = ast.parse(cell.source)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) not in hidden:
                continue
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                if node in tree.body or node.name.startswith("_"):
                    names.add(node.name)
            elif isinstance(node, ast.Assign) and node in tree.body:
                names.update(n.id for target in node.targets for n in ast.walk(target)
                             if isinstance(n, ast.Name))
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "version"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                descriptions.add(node.args[0].value)
    return {name for name in names if not name.startswith("__")} - public, descriptions


@pytest.mark.parametrize("assignment", slow_except(COURSE, FAST))
def test_nothing_of_a_hidden_test_cell_is_sent_to_the_kernel(
        submitted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        assignment: str) -> None:
    course = tmp_path / "course"
    shutil.copytree(submitted, course)
    sent: list[str] = []
    reply = KernelConversation._reply

    def recording(self: KernelConversation, text: str) -> None:
        sent.append(text)
        reply(self, text)

    monkeypatch.setattr(KernelConversation, "_reply", recording)
    result = grade_submission(course, "reference", assignment,
                              limits=Limits(cell_seconds=60, submission_seconds=600))
    assert (result.status, result.total) == ("graded", result.max_total), result.reasons
    submission = nbformat.read(CourseLayout(course).submitted("reference", assignment),
                               as_version=4)
    names, descriptions = hidden_names(assignment, submission)
    assert len(names) >= (5 if assignment in PROBES else 0)  # the hidden versions are found
    words = {word for text in sent for word in re.findall(r"\w+", text)}
    assert sorted(names & words) == []
    assert [d for d in descriptions if any(d in text for text in sent)] == []
    judged_requests = [json.loads(text) for text in sent if text.startswith("{")]
    assert any(request.get("op") == "call" for request in judged_requests)


@pytest.mark.parametrize("assignment", slow_except(sorted(PROBES), FAST))
def test_own_tests_that_record_every_request_show_no_hidden_name_in_feedback(
        judged: Path, assignment: str) -> None:
    cli("feedback", assignment, "--student", "probe", cwd=judged, course=judged)
    page = html.unescape(CourseLayout(judged).feedback("probe", assignment)
                         .read_text(encoding="utf-8"))
    assert "asked:" in page  # the probe ran, and its message is on the page
    submission = nbformat.read(CourseLayout(judged).submitted("probe", assignment),
                               as_version=4)
    names, descriptions = hidden_names(assignment, submission)
    assert sorted(names & set(re.findall(r"\w+", page))) == []
    assert [d for d in descriptions if d in page] == []
    assert scores.cell_scores(judged, "probe", assignment)[PROBED_CELLS[assignment]] == 0
