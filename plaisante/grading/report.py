"""The final table of a grading run: one line per submission, reasons in full."""

from __future__ import annotations

from collections.abc import Iterable

from .result import SubmissionResult


def table(results: Iterable[SubmissionResult]) -> str:
    """Return a plain-text table: student, status, total/max, seconds, then each reason (and a
    late penalty) on its own indented line under the student it concerns, and a summary line."""
    results = list(results)
    width = max([len("student")] + [len(r.student) for r in results])
    lines = [f"{'student':<{width}}  {'status':<7}  {'total':>13}  {'seconds':>7}  reasons"]
    for r in results:
        notes = list(r.reasons)
        if r.late_penalty:
            notes.append(f"late: {r.late_penalty:g} point(s) off (submitted {r.timestamp})")
        first = notes[0] if notes else ""
        lines.append(f"{r.student:<{width}}  {r.status:<7}  {r.total:>6g} / {r.max_total:<4g}"
                     f"  {r.seconds:>7.1f}  {first}")
        lines.extend(f"{'':<{width}}  {'':<7}  {'':>13}  {'':>7}  {note}" for note in notes[1:])
    flagged = sum(r.status == "flagged" for r in results)
    lines.append(f"{len(results)} submission(s): {len(results) - flagged} graded, "
                 f"{flagged} flagged")
    return "\n".join(lines)


def all_accounted_for(results: Iterable[SubmissionResult]) -> bool:
    """Return True when every submission ended graded, or flagged with a stated reason."""
    return all(r.status == "graded" or (r.status == "flagged" and r.reasons) for r in results)
