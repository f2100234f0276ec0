"""The feedback page a student's own markdown reaches (nbgrader's feedback template renders
markdown's HTML as is): ``plaisante feedback`` on a graded submission with an added markdown
cell holding HTML and script, and a raw cell marked as HTML."""

from __future__ import annotations

import json
import os
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


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PLAISANTE_COURSE", None)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, timeout=900)
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done




def test_html_a_student_added_to_markdown_shows_as_text_in_the_feedback_page(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "assignments").mkdir()
    run("release", "plaisante", cwd=root)
    notebook = nbformat.read(SAMPLES / MANIFEST["samples"]["full_marks"]["notebook"],
                             as_version=4)
    raw = new_raw_cell('<img src=y onerror="alert(4)">')
    raw.metadata["format"] = "text/html"
    notebook.cells[1:1] = [new_markdown_cell(ADDED), raw]
    submitted = tmp_path / "plaisante.ipynb"
    nbformat.write(notebook, submitted)
    run("submit", str(submitted), "--student", "ada", cwd=root)
    run("grade", "plaisante", cwd=root)
    run("feedback", "plaisante", cwd=root)
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


def test_the_hidden_tests_line_says_what_is_true_of_judged_samples(tmp_path):
    """Feedback of samples graded by the judge: "they passed" only where hidden tests ran and
    passed; a partial own-tests score says what it means; a visible failure is named as such,
    not blamed on hidden tests (which did not run after it)."""
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "assignments").mkdir()
    run("release", "plaisante", cwd=root)
    names = ("full_marks", "own_tests_weak", "syntax_error_in_count_values",
             "own_tests_not_written")
    for name in names:
        run("submit", str(SAMPLES / MANIFEST["samples"][name]["notebook"]), "--student", name,
            cwd=root)
    run("grade", "plaisante", cwd=root)
    run("feedback", "plaisante", cwd=root)
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
