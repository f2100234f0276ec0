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
import os
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import page_templates
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
HIDDEN_MEANS = ("in hidden tests: the students it counts passed the cell's visible checks "
                "and failed its hidden tests, whose code students are not shown (their "
                "feedback says only that a hidden test failed, and the rule it checks)")
MANUAL_MEANS = ("manual grade: the students it counts were given fewer points by hand in the "
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
    its hidden tests (``in_hidden``, from the grader's reports: ``Row.failed_in``; never a
    cell grading the student's own tests, ``*_my_tests``)."""

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
        # a student's own tests are graded in the hidden region, but they are no hidden test
        # of the student's parts: tagged by nothing, as a cell whose visible checks failed
        own_tests = cell.grade_id.endswith("_my_tests")
        out.append(CellSummary(cell, len(lost), len(kept), sum(
            row.failed_in.get(cell.grade_id) == "hidden" for row in lost
            if row not in by_hand and not own_tests), len(by_hand)))
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


def cell_tags(summary: CellSummary) -> list[tuple[str, str]]:
    """Return a failing cell's tags (``tag_words``), each with what it means (the page's
    tooltip: ``HIDDEN_MEANS`` or ``MANUAL_MEANS``); [] when none."""
    return [(word, HIDDEN_MEANS if word.endswith("hidden tests") else MANUAL_MEANS)
            for word in tag_words(summary)]


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


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def page(root: Path, assignment: str, figures: list[str], here: Path) -> str:
    """Return the report's HTML (a ``<div>`` to put in a page); ``figures`` are the images'
    ``src`` (FIGURES' order) and ``here`` the folder the page is read from (links to
    feedback are relative to it)."""
    return page_templates.render("class_report.html.j2",
                                 **report_context(root, assignment, figures, here))


def report_context(root: Path, assignment: str, figures: list[str], here: Path
                   ) -> dict[str, Any]:
    """Return what the report's template (``templates/pages/class_report.html.j2``) shows:
    plain data from the gradebook (``scores.class_rows``) and the course's folders, and the
    functions that write its numbers."""
    layout = CourseLayout(Path(root))
    rows = class_rows(root, assignment)
    steps = step_summaries(rows, step_titles(assignment))
    failing = cell_summaries(rows, test_cells(root, assignment))
    similar = layout.similarity_page(assignment)
    students = []
    for row in rows:
        feedback = layout.feedback(row.student, assignment)
        students.append((row, os.path.relpath(feedback, here) if feedback.is_file() else "",
                         feedback_older_than_grade(layout, assignment, row.student)))
    missing = nothing_handed_in(layout, assignment)
    return {
        "assignment": assignment, "title": _title(assignment), "figures": figures,
        "chips": _chips(rows), "said": _figure_texts(rows, steps, failing), "steps": steps,
        "failing": failing[:TOP_FAILING], "tags": cell_tags,
        "tag_notes": [tuple(means.split(": ", 1)) for count, means in (
            ("in_hidden", HIDDEN_MEANS), ("manual", MANUAL_MEANS))
            if any(getattr(c, count) for c in failing[:TOP_FAILING])],
        "flagged": [(r, shown_reasons(r.reasons, r.student, assignment) or [r.reason])
                    for r in rows if r.ungraded],
        "noted": [(r, shown_reasons(r.reasons, r.student, assignment))
                  for r in rows if r.noted],
        "late": [r for r in rows if r.late or r.late_penalty],
        "missing": [(s, why[:MOST_REASON_CHARS]) for s, why in sorted(missing.items())],
        "similarity": os.path.relpath(similar, here) if similar.is_file() else "",
        "students": students, "step_ids": [s.step for s in steps],
        "students_head": ["student", *(s.step.removeprefix("step") for s in steps), "late",
                          "total", "status", "feedback"],
        "step_caption": "Step columns: " + ", ".join(
            f"{s.step.removeprefix('step')} {s.title}" for s in steps),
        "points": points, "percent": _percent, "late_text": late_text, "time_text": time_text}


def feedback_older_than_grade(layout: CourseLayout, assignment: str, student: str) -> bool:
    """Return True when ``student``'s feedback page of ``assignment`` was made before their
    last grading (``plaisante grade`` rewrites their grading report,
    ``assignments/reports/ID/STUDENT.json``): the page then shows an earlier score. False when
    either file is missing."""
    feedback, graded = layout.feedback(student, assignment), layout.report(assignment, student)
    try:
        return feedback.stat().st_mtime < graded.stat().st_mtime
    except OSError:
        return False


def stale_feedback(root: Path, assignment: str) -> list[str]:
    """Return the students of ``assignment`` whose feedback page is older than their grade
    (``feedback_older_than_grade``), sorted."""
    layout = CourseLayout(Path(root))
    return sorted(student for student in layout.submitted_students(assignment)
                  if feedback_older_than_grade(layout, assignment, student))


def _title(assignment: str) -> str:
    """The assignment's title and id, as the course's description names it; else its id."""
    try:
        from ..games import COURSE, load

        if assignment in COURSE:
            return f"{load(assignment).title} ({assignment})"
    except Exception:  # noqa: BLE001  a description that does not load still has an id
        pass
    return assignment


def _chips(rows: list[Row]) -> list[tuple[str, str, str]]:
    """The summary's chips: (label, value, key), "noted" only when some work is."""
    kept = counted(rows)
    totals = [row.total for row in kept]
    top = max((row.max_total for row in rows), default=0.0)
    noted = sum(row.noted for row in rows)
    chips = [("submissions", str(len(rows))), ("graded", str(len(kept))),
             ("average", f"{points(statistics.fmean(totals))} / {points(top)}"
              if totals else "-"),
             ("median", points(statistics.median(totals)) if totals else "-"),
             ("flagged", str(sum(row.ungraded for row in rows)))]
    chips += [("noted", str(noted))] if noted else []
    chips.append(("late", str(sum(bool(row.late or row.late_penalty) for row in rows))))
    return [(label, value, label) for label, value in chips]


def _figure_texts(rows: list[Row], steps: list[StepSummary], failing: list[CellSummary]
                  ) -> dict[str, str]:
    """Each figure's alt text, saying its numbers (a screen reader hears what the eye reads):
    ``totals``, ``steps`` and ``failing``."""
    totals = [row.total for row in counted(rows)]
    top = max((row.max_total for row in rows), default=0.0)
    spread = (f": lowest {points(min(totals))}, median {points(statistics.median(totals))}, "
              f"mean {points(statistics.fmean(totals))}, highest {points(max(totals))} of "
              f"{points(top)}" if totals else "")
    said_steps = "; ".join(f"step {s.step.removeprefix('step')} mean {points(s.mean)} of "
                           f"{points(s.maximum)}, pass rate {_percent(s.pass_rate)}"
                           for s in steps)
    said_cells = "; ".join(f"{c.cell.grade_id} lost by {c.failed} of {c.of}"
                           + "".join(f" ({words})" for words in tag_words(c))
                           for c in failing[:TOP_FAILING])
    return {"totals": f"histogram of the totals of the {len(totals)} graded submissions"
                      f"{spread}",
            "steps": f"each step: {said_steps}",
            "failing": f"the test cells most students lost points in: {said_cells}"}


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
    target = folder / "index.html"
    target.write_text(page_templates.render("class_report_document.html.j2", **report_context(
        root, assignment, [p.name for p in figures], folder)), encoding="utf-8")
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
