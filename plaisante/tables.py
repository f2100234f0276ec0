"""The instructor's terminal tables, drawn with rich: ``plaisante scores`` (a class, step by
step, with its maximum and average) and ``plaisante grade``'s closing table.

Flagged work is marked in its row and left out of the average row; the line under the table
says how many were left out and why that matters.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .scores import Row, average, counted

# C0 and C1 control characters but the newline (an escape sequence such as OSC 8 would be
# sent to the terminal as is), and the bidirectional overrides that reorder what is shown.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def cell(value: Any) -> Text:
    """Return ``value`` as a table cell shown as it is written: never read as rich markup (a
    student's ``[/]`` or ``[bold red]``), its control characters removed (a tab as a space)."""
    return Text(CONTROL.sub("", str(value).replace("\t", " ")))


def render(table: Table) -> str:
    """Return ``table`` as plain text (no colour), as wide as the terminal, or as wide as it
    needs when the output is not a terminal (so a pipe or a file gets whole lines)."""
    width = shutil.get_terminal_size((200, 24)).columns if sys.stdout.isatty() else 240
    buffer = io.StringIO()
    Console(file=buffer, width=width, no_color=True, highlight=False, emoji=False,
            soft_wrap=False).print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines())


def points(value: float) -> str:
    """Return points as an instructor reads them: 15, 7.5, 81.6 (at most one decimal unless
    more are needed to tell them apart).

    >>> points(15.0), points(7.5), points(81.63)
    ('15', '7.5', '81.6')
    """
    return f"{round(value, 1):g}"


def scores_table(rows: list[Row], step_titles: dict[str, str], title: str) -> str:
    """Return the class table of one assignment: a row per student (each step's points, the
    late penalty, the total, and "FLAGGED: reason" for flagged work), then the maximum and the
    average of the work that is not flagged, and a line saying how many were left out."""
    steps = list(dict.fromkeys(step for row in rows for step in row.steps))
    named = any(row.name for row in rows)
    table = Table(title=cell(title), title_justify="left", box=box.SIMPLE, pad_edge=False,
                  padding=(0, 2, 0, 0), show_edge=False, header_style="bold")
    table.add_column("student", no_wrap=True)
    if named:
        table.add_column("name", no_wrap=True)
    for step in steps:
        number = step.removeprefix("step")
        table.add_column(cell(f"{number} {step_titles.get(step, '')}".strip()),
                         justify="right")
    table.add_column("late", justify="right")
    table.add_column("total", justify="right")
    table.add_column("flag", overflow="fold")
    for row in rows:
        cells = [row.student] + ([row.name] if named else [])
        cells += [points(row.steps.get(step, 0.0)) for step in steps]
        cells += [f"-{points(row.late_penalty)}" if row.late_penalty else "",
                  points(row.total), f"FLAGGED: {row.reason}" if row.flagged else ""]
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
                  f"of {len(kept)} not flagged" if len(kept) != len(rows) else "")
    text = render(table)
    flagged = len(rows) - len(kept)
    summary = (f"{len(rows)} submission(s), {flagged} flagged (marked above, left out of the "
               "average: their scores are not a real measure of the work)" if flagged
               else f"{len(rows)} submission(s), none flagged")
    return f"{text}\n{summary}"
