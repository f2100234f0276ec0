"""The similarity report's page and terminal table (``plaisante similarity ID``).

The page, ``assignments/reports/<ID>/similarity.html`` beside the class report, ranks the
pairs at or above the threshold; each pair then shows, step by step, the two submissions' code
side by side, the matching regions highlighted and the starter's own lines dimmed. Everything a
student wrote reaches it through ``plaisante.inert.as_code`` (escaped, control and
text-direction characters shown as U+FFFD) and the page carries a Content Security Policy
allowing no script, request or frame at all: it needs none.
"""

from __future__ import annotations

import html
from pathlib import Path

from rich import box
from rich.table import Table

from ..course import CourseLayout
from ..inert import as_code
from ..results.scores import step_titles
from ..results.tables import cell, render
from ..student_side.style import STYLE
from .compare import REFERENCE, Pair, Result, StepCode, Work, reference_note

#: nothing of the page runs or loads: its style is inline, it has no script and no image
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; "
          "base-uri 'none'; frame-ancestors 'none'")

#: at most this many pairs are shown side by side (the ranking lists every one)
SHOWN = 200

#: the students whose answers were cut to the budget (``similarity.MOST_STEP_CHARS``)
CUT = """<h2 id='cut'>Compared in part</h2><ul>
{%- for work in works %}<li data-cut='{{ work.student }}'><b>{{ work.student }}</b>: \
{{ work.cut }}</li>{% endfor %}</ul>"""


def _cut_section(works: list[Work]) -> str:
    """The page's list of ``works`` compared in part, rendered with autoescape."""
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(CUT).render(works=works)

CSS = """
.plaisante-similarity { max-width: 1400px; }
.plaisante-similarity .sim-pair { margin: 26px 0 10px; }
.plaisante-similarity .sim-sides { display: grid; grid-template-columns: minmax(0, 1fr)
  minmax(0, 1fr); gap: 10px; margin: 4px 0 14px; }
.plaisante-similarity .sim-side h4 { margin: 0 0 2px; font-size: 15px; }
.plaisante-similarity pre { margin: 0; padding: 6px 8px; background: #f8f4ea;
  border: 1px solid #e2dac6; border-radius: 6px; font-size: 13px; line-height: 1.4;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 560px; overflow-y: auto; }
.plaisante-similarity mark { background: #ffd966; color: inherit; border-radius: 2px; }
.plaisante-similarity .sim-provided { color: #6b6453; }
.plaisante-similarity .sim-nowrap { white-space: nowrap; }
.plaisante-similarity h3 { font-size: 17px; margin: 12px 0 4px; }
@media (max-width: 900px) { .plaisante-similarity .sim-sides { grid-template-columns:
  minmax(0, 1fr); } }
"""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


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


def highlighted(code: StepCode, regions: tuple[tuple[int, int], ...]) -> str:
    """Return ``code.text`` as inert HTML: ``regions`` in ``<mark>``, the starter's lines in a
    dimmed ``<span>``, everything else escaped (``as_code``)."""
    text = code.text
    cuts = {0, len(text)}
    for start, end in (*regions, *code.provided):
        cuts.update((max(0, min(start, len(text))), max(0, min(end, len(text)))))
    points = sorted(cuts)
    out = []
    for start, end in zip(points, points[1:]):
        piece = as_code(text[start:end])
        if any(s <= start and end <= e for s, e in code.provided):
            piece = f"<span class='sim-provided'>{piece}</span>"
        elif any(s <= start and end <= e for s, e in regions):
            piece = f"<mark>{piece}</mark>"
        out.append(piece)
    return "".join(out)


def page(result: Result, title: str) -> str:
    """Return the page's HTML (a whole document) for ``result``; ``title`` names the
    assignment."""
    titles = step_titles(result.assignment)
    chips = [("compared", str(len(result.compared))), ("pairs", str(result.pair_count)),
             ("at or above the threshold", str(len(result.pairs))),
             ("threshold", percent(result.threshold)),
             ("minimum match", f"{result.min_match} characters"),
             ("skipped", str(len(result.skipped)))]
    parts = [f"<h1>{_esc(title)}: similar submissions</h1>",
             "<p class='plaisante-summary'>" + "".join(
                 f"<span class='plaisante-chip'>{_esc(k)} <b>{_esc(v)}</b></span>"
                 for k, v in chips) + "</p>",
             "<p class='plaisante-note'>Only the code of the answer cells is compared, without "
             "the starter's own lines (shown dimmed) or code. Names become one token, comments "
             "and spaces are dropped, so renamed variables, changed comments and reordered "
             "functions do not hide a copy. A side's share is how much of its code matches "
             "passages of at least the minimum match in the other's; a pair's score is the "
             "larger side's. A high score is a reason to look, not proof: short steps with one "
             "natural answer match by themselves.</p>"]
    through = reference_note(result)
    if through:
        parts.append(f"<p class='plaisante-note plaisante-through-reference'>{_esc(through)}"
                     "</p>")
    if result.skipped:
        parts.append("<h2 id='skipped'>Not compared</h2><ul>" + "".join(
            f"<li data-skipped='{_esc(s.student)}'><b>{_esc(s.student)}</b>: "
            f"{_esc(s.reason)}</li>" for s in result.skipped) + "</ul>")
    cut = [work for work in result.compared if work.cut]
    if cut:
        parts.append(_cut_section(cut))
    parts.append("<h2 id='ranking'>Pairs, most alike first</h2>")
    if result.pairs:
        flagged = any(w.status == "flagged" for p in result.pairs for w in (p.a, p.b))
        rows = []
        for n, pair in enumerate(result.pairs, 1):
            steps = ", ".join(m.step.removeprefix("step") for m in pair.steps)
            rows.append(
                f"<tr data-pair='{_esc(pair.a.student)} {_esc(pair.b.student)}' "
                f"data-score='{pair.likeness:.4f}'><td class='num'>{n}</td>"
                + (f"<td><a href='#pair-{n}'>{_person(pair.a)}</a></td>" if n <= SHOWN
                   else f"<td>{_person(pair.a)}</td>") +
                f"<td>{_person(pair.b)}</td><td class='num'><b>{percent(pair.likeness)}</b></td>"
                f"<td class='num sim-nowrap'>{percent(pair.similarity_a)} / "
                f"{percent(pair.similarity_b)}</td><td>{_esc(steps)}</td>"
                + (_status_cells(pair) if flagged else "") + "</tr>")
        parts.append("<div class='plaisante-scroll'><table class='plaisante-grid'><thead><tr>"
                     "<th class='num'>#</th><th>first</th><th>second</th>"
                     "<th class='num'>score</th><th class='num'>shares</th>"
                     "<th>steps alike</th>" + ("<th>graded</th>" if flagged else "")
                     + "</tr></thead><tbody>" + "".join(rows) + "</tbody>"
                     "<caption>shares: how much of the first's code, then of the second's, "
                     "matches the other's</caption></table></div>")
        if len(result.pairs) > SHOWN:
            parts.append(f"<p class='plaisante-note'>The first {SHOWN} of the "
                         f"{len(result.pairs)} pairs are shown side by side below; a higher "
                         "<code>--threshold</code> lists fewer.</p>")
        for n, pair in enumerate(result.pairs[:SHOWN], 1):
            parts.append(_pair(n, pair, titles))
    else:
        parts.append(f"<p>No pair of submissions is {percent(result.threshold)} alike or "
                     "more.</p>")
    body = "<div class='plaisante-page plaisante-report plaisante-similarity'>" + "\n".join(
        parts) + "</div>"
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta http-equiv='Content-Security-Policy' content=\"{POLICY}\">"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_esc(result.assignment)}: similar submissions</title>{STYLE}"
            f"<style>{CSS}</style></head><body>{body}</body></html>\n")


def _person(work: Work) -> str:
    """The id (never wrapped) and, under it, the roster's name, as inert HTML."""
    if work.student == REFERENCE:
        return "<span class='sim-nowrap'>reference solution</span>"
    name = f"<br><span class='plaisante-note'>{_esc(work.name)}</span>" if work.name else ""
    return f"<span class='sim-nowrap'>{_esc(work.student)}</span>{name}"


def _status_cells(pair: Pair) -> str:
    flagged = [w.student for w in (pair.a, pair.b) if w.status == "flagged"]
    text = ("flagged: " + ", ".join(flagged)) if flagged else ""
    return f"<td>{_esc(text)}</td>"


def _pair(n: int, pair: Pair, titles: dict[str, str]) -> str:
    parts = [f"<section class='sim-pair' id='pair-{n}' data-pair='{_esc(pair.a.student)} "
             f"{_esc(pair.b.student)}'>",
             f"<h2>{n}. {_esc(who(pair.a))} and {_esc(who(pair.b))}: "
             f"{percent(pair.likeness)}</h2>",
             f"<p class='plaisante-note'>{_esc(pair.a.student)}: {percent(pair.similarity_a)} "
             f"of their code matches; {_esc(pair.b.student)}: {percent(pair.similarity_b)}. "
             "<a href='#ranking'>back to the ranking</a></p>"]
    for match in pair.steps:
        parts.append(f"<h3>{_esc(step_label(match.step, titles))}</h3><div class='sim-sides'>")
        for work, share, regions in ((pair.a, match.similarity_a, match.regions_a),
                                     (pair.b, match.similarity_b, match.regions_b)):
            parts.append(f"<div class='sim-side'><h4>{_esc(work.student)}: {percent(share)} "
                         f"alike</h4><pre tabindex='0' data-student='{_esc(work.student)}' "
                         f"data-step='{_esc(match.step)}'>"
                         f"{highlighted(work.steps[match.step], regions)}</pre></div>")
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


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
        lines.append(through)
    lines.append(f"{len(result.compared)} submission(s) compared, {result.pair_count} pair(s): "
                 f"{len(result.pairs)} at or above {percent(result.threshold)} (minimum match "
                 f"{result.min_match} characters)")
    return "\n".join(lines)
