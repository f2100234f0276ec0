"""Read a submitted notebook defensively and put its graded structure back in order.

Before nbgrader sees a submission, ``sanitize`` compares it with the released notebook (the
student version, ``starter/``) cell by cell, by nbgrader ``grade_id``:

* a file that is missing, empty, not UTF-8, not JSON, not a notebook, or the notebook of
  another assignment cannot be graded: ``Unreadable`` says why, and every test scores 0;
* a notebook saved under another name (``plaisante (1).ipynb``, a browser's re-download) is
  graded when it is the only notebook in the submission folder, and flagged by its name (with
  several, ``plaisante.grading.handed_in`` chooses the one holding the work);
* what grading never reads is dropped on reading: saved outputs and pasted images
  (attachments); the 20 MiB cap is on what is left, the cells' sources and metadata (a file
  over 100 MiB is not read at all). Windows (CRLF) line endings in cell sources become
  ``\n``, as Jupyter saves them, so they never make a locked cell look edited; an nbformat 3
  notebook is converted by nbformat;
* a notebook whose cells lost their nbgrader metadata (an editor such as VS Code replaced each
  code cell's metadata with its own) is matched to the release: the locked cells by their
  source, the student's answer cells by their position between them; it is flagged saying so;
* a graded or locked cell that was deleted is put back from the release (a deleted solution
  cell comes back as the unsolved stub, so its step scores 0);
* a cell whose type was changed (code ↔ markdown) is turned back;
* a graded cell's nbgrader metadata (grade, solution, locked, points) is reset to the
  release's, and an id nbgrader does not know is stripped;
* of cells sharing an id, the last keeps it (as nbgrader's DeduplicateIds would, which in
  0.9.6 then crashes on the others' emptied metadata); the others lose their nbgrader metadata
  and run as plain cells;
* edited locked cells are reported (nbgrader restores them, hidden tests included, from the
  gradebook). A locked cell counts as edited by the student only when its source no longer
  matches the checksum nbgrader recorded in its own metadata at release: one the student left
  alone while the instructor changed it in solutions/ since (a regrade) is restored as well,
  silently. Without a recorded checksum (an editor dropped the metadata) it is compared with
  the release.

Each change is reported as one sentence; the caller flags the submission with them.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbformat.corpus.words import generate_corpus_id
from nbgrader.utils import compute_checksum

MiB = 1024 * 1024
#: the most of a notebook grading reads: its cells' sources and metadata, once saved outputs
#: and pasted images (attachments), which grading never reads, are stripped
MAX_NOTEBOOK_BYTES = 20 * MiB
#: the largest file read at all, outputs and attachments included
MAX_FILE_BYTES = 100 * MiB
#: notebook metadata ``read_submission`` leaves for ``sanitize``: the file name it read when
#: the expected one was missing (``sanitize`` removes it and flags the submission)
SUBMITTED_AS = "plaisante_submitted_as"


class Unreadable(Exception):
    """The submission holds nothing gradable; the message says why, for the instructor."""


@dataclass
class Sanitized:
    """A notebook ready for nbgrader, and what had to be changed to get it: ``reasons``, one
    line each, and ``notes``, those of them that leave its grade sound (said for the
    instructor to check, the grade counted)."""

    notebook: NotebookNode
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _grade_id(cell: dict[str, Any]) -> str | None:
    meta = cell.get("metadata", {})
    nbgrader = meta.get("nbgrader") if isinstance(meta, dict) else None
    grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
    return grade_id if isinstance(grade_id, str) else None


def _text(source: object) -> str:
    if isinstance(source, list):
        return "".join(str(part) for part in source)
    return source if isinstance(source, str) else ""


def _as_released(cell: NotebookNode, submitted_meta: object) -> bool:
    """True when ``cell`` (its source and type) still matches the checksum nbgrader recorded
    in ``submitted_meta`` (the cell's own nbgrader metadata as submitted) when it was released;
    False when it does not, or when no checksum was recorded."""
    if not isinstance(submitted_meta, dict) or not isinstance(submitted_meta.get("checksum"), str):
        return False
    probe = nbformat.from_dict({"cell_type": cell.cell_type, "source": _text(cell.get("source")),
                                "metadata": {"nbgrader": copy.deepcopy(submitted_meta)}})
    try:
        checksum: object = compute_checksum(probe)
        recorded: str = submitted_meta["checksum"]
        return checksum == recorded
    except Exception:  # noqa: BLE001  metadata the student mangled: no proof it is untouched
        return False


def read_submission(path: Path) -> NotebookNode:
    """Return the notebook at ``path`` as nbformat v4, repaired where nbformat can repair it.

    Raises Unreadable for a symbolic link (in the file or its student/assignment folders), a
    missing, empty, oversized, non-UTF-8 or non-JSON file, or JSON that is not a notebook.
    """
    if path.is_symlink() or any(parent.is_symlink() for parent in path.parents[:3]):
        raise Unreadable("the submitted notebook is a symbolic link (it could point at any "
                         "file the grader may read, the solutions included): not read")
    if not path.exists() and not path.is_symlink() and path.parent.is_dir():
        found = sorted(p for p in path.parent.glob("*.ipynb") if not p.name.startswith("."))
        if len(found) == 1:
            notebook = read_submission(found[0])
            notebook.metadata[SUBMITTED_AS] = found[0].name
            return notebook
        if found:
            raise Unreadable(f"no {path.name} submitted, and {len(found)} other notebooks "
                             f"({', '.join(p.name for p in found[:4])}): rename the one to "
                             f"grade {path.name}")
    if not path.is_file():
        raise Unreadable(f"no notebook submitted (expected {path.name})")
    size = path.stat().st_size
    if size == 0:
        raise Unreadable("empty file: the submitted notebook has 0 bytes")
    if size > MAX_FILE_BYTES:
        raise Unreadable(f"notebook file too large ({size / MiB:.0f} MiB, at most "
                         f"{MAX_FILE_BYTES // MiB} MiB even with its saved outputs and pasted "
                         "images): clear its outputs (Edit > Clear Outputs of All Cells), "
                         "remove pasted images, save and submit it again")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Unreadable(f"invalid notebook: not UTF-8 text ({error.reason} at byte "
                         f"{error.start})") from None
    if not text.strip():
        raise Unreadable("empty file: the submitted notebook holds only whitespace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        # some of json's messages end in "at" ("Unterminated string starting at")
        said = error.msg.removesuffix(" at")
        raise Unreadable(f"invalid notebook: not valid JSON ({said} at line "
                         f"{error.lineno}, column {error.colno})") from None
    if isinstance(data, dict) and not isinstance(data.get("cells"), list) and \
            isinstance(data.get("worksheets"), list) and data.get("nbformat") == 3:
        return _from_v3(text)
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise Unreadable("invalid notebook: the JSON has no list of cells")
    _strip_unread(data, size)
    try:
        converted: NotebookNode = nbformat.convert(nbformat.from_dict(data), 4)
        _unique_cell_ids(converted)
        nbformat.validate(converted)
        return converted
    except Exception:  # noqa: BLE001  rebuild from what can be read
        return _rebuild(data)


def _from_v3(text: str) -> NotebookNode:
    """Return an nbformat 3 notebook (``worksheets`` of cells) as v4, converted by nbformat,
    with its sources as ``read_submission`` leaves them."""
    notebook: NotebookNode
    try:
        notebook = nbformat.reads(text, as_version=4)
    except Exception as error:  # noqa: BLE001  nbformat raises several kinds
        raise Unreadable(f"invalid notebook: an nbformat 3 notebook nbformat cannot convert "
                         f"({type(error).__name__})") from None
    for cell in notebook.cells:
        cell.source = _one_newline(_text(cell.get("source")))
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.pop("attachments", None)
    if len(json.dumps(notebook)) > MAX_NOTEBOOK_BYTES:
        raise Unreadable(f"notebook too large: its cells' sources take over "
                         f"{MAX_NOTEBOOK_BYTES // MiB} MiB: remove the large text pasted into "
                         "cells and submit it again")
    _unique_cell_ids(notebook)
    try:
        nbformat.validate(notebook)
    except Exception:  # noqa: BLE001  what nbformat converted, but not valid: rebuild it
        return _rebuild(nbformat.from_dict(notebook))
    return notebook


def _one_newline(text: str) -> str:
    """Return ``text`` with Windows (CRLF) and old Mac (CR) line endings as ``\n``, as
    Jupyter writes them: an editor's line endings are not an edit."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _strip_unread(data: dict[str, Any], size: int) -> None:
    """Remove, in place, what grading never reads from the notebook JSON ``data``: saved
    outputs and execution counts (nbgrader clears them before running) and pasted images
    (cell attachments); make each cell's source one string with ``\n`` line endings.
    Raises Unreadable when what is left, the cells' sources and metadata, is still over
    ``MAX_NOTEBOOK_BYTES``, naming how much of the ``size`` bytes outputs and attachments took."""
    outputs = attachments = 0
    for cell in data["cells"]:
        if not isinstance(cell, dict):
            continue
        if "source" in cell:
            cell["source"] = _one_newline(_text(cell.get("source")))
        if size > MAX_NOTEBOOK_BYTES:
            outputs += len(json.dumps(cell.get("outputs", [])))
            attachments += len(json.dumps(cell.get("attachments", {})))
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        cell.pop("attachments", None)
    if size <= MAX_NOTEBOOK_BYTES:
        return
    left = len(json.dumps(data))
    if left > MAX_NOTEBOOK_BYTES:
        raise Unreadable(f"notebook too large: its cells' sources take {left / MiB:.0f} MiB "
                         f"(at most {MAX_NOTEBOOK_BYTES // MiB} MiB, not counting saved "
                         f"outputs ({outputs / MiB:.0f} MiB here) and pasted images "
                         f"({attachments / MiB:.0f} MiB)): remove the large text pasted into "
                         "cells and submit it again")


def _unique_cell_ids(notebook: NotebookNode) -> None:
    """Give every cell an id of its own (copied cells may share one; nbformat refuses that)."""
    seen: set[str] = set()
    for cell in notebook.cells:
        cell_id = cell.get("id")
        if not isinstance(cell_id, str) or cell_id in seen:
            cell["id"] = generate_corpus_id()
        seen.add(cell["id"])


def _rebuild(data: dict[str, Any]) -> NotebookNode:
    """Return a fresh v4 notebook from the cells of a malformed one (type, source, nbgrader)."""
    notebook: NotebookNode = nbformat.v4.new_notebook()
    for raw in data["cells"]:
        if not isinstance(raw, dict):
            continue
        source = _text(raw.get("source"))
        kind = raw.get("cell_type")
        cell = (nbformat.v4.new_code_cell(source) if kind == "code"
                else nbformat.v4.new_raw_cell(source) if kind == "raw"
                else nbformat.v4.new_markdown_cell(source))
        meta = raw.get("metadata")
        if isinstance(meta, dict) and isinstance(meta.get("nbgrader"), dict):
            cell.metadata["nbgrader"] = copy.deepcopy(meta["nbgrader"])
        notebook.cells.append(cell)
    nbformat.validate(notebook)
    return notebook


def _as_type(cell: NotebookNode, kind: str) -> NotebookNode:
    """Return a copy of ``cell`` as a ``kind`` cell, keeping its source and metadata."""
    maker: Callable[[str], NotebookNode] = {
        "code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell,
        "raw": nbformat.v4.new_raw_cell}[kind]
    new = maker(_text(cell.get("source")))
    new.metadata = copy.deepcopy(cell.get("metadata", {}))
    return new


def sanitize(notebook: NotebookNode, release: NotebookNode, assignment: str) -> Sanitized:
    """Return ``notebook`` with its graded structure matched to ``release`` (see module doc).

    Raises Unreadable when it holds none of the release's graded cells.
    """
    released = {gid: cell for cell in release.cells if (gid := _grade_id(cell))}
    order = [gid for cell in release.cells if (gid := _grade_id(cell))]
    result = Sanitized(notebook)
    name = notebook.metadata.pop(SUBMITTED_AS, None)
    if name:
        result.reasons.append(f"graded {name}, the only notebook submitted (expected "
                              f"{assignment}.ipynb)")
    since = _match_lost_metadata(notebook, release, released, order, result)
    present = [_grade_id(cell) for cell in notebook.cells]
    known = [gid for gid in present if gid in released]
    _refuse_other_assignment(notebook, released, present, known, assignment)
    for gid, count in sorted(Counter(known).items()):
        if count > 1:
            result.reasons.append(f"cell {gid} appears {count} times (only the last copy is "
                                  "graded)")
    cells = _restore_graded_cells(notebook.cells, released, since, result.reasons)
    _put_back_deleted(cells, release, released, order, result.reasons)
    notebook.cells = cells
    notebook.metadata["kernelspec"] = copy.deepcopy(release.metadata.get(
        "kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"}))
    _unique_cell_ids(notebook)
    nbformat.validate(notebook)
    return result


def _match_lost_metadata(notebook: NotebookNode, release: NotebookNode,
                         released: dict[str, NotebookNode], order: list[str],
                         result: Sanitized) -> list[str]:
    """When fewer than half the release's graded cells are found by grade id, give the cells
    of ``notebook`` the release's nbgrader metadata by position (``restore_by_position``) and
    add to ``result`` what that means for the grade: a note when every locked cell was found
    as released, else a reason to check it by hand. Return the grade ids of the locked cells
    matched by position because they changed in the source since (empty when none)."""
    since: list[str] = []
    known = [gid for cell in notebook.cells if (gid := _grade_id(cell)) in released]
    if len(known) >= len(released) / 2 or not restore_by_position(notebook, release, since):
        return since
    known = [gid for cell in notebook.cells if (gid := _grade_id(cell)) in released]
    locked = [gid for gid in order if released[gid].metadata["nbgrader"].get("locked")]
    if all(gid in known for gid in locked) and not since:
        # every locked cell is there as released: the answers between them are placed
        # as surely as nbgrader's own ids would place them
        note = ("the cells had lost their nbgrader metadata (saved by an editor that drops "
                "it, such as Colab or VS Code); every locked cell was found as released, so "
                "the answers were matched by position and graded as usual: nothing to do")
        result.notes.append(note)
        result.reasons.append(note)
        return since
    missing = [gid for gid in locked if gid not in known]
    result.reasons.append(
        "the cells had lost their nbgrader metadata (saved by an editor that drops it, such "
        "as Colab or VS Code): matched to the release by the locked cells' source and the "
        "answer cells' position"
        + (f" ({', '.join(since)} changed in the source since, matched by position)"
           if since else "")
        + (f" ({', '.join(missing[:5])} not found)" if missing else "")
        + "; check the answers in the formgrader and grade by hand what is misplaced")
    return since


def _refuse_other_assignment(notebook: NotebookNode, released: dict[str, NotebookNode],
                             present: list[str | None], known: list[str],
                             assignment: str) -> None:
    """Raise Unreadable when ``notebook`` is not one of ``assignment``'s: most of its locked
    cells are untouched since a release that is not this one, or none of its graded cells
    (``known``, of the grade ids ``present`` in it) is this release's."""
    locked = [(cell, released[gid]) for cell in notebook.cells
              if (gid := _grade_id(cell)) in released
              and released[gid].metadata["nbgrader"].get("locked")]
    released_elsewhere = [cell for cell, ours in locked
                          if _text(cell.get("source")) != ours.source
                          and _as_released(cell, cell.metadata.get("nbgrader"))]
    if locked and len(released_elsewhere) > len(locked) / 2:
        # its locked cells are untouched since *their* release, and it is not this one: ids
        # every assignment shares (setup, step1_trace, play) do not make it this one's
        raise Unreadable(f"not a notebook of assignment {assignment!r}: its locked cells were "
                         "released with another assignment (submit it under that one)")
    if not known:
        found = sorted({gid for gid in present if gid})
        raise Unreadable(
            f"not a notebook of assignment {assignment!r}: none of its graded cells is there"
            + (f" (found ids {', '.join(found[:5])}{'…' if len(found) > 5 else ''})"
               if found else " (no nbgrader cells at all)"))


def _restore_graded_cells(cells: list[NotebookNode], released: dict[str, NotebookNode],
                        since: list[str], reasons: list[str]) -> list[NotebookNode]:
    """Return ``cells`` with each graded cell as released (``_restore_graded_cell``); of copies
    of one graded cell the last is graded, the others and cells of unknown grade ids lose
    their nbgrader metadata and run as plain cells. Each change is added to ``reasons``."""
    present = [_grade_id(cell) for cell in cells]
    last = {gid: index for index, gid in enumerate(present) if gid in released}
    kept: list[NotebookNode] = []
    for index, (cell, gid) in enumerate(zip(cells, present)):
        if gid in released and last[gid] != index:  # an earlier copy: run it, grade the last
            cell.metadata.pop("nbgrader", None)
        elif gid is not None and gid not in released:
            reasons.append(f"cell with unknown id {gid!r} is not graded (id changed?)")
            cell.metadata.pop("nbgrader", None)
        elif gid is not None:
            cell = _restore_graded_cell(cell, gid, released[gid], since, reasons)
        kept.append(cell)
    return kept


def _restore_graded_cell(cell: NotebookNode, gid: str, model: NotebookNode, since: list[str],
                      reasons: list[str]) -> NotebookNode:
    """Return graded ``cell`` with the type and nbgrader metadata of ``model``, its release;
    add to ``reasons`` a type turned back, or a locked cell the student edited (nbgrader puts
    its source back)."""
    submitted_meta = copy.deepcopy(cell.metadata.get("nbgrader"))
    if cell.cell_type != model.cell_type:
        reasons.append(f"cell {gid} was changed to a {cell.cell_type} cell "
                       f"(turned back into {model.cell_type})")
        cell = _as_type(cell, model.cell_type)
    if cell.metadata.get("nbgrader") != model.metadata.get("nbgrader"):
        cell.metadata["nbgrader"] = copy.deepcopy(model.metadata["nbgrader"])
    if model.metadata["nbgrader"].get("locked") and gid not in since and \
            _text(cell.source).strip() != _text(model.source).strip() and \
            not _as_released(cell, submitted_meta):
        reasons.append(f"locked cell {gid} was edited (restored from the source)")
    return cell


def _put_back_deleted(cells: list[NotebookNode], release: NotebookNode,
                      released: dict[str, NotebookNode], order: list[str],
                      reasons: list[str]) -> None:
    """Put back into ``cells``, in place, each graded or locked cell of the release that was
    deleted, after the previous graded cell present (a solution cell as its unsolved stub);
    each is added to ``reasons``."""
    have = {_grade_id(cell) for cell in cells}
    for kind, gid in deleted_cells(cells, release):
        position = order.index(gid)
        model = copy.deepcopy(released[gid])
        if model.cell_type == "code":
            model.outputs, model.execution_count = [], None
        previous = next((order[i] for i in range(position - 1, -1, -1) if order[i] in have), None)
        index = 0 if previous is None else max(
            i for i, cell in enumerate(cells) if _grade_id(cell) == previous) + 1
        cells.insert(index, model)
        have.add(gid)
        reasons.append(f"{kind} cell {gid} was deleted (put back from the source"
                       + (", unsolved" if kind == "solution" else "") + ")")


def deleted_cells(cells: list[NotebookNode], release: NotebookNode) -> list[tuple[str, str]]:
    """Return (kind, grade id) for each graded or locked cell of ``release`` that no cell of
    ``cells`` carries the grade id of, in release order; kind is 'solution', 'test' (graded,
    not a solution) or 'locked'. Grading puts these back; ``plaisante validate`` warns of
    them."""
    have = {_grade_id(cell) for cell in cells}
    missing = []
    for cell in release.cells:
        gid = _grade_id(cell)
        if gid is not None and gid not in have:
            meta = cell.metadata["nbgrader"]
            kind = "solution" if meta.get("solution") else "test" if meta.get("grade") else "locked"
            missing.append((kind, gid))
    return missing


def restore_by_position(notebook: NotebookNode, release: NotebookNode,
                        since: list[str] | None = None) -> bool:
    """Give the cells of a notebook that lost every nbgrader metadata the release's, in place:
    a locked release cell matches the next submitted cell of the same type and source (in
    order); the answer cells between two matched locked cells match the submitted cells of
    their type between the same two, in order.

    A minority of locked cells may have changed in the source since the notebook was released
    (an instructor's fix, then a regrade): each is matched, between its two neighbours that
    did match, to the submitted cell of its type most like it (at least half alike), and its
    grade id is added to ``since``; one with no such cell is left out (``sanitize`` puts it
    back). Return True when most locked cells, and most graded locked cells, matched by their
    source and at least one answer cell was matched; the notebook is left unchanged
    otherwise."""
    def meta(cell: dict[str, Any]) -> dict[str, Any]:
        found = cell.get("metadata", {}).get("nbgrader")
        return found if isinstance(found, dict) else {}

    def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return a.get("cell_type") == b.get("cell_type") and \
            _text(a.get("source")).strip() == _text(b.get("source")).strip()

    locked = [r for r, model in enumerate(release.cells) if meta(model).get("locked")]
    anchors: list[tuple[int, int]] = []  # (release index, submission index)
    start = 0
    for r in locked:
        for s in range(start, len(notebook.cells)):
            if same(notebook.cells[s], release.cells[r]):
                anchors.append((r, s))
                start = s + 1
                break
    matched = {r: s for r, s in anchors}
    graded_locked = [r for r in locked if meta(release.cells[r]).get("grade_id")
                     and meta(release.cells[r]).get("grade")]
    if not graded_locked or 2 * len(anchors) <= len(locked) or \
            2 * sum(r in matched for r in graded_locked) <= len(graded_locked):
        return False
    bounds = [(-1, -1), *anchors, (len(release.cells), len(notebook.cells))]
    changed: dict[int, int] = {}  # locked cells changed since release -> their submitted cell
    for (r0, s0), (r1, s1) in zip(bounds, bounds[1:]):
        low = s0  # in order: each match comes after the previous one
        for r in range(r0 + 1, r1):
            model = release.cells[r]
            if r not in locked:
                continue
            text = _text(model.source).strip()
            scored = [(difflib.SequenceMatcher(None, text, _text(notebook.cells[s].source)
                                               .strip()).ratio(), -s, s)
                      for s in range(low + 1, s1)
                      if notebook.cells[s].cell_type == model.cell_type]
            if scored and max(scored)[0] >= 0.5:
                low = changed[r] = max(scored)[2]
    inner = sorted([*anchors, *changed.items()])
    for r in changed:
        if since is not None and meta(release.cells[r]).get("grade_id"):
            since.append(meta(release.cells[r])["grade_id"])
    bounds = [(-1, -1), *inner, (len(release.cells), len(notebook.cells))]
    answers: dict[int, int] = {}
    for (r0, s0), (r1, s1) in zip(bounds, bounds[1:]):
        wanted = [r for r in range(r0 + 1, r1) if meta(release.cells[r]).get("solution")]
        for kind in ("code", "markdown"):
            models = [r for r in wanted if release.cells[r].cell_type == kind]
            cells = [s for s in range(s0 + 1, s1) if notebook.cells[s].cell_type == kind
                     and _text(notebook.cells[s].source).strip()]
            answers.update(zip(models, cells))  # in order; extra cells after them run as-is
    if not answers:
        return False
    for r, s in [*matched.items(), *changed.items(), *answers.items()]:
        notebook.cells[s].metadata["nbgrader"] = copy.deepcopy(meta(release.cells[r]))
    return True
