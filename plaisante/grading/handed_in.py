"""What a student's submission folder holds besides the expected notebook: which notebook to
grade when there are several, and the data files the notebook's code may open.

Students hand in copies and renames (JupyterLab's Duplicate makes ``plaisante-Copy1.ipynb``,
a browser's re-download ``plaisante (1).ipynb``), sometimes beside the untouched original.
The rule, ``chosen_notebook``: of the folder's notebooks that belong to the assignment (they
hold most of the release's grade ids or most of its locked cells), grade the one holding the
most work: the most cells whose source is not in the released notebook (answers written,
cells added).
On a tie the expected name wins, then the most recently saved. With more than one candidate
the submission is flagged naming each notebook and its count, so the instructor can check.

Every other file of the folder (``data.txt`` the student's code opens) is a *data file*:
``data_files`` lists those grading copies into the kernel's working folder, as nbgrader
copies a submission's files beside the notebook it runs.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..results.lateness import LMS_LATE, lms_said
from .notebook_check import MAX_FILE_BYTES

#: files of a submission folder that are the course's (nbgrader's exchange writes the first
#: two, ``submit`` the last), never the student's data
NOT_DATA = {"timestamp.txt", "submission_secret.txt", LMS_LATE}
#: at most this many data files, of at most this many bytes in all, reach the kernel
MAX_DATA_FILES = 50
MAX_DATA_BYTES = 20 * 1024 * 1024


#: A cell of a notebook's JSON as ``_sources`` reads it: (cell type, source with ``\n``
#: endings, stripped; its nbgrader metadata, ``{}`` without any), read from the student's file
CellRead = tuple[str, str, dict[str, object]]


@dataclass
class Choice:
    """The notebook to grade (``path``) and, when the folder held several candidates, the
    flag that names them (``reason``; None otherwise)."""

    path: Path
    reason: str | None = None


def _sources(cells: object) -> list[CellRead]:
    """Return (cell type, source with ``\\n`` endings, stripped; nbgrader metadata) of each
    cell of a notebook's JSON ``cells``."""
    found: list[CellRead] = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        source = cell.get("source", "")
        text = "".join(map(str, source)) if isinstance(source, list) else str(source)
        meta = cell.get("metadata", {})
        nbgrader = meta.get("nbgrader") if isinstance(meta, dict) else None
        found.append((str(cell.get("cell_type")),
                      text.replace("\r\n", "\n").replace("\r", "\n").strip(),
                      nbgrader if isinstance(nbgrader, dict) else {}))
    return found


def _cells(path: Path) -> list[CellRead] | None:
    """Return ``_sources`` of the notebook at ``path``; None when it cannot be read as one."""
    try:
        if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    cells = data.get("cells")
    if cells is None and isinstance(data.get("worksheets"), list):  # nbformat 3
        cells = [c for sheet in data["worksheets"] if isinstance(sheet, dict)
                 for c in sheet.get("cells", []) if isinstance(c, dict)]
        for cell in cells:
            cell.setdefault("source", cell.get("input", ""))
    return _sources(cells) if isinstance(cells, list) else None


def work_in(cells: list[CellRead], release: list[CellRead]) -> int:
    """Return how many of ``cells`` hold work: a non-empty source the release does not have."""
    released = {source for _, source, _ in release}
    return sum(1 for _, source, _ in cells if source and source not in released)


def _belongs(cells: list[CellRead], release: list[CellRead]) -> bool:
    """True when ``cells`` hold most of the release's grade ids or most of its locked code
    cells (ids such as ``setup`` or ``play`` that every assignment has do not make another
    assignment's notebook this one's; an editor that dropped the ids leaves the sources)."""
    ids = {meta.get("grade_id") for _, _, meta in release if meta.get("grade_id")}
    locked = {source for kind, source, meta in release
              if meta.get("locked") and kind == "code" and source}
    have_ids = {meta.get("grade_id") for _, _, meta in cells} & ids
    have_locked = {source for kind, source, _ in cells if kind == "code"} & locked
    return 2 * len(have_ids) > len(ids) or 2 * len(have_locked) > len(locked)


def chosen_notebook(folder: Path, assignment: str, release_cells: list[dict[str, Any]]) -> Choice:
    """Return which notebook of ``folder`` to grade for ``assignment`` (the rule is in the
    module doc); ``release_cells`` are the released notebook's cells. Without any candidate
    it is the expected ``{assignment}.ipynb`` (which ``read_submission`` then explains)."""
    expected = folder / f"{assignment}.ipynb"
    notebooks = sorted(p for p in folder.glob("*.ipynb")
                       if not p.name.startswith(".") and p.is_file() and not p.is_symlink())
    if len(notebooks) < 2:
        return Choice(expected)
    release = _sources(release_cells)
    candidates = []
    for path in notebooks:
        cells = _cells(path)
        if cells is not None and _belongs(cells, release):
            candidates.append((work_in(cells, release), path == expected,
                               path.stat().st_mtime_ns, path))
    if len(candidates) < 2:
        return Choice(candidates[0][3] if candidates else expected)
    best = max(candidates, key=lambda c: c[:3])
    listed = ", ".join(f"{c[3].name} ({c[0]})" for c in candidates)
    return Choice(best[3], f"graded {best[3].name}, the notebook holding the most work, of "
                           f"{len(candidates)} notebooks submitted (cells of work in each: "
                           f"{listed}): check it is the one to grade; hand in only that one, "
                           f"named {expected.name}")


def handed_in_names(folder: Path, assignment: str,
                    release_cells: list[dict[str, Any]]) -> list[str]:
    """Return the names (without ``.ipynb``) of ``folder``'s notebooks that belong to
    ``assignment`` but are not named ``{assignment}.ipynb``, sorted: ``plaisante-Copy1`` for a
    Duplicate handed in. nbgrader's fetch_feedback looks for a notebook's feedback under the
    name the student handed it in as, so each gets the page (``feedback_as_handed_in``)."""
    release = _sources(release_cells)
    names = []
    for path in sorted(folder.glob("*.ipynb")) if folder.is_dir() else []:
        if path.stem == assignment or path.name.startswith(".") or not path.is_file():
            continue
        cells = _cells(path)
        if cells is not None and _belongs(cells, release):
            names.append(path.stem)
    return names


#: the files of a submission nbgrader's exchange wrote that its release_feedback reads beside
#: the feedback page: the submission's secret names the page in the exchange
EXCHANGE_FILES = ("timestamp.txt", "submission_secret.txt")


def feedback_as_handed_in(root: Path, assignment: str, students: list[str]) -> list[Path]:
    """Ready each of ``students``' feedback pages of ``assignment`` for nbgrader's
    ``release_feedback``: the exchange's files of the submission beside it, and a copy of the
    page under each name the student handed the notebook in as (``handed_in_names``), so
    ``fetch_feedback`` finds it. Returns the copies written."""
    import nbformat

    from ..course import CourseLayout

    layout = CourseLayout(root)
    release = nbformat.read(layout.release(assignment), as_version=4).cells
    written = []
    for student in students:
        page = layout.feedback(student, assignment)
        submitted = layout.submitted(student, assignment).parent
        if not page.is_file():
            continue
        for name in EXCHANGE_FILES:
            if (submitted / name).is_file():
                shutil.copyfile(submitted / name, page.parent / name)
        for name in handed_in_names(submitted, assignment, release):
            copy = page.with_name(f"{name}.html")
            shutil.copyfile(page, copy)
            written.append(copy)
    return written


def lms_late(folder: Path) -> str | None:
    """Return the flag for a submission its LMS marked late without saying when (``submit``
    of a Canvas download writes the marker): no late penalty could be computed."""
    said = lms_said(folder)
    if not said:
        return None
    return (f"late: {said}, and its download gives no submission time, so no late penalty "
            "was computed: check the time in the LMS")


@dataclass
class DataFiles:
    """The data files of a submission folder to copy beside the notebook (``files``:
    name -> path) and one flag naming those left out (``reason``, None when none was)."""

    files: dict[str, Path] = field(default_factory=dict)
    reason: str | None = None


def data_files(folder: Path) -> DataFiles:
    """Return the data files of the submission ``folder``: its regular files (in the folder
    itself, not in subfolders) that are neither notebooks nor the course's own, at most
    ``MAX_DATA_FILES`` of at most ``MAX_DATA_BYTES`` in all, smallest first; symbolic links
    and what is over the limits are left out, and named in ``reason``."""
    found = DataFiles()
    if not folder.is_dir():
        return found
    left_out = []
    total = 0
    entries = sorted((p for p in folder.iterdir() if not p.name.endswith(".ipynb")
                      and p.name not in NOT_DATA and not p.name.startswith(".")),
                     key=lambda p: (p.lstat().st_size, p.name))
    for path in entries:
        if path.is_symlink() or not path.is_file():
            if path.is_symlink():
                left_out.append(f"{path.name} (a symbolic link)")
            continue
        size = path.stat().st_size
        if len(found.files) >= MAX_DATA_FILES or total + size > MAX_DATA_BYTES:
            left_out.append(f"{path.name} ({size} bytes)")
            continue
        found.files[path.name] = path
        total += size
    if left_out:
        found.reason = (f"data file(s) not copied beside the notebook: {', '.join(left_out[:5])}"
                        f"{'…' if len(left_out) > 5 else ''} (at most {MAX_DATA_FILES} files "
                        f"of {MAX_DATA_BYTES // (1024 * 1024)} MiB in all, no links): code "
                        "that opens them fails")
    return found
