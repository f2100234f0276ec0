"""The final table of a grading run: one line per submission, reasons in full, and where each
student lost points (which test cells, in which step)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from rich.table import Table

from ..results.lateness import time_text
from ..results.scores import Row, step_of
from ..results.tables import cell, late_text, points, render
from .result import SubmissionResult


def lost_points(result: SubmissionResult, maxima: Mapping[str, float],
                step_titles: Mapping[str, str] | None = None,
                scores: Mapping[str, float] | None = None) -> list[str]:
    """Return one line per step in which ``result`` lost points, naming the test cells:
    ``"lost in step 3 (the has-checks): has_flush -4, has_straight -4"``. ``maxima`` is
    {grade_id: points}; a cell it does not list is not counted. ``scores`` ({grade_id:
    points}, default the result's own) are the points counted, a manual grade's included."""
    given = result.cell_scores if scores is None else scores
    by_step: dict[str, list[str]] = {}
    step_max: dict[str, float] = {}
    step_lost: dict[str, float] = {}
    for grade_id, top in maxima.items():
        step = step_of(grade_id)
        step_max[step] = step_max.get(step, 0.0) + top
        lost = top - given.get(grade_id, 0.0)
        if lost > 1e-9:
            short = grade_id.removeprefix(f"{step}_") if step != grade_id else grade_id
            by_step.setdefault(step, []).append(f"{short} -{points(lost)}")
            step_lost[step] = step_lost.get(step, 0.0) + lost
    titles = step_titles or {}
    lines = []
    for step, cells in by_step.items():
        named = f"step {step.removeprefix('step')}" if step.startswith("step") else step
        if titles.get(step):
            named += f" ({titles[step]})"
        if abs(step_lost[step] - step_max[step]) < 1e-9 and len(cells) > 1:
            lines.append(f"lost in {named}: all {points(step_max[step])} points")
        else:
            lines.append(f"lost in {named}: {', '.join(cells)}")
    return lines


def table(results: Iterable[SubmissionResult], maxima: Mapping[str, float] | None = None,
          step_titles: Mapping[str, str] | None = None,
          recorded: Mapping[str, Row] | None = None) -> str:
    """Return a plain-text table: student, status, total/max, seconds, then each reason (and a
    late penalty, and with ``maxima`` ({grade_id: points}) the test cells that lost points,
    step by step) on its own line under the student it concerns, and a summary line.

    ``recorded`` maps a student to the gradebook's row of the submission: its total is the
    one shown (a manual grade given in the formgrader counts there, as in ``scores`` and
    ``export``), followed by "(manual grade: <grade ids>)" when one does."""
    results = list(results)
    grid = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False,
                 header_style="bold")
    grid.add_column("student", no_wrap=True)
    grid.add_column("status", no_wrap=True)
    grid.add_column("total", justify="right", no_wrap=True)
    grid.add_column("seconds", justify="right", no_wrap=True)
    grid.add_column("reasons, and where points were lost", overflow="fold")
    for r in results:
        notes = list(r.reasons)
        late = late_text(r.seconds_late)
        when = time_text(r.timestamp, " ") if r.timestamp else ""
        if r.late_penalty:
            notes.append(f"late: {r.late_penalty:g} point(s) off{', ' + late if late else ''} "
                         f"(submitted {when})")
        elif late:
            notes.append(f"late: {late}, no late penalty method (submitted {when})")
        row = (recorded or {}).get(r.student)
        if maxima and (r.status == "graded" or r.total > 0):
            notes.extend(lost_points(r, maxima, step_titles, row.cells if row else None))
        total = f"{r.total:g} / {r.max_total:<4g}"
        if row is not None:
            total = f"{row.total:g} / {row.max_total:g}"
            if row.manual:
                total += f" (manual grade: {', '.join(row.manual)})"
        status = "noted" if r.noted else r.status
        grid.add_row(*map(cell, (r.student, status, total,
                                 f"{r.seconds:.1f}", "\n".join(map(str, notes)))))
    flagged = sum(r.status == "flagged" and not r.noted for r in results)
    noted = sum(r.noted for r in results)
    return (render(grid) + "\n" + f"{len(results)} submission(s): {len(results) - flagged} "
            f"graded" + (f" ({noted} noted: sound, with a note to check)" if noted else "")
            + f", {flagged} flagged")


def all_accounted_for(results: Iterable[SubmissionResult]) -> bool:
    """Return True when every submission ended graded, or flagged with a stated reason."""
    return all(r.status == "graded" or (r.status == "flagged" and r.reasons) for r in results)


def summary(root: Path, assignment: str, results: list[SubmissionResult]) -> tuple[int, str, str]:
    """Return what ``plaisante grade`` ends with for ``results``: the exit status (0 when
    ``all_accounted_for``, else 1), the table for stdout, and for stderr a line saying the
    table could not be drawn ("" when it was; the grades are recorded either way)."""
    from ..results import scores

    status = 0 if all_accounted_for(results) else 1
    try:
        recorded = {row.student: row for row in scores.class_rows(root, assignment)}
        return status, table(results, scores.cell_maxima(root, assignment),
                             scores.step_titles(assignment), recorded), ""
    except Exception as error:  # noqa: BLE001  the grades are in the gradebook: say so, go on
        return status, "", (f"plaisante grade: {assignment} is graded (see `plaisante scores "
                            f"{assignment}`), but its table could not be drawn: "
                            f"{type(error).__name__}: {error}")
