"""An instructor edits a visible test cell in solutions/ after the students submitted, then
regrades: a locked cell the student left alone is not the student's edit (nbgrader's checksum
recorded in the submitted cell says so), and a notebook that lost its nbgrader metadata (VS
Code) is still matched to the changed release by the locked cells that did not change.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat
import pytest
from course_cli import cli as run
from course_cli import new_course
from nbgrader.utils import compute_checksum

from plaisante.course import CourseLayout
from plaisante.grading.notebook_check import read_submission, sanitize

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "plaisante"
CHANGED = "step3_has_pair"
LINE = "expect_has(has_pair, 'K♥ K♦ K♣ K♠ 9♥', False)\n"
SAMPLES = ROOT / "assignments" / "samples" / ASSIGNMENT
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
FULL = SAMPLES / MANIFEST["samples"]["full_marks"]["notebook"]
RELEASE = CourseLayout(ROOT).release(ASSIGNMENT)
VSCODE = {"vscode": {"languageId": "python"}}


def cell_of(notebook: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    return next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def changed_release() -> nbformat.NotebookNode:
    """The release as `generate_assignment` writes it after the instructor removed the line
    a visible case (four kings) from the step3_has_pair cell (its checksum recomputed)."""
    release = nbformat.read(RELEASE, as_version=4)
    cell = cell_of(release, CHANGED)
    assert LINE in cell.source
    cell.source = cell.source.replace(LINE, "")
    cell.metadata["nbgrader"]["checksum"] = compute_checksum(cell)
    return release


def vscode_saved(source: Path, target: Path) -> Path:
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"] = copy.deepcopy(VSCODE)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


def grade_ids(notebook: nbformat.NotebookNode) -> list[str]:
    return [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells
            if "nbgrader" in c.metadata]


# ------------------------------------------------------------------ reading, no kernel needed

def test_a_cell_changed_in_the_source_since_release_is_not_the_students_edit():
    clean = sanitize(read_submission(FULL), changed_release(), ASSIGNMENT)
    assert clean.reasons == []


def test_a_locked_cell_the_student_did_edit_is_still_reported(tmp_path):
    notebook = nbformat.read(FULL, as_version=4)
    cell_of(notebook, "step3_has_flush").source += "\nprint('mine')"
    cell_of(notebook, CHANGED).source += "\nprint('mine too')"
    path = tmp_path / "plaisante.ipynb"
    nbformat.write(notebook, path)
    clean = sanitize(read_submission(path), changed_release(), ASSIGNMENT)
    assert clean.reasons == [
        f"locked cell {CHANGED} was edited (restored from the source)",
        "locked cell step3_has_flush was edited (restored from the source)"]


def test_a_vscode_save_is_matched_to_a_release_whose_locked_cell_changed(tmp_path):
    release = changed_release()
    original = nbformat.read(FULL, as_version=4)
    saved = vscode_saved(FULL, tmp_path / "plaisante.ipynb")
    clean = sanitize(read_submission(saved), release, ASSIGNMENT)
    assert grade_ids(clean.notebook) == grade_ids(release)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in original.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    restored = {c.metadata["nbgrader"]["grade_id"]: c.source for c in clean.notebook.cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    assert restored == answers
    # the submitted (old) cell sits where the release's is: nbgrader restores its source
    assert cell_of(clean.notebook, CHANGED).source == cell_of(original, CHANGED).source
    assert len(clean.reasons) == 1, clean.reasons
    assert "lost their nbgrader metadata" in clean.reasons[0]
    assert f"({CHANGED} changed in the source since, matched by position)" in clean.reasons[0]


def test_a_vscode_save_with_most_locked_cells_changed_is_still_refused(tmp_path):
    from plaisante.grading.notebook_check import Unreadable

    release = nbformat.read(RELEASE, as_version=4)
    for cell in release.cells:
        if cell.metadata.get("nbgrader", {}).get("locked"):
            cell.source = "# rewritten\n" + cell.source
    saved = vscode_saved(FULL, tmp_path / "plaisante.ipynb")
    with pytest.raises(Unreadable, match="none of its graded cells is there"):
        sanitize(read_submission(saved), release, ASSIGNMENT)


# ----------------------------------------------------------------------------- regraded, end to end

@pytest.mark.nbgrader
def test_regrade_after_a_visible_test_line_is_removed_flags_no_one(tmp_path):
    root = new_course(tmp_path / "course")
    run("release", ASSIGNMENT, cwd=root)
    layout = CourseLayout(root)
    run("submit", str(FULL), "--student", "alice", cwd=root)
    vscode_saved(FULL, layout.submitted("vscode", ASSIGNMENT))
    run("grade", ASSIGNMENT, "--workers", "1", cwd=root)
    source = nbformat.read(layout.source(ASSIGNMENT), as_version=4)
    cell = cell_of(source, CHANGED)
    cell.source = cell.source.replace(LINE, "")
    nbformat.write(source, layout.source(ASSIGNMENT))
    done = run("regrade", ASSIGNMENT, "--workers", "1", cwd=root)
    full = MANIFEST["samples"]["full_marks"]["expected"]["total"]
    reports = {student: json.loads(layout.report(ASSIGNMENT, student).read_text("utf-8"))
               for student in ("alice", "vscode")}
    assert reports["alice"]["total"] == full
    assert reports["alice"]["status"] == "graded", reports["alice"]["reasons"]
    assert reports["vscode"]["total"] == full, reports["vscode"]["reasons"]
    assert not any("edited" in r or "deleted" in r for r in reports["vscode"]["reasons"])
    assert f"no score of '{ASSIGNMENT}' changed" in done.stdout, done.stdout[-2000:]


@pytest.mark.parametrize("other", ["deck", "tricks", "holdem", "video_poker"])
def test_another_assignments_notebook_is_refused_though_it_shares_ids(other):
    """Every assignment has cells named setup, stepN_trace and play: shared ids do not make a
    notebook this assignment's; its locked cells, untouched since their own release, tell."""
    from plaisante.grading.notebook_check import Unreadable, sanitize

    release = nbformat.read(ROOT / "starter" / "plaisante" / "plaisante.ipynb", as_version=4)
    notebook = nbformat.read(ROOT / "assignments" / "samples" / other / "full_marks.ipynb",
                             as_version=4)
    with pytest.raises(Unreadable, match="its locked cells were released with another"):
        sanitize(notebook, release, "plaisante")


def test_a_worker_without_the_zygote_says_so_once_in_plain_words(monkeypatch, capsys):
    """The zygote cannot run with the kit under /tmp (each kernel's private /tmp would hide it):
    grading goes on without it, and the worker says so, once, in words an instructor reads
    (what happened, what to do; no "zygote")."""
    from pathlib import Path

    from plaisante.grading import sandbox, submission, zygote
    from plaisante.grading.result import Limits

    monkeypatch.setattr(sandbox, "read_only_paths", lambda: [Path("/usr"), Path("/tmp/kit")])
    monkeypatch.setattr(zygote, "zygote_for", lambda limits, modules: zygote.home_base())
    monkeypatch.setattr(submission, "USE_ZYGOTE", True)
    monkeypatch.setattr(submission, "_SAID_NO_ZYGOTE", False)
    assert submission._zygote(Limits(), ()) is None
    assert submission._zygote(Limits(), ()) is None
    said = capsys.readouterr().err.splitlines()
    assert said == ["plaisante grade: each student's kernel starts a Python of its own, not a "
                    "copy of a pre-loaded one: the kit or its Python is installed under /tmp "
                    "(/tmp/kit), which every graded kernel sees empty; install the kit and its "
                    "venv outside /tmp to grade faster; the grades are the same, only slower "
                    "(docs/capacity.md)"]
    assert "zygote" not in said[0]


def zygote_asking_grader(root, student, assignment, *, limits, sandbox):
    """Grade nothing, but ask for this worker's zygote first, as grading a submission does."""
    from plaisante.grading import submission
    from plaisante.grading.result import SubmissionResult

    assert submission._zygote(limits, ()) is None
    return SubmissionResult(student=student, status="graded", cell_scores={"only": 1.0},
                            total=1.0, max_total=1.0)


def grade_two_workers_without_zygote(folder: Path) -> list[tuple[str, str]]:
    """Grade four submissions in ``folder`` on two forked workers, with the kit seemingly under
    /tmp (no worker can start the zygote); return (student, status) of each. Changes this
    process's modules for good: run it in a process of its own (``ONE_LINE_RUN``)."""
    import plaisante.grading
    from plaisante.grading import pool, sandbox, submission, zygote
    from plaisante.grading.parallel import grade_parallel

    # the workers are forked from this process (one thread here), so they see these too
    assert pool._start_method() == "fork", "the workers would not see this setup"
    sandbox.read_only_paths = lambda: [Path("/usr"), Path("/tmp/kit")]
    zygote.zygote_for = lambda limits, modules: zygote.home_base()
    submission.USE_ZYGOTE, submission._SAID_NO_ZYGOTE = True, False
    plaisante.grading.record = lambda root, results, assignment: None
    students = ["a", "b", "c", "d"]
    for student in students:
        (folder / "assignments" / "submitted" / student / "plaisante").mkdir(parents=True)
    results = grade_parallel(folder, "plaisante", workers=2, grader=zygote_asking_grader)
    return [(r.student, r.status) for r in results]


#: a process with one thread (pytest-xdist's workers have several, and grading then starts
#: its workers from a fork server that would not see the changes)
ONE_LINE_RUN = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
                "import test_source_changed as t; "
                "print(t.grade_two_workers_without_zygote(Path(sys.argv[2])))")


def test_a_grading_run_says_once_that_no_worker_has_the_zygote(tmp_path):
    """With the kit under /tmp no worker can start the zygote; the run says so once, not once
    per worker: two workers, each grading a submission, and one line."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", ONE_LINE_RUN, str(Path(__file__).parent),
                           str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == str([(s, "graded") for s in "abcd"])
    said = [line for line in done.stderr.splitlines() if "starts a Python of its own" in line]
    assert said == ["plaisante grade: each student's kernel starts a Python of its own, not a "
                    "copy of a pre-loaded one: the kit or its Python is installed under /tmp "
                    "(/tmp/kit), which every graded kernel sees empty; install the kit and its "
                    "venv outside /tmp to grade faster; the grades are the same, only slower "
                    "(docs/capacity.md)"]
