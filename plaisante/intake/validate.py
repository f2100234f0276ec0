"""``plaisante validate NOTEBOOK``: a student's check before handing in.

It runs the notebook top to bottom, as Run All would, and reads its test cells. It says what is
true of a notebook it can run: which visible tests pass or fail (with the failing check's
message), and that hidden tests run only when the work is graded. As nbgrader's validate does,
it first warns of test and locked cells edited or turned into markdown (their checksum,
recorded at release, no longer matches) and of test cells deleted (missing from the course's
release, as grading finds them): grading runs them as released. nbgrader's own ``validate``
says "Success! Your notebook passes all the tests." for a notebook that passes the visible
tests alone; this never promises more than it ran.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHANGED = ("Grading runs these cells as they were released, not as they are here, so what "
           "they say here promises nothing: put each back as it was (copy it from a fresh "
           "copy of the assignment) before you hand in.")
HIDDEN = ("Hidden tests run when your work is graded: they look for the classic mistakes each "
          "step warns about, so passing here does not promise full marks.")


@dataclass(frozen=True)
class CellResult:
    """One test cell after the run: its grade_id, points, the error it showed (or None), and
    for a cell running the student's own tests, what they caught (or None)."""

    grade_id: str
    points: float
    error: str | None
    note: str | None = None


def summary(results: list[CellResult], deleted: Sequence[str] = ()) -> str:
    """Return what validate prints for ``results`` (test cells in notebook order) and the
    grade ids of the released test cells the notebook no longer has (``deleted``): which
    cells fail (with the message), which pass (their ids, wrapped), which did not run."""
    failed = [result for result in results if result.error is not None]
    passing = [result.grade_id for result in results if result.error is None]
    total = len(results) + len(deleted)
    if not total:
        return "This notebook has no test cells: is it the assignment's notebook?"
    if not failed and not deleted:
        return "\n".join([f"All {total} test cells pass their visible tests.",
                          *_notes(results), HIDDEN])
    lines = []
    if failed:
        lines.append(f"{len(failed)} of {total} test cells fail their visible tests:")
        lines += [f"  {result.grade_id}: {result.error}" for result in failed]
    if passing:
        lines += textwrap.wrap(f"{len(passing)} of {total} test cells pass: {_compact(results)}",
                               width=100, subsequent_indent="  ", break_on_hyphens=False)
    if deleted:
        one = len(deleted) == 1
        lines += textwrap.wrap(
            f"{len(deleted)} of {total} {'was' if one else 'were'} deleted, so did not run "
            f"here (grading puts {'it' if one else 'them'} back as released and runs "
            f"{'it' if one else 'them'}): {', '.join(deleted)}", width=100,
            subsequent_indent="  ", break_on_hyphens=False)
    lines += _notes(results)
    lines.append(HIDDEN)
    return "\n".join(lines)


def _compact(results: list[CellResult]) -> str:
    """Return the passing cells' ids, a step whose every cell here passes as one entry:
    'step1 (all 4), step2_trace, step2_count_values'."""
    steps: dict[str, list[CellResult]] = {}
    for result in results:
        steps.setdefault(result.grade_id.split("_")[0], []).append(result)
    entries = []
    for step, cells in steps.items():
        if len(cells) > 1 and all(cell.error is None for cell in cells):
            entries.append(f"{step} (all {len(cells)})")
        else:
            entries += [cell.grade_id for cell in cells if cell.error is None]
    return ", ".join(entries)


def deleted_test_cells(notebook: Any, path: Path) -> list[str] | None:
    """Return the grade ids of the test cells of the assignment's release that ``notebook``
    (read from ``path``) no longer has, found as grading finds them
    (``notebook_check.deleted_cells``); None when no release of it is found (no course
    folder at or above ``path``, nor the kit's own)."""
    release = release_of(notebook, path)
    if release is None:
        return None
    from ..grading.notebook_check import deleted_cells

    return [gid for kind, gid in deleted_cells(notebook.cells, release) if kind == "test"]


def release_of(notebook: Any, path: Path) -> Any | None:
    """Return the released (student) version of the assignment ``notebook`` belongs to: the
    course's release named as the file is, else the one sharing most grade ids with it; None
    when there is no course folder or no release shares one."""
    import nbformat

    from ..course import CourseLayout, course_root

    try:
        layout = CourseLayout.of(course_root(path.resolve().parent))
    except FileNotFoundError:
        return None
    ids = {meta.get("grade_id") for cell in notebook.cells
           if isinstance(meta := cell.get("metadata", {}).get("nbgrader"), dict)}
    best, shared = None, 0
    for assignment in layout.assignments():
        if not layout.release(assignment).is_file():
            continue
        release = nbformat.read(layout.release(assignment), as_version=4)
        common = len(ids & {cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                            for cell in release.cells} - {None})
        if assignment == path.stem and common:
            return release
        if common > shared:
            best, shared = release, common
    return best


def changed_cells(notebook: Any) -> list[str]:
    """Return, for each test or locked cell of ``notebook`` (nbformat v4) whose source or
    type no longer matches the checksum nbgrader recorded in it at release, one line naming
    it and what changed (edited, or turned into another kind of cell), as nbgrader's own
    validate warns. Cells without a recorded checksum are not judged."""
    from nbgrader.utils import compute_checksum

    lines = []
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if not isinstance(meta, dict) or not isinstance(meta.get("checksum"), str):
            continue
        test = bool(meta.get("grade")) and not meta.get("solution")
        if not (test or meta.get("locked")):
            continue
        try:
            same = compute_checksum(cell) == meta["checksum"]
        except Exception:  # noqa: BLE001  metadata mangled: no proof it is as released
            same = False
        if same:
            continue
        kind = "test cell" if test else "locked cell"
        released_as = "code" if test else None
        how = (f"turned into a {cell.cell_type} cell" if released_as and
               cell.cell_type != released_as else "edited")
        lines.append(f"  {kind} {meta.get('grade_id', '?')}: {how}")
    return lines


def warning(changed: list[str]) -> str:
    """Return what validate says first when cells were ``changed`` (``changed_cells``)."""
    count = len(changed)
    return "\n".join([f"Warning: {count} cell{'s' if count > 1 else ''} of the assignment "
                      f"{'were' if count > 1 else 'was'} changed:", *changed, CHANGED])


def _notes(results: list[CellResult]) -> list[str]:
    """Return the lines on the student's own tests: what they caught in the notebook."""
    noted = [result for result in results if result.note and result.error is None]
    return ["Your own tests:", *(f"  {r.grade_id}: {r.note}" for r in noted)] if noted else []


def first_line(output: Any) -> str:
    """Return an error output as 'Name: first line of its message'; a bare
    NotImplementedError (a stub left as released) as 'has_pair is not written yet (…)',
    naming the function or method that raised it, as the own-tests cells say it; a part whose
    cell failed (the setup cell's stand-in) as 'count_values (step 2) is not defined yet: …';
    an answer a test cell reads before it is set as 'trace_values is not set yet: …'; a failing
    check as its message alone ('has_pair(K♥ K♦ K♣ K♠ 9♥): expected False, got True')."""
    message = (str(output.get("evalue", "")).splitlines() or [""])[0]
    if output.get("ename") == "NotImplementedError" and not message.strip():
        return f"{unwritten(output)} is not written yet (it still raises NotImplementedError)"
    if output.get("ename") == "NotImplementedError" and "is not written yet" in message:
        return message[:300]
    if output.get("ename") in ("PartNotDefined", "CheckFailed"):  # the kit's own words, as the
        return message[:300]  # notebook says them (its "input: expected …, got …" for a check)
    if output.get("ename") == "NameError" and (unset := _UNSET.match(message)):
        # a test cell reads a name only its answer cell sets: the notebook's own words
        return (f"{unset[1]} is not set yet: set it in its answer cell, above this test cell "
                "(if that cell shows an error, fix it first)")
    return f"{output.get('ename', 'Error')}: {message[:300]}"


#: Python's message for a name never set: "name 'trace_values' is not defined"
_UNSET = re.compile(r"name '(\w+)' is not defined$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: a traceback frame in a notebook cell, as IPython prints it:
#: "Cell In[16], line 4, in has_pair(cards)"
_CELL_FRAME = re.compile(r"^Cell In\[\d*\], line \d+, in ([\w.]+)\(", re.M)


def unwritten(output: Any) -> str:
    """Return the name of the function a notebook cell defined whose stub raised the
    NotImplementedError of ``output`` (an error output): the last frame in a cell, e.g.
    'has_pair' or 'Tableau.toggle_selection'; 'a step' when no frame names one."""
    frames = _CELL_FRAME.findall(_ANSI.sub("", "\n".join(map(str, output.get("traceback", [])))))
    names = [name for name in frames if name != "<module>"]
    return names[-1].removesuffix(".__init__") if names else "a step"


def read(path: Path) -> Any:
    """Return the notebook at ``path`` as nbformat v4, its sources with ``\n`` line endings
    (as Jupyter saves them; a Windows editor's CRLF is no edit). Raises ValueError in one
    line for a file that is not a notebook."""
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:  # noqa: BLE001  nbformat raises several kinds
        raise ValueError(f"{path} is not a notebook Jupyter can open ({type(error).__name__})"
                         ) from None
    for cell in notebook.cells:
        cell.source = cell.source.replace("\r\n", "\n").replace("\r", "\n")
    return notebook


def run(path: Path, timeout: int = 30) -> list[CellResult]:
    """Execute the notebook at ``path`` (in its folder, no file written) and return its test
    cells' results. Raises ValueError in one line for a file that is not a notebook, and for
    one whose run stopped: a cell that ended the kernel (``os._exit``, a crash), ran over
    ``timeout`` seconds, or made an output Jupyter cannot keep."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    if not path.is_file():
        raise FileNotFoundError(f"no notebook at {path}")
    notebook = read(path)
    # the kernel's own log is no help to a student (ipykernel warns that it runs over TCP on
    # localhost, as every kernel Jupyter starts does); errors in cells still show as outputs
    client = NotebookClient(notebook, timeout=timeout, allow_errors=True,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"],
                            resources={"metadata": {"path": str(path.resolve().parent)}})
    try:  # the kernel's environment only: the last cell shows no widget; this process unchanged
        client.execute(env={"NBGRADER_EXECUTION": "validate", **os.environ})
    except DeadKernelError:
        raise ValueError(f"{path}: a cell ended Python (os._exit, a crash), so the cells "
                         "after it did not run; run the notebook in Jupyter to see which"
                         ) from None
    except CellTimeoutError:
        raise ValueError(f"{path}: a cell ran over {timeout} s (an endless loop?), as long "
                         "as grading allows a cell by default, so the cells after it did not "
                         "run; run the notebook in Jupyter to see which") from None
    except Exception as error:  # noqa: BLE001  e.g. an output that is not one (nbformat's)
        detail = (str(error).strip().splitlines() or [""])[-1][:200]
        raise ValueError(f"{path}: the notebook's run stopped: {type(error).__name__}"
                         f"{': ' + detail if detail else ''}") from None
    return results_of(notebook)


def results_of(notebook: Any) -> list[CellResult]:
    """Return the results of the test cells of ``notebook`` (nbformat v4, already run: its
    outputs are read, nothing is run), in notebook order: each failing one's error in one line
    (``first_line``, ``why_undefined``, or what its student's own tests printed), None for a
    passing one. nbgrader's Validate, as the course runs it, says these lines too
    (``plaisante.intake.nbgrader_validate``)."""
    from ..student_side.student_tests import in_short

    results = []
    stopped: dict[str, str] = {}  # a part -> why the answer cell defining it stopped
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("solution") and not meta.get("grade"):
            stopped.update(stopped_parts(cell))
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        outputs = cell.get("outputs", [])
        errors = [o for o in outputs if o.get("output_type") == "error"]
        printed = "".join(str(o.get("text", "")) for o in outputs
                          if o.get("output_type") == "stream")
        problem, caught = in_short(printed)  # the student's own tests, if the cell ran them
        shown = (why_undefined(errors[0], stopped) or first_line(errors[0])) if errors \
            else problem
        results.append(CellResult(str(meta.get("grade_id")), float(meta.get("points", 0)),
                                  shown, caught))
    return results


#: where Python puts a SyntaxError's place in its message: "expected ':' (123.py, line 3)"
_PLACE = re.compile(r"^(.*) \([^()]*, line (\d+)\)$")


def stopped_parts(cell: Any) -> dict[str, str]:
    """Return, for an answer cell whose run stopped on an error (not a stub's
    NotImplementedError), each name its source defines at the top level -> what stopped it
    ("its cell step2_count_values_code stops at a SyntaxError on line 3 (expected ':')");
    empty for a cell that ran."""
    from ..student_side.tracebacks import an_error, defining

    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if not errors or errors[0].get("ename") == "NotImplementedError":
        return {}
    kind = str(errors[0].get("ename", "Error"))
    message = (str(errors[0].get("evalue", "")).splitlines() or [""])[0]
    place = _PLACE.match(message)
    at = (f" on line {place[2]} ({place[1]})" if place else f": {message}" if message else "")
    where = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "above")
    why = f"its cell {where} stops at {an_error(kind)}{at[:300]}"
    return {name: why for name in defining().findall(str(cell.get("source", "")))}


def why_undefined(output: Any, stopped: dict[str, str]) -> str | None:
    """Return the line for a test cell's error that comes of a part whose answer cell stopped
    (``stopped_parts``): 'count_values is not defined: its cell … stops at a SyntaxError on line
    3 (expected ':'); fix that cell'; None for any other error."""
    if output.get("ename") not in ("PartNotDefined", "NameError"):
        return None
    message = str(output.get("evalue", ""))
    name = (re.match(r"(\w+) \(step \d+\) is not defined yet", message)
            or re.match(r"name '(\w+)' is not defined", message))
    if not name or name[1] not in stopped:
        return None
    return f"{name[1]} is not defined: {stopped[name[1]]}; fix that cell"


def validate(path: Path) -> int:
    """Run and report (``summary``), after a warning for cells of the assignment that were
    changed or deleted (``changed_cells``, ``deleted_test_cells``); return 0 when every
    visible test passes and no such cell was changed, 1 otherwise."""
    results = run(Path(path))
    notebook = read(Path(path))
    deleted = deleted_test_cells(notebook, Path(path))
    changed = [*changed_cells(notebook), *(f"  test cell {gid}: deleted" for gid in deleted or ())]
    if changed:
        print(warning(changed))
    if deleted is None:
        print("No released copy of the assignment was found here, so deleted test cells "
              "cannot be told: run this from the course folder to check for them.")
    print(summary(results, deleted or ()))
    passed = results and all(result.error is None for result in results)
    return 0 if passed and not changed else 1


if __name__ == "__main__":
    sys.exit(validate(Path(sys.argv[1])))
