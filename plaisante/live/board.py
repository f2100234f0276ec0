"""The lab board: where the class stands on one assignment during the lab, for the instructor
and the projector (``plaisante watch ID`` keeps it up to date).

``state(...)`` is pure: from each student's latest grading result (``SubmissionResult``), the
roster and the assignment's test cells (``scores.test_cells``: named from the release, never
the source's code) it returns the board as plain JSON-ready data. ``page(...)`` returns the
static page that shows it: the kit's stylesheet and a script that reads ``board.json`` beside
it every second and writes every value with ``textContent`` (no value ever becomes markup).

What is on the board: how many of the roster have submitted, graded and flagged counts, per
step the share of graded submissions passing it (every point of its test cells), the test
cells failing most with their rule lines (the released cell's first comment line), and who
has not submitted yet. No student's code, output or answer is on it. In anonymous mode (the
projector) no student id is written at all, only counts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import Markup

from .. import page_templates
from ..grading.result import SubmissionResult
from ..results.scores import TestCell

#: Test cells listed under "failing most" (at most).
TOP_FAILING = 8


def _passes(result: SubmissionResult, cells: Iterable[TestCell]) -> bool:
    return all(result.cell_scores.get(cell.grade_id, 0.0) >= cell.points for cell in cells)


def _points_share(results: list[SubmissionResult], cells: list[TestCell]) -> float:
    """The share of the cells' points the results scored on average (0 without results)."""
    most = sum(cell.points for cell in cells)
    if not results or not most:
        return 0.0
    got = sum(min(r.cell_scores.get(c.grade_id, 0.0), c.points) for r in results for c in cells)
    return got / (most * len(results))


def state(assignment: str, results: Mapping[str, SubmissionResult], roster: Iterable[str],
          cells: list[TestCell], titles: Mapping[str, str], *, anonymous: bool = False,
          queued: int = 0, graded_count: int = 0, now: float | None = None) -> dict[str, Any]:
    """Return the board of ``assignment`` as plain data.

    ``results``: {student id: their latest result}. ``roster``: the class's student ids
    (students with a result but not on it are counted too). ``cells``: the assignment's test
    cells in notebook order; ``titles``: {"step1": "Card", …}. ``queued``: submissions waiting
    to be graded. ``graded_count``: submissions graded since the grader started (a
    resubmission counts again). ``now``: seconds since the epoch (default: the clock).

    Keys: ``assignment``, ``updated`` (seconds since the epoch), ``roster`` (count),
    ``graded_count``, ``submitted``, ``graded`` (sound grades, noted ones included),
    ``flagged`` (could not be graded in full: left out of every share), ``queued``;
    ``steps``: [{step, title, passing, of, points}] (``of`` = graded count, ``points`` the
    share of the step's points scored on average, 0–1); ``failing``: up to
    ``TOP_FAILING`` of [{grade_id, step, title, hidden, failing, of}], most failing first,
    only cells failing for someone;
    ``not_started``: ids of the roster with no submission, sorted (anonymous: []), and
    ``not_started_count``; ``students``: [{student, total, max_total, status}] sorted by id
    (anonymous: []); ``anonymous``.
    """
    everyone = sorted(set(roster) | set(results))
    sound = [r for r in results.values() if r.status == "graded" or r.noted]
    flagged = [r for r in results.values() if r.status == "flagged" and not r.noted]
    by_step: dict[str, list[TestCell]] = {}
    for cell in cells:
        by_step.setdefault(cell.step, []).append(cell)
    steps = [{"step": step, "title": titles.get(step, step),
              "passing": sum(_passes(r, step_cells) for r in sound), "of": len(sound),
              "points": _points_share(sound, step_cells)}
             for step, step_cells in by_step.items()]
    failing = []
    for index, cell in enumerate(cells):
        count = sum(r.cell_scores.get(cell.grade_id, 0.0) < cell.points for r in sound)
        if count:
            failing.append((-count, index, {"grade_id": cell.grade_id, "step": cell.step,
                                             "title": cell.title, "hidden": cell.hidden,
                                             "failing": count, "of": len(sound)}))
    failing.sort(key=lambda item: (item[0], item[1]))
    not_started = [s for s in everyone if s not in results]
    students = [] if anonymous else [
        {"student": s, "total": results[s].total, "max_total": results[s].max_total,
         "status": "noted" if results[s].noted else results[s].status}
        for s in everyone if s in results]
    return {"assignment": assignment, "updated": time.time() if now is None else now,
            "roster": len(everyone), "submitted": len(results), "graded": len(sound),
            "flagged": len(flagged), "queued": queued, "graded_count": graded_count,
            "steps": steps,
            "failing": [entry for _, _, entry in failing[:TOP_FAILING]],
            "not_started": [] if anonymous else not_started,
            "not_started_count": len(not_started), "students": students,
            "anonymous": anonymous}


def to_json(board: Mapping[str, Any]) -> str:
    """Return ``board`` as the JSON text ``board.json`` holds."""
    return json.dumps(board, indent=1, sort_keys=True)


SCRIPT = """
const $ = (id) => document.getElementById(id);
function cell(row, text, cls) {
  const td = document.createElement('td'); td.textContent = text;
  if (cls) td.className = cls; row.appendChild(td); return td;
}
function fill(body, rows) { body.replaceChildren(...rows); }
function pct(n, of) { return of ? Math.round(100 * n / of) + '%' : '–'; }
function show(b) {
  $('submitted').textContent = b.submitted + ' / ' + b.roster;
  $('graded').textContent = b.graded; $('flagged').textContent = b.flagged;
  $('queued').textContent = b.queued;
  $('updated').textContent = new Date(b.updated * 1000).toLocaleTimeString();
  fill($('steps'), b.steps.map((s) => {
    const tr = document.createElement('tr'); tr.dataset.step = s.step;
    cell(tr, s.title);
    const td = cell(tr, '', 'plaisante-board-share');
    const bar = document.createElement('span'); bar.className = 'plaisante-board-bar';
    bar.style.width = (s.of ? 100 * s.passing / s.of : 0) + '%'; td.appendChild(bar);
    const label = document.createElement('span'); label.className = 'plaisante-board-pct';
    label.textContent = pct(s.passing, s.of); td.appendChild(label);
    cell(tr, s.passing + ' / ' + s.of, 'num');
    cell(tr, s.of ? Math.round(100 * s.points) + '%' : '–', 'num'); return tr; }));
  $('failing-none').hidden = b.failing.length > 0;
  fill($('failing'), b.failing.map((f) => {
    const tr = document.createElement('tr'); tr.dataset.gradeId = f.grade_id;
    const td = cell(tr, f.title);
    if (f.hidden) {
      const tag = document.createElement('span'); tag.className = 'plaisante-tag';
      tag.textContent = 'hidden'; tag.title = 'holds hidden tests, whose code students never see';
      td.append(' ', tag); }
    cell(tr, f.failing + ' / ' + f.of, 'num'); return tr; }));
  $('waiting-count').textContent = b.not_started_count;
  const w = $('waiting');
  w.replaceChildren(...b.not_started.map((s) => {
    const li = document.createElement('span'); li.className = 'plaisante-chip';
    li.textContent = s; return li; }));
  $('students-section').hidden = b.anonymous;
  fill($('students'), b.students.map((s) => {
    const tr = document.createElement('tr'); tr.dataset.student = s.student;
    cell(tr, s.student); cell(tr, s.total + ' / ' + s.max_total, 'num');
    cell(tr, s.status); return tr; }));
  document.body.dataset.submitted = b.submitted;
  document.body.dataset.updated = b.updated;
}
async function poll() {
  try {
    const xsrf = document.querySelector('meta[name=xsrf]');
    const r = await fetch('board.json?t=' + Date.now(), {cache: 'no-store',
      headers: xsrf ? {'X-XSRFToken': xsrf.content} : {}});
    if (r.ok) { show(await r.json()); $('offline').hidden = true; }
    else { $('offline').hidden = false; }
  } catch (e) { $('offline').hidden = false; }
  setTimeout(poll, 1000);
}
poll();
"""


def page(assignment: str, title: str, *, anonymous: bool, xsrf: str | None = None) -> str:
    """Return the board's HTML page for ``assignment`` (its ``title`` shown): static, it reads
    ``board.json`` from its own folder every second (sending ``xsrf``, when given, as the
    ``X-XSRFToken`` header: a hub service's cookie-authenticated fetch needs it)."""
    return page_templates.render("board.html.j2", name=f"{title} ({assignment})",
                                 anonymous=anonymous, xsrf=xsrf or "", script=Markup(SCRIPT))
