"""The instructor's terminal tables, drawn with rich: ``plaisante scores`` (a class, step by
step, with its maximum and average) and ``plaisante grade``'s closing table.

Flagged work is marked in its row: "NOTED" for a sound grade with a note for the instructor
(counted in the average row), "FLAGGED" for work that could not all be graded (left out of
it); the line under the table says how many of each, and why that matters.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
import textwrap
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .lateness import late_text
from .scores import Row, average, counted

__all__ = ["cell", "late_text", "plain", "points", "render", "scores_table"]

# C0 and C1 control characters but the newline (an escape sequence such as OSC 8 would be
# sent to the terminal as is), and the bidirectional overrides that reorder what is shown.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def cell(value: Any) -> Text:
    """Return ``value`` as a table cell shown as it is written: never read as rich markup (a
    student's ``[/]`` or ``[bold red]``), its control characters removed (a tab as a space)."""
    return Text(plain(value))


def plain(value: Any) -> str:
    """Return ``value`` as text a terminal shows as it is written: its control characters
    (ANSI escape sequences, OSC 8 links) and text-direction overrides removed, a tab as a space.

    >>> plain("ada\x1b[2J\u202egnp.evil\tnote")
    'ada[2Jgnp.evil note'
    """
    return CONTROL.sub("", str(value).replace("\t", " "))


def render(table: Table, width: int | None = None) -> str:
    """Return ``table`` as plain text (no colour), ``width`` columns wide at most (default: the
    terminal's; when the output is not a terminal, as wide as the table needs, up to 200)."""
    if width is None:
        width = shutil.get_terminal_size((200, 24)).columns if sys.stdout.isatty() else 200
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, no_color=True, highlight=False, emoji=False,
                      soft_wrap=False)
    console.width = min(width, console.measure(table).maximum)
    console.print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines())


def points(value: float) -> str:
    """Return points as an instructor reads them: 15, 7.5, 81.6 (at most one decimal unless
    more are needed to tell them apart).

    >>> points(15.0), points(7.5), points(81.63)
    ('15', '7.5', '81.6')
    """
    return f"{round(value, 1):g}"


def scores_table(rows: list[Row], step_titles: dict[str, str], title: str,
                 width: int | None = None) -> str:
    """Return the class table of one assignment: a row per student (each step's points, the
    late penalty, the total, and "FLAGGED: reason" for flagged work), then the maximum and the
    average of the work that is not flagged, a line saying how many were left out, and the
    steps' titles. ``width``: at most this many columns (default: the terminal's). Numbers are
    never cut: when the reasons do not fit beside them, they are listed under the table."""
    text = _scores_grid(rows, title, 10_000, inline=True)
    footnotes: list[str] = []
    if max(map(len, text.splitlines()), default=0) > (width or _width()):
        text = _scores_grid(rows, title, width, inline=False)
        footnotes = [plain(f"  [{n}] {row.student}: {row.reason}")
                     for n, row in enumerate((r for r in rows if r.flagged), 1)]
    flagged = sum(row.ungraded for row in rows)
    noted = sum(row.noted for row in rows)
    parts = [f"{len(rows)} submission(s)"]
    if noted:
        parts.append(f"{noted} noted (graded soundly and counted in the average; the note is "
                     "for you to check)")
    parts.append(f"{flagged} flagged (could not be graded in full: left out of the average, "
                 "their scores are not a real measure of the work)" if flagged
                 else "none flagged")
    summary = ", ".join(parts)
    steps = _steps(rows)
    legend = " · ".join(f"{step.removeprefix('step')} {step_titles[step]}"
                        for step in steps if step_titles.get(step))
    lines = [*footnotes, summary] + ([plain(f"steps: {legend}")] if legend else [])
    wrap = width or _width()
    return "\n".join([text] + [textwrap.fill(line, wrap, subsequent_indent="      ",
                                             break_on_hyphens=False) for line in lines])


def _width() -> int:
    return shutil.get_terminal_size((200, 24)).columns if sys.stdout.isatty() else 200


def _steps(rows: list[Row]) -> list[str]:
    return list(dict.fromkeys(step for row in rows for step in row.steps))


def _scores_grid(rows: list[Row], title: str, width: int | None, inline: bool) -> str:
    """The table itself; flagged rows say "FLAGGED: reason" (``inline``) or "FLAGGED [n]",
    the reasons then listed under the table."""
    steps = _steps(rows)
    named = any(row.name for row in rows)
    table = Table(title=cell(title), title_justify="left",
                  box=box.SIMPLE, pad_edge=False, padding=(0, 2 if inline else 1, 0, 0),
                  show_edge=False, header_style="bold")
    table.add_column("student", no_wrap=True)
    if named:
        table.add_column("name", overflow="fold",
                         min_width=min(16, max(len(row.name) for row in rows)))
    for step in steps:  # the step's number; its title is in the line under the table
        table.add_column(cell(step.removeprefix("step")), justify="right", no_wrap=True)
    table.add_column("late", justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    table.add_column("flag", overflow="fold", min_width=0 if inline else 11)
    note = 0
    for row in rows:
        cells = [row.student] + ([row.name] if named else [])
        cells += [points(row.steps.get(step, 0.0)) for step in steps]
        flag = ""
        if row.flagged:
            note += 1
            word = "NOTED" if row.noted else "FLAGGED"
            flag = f"{word}: {row.reason}" if inline else f"{word} [{note}]"
        cells += [late_text(row.seconds_late, row.late_penalty, row.lms_late), points(row.total),
                  flag]
        table.add_row(*map(cell, cells))
    kept = counted(rows)
    maxima = {step: max((row.step_max.get(step, 0.0) for row in rows), default=0.0)
              for step in steps}
    top = max((row.max_total for row in rows), default=0.0)
    table.add_section()
    table.add_row("maximum", *([""] if named else []), *(points(maxima[s]) for s in steps),
                  "", points(top), "")
    means = {s: average([row.steps.get(s, 0.0) for row in kept]) for s in steps}
    total_mean = average([row.total for row in kept])
    table.add_row("average", *([""] if named else []),
                  *(points(m) if m is not None else "-" for m in means.values()), "",
                  points(total_mean) if total_mean is not None else "-",
                  f"of {len(kept)} counted" if len(kept) != len(rows) else "")
    return render(table, width)
