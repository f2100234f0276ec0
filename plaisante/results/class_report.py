"""The class report of one assignment: ``plaisante report ID`` and, in a notebook,
``plaisante.results.class_report.show(ID)``.

It writes ``assignments/reports/<ID>/index.html`` and its figures (PNG, matplotlib) beside it:
the score histogram, each step's mean and pass rate, the test cells that fail most, the
flagged submissions with the grader's reasons, the late ones, a link to the similarity page
(``plaisante similarity``), and one row per student linking to their feedback page. Every
number comes from nbgrader's gradebook (``scores.class_rows``); flagged work is listed and
marked; work that could not be graded in full is left out of every average, rate and figure,
work only noted (a sound grade with a note) counts.

Test cells are named by their step and the first comment line of the *released* cell (what
students see); a cell of hidden tests is "hidden tests of <step>". No code of the source
notebook is read into the page.
"""

from __future__ import annotations

import base64
import html
import os
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..course import CourseLayout
from ..student_side.style import STYLE
from .lateness import late_text, time_text
from .scores import (
    Row,
    TestCell,
    class_rows,
    counted,
    cut_at_word,
    nothing_handed_in,
    step_titles,
    test_cells,
)
from .tables import points

FIGURES = ("histogram.png", "steps.png", "failing.png")
HIDDEN_MEANS = ("in hidden tests: the students counted so passed the cell's visible checks "
                "and failed its hidden tests, whose code students are not shown (their "
                "feedback says only that a hidden test failed, and the rule it checks)")
MANUAL_MEANS = ("manual grade: the students counted so were given fewer points by hand in the "
                "formgrader, which count instead of the autograded score")
TOP_FAILING = 10
#: a student's part of the page (reasons and notes can quote what they wrote: a cell's id,
#: a file name): at most this many lines, each at most this many characters; the rest is
#: named in one line pointing at their report (docs/budgets.md)
MOST_REASONS = 12
MOST_REASON_CHARS = 300


@dataclass(frozen=True)
class StepSummary:
    """One step across the class (flagged work left out): ``mean`` points of ``maximum``, and
    ``pass_rate``, the share of students with every point of the step."""

    step: str
    title: str
    maximum: float
    mean: float
    pass_rate: float


@dataclass(frozen=True)
class CellSummary:
    """One test cell across the class (flagged work left out): how many lost points there
    (``failed`` of ``of``); of those, how many were given its points by hand
    (``manual``, ``Row.manual``) and how many others passed its visible checks and failed
    its hidden tests (``in_hidden``, from the grader's reports: ``Row.failed_in``)."""

    cell: TestCell
    failed: int
    of: int
    in_hidden: int = 0
    manual: int = 0


def step_summaries(rows: list[Row], titles: dict[str, str]) -> list[StepSummary]:
    """Return each step's mean and pass rate over the rows that are not flagged."""
    kept = counted(rows)
    steps = list(dict.fromkeys(step for row in rows for step in row.steps))
    out = []
    for step in steps:
        top = max(row.step_max.get(step, 0.0) for row in rows)
        got = [row.steps.get(step, 0.0) for row in kept]
        mean = statistics.fmean(got) if got else 0.0
        passed = sum(value >= top - 1e-9 for value in got)
        out.append(StepSummary(step, titles.get(step, ""), top, mean,
                               passed / len(got) if got else 0.0))
    return out


def cell_summaries(rows: list[Row], cells: list[TestCell]) -> list[CellSummary]:
    """Return the test cells in which some student (not flagged) lost points, most failed
    first (then in notebook order)."""
    kept = counted(rows)
    order = {cell.grade_id: index for index, cell in enumerate(cells)}
    out = []
    for cell in cells:
        lost = [row for row in kept if row.cells.get(cell.grade_id, 0.0) < cell.points - 1e-9]
        by_hand = [row for row in lost if cell.grade_id in row.manual]
        out.append(CellSummary(cell, len(lost), len(kept), sum(
            row.failed_in.get(cell.grade_id) == "hidden" for row in lost
            if row not in by_hand), len(by_hand)))
    return sorted((c for c in out if c.failed), key=lambda c: (-c.failed,
                                                               order[c.cell.grade_id]))


def tag_words(summary: CellSummary) -> list[str]:
    """Return what a failing cell's tags say of how its students lost points there, where
    that was not its visible checks: "in hidden tests" (``CellSummary.in_hidden``), "manual
    grade" (``CellSummary.manual``), each "N of M …" when only some of them; [] when every
    one failed its visible checks (a cell holding hidden tests whose visible checks failed
    is tagged by nothing: they are what failed)."""
    words = []
    for count, what in ((summary.in_hidden, "in hidden tests"), (summary.manual,
                                                                  "manual grade")):
        if count:
            words.append(what if count == summary.failed else
                         f"{count} of {summary.failed} {what}")
    return words


def cell_tags(summary: CellSummary) -> str:
    """Return a failing cell's tags (``tag_words``) as HTML, each titled with what it means;
    "" when none."""
    return "".join(f" <span class='plaisante-tag' title='"
                   f"{_esc(HIDDEN_MEANS if word.endswith('hidden tests') else MANUAL_MEANS)}'>"
                   f"{_esc(word)}</span>" for word in tag_words(summary))


def _label(cell: TestCell) -> str:
    number = cell.step.removeprefix("step")
    return f"step {number} · {cell.title}" if number != cell.step else cell.title


# ---------------------------------------------------------------------------------- figures

def _figures(folder: Path, rows: list[Row], steps: list[StepSummary],
             failing: list[CellSummary]) -> list[Path]:
    """Draw the three figures into ``folder``; return their paths (FIGURES' order)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    plt.rcParams.update({"font.size": 11, "axes.spines.top": False,
                         "axes.spines.right": False, "figure.dpi": 110,
                         "figure.facecolor": "#fffdf7", "axes.facecolor": "#fffdf7"})
    kept = counted(rows)
    top = max((row.max_total for row in rows), default=100.0) or 100.0
    paths = [folder / name for name in FIGURES]

    fig, ax = plt.subplots(figsize=(7.2, 3.4), layout="constrained")
    bins = [top * i / 10 for i in range(11)]
    ax.hist([row.total for row in kept], bins=bins, color="#17603a", edgecolor="white")
    ax.set_xlim(0, top)
    ax.set_xlabel(f"total (of {points(top)})")
    ax.set_ylabel("students")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    flagged = len(rows) - len(kept)
    ax.set_title(f"{len(kept)} graded" + (f" ({flagged} flagged, not shown)" if flagged else ""),
                 loc="left", fontsize=11)
    fig.savefig(paths[0])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7.2, 3.4), layout="constrained")
    names = [f"{s.step.removeprefix('step')} {s.title}".strip() for s in steps]
    positions = range(len(steps))
    means = [100 * s.mean / s.maximum if s.maximum else 0 for s in steps]
    rates = [100 * s.pass_rate for s in steps]
    ax.bar([p - 0.2 for p in positions], means, width=0.4, color="#17603a",
           label="mean (% of the step's points)")
    ax.bar([p + 0.2 for p in positions], rates, width=0.4, color="#f5c518",
           label="pass rate (% with every point)")
    ax.set_xticks(list(positions), names, rotation=15 if len(steps) > 4 else 0, ha="right"
                  if len(steps) > 4 else "center")
    ax.set_ylim(0, 105)
    ax.set_ylabel("%")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=9,
              frameon=False)
    fig.savefig(paths[1])
    plt.close(fig)

    shown = failing[:TOP_FAILING]
    height = 1.2 + 0.38 * max(1, len(shown))
    fig, ax = plt.subplots(figsize=(7.2, height), layout="constrained")
    if shown:
        labels = [cut_at_word(_label(c.cell), 56)
                  + "".join(f" ({words})" for words in tag_words(c)) for c in shown]
        ax.barh(range(len(shown)), [c.failed for c in shown], color="#a3001b")
        ax.set_yticks(range(len(shown)), labels, fontsize=9)
        ax.invert_yaxis()
        ax.set_xlabel("students who lost points there")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.axis("off")
        ax.text(0.5, 0.5, "no test cell failed", ha="center", va="center")
    fig.savefig(paths[2])
    plt.close(fig)
    return paths




# -------------------------------------------------------------------------------------- page

#: students of the roster or the LMS download with nothing graded
NOTHING = """<h2 id='nothing'>Nothing graded</h2>
<p class='plaisante-note'>On the roster or named by the LMS download, with no submission
graded: what was said of each.</p>
<div class='plaisante-scroll'><table class='plaisante-grid'><thead><tr><th>student</th>
<th>why</th></tr></thead><tbody>
{%- for student, why in missing %}
<tr data-nothing='{{ student }}'><td>{{ student }}</td><td>{{ why }}</td></tr>
{%- endfor %}</tbody></table></div>"""


def _nothing_section(missing: dict[str, str]) -> str:
    """The report's list of ``missing`` ({student: why}), rendered with autoescape."""
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(NOTHING).render(
        missing=[(s, why[:MOST_REASON_CHARS]) for s, why in sorted(missing.items())])


def shown_reasons(reasons: list[str], student: str, assignment: str) -> list[str]:
    """Return ``reasons`` as the page shows them: the first ``MOST_REASONS``, each cut to
    ``MOST_REASON_CHARS`` characters, and a last line saying what was left out and where
    all of it is; ``reasons`` itself when it is within both."""
    shown = [r if len(r) <= MOST_REASON_CHARS else r[:MOST_REASON_CHARS] + "…"
             for r in reasons[:MOST_REASONS]]
    more = len(reasons) - len(shown)
    cut = sum(len(r) > MOST_REASON_CHARS for r in reasons[:MOST_REASONS])
    if more or cut:
        said = [f"{more} more reason(s) left out" if more else "",
                f"{cut} cut to {MOST_REASON_CHARS} characters" if cut else ""]
        shown.append(f"[{' and '.join(s for s in said if s)} here: all of them are in "
                     f"assignments/reports/{assignment}/{student}.json]")
    return shown


def _esc(value: Any) -> str:
    return html.escape(str(value))


def _table(head: list[str], body: list[list[str]], numeric: frozenset[int] | set[int] = frozenset(),
           attrs: list[str] | None = None, caption: str = "") -> str:
    """Return an HTML table; ``body`` cells are already HTML; ``numeric`` columns align right."""
    def cls(index: int) -> str:
        return " class='num'" if index in numeric else ""

    rows = []
    for n, cells in enumerate(body):
        extra = f" {attrs[n]}" if attrs else ""
        rows.append(f"<tr{extra}>" + "".join(f"<td{cls(i)}>{c}</td>"
                                             for i, c in enumerate(cells)) + "</tr>")
    cap = f"<caption>{_esc(caption)}</caption>" if caption else ""
    return ("<div class='plaisante-scroll'><table class='plaisante-grid'>" + cap + "<thead><tr>"
            + "".join(f"<th{cls(i)}>{_esc(h)}</th>" for i, h in enumerate(head))
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def page(root: Path, assignment: str, figures: list[str], here: Path) -> str:
    """Return the report's HTML; ``figures`` are the images' ``src`` (FIGURES' order) and
    ``here`` the folder the page is read from (links to feedback are relative to it)."""
    layout = CourseLayout(Path(root))
    rows = class_rows(root, assignment)
    titles = step_titles(assignment)
    cells = test_cells(root, assignment)
    steps = step_summaries(rows, titles)
    failing = cell_summaries(rows, cells)
    kept = counted(rows)
    flagged = [row for row in rows if row.ungraded]
    noted = [row for row in rows if row.noted]
    late = [row for row in rows if row.late or row.late_penalty]
    top = max((row.max_total for row in rows), default=0.0)
    totals = [row.total for row in kept]
    mean = statistics.fmean(totals) if totals else None
    median = statistics.median(totals) if totals else None

    def chip(label: str, value: str, key: str) -> str:
        return (f"<span class='plaisante-chip' data-key='{key}'>{_esc(label)} "
                f"<b>{_esc(value)}</b></span>")

    title = assignment
    try:
        from ..games import COURSE, load

        if assignment in COURSE:
            title = f"{load(assignment).title} ({assignment})"
    except Exception:  # noqa: BLE001  a description that does not load still has an id
        pass
    parts = [f"<h1>{_esc(title)}: class report</h1>",
             "<p class='plaisante-summary'>"
             + chip("submissions", str(len(rows)), "submissions")
             + chip("graded", str(len(kept)), "graded")
             + chip("average", f"{points(mean)} / {points(top)}" if mean is not None else "-",
                    "average")
             + chip("median", points(median) if median is not None else "-", "median")
             + chip("flagged", str(len(flagged)), "flagged")
             + (chip("noted", str(len(noted)), "noted") if noted else "")
             + chip("late", str(len(late)), "late") + "</p>",
             "<p class='plaisante-note'>Averages, rates and figures leave flagged work out: "
             "the grader could not grade all of it, so its score is not a measure of the work. "
             "Noted work was graded soundly and counts. Scores are nbgrader's gradebook's, after "
             "late penalties.</p>"]

    # a figure's alt text says its numbers: a screen reader hears what the eye reads
    spread = (f": lowest {points(min(totals))}, median {points(median)}, mean {points(mean)}, "
              f"highest {points(max(totals))} of {points(top)}"
              if median is not None and mean is not None else "")
    said_totals = f"histogram of the totals of the {len(kept)} graded submissions{spread}"
    parts.append("<h2 id='scores'>Scores</h2>"
                 f"<img src='{figures[0]}' alt='{_esc(said_totals)}'>")
    said_steps = "; ".join(f"step {s.step.removeprefix('step')} mean {points(s.mean)} of "
                           f"{points(s.maximum)}, pass rate {_percent(s.pass_rate)}"
                           for s in steps)
    parts.append("<h2 id='steps'>Steps</h2>"
                 f"<img src='{figures[1]}' alt='{_esc(f'each step: {said_steps}')}'>")
    parts.append(_table(
        ["step", "title", "points", "mean", "pass rate"],
        [[_esc(s.step.removeprefix("step")), _esc(s.title), points(s.maximum), points(s.mean),
          _percent(s.pass_rate)] for s in steps], numeric={0, 2, 3, 4},
        attrs=[f"data-step='{_esc(s.step)}' data-mean='{s.mean:.6f}' "
               f"data-pass-rate='{s.pass_rate:.6f}'" for s in steps]))
    parts.append("<h2 id='failing'>Test cells that fail most</h2>")
    for count, means in (("in_hidden", HIDDEN_MEANS), ("manual", MANUAL_MEANS)):
        if any(getattr(c, count) for c in failing[:TOP_FAILING]):
            tag, said = means.split(": ", 1)
            parts.append(f"<p class='plaisante-note'><span class='plaisante-tag'>{tag}</span> "
                         f"{_esc(said)}.</p>")
    if failing:
        said_cells = "; ".join(f"{c.cell.grade_id} lost by {c.failed} of {c.of}"
                               + "".join(f" ({words})" for words in tag_words(c))
                               for c in failing[:TOP_FAILING])
        said_cells = f"the test cells most students lost points in: {said_cells}"
        parts.append(f"<img src='{figures[2]}' alt='{_esc(said_cells)}'>")
        parts.append(_table(
            ["step", "test cell (grade id)", "points", "lost points"],
            [[_esc(c.cell.step.removeprefix("step")),
              _esc(c.cell.title) + cell_tags(c)
              + f"<br><code>{_esc(c.cell.grade_id)}</code>",
              points(c.cell.points), f"{c.failed} of {c.of}"] for c in failing[:TOP_FAILING]],
            numeric={0, 2, 3},
            attrs=[f"data-cell='{_esc(c.cell.grade_id)}' data-failed='{c.failed}' "
                   f"data-in-hidden='{c.in_hidden}' data-manual='{c.manual}'"
                   for c in failing[:TOP_FAILING]]))
    else:
        parts.append("<p>No test cell failed.</p>")

    parts.append("<h2 id='flagged'>Flagged submissions</h2>")
    if flagged:
        parts.append("<p class='plaisante-note'>Look at these by hand (formgrader): the grader "
                     "could not grade all of them, for the reasons given.</p>")
        parts.append(_table(["student", "name", "score", "reasons"],
                            [[_esc(r.student), _esc(r.name), points(r.total),
                              "<br>".join(_esc(x) for x in
                                          shown_reasons(r.reasons, r.student, assignment))
                              or _esc(r.reason)]
                             for r in flagged], numeric={2},
                            attrs=[f"data-flagged='{_esc(r.student)}'" for r in flagged]))
    else:
        parts.append("<p>None.</p>")
    if noted:
        parts.append("<h2 id='noted'>Noted submissions</h2>")
        parts.append("<p class='plaisante-note'>Graded soundly and counted in averages and "
                     "exports; each has a note for you to check (the formgrader shows them "
                     "flagged too).</p>")
        parts.append(_table(["student", "name", "score", "notes"],
                            [[_esc(r.student), _esc(r.name), points(r.total),
                              "<br>".join(_esc(x) for x in
                                          shown_reasons(r.reasons, r.student, assignment))]
                             for r in noted],
                            numeric={2}, attrs=[f"data-noted='{_esc(r.student)}'" for r in noted]))
    parts.append("<h2 id='late'>Late submissions</h2>")
    if late:
        parts.append(_table(["student", "name", "submitted", "late by", "penalty"],
                            [[_esc(r.student), _esc(r.name), _esc(time_text(r.timestamp, " ")),
                              _esc(late_text(r.seconds_late, lms=r.lms_late)),
                              points(r.late_penalty)]
                             for r in late], numeric={3, 4},
                            attrs=[f"data-late='{_esc(r.student)}'" for r in late]))
    else:
        parts.append("<p>None.</p>")

    missing = nothing_handed_in(layout, assignment)
    if missing:
        parts.append(_nothing_section(missing))
    similar = layout.similarity_page(assignment)
    command = f"<code>plaisante similarity {_esc(assignment)}</code>"
    parts.append("<h2 id='similarity'>Similar submissions</h2><p>" + (
        f"<a href='{_esc(os.path.relpath(similar, here))}'>Pairs of students whose code is "
        f"alike</a>, side by side (written by {command}: run it again after new submissions)"
        if similar.is_file() else f"Not compared yet: {command} writes the page") + ".</p>")
    step_names = [s.step for s in steps]
    body, attrs = [], []
    for r in rows:
        feedback = layout.feedback(r.student, assignment)
        link = (f"<a href='{_esc(os.path.relpath(feedback, here))}'>feedback</a>"
                if feedback.is_file() else "<span class='plaisante-note'>none yet</span>")
        status = ("<span class='plaisante-tag'>noted</span>" if r.noted
                  else "<span class='plaisante-tag plaisante-flag'>flagged</span>" if r.flagged
                  else "graded")
        who = _esc(r.student) + (f"<br><span class='plaisante-note'>{_esc(r.name)}</span>"
                                 if r.name else "")
        body.append([who,
                     *(points(r.steps.get(s, 0.0)) for s in step_names),
                     _esc(late_text(r.seconds_late, r.late_penalty, r.lms_late)),
                     f"<b>{points(r.total)}</b>", status, link])
        attrs.append(f"data-student='{_esc(r.student)}' data-total='{r.total:.6f}'"
                     f" data-flagged-row='{'yes' if r.flagged else 'no'}'"
                     f" data-counted='{'no' if r.ungraded else 'yes'}'")
    parts.append("<h2 id='students'>Students</h2>")
    parts.append(_table(["student", *(s.removeprefix("step") for s in step_names),
                         "late", "total", "status", "feedback"], body,
                        numeric=set(range(1, 1 + len(step_names) + 2)), attrs=attrs,
                        caption="Step columns: " + ", ".join(
                            f"{s.step.removeprefix('step')} {s.title}" for s in steps)))
    return ("<div class='plaisante-page plaisante-report'>" + "\n".join(parts) + "</div>")


def write(root: Path, assignment: str) -> Path:
    """Write the report of ``assignment`` (page and figures) into
    ``assignments/reports/<assignment>/``; return the page's path. Raises ValueError when
    nothing of that assignment is in the gradebook yet."""
    from nbgrader.api import MissingEntry

    root = Path(root).resolve()
    layout = CourseLayout(root)
    folder = layout.report(assignment, "index").parent
    try:
        rows = class_rows(root, assignment)
    except MissingEntry:
        raise ValueError(f"assignment {assignment!r} is not in the gradebook: run `plaisante "
                         "release` first") from None
    if not rows:
        raise ValueError(f"nothing of {assignment!r} is graded yet: run `plaisante grade "
                         f"{assignment}` first")
    folder.mkdir(parents=True, exist_ok=True)
    steps = step_summaries(rows, step_titles(assignment))
    failing = cell_summaries(rows, test_cells(root, assignment))
    figures = _figures(folder, rows, steps, failing)
    body = page(root, assignment, [p.name for p in figures], folder)
    target = folder / "index.html"
    target.write_text("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                      "<meta name='viewport' content='width=device-width, initial-scale=1'>"
                      f"<title>{_esc(assignment)}: class report</title>{STYLE}</head>"
                      f"<body>{body}</body></html>\n", encoding="utf-8")
    return target


def show(assignment: str, root: Path | None = None) -> Any:
    """Write the report of ``assignment`` (``write``) and return it for a notebook to display:
    the same page, figures inlined, feedback links relative to the notebook's folder."""
    from IPython.display import HTML

    layout = CourseLayout.of(root)
    target = write(layout.root, assignment)
    inline = [f"data:image/png;base64,{base64.b64encode((target.parent / n).read_bytes()).decode()}"
              for n in FIGURES]
    return HTML(STYLE + page(layout.root, assignment, inline, Path.cwd()))
