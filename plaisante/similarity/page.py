"""The similarity report's page and terminal table (``plaisante similarity ID``).

The page, ``assignments/reports/<ID>/similarity.html`` beside the class report, ranks the
pairs at or above the threshold; each pair then shows, step by step, the two submissions' code
side by side, the matching regions highlighted and the starter's own lines dimmed. Everything a
student wrote reaches it as text (``plaisante.page_templates``: escaped, control and text-direction
characters shown as U+FFFD) and the page carries a Content Security Policy
allowing no script, request or frame at all: it needs none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from .. import page_templates
from ..course import CourseLayout
from ..results.scores import step_titles
from ..results.tables import cell, render
from .compare import REFERENCE, Pair, Result, StepCode, Work, reference_note

#: at most this many pairs are shown side by side (the ranking lists every one)
SHOWN = 200


def percent(share: float) -> str:
    """A share (0..1) as a whole percentage: ``"87%"``."""
    return f"{100 * share:.0f}%"


def who(work: Work) -> str:
    """The id and the roster's name of a submission, as text: ``"alice (Alice Smith)"``."""
    if work.student == REFERENCE:
        return "the reference solution"
    return f"{work.student} ({work.name})" if work.name else work.student


def step_label(step: str, titles: dict[str, str]) -> str:
    """``"step 3 · the has-checks"`` for ``step3``; other ids as they are."""
    number = step.removeprefix("step")
    if number == step:
        return step
    return f"step {number} · {titles[step]}" if titles.get(step) else f"step {number}"


def pieces(code: StepCode, regions: tuple[tuple[int, int], ...]) -> list[tuple[str, str]]:
    """Return ``code.text`` cut at the edges of ``regions`` and of the starter's lines, each
    piece as (kind, text): kind "provided" (the starter's, shown dimmed), "match" (in one of
    ``regions``, highlighted) or "own"; the texts joined are ``code.text``."""
    text = code.text
    cuts = {0, len(text)}
    for start, end in (*regions, *code.provided):
        cuts.update((max(0, min(start, len(text))), max(0, min(end, len(text)))))
    points = sorted(cuts)
    out = []
    for start, end in zip(points, points[1:]):
        if any(s <= start and end <= e for s, e in code.provided):
            kind = "provided"
        elif any(s <= start and end <= e for s, e in regions):
            kind = "match"
        else:
            kind = "own"
        out.append((kind, text[start:end]))
    return out


def page(result: Result, title: str) -> str:
    """Return the page's HTML (a whole document) for ``result``; ``title`` names the
    assignment."""
    return page_templates.render("similarity.html.j2", **page_context(result, title))


def page_context(result: Result, title: str) -> dict[str, Any]:
    """Return what the page's template (``templates/pages/similarity.html.j2``) shows: the
    result's parts as they are, and the functions that name and cut them."""
    titles = step_titles(result.assignment)
    chips = [("compared", str(len(result.compared))), ("pairs", str(result.pair_count)),
             ("at or above the threshold", str(len(result.pairs))),
             ("threshold", percent(result.threshold)),
             ("minimum match", f"{result.min_match} characters"),
             ("skipped", str(len(result.skipped)))]
    return {
        "title": title, "assignment": result.assignment, "chips": chips,
        "through": reference_note(result),
        "skipped": result.skipped, "cut": [work for work in result.compared if work.cut],
        "pairs": result.pairs, "shown": SHOWN, "threshold": result.threshold,
        "any_flagged": any(w.status == "flagged" for p in result.pairs for w in (p.a, p.b)),
        "reference": REFERENCE, "percent": percent, "who": who, "pieces": pieces,
        "step_label": lambda step: step_label(step, titles),
        "steps_alike": lambda pair: ", ".join(m.step.removeprefix("step") for m in pair.steps),
        "flagged_in": _flagged_in}


def _flagged_in(pair: Pair) -> str:
    """"flagged: ID, ID" naming the pair's work the grader flagged; "" when none."""
    flagged = [w.student for w in (pair.a, pair.b) if w.status == "flagged"]
    return ("flagged: " + ", ".join(flagged)) if flagged else ""


def write(root: Path, result: Result, title: str) -> Path:
    """Write the page of ``result`` to ``assignments/reports/<ID>/similarity.html``; return
    its path."""
    target = CourseLayout(Path(root)).similarity_page(result.assignment)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(page(result, title), encoding="utf-8")
    return target


def table(result: Result, width: int | None = None) -> str:
    """Return the terminal table of ``result``: one row per pair at or above the threshold
    (rank, the two students and their roster names, "[flagged]" after work the grader
    flagged, score, each side's share, the steps alike), then a line per skipped submission
    and a summary line. ``width``: at most this many columns (default: the terminal's)."""
    grid = Table(title=cell(f"{result.assignment}: similar submissions"), title_justify="left",
                 box=box.SIMPLE, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False,
                 header_style="bold")
    for name, justify in (("#", "right"), ("first", "left"), ("second", "left"),
                          ("score", "right"), ("shares", "right"), ("steps alike", "left")):
        grid.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    def named(work: Work) -> str:
        return who(work) + (" [flagged]" if work.status == "flagged" else "")

    for n, pair in enumerate(result.pairs, 1):
        grid.add_row(*map(cell, (n, named(pair.a), named(pair.b), percent(pair.likeness),
                                 f"{percent(pair.similarity_a)} / "
                                 f"{percent(pair.similarity_b)}",
                                 " ".join(m.step.removeprefix("step") for m in pair.steps))))
    lines = [render(grid, width)] if result.pairs else []
    lines += [cell(f"skipped {s.student}: {s.reason}").plain for s in result.skipped]
    lines += [cell(f"compared in part {w.student}: {w.cut}").plain
              for w in result.compared if w.cut]
    through = reference_note(result)
    if through:
        lines.append("".join(text for _, text in through))
    lines.append(f"{len(result.compared)} submission(s) compared, {result.pair_count} pair(s): "
                 f"{len(result.pairs)} at or above {percent(result.threshold)} (minimum match "
                 f"{result.min_match} characters)")
    return "\n".join(lines)
