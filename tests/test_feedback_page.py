"""The feedback page a student's own markdown reaches (nbgrader's feedback template renders
markdown's HTML as is): ``plaisante feedback`` on a graded submission with an added markdown
cell holding HTML and script, and a raw cell marked as HTML."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from live_html import Live
from nbformat.v4 import new_markdown_cell, new_raw_cell

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "assignments" / "samples" / "plaisante"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
ADDED = ('My notes <img src=x onerror="alert(1)"> <script>alert(2)</script> '
         '[click](javascript:alert(3)) and **bold** words')

pytestmark = pytest.mark.nbgrader


def run(*args: str, cwd: Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, timeout=900)
    assert done.returncode == code, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done




def test_feedback_before_grading_says_to_grade_first(released: Path, tmp_path: Path) -> None:
    """``feedback`` run before ``grade`` names the students not graded yet and the command to
    run, rather than nbgrader's "No notebooks were matched" (and its guess at another
    assignment), and fails (exit 1: no page it was asked for exists) when the assignment or
    student is named, not when it runs for every assignment; an assignment named with
    no submission says so too, rather than nothing, and is no failure (nothing to do)."""
    root = copied(released, tmp_path)
    run("submit", str(full_marks_with(tmp_path)), "--student", "sam", cwd=root)
    done = run("feedback", "plaisante", cwd=root, code=1)
    assert run("feedback", "plaisante", "--student", "sam", cwd=root, code=1).stderr == done.stderr
    assert done.stderr.strip() == ("plaisante feedback: not graded yet, so no page of "
                                   "'plaisante' for sam: run `plaisante grade plaisante` first")
    assert "plaisante feedback: 0 page(s)" not in done.stdout
    assert not (root / "assignments" / "feedback").exists()
    # every assignment (none named): this week's, handed in and not graded, is no failure
    assert run("feedback", cwd=root).stderr == done.stderr
    done = run("feedback", "deck", cwd=root)
    assert done.stdout.strip() == ("plaisante feedback: no submissions of 'deck' yet, so no "
                                   "page (plaisante submit, then plaisante grade)")


def released_course(tmp_path: Path) -> Path:
    """Return a new course in ``tmp_path`` (the kit's config and solutions), Plaisante
    released."""
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "assignments").mkdir()
    run("release", "plaisante", cwd=root)
    return root


def full_marks_with(folder: Path, old: str = "", new: str = "",
                    name: str = "plaisante") -> Path:
    """Write the full-marks sample, with ``old`` replaced by ``new`` in its one cell holding
    ``old``, to ``folder``/``name``.ipynb; return that path."""
    notebook = nbformat.read(SAMPLES / MANIFEST["samples"]["full_marks"]["notebook"],
                             as_version=4)
    if old:
        (found,) = [c for c in notebook.cells if old in c.source]
        found.source = found.source.replace(old, new)
    submitted = folder / f"{name}.ipynb"
    nbformat.write(notebook, submitted)
    return submitted


def copied(course: Path, tmp_path: Path) -> Path:
    """Return a copy of ``course`` in ``tmp_path``, for a test that changes it."""
    return Path(shutil.copytree(course, tmp_path / "course"))


#: the judged samples whose feedback's hidden-tests lines are checked, each handed in by the
#: student of its name
JUDGED = ("full_marks", "own_tests_weak", "syntax_error_in_count_values",
          "own_tests_not_written")
#: a has_straight that reads the cards in the order given (student ``bea``)
IN_ORDER = ("and len(set(values)) == 5 and max(values) - min(values) == 4",
            "and all(b - a == 1 for a, b in zip(values, values[1:]))")
#: a count_values cell missing its ':' (student ``sam``)
NO_COLON = ("def count_values(cards):", "def count_values(cards)")


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with Plaisante released and nothing handed in (tests change copies of it)."""
    return released_course(tmp_path_factory.mktemp("released"))


@pytest.fixture(scope="module")
def graded(released: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``released`` where each student below handed in, graded by ``plaisante
    grade`` and made into feedback pages by ``plaisante feedback``, in one run each (every
    page is one student's alone): ``ada`` the full-marks sample with a markdown cell holding
    HTML and script and a raw cell marked as HTML, ``bea`` with ``IN_ORDER``, ``sam`` with
    ``NO_COLON``, and each of ``JUDGED`` that sample. Tests only read it."""
    root = copied(released, tmp_path_factory.mktemp("graded"))
    batch = tmp_path_factory.mktemp("batch")
    notebook = nbformat.read(SAMPLES / MANIFEST["samples"]["full_marks"]["notebook"],
                             as_version=4)
    raw = new_raw_cell('<img src=y onerror="alert(4)">')
    raw.metadata["format"] = "text/html"
    notebook.cells[1:1] = [new_markdown_cell(ADDED), raw]
    nbformat.write(notebook, batch / "ada.ipynb")
    full_marks_with(batch, *IN_ORDER, name="bea")
    full_marks_with(batch, *NO_COLON, name="sam")
    for name in JUDGED:
        shutil.copy(SAMPLES / MANIFEST["samples"][name]["notebook"], batch / f"{name}.ipynb")
    done = run("submit", str(batch), cwd=root)
    assert done.stdout.splitlines()[-1] == f"{3 + len(JUDGED)} submitted, 0 refused", done.stdout
    run("grade", "plaisante", cwd=root)
    run("feedback", "plaisante", cwd=root)
    return root


def test_html_a_student_added_to_markdown_shows_as_text_in_the_feedback_page(graded):
    root = graded
    page = (root / "assignments" / "feedback" / "ada" / "plaisante" / "plaisante.html"
            ).read_text(encoding="utf-8")
    live = Live()
    live.feed(page)
    assert not [h for h in live.handlers if "alert" in h]
    assert not [s for s in live.scripts if "alert(" in s]
    assert not [h for h in live.hrefs if h.strip().lower().startswith("javascript")]
    assert "<img src=y" not in page  # the raw cell is no longer HTML
    # the student's words are there, as text (their markup escaped, their emphasis kept)
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page and "<strong>bold</strong>" in page
    assert "Step 1" in page  # the kit's own markdown and index are untouched


def note_lines(page: str) -> list[str]:
    """Return the lines of a feedback page's text that stand for a cell's hidden tests."""
    import html
    import re
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    return [line.strip() for line in text.splitlines() if "(their code is not shown)" in line]


def test_the_hidden_tests_line_says_what_is_true_of_judged_samples(graded):
    """Feedback of samples graded by the judge: "they passed" only where hidden tests ran and
    passed; a partial own-tests score says what it means; a visible failure is named as such,
    not blamed on hidden tests (which did not run after it)."""
    root = graded
    names = JUDGED
    notes = {name: note_lines((root / "assignments" / "feedback" / name / "plaisante"
                               / "plaisante.html").read_text(encoding="utf-8"))
             for name in names}
    ran_passed = "# Hidden tests ran here (their code is not shown): they passed."
    assert notes["full_marks"] and set(notes["full_marks"]) == {ran_passed}
    weak = [n for n in notes["own_tests_weak"] if n != ran_passed]
    assert weak == ["# Hidden tests ran here (their code is not shown): this cell scored 1 of 4 "
                    "points: partial credit: your tests pass on a correct version and catch "
                    "some of the hidden buggy versions, not all (the line below the cell says "
                    "how many)."]
    unwritten = [n for n in notes["own_tests_not_written"] if n != ran_passed]
    assert unwritten == ["# Hidden tests ran here (their code is not shown): this cell scored 0 "
                         "of 4 points: your tests are not written yet."]  # a tryout: it said
    # "did not pass on a correct version" above NotImplementedError
    broken = [n for n in notes["syntax_error_in_count_values"] if n != ran_passed]
    assert broken and all("this cell scored 0" not in n or "visible test above failed" in n
                          for n in broken), broken
    assert any(n.startswith("# Hidden tests did not run here (their code is not shown): the "
                            "visible test above failed first (its message is shown below the "
                            "cell); "
                            "this cell scored 0 of") for n in broken), broken
    for name in names:
        page = (root / "assignments" / "feedback" / name / "plaisante" / "plaisante.html"
                ).read_text(encoding="utf-8")
        assert cell_states_shown(page) == gradebook_states(root, name), name
    # the index marks the cells that lost points in words, not colour alone; whole numbers
    # are written as elsewhere in the kit
    index = (root / "assignments" / "feedback" / "own_tests_not_written" / "plaisante"
             / "plaisante.html").read_text(encoding="utf-8")
    assert re.search(r'<li class="plaisante-lost"><a href="#step2_my_tests">[^<]+</a> '
                     r"\(0 / 4: failed\)</li>", index)
    assert re.search(r'<li><a href="#step2_count_values">[^<]+</a> \(\d+ / \d+\)</li>', index)
    full = (root / "assignments" / "feedback" / "full_marks" / "plaisante" / "plaisante.html"
            ).read_text(encoding="utf-8")
    assert ": 100 / 100 points</h4>" in full
    assert "plaisante-lost" not in full.split("<ol class=\"plaisante-steps\">", 1)[1].split(
        "</ol>\n        </div>", 1)[0]


#: a test cell's state, from its score and points, and the word its heading shows
WORDS = {"passed": "✔ passed", "partial": "✘ partial credit", "failed": "✘ failed"}


def cell_states_shown(page: str) -> dict[str, str]:
    """Return {grade_id: state} of every test cell of a feedback page, as its panel says it
    (``data-state``), checking that its heading shows the state's word and that a cell that
    lost points is framed as such, with what the grader said of it inside the frame."""
    import re
    panels = re.findall(r'<div class="panel nbgrader_cell plaisante-test([^"]*)" '
                        r'data-state="(\w+)">\s*<a name="([^"]+)"></a>\s*'
                        r'<div class="panel-heading">\s*<span class="nbgrader-label">'
                        r'<span class="plaisante-verdict">([^<]+)</span> (.*?)'
                        r'(?=<div class="panel nbgrader_cell|</body>)', page, re.S)
    states = {}
    for classes, state, grade_id, word, rest in panels:
        assert word == WORDS[state], (grade_id, word)
        assert ("plaisante-test-lost" in classes) == (state != "passed"), (grade_id, classes)
        if "plaisante-test-open" in classes:  # what the grader said joins the frame
            assert re.search(r'</div>\s*</div>\s*<div class="plaisante-test-output'
                             + ("" if state != "passed" else " plaisante-test-kept") + '">',
                             rest), grade_id
        states[grade_id] = state
    return states


def gradebook_states(root: Path, student: str) -> dict[str, str]:
    """Return {grade_id: "passed" | "partial" | "failed"} of every test cell of the
    student's Plaisante, read with nbgrader's own API."""
    from nbgrader.api import Gradebook

    from plaisante.course import CourseLayout

    layout = CourseLayout(root)
    tests = {c.metadata["nbgrader"]["grade_id"] for c in
             nbformat.read(layout.source("plaisante"), as_version=4).cells
             if c.metadata.get("nbgrader", {}).get("grade")
             and not c.metadata["nbgrader"].get("solution")}
    with Gradebook(layout.gradebook_url) as gradebook:
        grades = gradebook.find_submission_notebook("plaisante", "plaisante", student).grades
        return {g.name: "passed" if g.score >= g.max_score else "partial" if g.score > 0
                else "failed" for g in grades if g.name in tests}


def test_a_hidden_failure_shows_its_rule_and_after_the_due_date_its_message(graded, tmp_path):
    """A has_straight that reads the cards in the order given passes every visible case and
    fails a hidden one: feedback names the rule, not the hand; ``--reveal`` is refused without
    a due date and before it, and after it the page shows the check's message in full."""
    root = copied(graded, tmp_path)  # due dates and revealed pages stay in this copy
    page_path = root / "assignments" / "feedback" / "bea" / "plaisante" / "plaisante.html"
    message = "has_straight(9♣ 5♦ 7♥ 6♠ 8♣): expected True, got False"

    def page() -> str:
        import html
        return html.unescape(page_path.read_text(encoding="utf-8"))

    failed = [n for n in note_lines(page()) if "they passed" not in n]
    assert failed == ["# Hidden tests ran here (their code is not shown): this cell scored 0 of "
                      "3 points: a hidden test failed: the cards of a straight may come in any "
                      "order."]
    assert message not in page() and "9♣ 5♦" not in page()

    def refused(*extra: str) -> str:
        env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep
                   + os.environ["PATH"])
        env.pop("PLAISANTE_COURSE", None)
        done = subprocess.run([sys.executable, "-m", "plaisante.cli", "feedback", "plaisante",
                               "--reveal", *extra], cwd=root, env=env, text=True,
                              capture_output=True, timeout=300)
        assert done.returncode != 0, done.stdout
        return done.stderr.strip()

    said = refused()
    assert "has no due date in the gradebook" in said and len(said.splitlines()) == 1, said
    run("nbgrader", "db", "assignment", "add", "plaisante", "--duedate=2099-01-01 00:00:00 UTC",
        cwd=root)
    said = refused()
    assert "'plaisante' is due 2099-01-01 00:00 UTC" in said and "--force" in said, said
    assert message not in page()  # nothing was rewritten
    run("nbgrader", "db", "assignment", "add", "plaisante", "--duedate=2026-01-01 00:00:00 UTC",
        cwd=root)
    run("feedback", "plaisante", "--reveal", cwd=root)
    assert f"✘ fails (in hidden tests, shown after the due date): {message}" in page()
    assert "CheckFailed" not in page()
    assert [n for n in note_lines(page()) if "they passed" not in n] == [
        "# Hidden tests ran here (their code is not shown): this cell scored 0 of 3 points: a "
        "hidden test failed: the cards of a straight may come in any order (its message, shown "
        "after the due date, is below the cell)."]
    assert "expect_has(" not in page()  # the hidden code itself is never shown


def test_an_answer_cell_with_a_syntax_error_says_where_on_the_page(graded):
    """The student's count_values cell misses its ':'; graded (plaisante grade) and made into
    feedback by nbgrader's generate_feedback, the page says under that cell which line does
    not parse and why, and the failing test cell below keeps its own line."""
    root = graded
    page = (root / "assignments" / "feedback" / "sam" / "plaisante" / "plaisante.html"
            ).read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    line = ("✘ SyntaxError: this cell did not run: line 1, \"def count_values(cards)\", has a "
            "SyntaxError (expected ':'), so count_values was not defined; fix that line and "
            "run the cell again")
    assert text.count(line) == 1
    answer, test = text.index("def count_values(cards)\n"), text.index("step2_count_values\n")
    assert answer < text.index(line) < test
    assert "count_values (step 2) is not defined yet" in text[test:]
    # that line alone from the answer on: no traceback of the kernel's
    assert text[answer:].count("SyntaxError") == 2
