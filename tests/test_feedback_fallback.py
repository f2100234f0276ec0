"""``plaisante feedback`` when nbgrader makes no page for one student: that student gets the
page with the grader's reasons, the others their own, and the command exits 1 with one line
naming the student. Cell metadata that nbconvert's templates read (``transient``, a
``magics_language`` that is not text) neither hides a student's answers nor breaks the page."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
FULL_MARKS = ROOT / "assignments" / "samples" / ASSIGNMENT / "full_marks.ipynb"

pytestmark = pytest.mark.nbgrader


def with_metadata(dest: Path) -> tuple[Path, list[str]]:
    """Write the full-marks sample with every answer cell's metadata set to what broke the
    pages; return it and the first line of each answer."""
    notebook = nbformat.read(FULL_MARKS, as_version=4)
    answers = [cell for cell in notebook.cells
               if cell.get("metadata", {}).get("nbgrader", {}).get("solution")]
    assert len(answers) > 5
    for n, cell in enumerate(answers):
        cell.metadata["transient"] = {"remove_source": True} if n % 2 else "x"
        cell.metadata["magics_language"] = 5
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, dest)
    return dest, [cell.source.strip().splitlines()[0] for cell in answers]


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with ASSIGNMENT released and nothing submitted: each test grades a copy."""
    root = new_course(tmp_path_factory.mktemp("released") / "course")
    run("release", ASSIGNMENT, cwd=root)
    return root


def copy_of(released: Path, tmp_path: Path) -> Path:
    """A copy of the released course at ``tmp_path / "course"``; return it."""
    return Path(shutil.copytree(released, tmp_path / "course", symlinks=True))


def test_a_page_nbgrader_cannot_make_falls_back_and_the_command_says_so(released,
                                                                           tmp_path) -> None:
    root = copy_of(released, tmp_path)
    layout = CourseLayout(root)
    folder = tmp_path / "class"  # one submit of the class's <student>.ipynb files
    _, first_lines = with_metadata(folder / "mal.ipynb")
    for student in ("ada", "eve"):
        shutil.copy(FULL_MARKS, folder / f"{student}.ipynb")
    run("submit", str(folder), "--assignment", ASSIGNMENT, cwd=root)
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    for student in ("ada", "mal", "eve"):
        report = json.loads(layout.report(ASSIGNMENT, student).read_text(encoding="utf-8"))
        assert report["total"] == 100, (student, report)
    layout.autograded("eve", ASSIGNMENT).write_text("{not json", encoding="utf-8")

    done = run("feedback", ASSIGNMENT, cwd=root, check=False)
    assert done.returncode == 1, (done.stdout, done.stderr)
    said = done.stderr.strip().splitlines()
    assert len(said) == 1, done.stderr
    assert said[0].startswith(
        "plaisante feedback: nbgrader made no feedback page of 'plaisante' for eve (a page "
        "with the grader's reasons instead); nbgrader said: "), said
    eve = layout.feedback("eve", ASSIGNMENT).read_text(encoding="utf-8")
    assert "The page of your graded notebook could not be made" in eve
    for student in ("ada", "mal"):
        page = layout.feedback(student, ASSIGNMENT).read_text(encoding="utf-8")
        assert "could not be made" not in page and "could not be graded" not in page
    mal = layout.feedback("mal", ASSIGNMENT).read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", mal))
    missing = [line for line in first_lines if line not in text]
    assert missing == []


#: Appended to step 4's answer cell: evaluate notes each hand it is asked about that the
#: notebook never shows (the hidden checks'), and once it has five, the kernel answers the
#: next request with them instead of the protocol: a reason for the instructor that quotes
#: what the kernel said ("… not the judge's protocol: 'SAID 9s10sJsQsKs …'").
TELLING = '''
import plaisante.kernel.oracle as _oracle
_SHOWN = {"K♥ K♦ 3♣ 7♠ 9♥", "K♥ K♦ 3♣ 3♠ 9♥", "5♥ 6♥ 7♥ 8♥ 9♥", "7♥ 7♦ 7♣ 2♠ 9♥",
          "5♣ 6♦ 7♥ 8♠ 9♣", "2♥ 7♥ 9♥ J♥ K♥", "K♥ K♦ K♣ 3♠ 3♥", "9♥ 9♦ 9♣ 9♠ 2♥",
          "2♥ 5♦ 9♣ J♠ K♥", "(no cards)"}
_HEARD, _CALLED, _TOLD = [], [False], [False]
_answer, _respond = _oracle.answer, _oracle.respond


def _noting(request, *args, **kwargs):
    _CALLED[0] = request.get("op") in ("call", "calls")
    try:
        return _answer(request, *args, **kwargs)
    finally:
        _CALLED[0] = False


def _telling(text, *args, **kwargs):
    if len(_HEARD) >= 5 and not _TOLD[0]:
        _TOLD[0] = True
        return "SAID " + " ".join(_HEARD)
    return _respond(text, *args, **kwargs)


_oracle.answer, _oracle.respond = _noting, _telling
_evaluate = evaluate


def evaluate(cards):
    """Return the hand's name: the first row of the table, top-down, whose check holds."""
    said = "".join(card.rank + card.suit[0] for card in cards)
    if _CALLED[0] and labels(cards) not in _SHOWN and said not in _HEARD:
        _HEARD.append(said)
    return _evaluate(cards)
'''


def test_what_a_kernel_said_after_the_hidden_checks_reaches_no_page_of_the_students(
        released, tmp_path) -> None:
    """A kernel that answers a request with the hidden inputs it heard gives the instructor a
    reason quoting them. With a lone surrogate in a cell (JSON carries "\\ud800", UTF-8 does
    not) the autograded notebook could not be written, so the student's page was the one
    listing the grader's reasons: the hidden inputs were on it. The notebook is written (the
    surrogate as U+FFFD), and a page of reasons lists them only for code that never ran."""
    root = copy_of(released, tmp_path)
    layout = CourseLayout(root)
    notebook = nbformat.read(FULL_MARKS, as_version=4)
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "step4_scoring":
            cell.source += TELLING
    data = json.loads(nbformat.writes(notebook))
    data["cells"].insert(3, nbformat.v4.new_code_cell("x = 1  # \ud800"))
    path = tmp_path / "telling" / f"{ASSIGNMENT}.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="ascii")  # the surrogate escaped: "\\ud800"
    run("submit", str(path), "--student", "tess", cwd=root)
    run("grade", ASSIGNMENT, cwd=root, check=False)
    report = json.loads(layout.report(ASSIGNMENT, "tess").read_text(encoding="utf-8"))
    said = [reason for reason in report["reasons"] if "SAID " in reason]
    assert said and "9s10sJsQsKs" in said[0], report["reasons"]  # the instructor is told
    assert report["autograded"] and not [r for r in report["reasons"] if "grader error" in r]
    assert "\ufffd" in layout.autograded("tess", ASSIGNMENT).read_text(encoding="utf-8")
    run("feedback", ASSIGNMENT, cwd=root)
    assert "9s10sJsQsKs" not in layout.feedback("tess", ASSIGNMENT).read_text(encoding="utf-8")
    layout.autograded("tess", ASSIGNMENT).write_text("{not json", encoding="utf-8")
    layout.feedback("tess", ASSIGNMENT).unlink()
    run("feedback", ASSIGNMENT, cwd=root, check=False)
    page = layout.feedback("tess", ASSIGNMENT).read_text(encoding="utf-8")
    assert "The page of your graded notebook could not be made" in page
    assert "Your instructor has the grader's reasons" in page
    assert "9s10sJsQsKs" not in page and "SAID" not in page
