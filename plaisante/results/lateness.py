"""Lateness, one rule for every output (``grade``, ``scores``, ``report``, ``export``).

Work is late when it was submitted after the due date and any extension (nbgrader's
``total_seconds_late``, kept to the microsecond), or when the student's LMS marked it late
without giving its time (a Canvas download's ``_LATE_``: the kit keeps what the LMS said in
the submission folder's ``lms-late.txt``). ``late_text`` says it the same way everywhere;
``time_text`` writes a submission time with its zone and any fraction of a second.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

#: the marker ``plaisante submit`` writes beside a submission its LMS marked late
LMS_LATE = "lms-late.txt"


def lms_said(folder: Path) -> str:
    """Return what the LMS said of the submission in ``folder`` ("Canvas marked it LATE"), ""
    when it marked nothing. At most 80 characters; a symlinked marker is not read."""
    marker = folder / LMS_LATE
    if not marker.is_file() or marker.is_symlink():
        return ""
    return marker.read_text(encoding="utf-8", errors="replace")[:80].strip()


def is_late(seconds_late: float, lms: str = "") -> bool:
    """Return whether work ``seconds_late`` seconds past its due date (and extension), or
    marked late by its LMS (``lms``, what it said), is late.

    >>> is_late(0.0), is_late(0.015665), is_late(0.0, "Canvas marked it LATE")
    (False, True, True)
    """
    return seconds_late > 0 or bool(lms)


def late_text(seconds_late: float, penalty: float = 0.0, lms: str = "") -> str:
    """Return how late work is, as a table cell: "" when on time; else the time past the due
    date (and any extension), its two largest units cut down ("3h 2m late"; under a second
    "<1s late", never rounded up to a time it was not), or what the LMS said when it gave no
    time; with the penalty in front when the course's late method gave one.

    >>> late_text(0), late_text(3 * 3600 + 125), late_text(90000, 10), late_text(42)
    ('', '3h 2m late', '-10 (1d 1h late)', '42s late')
    >>> late_text(0.015665), late_text(12.9), late_text(0, lms="Canvas marked it LATE")
    ('<1s late', '12s late', 'late (Canvas marked it LATE, time not known)')
    """
    if seconds_late <= 0:
        late = f"late ({lms}, time not known)" if lms else ""
    else:
        left = int(seconds_late)
        parts = [(left // 86400, "d"), (left % 86400 // 3600, "h"), (left % 3600 // 60, "m"),
                 (left % 60, "s")]
        late = " ".join([f"{n}{unit}" for n, unit in parts if n][:2] or ["<1s"]) + " late"
    if not penalty:
        return late
    cut = f"-{round(penalty, 1):g}"
    return f"{cut} ({late})" if late else cut


def time_text(value: Any, sep: str = "T") -> str:
    """Return a gradebook time (naive UTC as nbgrader keeps it, a datetime or its text) as
    ISO 8601 with its zone, its fraction of a second kept when it has one; "" for none.
    ``sep`` between date and time (" " for a page people read).

    >>> time_text("2026-12-01 10:30:15.250000"), time_text("2026-12-01 10:30:15"), time_text(None)
    ('2026-12-01T10:30:15.250000+00:00', '2026-12-01T10:30:15+00:00', '')
    """
    from nbgrader.utils import parse_utc

    if value in (None, ""):
        return ""
    when = parse_utc(value) if isinstance(value, str) else value
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.astimezone(datetime.timezone.utc).isoformat(sep=sep)
