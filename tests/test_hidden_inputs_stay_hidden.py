"""No input of a hidden check reaches anything the student reads (SPEC §5).

A student's code can record every request its kernel hears (the inputs of every check) and
print them, return them as a trace answer, or put them in a failing message. Hidden checks run
after every cell of the notebook (``plaisante.grading.execute``), so what the student reads is
exactly what it would be if the source notebook had no hidden tests at all: this grades the
same recording notebook in a course whose source notebook has its hidden regions and in one
whose source notebook has them removed, and compares every output the student reads (each
non-test cell's, and the feedback page's copy of them)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course
from selection import slow_except

from plaisante.course import CourseLayout
from plaisante.games import COURSE
from plaisante.grading.execute import is_test

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

#: Records every request the kernel answers that carries a check's inputs, the latest first
#: (the sequence number and references left out: they would differ for no reason of the
#: inputs'). The last trace answer of the notebook is that list, so its visible check's
#: failing message, which the feedback page shows, quotes the latest inputs the kernel heard.
RECORDER = '''import json as _json
import plaisante.kernel.oracle as _oracle
HEARD = []
if not hasattr(_oracle, "_heard_by_the_student"):
    _oracle._heard_by_the_student = _oracle.answer
    def _hearing(request, *args, **kwargs):
        if request.get("op") in ("call", "calls", "getattr", "unary", "binary", "globals"):
            kept = {key: value for key, value in request.items() if key not in ("q", "push")}
            HEARD.insert(0, _json.dumps(kept, sort_keys=True))
        return _oracle._heard_by_the_student(request, *args, **kwargs)
    _oracle.answer = _hearing
'''
SHOW = 'print("HEARD", len(HEARD))\nprint("\\n".join(HEARD))'
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS\n?", re.DOTALL)
#: a visible check's scratch file is named at random each time (video poker's save check)
SCRATCH = re.compile(r"video-poker-check-[0-9a-f]{12}")


def recording(assignment: str) -> nbformat.NotebookNode:
    """The reference with a cell recording what the kernel hears right after the setup cell,
    and a cell printing it all at the end."""
    notebook = nbformat.read(CourseLayout(ROOT).samples(assignment) / "full_marks.ipynb",
                             as_version=4)
    setup = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    notebook.cells.insert(setup + 1, nbformat.v4.new_code_cell(RECORDER))
    notebook.cells.append(nbformat.v4.new_code_cell(SHOW))
    trace = [cell for cell in notebook.cells
             if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("trace_answer")][-1]
    name = re.search(r"^(\w+)\s*=", trace.source, re.MULTILINE)
    assert name is not None, trace.source
    trace.source = f"{name.group(1)} = HEARD"
    return notebook


def trace_message(root: Path, assignment: str) -> list[str]:
    """The lines of the feedback page that quote what the kernel heard."""
    page = html.unescape(re.sub(r"<[^>]+>", "", CourseLayout(root).feedback("ada", assignment)
                                .read_text(encoding="utf-8")))
    return [SCRATCH.sub("video-poker-check-…", line.strip()) for line in page.splitlines()
            if '{"' in line and "got" in line]


def graded(folder: Path, assignment: str, hidden: bool,
           others: dict[str, nbformat.NotebookNode] | None = None) -> Path:
    """Grade the recording notebook (student ``ada``) and ``others`` (student -> notebook) in
    a new course; ``hidden`` False removes the hidden regions of the course's source notebook
    before it is released."""
    root = new_course(folder, ("solutions",))
    if not hidden:
        source = CourseLayout(root).source(assignment)
        notebook = nbformat.read(source, as_version=4)
        for cell in notebook.cells:
            cell.source = HIDDEN.sub("", cell.source)
        nbformat.write(notebook, source)
    cli("release", assignment, cwd=root, course=root)
    for student, notebook in {"ada": recording(assignment), **(others or {})}.items():
        path = folder / f"{student}.ipynb"
        nbformat.write(notebook, path)
        cli("submit", str(path), "--student", student, "--assignment", assignment, cwd=root,
            course=root)
    cli("grade", assignment, cwd=root, course=root)
    cli("feedback", assignment, cwd=root, course=root)
    return root


@pytest.fixture(scope="module")
def plaisante_graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Plaisante's course, hidden tests in place, where ``ada`` handed in the recording
    notebook and ``tom`` the telling one (``telling``), graded in one run (each student's
    kernel and pages are theirs alone). Tests only read it."""
    return graded(tmp_path_factory.mktemp("with"), "plaisante", hidden=True,
                  others={"tom": telling()})


def read_by_the_student(root: Path, assignment: str) -> list[str]:
    """The text of every output of the autograded notebook's non-test cells."""
    notebook = nbformat.read(CourseLayout(root).autograded("ada", assignment), as_version=4)
    texts = []
    for cell in notebook.cells:
        if cell.cell_type != "code" or is_test(cell):
            continue
        for output in cell.get("outputs", []):
            texts.append(SCRATCH.sub("video-poker-check-…", str(output.get("text", ""))
                                     + str(output.get("data", {}).get("text/plain", ""))))
    return texts


@pytest.mark.parametrize("assignment", slow_except(COURSE, {"plaisante"}))
def test_what_the_student_reads_is_the_same_with_or_without_hidden_tests(
        tmp_path: Path, request: pytest.FixtureRequest, assignment: str) -> None:
    with_hidden = (request.getfixturevalue("plaisante_graded") if assignment == "plaisante"
                   else graded(tmp_path / "with", assignment, hidden=True))
    without = graded(tmp_path / "without", assignment, hidden=False)
    heard = read_by_the_student(with_hidden, assignment)
    assert any(text.startswith("HEARD ") for text in heard), heard[-3:]
    assert heard == read_by_the_student(without, assignment)
    quoted = trace_message(with_hidden, assignment)
    assert quoted, "the feedback page quotes none of what the kernel heard"
    assert quoted == trace_message(without, assignment)


#: The recorder, telling: the second time it is asked for a student's own tests by name (the
#: first is the visible cell's, the second the grading of their runs, after every hidden
#: check), it raises an error quoting everything it heard. An own-tests cell's message is
#: shown in feedback, so this would put the hidden checks' inputs there if that question went
#: to the notebook's kernel.
TELLING = RECORDER + '''
ASKED = {}
_hearing_before = _oracle.answer
def _telling(request, *args, **kwargs):
    for name in request.get("names", []) if request.get("op") == "globals" else []:
        if str(name).startswith("my_"):
            ASKED[name] = ASKED.get(name, 0) + 1
            if ASKED[name] > 1:
                raise ValueError("WHAT I HEARD: " + " | ".join(HEARD))
    return _hearing_before(request, *args, **kwargs)
_oracle.answer = _telling
'''


def telling() -> nbformat.NotebookNode:
    """Plaisante's reference with the telling recorder right after the setup cell."""
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    setup = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    notebook.cells.insert(setup + 1, nbformat.v4.new_code_cell(TELLING))
    return notebook


def test_an_own_tests_cell_never_says_what_the_notebooks_kernel_heard(
        plaisante_graded: Path) -> None:
    root = plaisante_graded
    page = html.unescape(CourseLayout(root).feedback("tom", "plaisante")
                         .read_text(encoding="utf-8"))
    told = page.find("WHAT I HEARD: {")
    assert told < 0, page[told:told + 300]
    assert "9♠ 10♠ J♠ Q♠ K♠" not in page and "9♠10♠J♠Q♠K♠" not in page
    graded = nbformat.read(CourseLayout(root).autograded("tom", "plaisante"), as_version=4)
    scored = {cell.metadata["nbgrader"]["grade_id"]: [
        output.data["text/plain"] for output in cell.outputs
        if output.output_type == "execute_result"] for cell in graded.cells
        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_my_tests")}
    assert scored == {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]}, scored
