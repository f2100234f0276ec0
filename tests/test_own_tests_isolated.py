"""Each run of a student's own tests has a kernel of its own when graded (SPEC §5).

Tests that remember what an earlier run was answered and fail a run answered otherwise would
catch every buggy version without knowing a right answer, if runs shared a kernel. Graded for
real (sandbox, zygote, judge), each run starts from the notebook's own cells run again in a
new kernel, so such tests catch nothing and the correct version's answers never reach the
student's feedback."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course
from grader_user import prepare_course, run_as_grader

from plaisante.course import CourseLayout
from plaisante.grading.conversation import cell_error, stopped_by

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with the solutions and Plaisante released (its gradebook made), never graded:
    each test grades a copy (``released_copy``), so ``release`` runs once for the module."""
    root = new_course(tmp_path_factory.mktemp("released") / "course", ("solutions",))
    cli("release", "plaisante", cwd=root, course=root)
    return root


def released_copy(released: Path, tmp_path: Path) -> Path:
    """A copy of ``released`` in ``tmp_path``, for one test to submit to and grade."""
    return Path(shutil.copytree(released, tmp_path / "course"))

#: Step 2's own tests, replaced: the first run's answer is the one to match, and a failing run
#: says what it was answered (which would be the correct count_values' answer on a hand the
#: student chose, if it reached feedback).
REMEMBERING = '''SEEN = []


def my_count_values_tests(count_values):
    """Pass on the first answer seen; fail on any other, saying it."""
    answer = count_values(hand("A♠ 2♣ 3♦ 3♣ K♥"))
    SEEN.append(answer)
    assert answer == SEEN[0], "ANSWERED " + repr(answer) + " FIRST " + repr(SEEN[0])
'''


def test_tests_that_remember_earlier_runs_catch_nothing_when_graded(released: Path,
                                                                  tmp_path: Path) -> None:
    root = released_copy(released, tmp_path)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    cell = next(cell for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests_code")
    cell.source = REMEMBERING
    path = tmp_path / "remembering.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    cli("grade", "plaisante", cwd=root, course=root)
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    outputs = next(cell.outputs for cell in graded.cells
                   if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    said = "".join(str(output.get("text", "")) for output in outputs)
    assert "passes on a correct count_values and catches 0 of 4 hidden buggy versions" in said
    assert [output.data["text/plain"] for output in outputs
            if output.output_type == "execute_result"] == ["0.0"]
    # the other own-tests cell (step 3) still earns everything: the notebook's kernel was
    # restarted for the runs, and every run found the cells before it run again
    step3 = next(cell.outputs for cell in graded.cells
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "step3_my_tests")
    assert [output.data["text/plain"] for output in step3
            if output.output_type == "execute_result"] == ["6.0"]
    cli("feedback", "plaisante", "--student", "ada", cwd=root, course=root)
    page = html.unescape(CourseLayout(root).feedback("ada", "plaisante").read_text("utf-8"))
    assert not re.search(r"ANSWERED \[|FIRST \[", page)


#: Notes a kernel of the submission leaves for the next, in every place of the sandbox that
#: outlives a kernel: its connection file (a throw-away user owns it, as root), a file of its
#: own in its sockets folder and the staged copy of a data file (writable as an ordinary user),
#: and the sockets folder's own extended attribute, access time and mode (an ordinary user's
#: kernel owns the folder; the attribute carried 64 KiB, emptying the folder kept all three).
NOTES = '''import json as _json
import os as _os
import sys as _sys


def _connection():
    return _sys.argv[_sys.argv.index("-f") + 1]


def _notes():
    """What an earlier kernel of this submission left for this one."""
    with open(_connection()) as file:
        found = ["connection file"] if "note" in _json.load(file) else []
    folder = _os.path.dirname(_connection())
    found += [name for name in _os.listdir(folder) if name == "note"]
    with open("notes.txt") as file:
        found += [] if file.read() == "as handed in" else ["notes.txt"]
    try:
        found += ["folder attribute"] if _os.getxattr(folder, "user.note") else []
    except OSError:
        pass
    found += ["folder atime"] if int(_os.stat(folder).st_atime) == 4_000_000_000 else []
    found += ["folder mode"] if _os.stat(folder).st_mode & 0o7777 == 0o1751 else []
    return found


def _leave_a_note():
    with open(_connection()) as file:
        kept = _json.load(file)
    with open(_connection(), "w") as file:
        _json.dump({**kept, "note": "seen"}, file)
    folder = _os.path.dirname(_connection())
    for path in (_os.path.join(folder, "note"),
                 _os.path.join(folder, "plaisante-data", "notes.txt")):
        try:
            _os.chmod(_os.path.dirname(path), 0o755)
            if _os.path.exists(path):
                _os.chmod(path, 0o644)
            with open(path, "w") as file:
                file.write("seen")
        except OSError:
            pass
    # the folder itself, which its owner may change (as an ordinary user, the kernel owns it)
    for leave in (lambda: _os.setxattr(folder, "user.note", b"seen"),
                  lambda: _os.utime(folder, (4_000_000_000, 4_000_000_000)),
                  lambda: _os.chmod(folder, 0o1751)):
        try:
            leave()
        except OSError:
            pass
'''


def noting(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Full marks, whose step 2 tests fail on a note an earlier kernel left and then leave
    one, and whose notebook kernel leaves one in a cell after them (never run again)."""
    cell = next(cell for cell in notebook.cells
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests_code")
    docstring = ('    """Assert what count_values must answer; a wrong count_values makes an '
                 'assert fail."""\n')
    cell.source = NOTES + cell.source.replace(
        docstring, docstring + '    assert not _notes(), _notes()\n    _leave_a_note()\n')
    assert "_leave_a_note()\n" in cell.source
    place = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    notebook.cells.insert(place + 1, nbformat.v4.new_code_cell("_leave_a_note()"))
    return notebook


@pytest.mark.parametrize("grader", ["this user", "the grading user"])
def test_no_kernel_of_a_submission_finds_a_note_an_earlier_one_left(released: Path,
                                                                  tmp_path: Path,
                                                                  grader: str) -> None:
    """Each kernel of a submission (the notebook's, each run's) starts with its sockets folder
    as the grader made it: the connection file written afresh, the data files as handed in,
    nothing else. A note left there would let tests compare runs, or carry what the
    notebook's kernel heard of the hidden checks into a run."""
    root = released_copy(released, tmp_path)
    notebook = noting(nbformat.read(CourseLayout(ROOT).samples("plaisante")
                                    / "full_marks.ipynb", as_version=4))
    path = tmp_path / "noting.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    layout = CourseLayout(root)
    (layout.submitted("ada", "plaisante").parent / "notes.txt").write_text("as handed in")
    if grader == "this user":
        cli("grade", "plaisante", cwd=root, course=root)
    else:
        prepare_course(root)
        done = run_as_grader(["grade", "plaisante"], cwd=root, timeout=900)
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    graded = nbformat.read(layout.autograded("ada", "plaisante"), as_version=4)
    outputs = next(cell.outputs for cell in graded.cells
                   if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
    said = "".join(str(output.get("text", "")) + str(output.get("evalue", ""))
                   for output in outputs)
    assert "passes on a correct count_values and catches 4 of 4" in said, said
    assert [output.data["text/plain"] for output in outputs
            if output.output_type == "execute_result"] == ["4.0"]


#: Step 2's tests as first written: they fail on a correct count_values (no points).
BROKEN = '''def my_count_values_tests(count_values):
    """Assert what count_values must answer (wrongly: every slot 1 for no cards)."""
    assert count_values([]) == [1] * 15, "no cards"
'''

#: A cell after both own-tests cells: step 2's tests made strong (full marks' own), step 3's
#: made to pass on anything, by a new function and by a new code for the same function.
MENDED = '''def my_count_values_tests(count_values):
    assert count_values([]) == [0] * 15
    assert count_values(hand("K♥ K♦ 3♣ A♠ A♥"))[13:] == [2, 2]
    assert count_values(hand("5♥ 5♠ 5♦ 9♣"))[5] == 3


my_has_check_tests.__code__ = (lambda *parts, **named: None).__code__
'''


#: A cell that prints past the notebook's output allowance, so that a run's kernel discards
#: what it prints when it runs it again, and raises only then.
ONLY_WHEN_RUN_AGAIN = """import sys

print("x" * 1_100_000)
if type(sys.stdout).__name__ == "_Discard":
    raise RuntimeError("only when run again")
"""


def test_a_test_function_gone_by_the_end_of_the_notebook_is_graded_as_its_cell_saw_it(
        released: Path, tmp_path: Path) -> None:
    """A student's tests are graded as the cells before their test cell left them: a later
    cell that deletes the function (or names something else so), defines another in its
    place or gives it new code changes nothing, for better or worse.

    A cell before the tests that raises only when run again (here: because a run's kernel
    discards what it prints once the output allowance is spent) flags the submission, naming
    the cell and what it raised: the runs then see a kernel the notebook's cells never saw."""
    root = released_copy(released, tmp_path)
    for student, later in (("tidied", "del my_has_check_tests  # done with them\n"
                                      "my_count_values_tests = 'done'"),
                           ("mended", MENDED), ("replayed", None)):
        notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                                 as_version=4)
        if student == "mended":
            next(cell for cell in notebook.cells if cell.metadata.get("nbgrader", {}).get(
                "grade_id") == "step2_my_tests_code").source = BROKEN
        if later is None:  # four such cells: three are named, so a table stays readable
            at = next(index for index, cell in enumerate(notebook.cells)
                      if cell.metadata.get("nbgrader", {}).get("grade_id") == "step2_my_tests")
            notebook.cells[at:at] = [nbformat.v4.new_code_cell(ONLY_WHEN_RUN_AGAIN)
                                     for _ in range(4)]
        else:
            notebook.cells.insert(len(notebook.cells) - 1, nbformat.v4.new_code_cell(later))
        path = tmp_path / f"{student}.ipynb"
        nbformat.write(notebook, path)
        cli("submit", str(path), "--student", student, "--assignment", "plaisante", cwd=root,
            course=root)
    graded_table = cli("grade", "plaisante", cwd=root, course=root).stdout
    scored = {}
    for student in ("tidied", "mended", "replayed"):
        graded = nbformat.read(CourseLayout(root).autograded(student, "plaisante"),
                               as_version=4)
        scored[student] = {cell.metadata["nbgrader"]["grade_id"]: [
            output.get("ename") or output.data["text/plain"] for output in cell.outputs
            if output.output_type in ("execute_result", "error")] for cell in graded.cells
            if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_my_tests")}
    assert scored == {"tidied": {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]},
                      "mended": {"step2_my_tests": ["CheckFailed"],
                                 "step3_my_tests": ["6.0"]},
                      "replayed": {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]}}, scored
    assert re.search(r"^replayed\s+flagged\s", graded_table, re.M), graded_table
    reasons = json.loads(CourseLayout(root).report("plaisante", "replayed").read_text())[
        "reasons"]
    replayed = [reason for reason in reasons if re.fullmatch(
        r"cell \d+, run again for a run of step2_my_tests's tests, raised RuntimeError \(not "
        r"when it first ran\): later checks may have missed what it defines", reason)]
    assert len(replayed) == 3, reasons
    assert not re.search(r"^(tidied|mended)\s+flagged", graded_table, re.M), graded_table


def test_a_slow_cell_before_a_students_tests_costs_them_nothing(released: Path,
                                                                tmp_path: Path) -> None:
    """Every run of a student's tests runs the cells before them again, in a kernel of its
    own: a cell that takes a few seconds (well within a cell's time) once cost that much a
    run, and with more runs than the test cell has seconds the honest tests lost every
    point, flagged as a timeout. A cell run again has its own time, as when it first ran."""
    root = released_copy(released, tmp_path)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    setup = next(index for index, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    notebook.cells.insert(setup + 1, nbformat.v4.new_code_cell(
        "import time\ntime.sleep(1)  # a pause to look at the cards (the student's own cell)"))
    path = tmp_path / "slow.ipynb"
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    # step 3's tests run 7 times (6 buggy versions): 7 × 1 s is past a 5 s cell, whose own
    # work takes well under a second
    done = cli("grade", "plaisante", "--cell-timeout", "5", cwd=root, course=root)
    assert "timeout" not in done.stdout, done.stdout
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    scored = {cell.metadata["nbgrader"]["grade_id"]: [
        output.data["text/plain"] for output in cell.outputs
        if output.output_type == "execute_result"] for cell in graded.cells
        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("_my_tests")}
    assert scored == {"step2_my_tests": ["4.0"], "step3_my_tests": ["6.0"]}, scored


#: Cells put after step 2's answer: a note of the known-good count_values' answers, written to
#: every folder the kernel can write (its /tmp, /dev/shm, working and sockets folders, its
#: home…) and to the environment, and read back from the first that holds one.
KEEPING = '''import json as _json
import os as _os

_HANDS = ["K♥ K♦ 3♣ A♠ 2♥", "2♣ 2♦ 2♥ 2♠ A♣ A♦ A♥", "", "5♥", "A♠ A♥ A♦ K♣ K♦ Q♠ Q♥ 3♣",
          "10♠ 10♥ 10♦ 10♣ J♠ Q♥ K♦ A♣", "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣", "J♣ J♦ Q♥ Q♠ K♣ K♦"]
_KEPT = {}
_OWN = count_values


def _folders():
    found = ["/tmp", "/dev/shm", "/var/tmp", "/dev", "/run", "/", _os.getcwd(),
             _os.path.expanduser("~"), _os.path.dirname(_sys.argv[_sys.argv.index("-f") + 1])]
    for top in ("/", "/var", "/run", "/dev", "/home", "/tmp"):
        try:
            found += [_os.path.join(top, name) for name in _os.listdir(top)]
        except OSError:
            pass
    return [folder for folder in dict.fromkeys(found) if _os.path.isdir(folder)]


def _keep(table):
    _os.environ["KEPT_COUNTS"] = _json.dumps(table)
    for folder in _folders():
        try:
            with open(_os.path.join(folder, ".kept_counts.json"), "w") as file:
                _json.dump(table, file)
        except OSError:
            pass


def _kept():
    for folder in _folders():
        try:
            with open(_os.path.join(folder, ".kept_counts.json")) as file:
                return _json.load(file)
        except (OSError, ValueError):
            pass
    return _json.loads(_os.environ.get("KEPT_COUNTS", "{}"))
'''

#: Step 2's own tests: they compare count_values with the kept answers (catching every buggy
#: version, if any note reached them), and test nothing else.
FROM_THE_NOTE = '''def my_count_values_tests(count_values):
    """Compare with the known-good answers kept on disk."""
    for text, counts in _kept().items():
        assert list(count_values(hand(text))) == counts, text
'''

#: has_pair keeps the known-good count_values' answers while it stands in (step 3's hidden
#: sweep; the visible checks' stand-in refuses other hands), then answers wrong: the cell's
#: hidden loss shows the note was written.
KEEPING_HAS_PAIR = '''def has_pair(cards):
    """Return True if some value appears exactly 2 times among cards."""
    if count_values is not _OWN and not _KEPT:
        try:
            for text in _HANDS:
                _KEPT[text] = list(count_values(hand(text)))
        except LookupError:
            _KEPT.clear()
        else:
            _keep(_KEPT)
    return (2 in count_values(cards)) != bool(_KEPT)
'''


def grade_as_ada(root: Path, notebook: nbformat.NotebookNode, path: Path) -> None:
    """Write ``notebook`` to ``path``, submit it as ada's plaisante and grade the class as the
    grading user."""
    nbformat.write(notebook, path)
    cli("submit", str(path), "--student", "ada", "--assignment", "plaisante", cwd=root,
        course=root)
    prepare_course(root)
    done = run_as_grader(["grade", "plaisante"], cwd=root, timeout=900)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])


def test_answers_the_notebooks_kernel_kept_on_disk_earn_its_own_tests_nothing(
        released: Path, tmp_path: Path) -> None:
    """The notebook's kernel hears known-good answers during the hidden checks (a stand-in
    for count_values while has_pair is swept) and can write them wherever it may write. The
    runs of the student's tests each start in a kernel of their own, whose writable folders
    are new: tests that compare with such a note catch nothing, as without it."""
    root = released_copy(released, tmp_path)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)
    ids = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in notebook.cells]
    notebook.cells[ids.index("step2_my_tests_code")].source = FROM_THE_NOTE
    checks = notebook.cells[ids.index("step3_has_checks")]
    assert checks.source.startswith("def has_pair(cards):")
    checks.source = KEEPING_HAS_PAIR + checks.source[checks.source.index("\n\n\ndef "):]
    notebook.cells.insert(ids.index("step2_count_values_code") + 1,
                          nbformat.v4.new_code_cell("import sys as _sys\n" + KEEPING))
    grade_as_ada(root, notebook, tmp_path / "keeping.ipynb")
    graded = nbformat.read(CourseLayout(root).autograded("ada", "plaisante"), as_version=4)
    outputs = {cell.metadata["nbgrader"]["grade_id"]: cell.outputs for cell in graded.cells
               if cell.metadata.get("nbgrader", {}).get("grade")}
    # the note was written: has_pair passed its visible checks, then answered wrong in the
    # hidden sweep once it held the known-good answers
    errors = [o for o in outputs["step3_has_pair"] if o.output_type == "error"]
    assert len(errors) == 1 and "expected" in errors[0].evalue, outputs["step3_has_pair"]
    said = "".join(str(o.get("text", "")) + str(o.get("evalue", ""))
                   for o in outputs["step2_my_tests"])
    assert "passes on a correct count_values and catches 0 of 4" in said, said


#: Helpers put before step 2's tests: a kernel's own exit status as a note for the next kernel
#: the worker's zygote forks (it reaps the one before and then forks from its own memory), and
#: the reading of such a note in the objects that memory holds.
ENDING_NOTE = '''import gc as _gc
import os as _os


def _noted():
    """True when some object this kernel inherited says the kernel before it ended with 42."""
    for held in _gc.get_objects():
        if type(held).__name__ == "Zygote" and getattr(held, "exit", None) == 42:
            return True
        if type(held) is dict and held.get("exit", None) == 42:
            return True
    return False


def _end_with_a_note(part, own):
    """In a run's kernel (its part is the grader's stand-in, not the notebook's): end with
    status 42 as soon as the run's outcome is on its way to the grader, before the grader
    kills this kernel to start the next."""
    if part is own:
        return
    import time
    from IPython import get_ipython

    socket = get_ipython().kernel.stdin_socket
    kind = type(socket)
    sending = kind.send_multipart

    def send_then_end(self, frames, *args, **kwargs):
        done = sending(self, frames, *args, **kwargs)
        if self is socket and b'"cb"' not in frames[-1]:  # not a call: the outcome
            time.sleep(0.0002)
            _os._exit(42)
        return done

    kind.send_multipart = send_then_end
'''

#: A cell after the helpers: run again in a kernel that follows one that ended with 42, it
#: raises, and the replay incident names what it raised.
SAW_THE_NOTE = '''if _noted():
    raise type("SawTheNote", (Exception,), {})()
'''


def test_no_kernel_learns_how_the_kernel_before_it_ended(released: Path,
                                                          tmp_path: Path) -> None:
    """A kernel forked by the worker's zygote starts from the zygote's memory, so nothing the
    zygote learnt of the kernel before may be in it: that kernel's exit status was (the
    zygote's ``exit``, its last answer), and a kernel can choose its own. Tests that ended
    every run with a status and failed when they found it caught nothing while each run had
    a kernel of its own: with the note, every run after the first failed, the correct
    version's too, and step 3's tests lost their 6 points (on most gradings: the status must
    be set before the grader kills the run's kernel). A kernel that dies in a cell told the
    restarted one the same way, on every grading."""
    root = released_copy(released, tmp_path)
    notebook = nbformat.read(CourseLayout(ROOT).samples("plaisante") / "full_marks.ipynb",
                             as_version=4)

    def code(grade_id: str) -> nbformat.NotebookNode:
        return next(cell for cell in notebook.cells
                    if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id)

    step2, step3 = code("step2_my_tests_code"), code("step3_my_tests_code")
    docstring = 'a wrong count_values makes an assert fail."""\n'
    step2.source = ENDING_NOTE + "\n\n" + step2.source.replace(
        docstring, docstring + '    _end_with_a_note(count_values, globals()["count_values"])\n')
    docstring = '"""Assert what the five count-based has-checks must answer."""\n'
    step3.source = step3.source.replace(
        docstring, docstring + '    _end_with_a_note(has_pair, globals()["has_pair"])\n'
        '    assert not _noted(), "the kernel before this run ended with 42"\n')
    assert "_end_with_a_note(count_values" in step2.source
    assert "_end_with_a_note(has_pair" in step3.source
    place = notebook.cells.index(step2) + 1
    notebook.cells.insert(place, nbformat.v4.new_code_cell(SAW_THE_NOTE))
    notebook.cells.append(nbformat.v4.new_code_cell("import os\nos._exit(42)"))
    grade_as_ada(root, notebook, tmp_path / "ending.ipynb")
    layout = CourseLayout(root)
    report = json.loads(layout.report("plaisante", "ada").read_text(encoding="utf-8"))
    # the last cell's death is said (and the kernel restarted: its cells run again)
    assert any(re.fullmatch(r"kernel died in cell \d+ \(exit status 42; kernel restarted\)",
                            reason) for reason in report["reasons"]), report["reasons"]
    assert not [reason for reason in report["reasons"] if "SawTheNote" in reason], \
        report["reasons"]
    scores = {name: score for name, score in report["cell_scores"].items()
              if name.endswith("_my_tests")}
    assert scores == {"step2_my_tests": 4.0, "step3_my_tests": 6.0}, scores


@pytest.mark.parametrize(("said", "read"), [
    ("RuntimeError", "RuntimeError"), ("SawTheNote_42", "SawTheNote_42"),
    ("Ｐａｙ‿ｍｅ", None), ("Pay me", None), ("x" * 81, None), (42, None)])
def test_what_a_cell_run_again_raised_is_read_only_as_a_short_ascii_class_name(said, read):
    """The kernel names what a cell run again raised, and the name reaches the instructor's
    reasons: only an ASCII identifier of at most 80 characters is read (an attack review spelt
    words with full-width letters and joining punctuation, which Python takes for names)."""
    answer = json.dumps({"q": -1, "ok": {"count": 3, "error": said}})
    assert cell_error(answer) == read
    assert cell_error(json.dumps({"q": -1, "ok": {"count": 3}})) is None


@pytest.mark.parametrize(("ename", "said"), [
    ("KeyboardInterrupt", " (it raised KeyboardInterrupt)"),
    ("Grader_was_overloaded_please_regrade_by_hand", " (it raised an error of a class of its own)"),
    ("Pay me", ""), (42, "")])
def test_a_stopped_judge_side_is_said_by_builtin_class_names_only(ename, said):
    """Why the judge's side in a kernel stopped reaches the instructor's reason: a builtin
    class's name as it is, any other name not at all (an attack review named a student's class
    as a plea to regrade by hand)."""
    reply = {"status": "ok", "user_expressions": {"judge": {"status": "error", "ename": ename}}}
    assert stopped_by(reply) == said
    assert stopped_by({"status": "ok"}) == ""
