"""Which students' code is suspiciously alike: ``plaisante similarity ID`` (docs/similarity.md).

Only what students wrote is compared: the code of the answer cells (nbgrader's ``solution``
cells, told by their metadata and grade ids, restored by position as grading does when an
editor dropped them), and of those only the lines that are not, in order, the released
starter's own (``difflib`` against the same cell of ``starter/``: the provided signature,
docstring, ``# YOUR CODE HERE``). The tokens of provided lines are masked by spaces, so
positions in the masked text are positions in what the student wrote. The starter's code
cells (setup, tests) are given to the fingerprinter as boilerplate too: a passage of the
starter that a student copies into their own cells never counts.

Fingerprints are ``copydetect``'s (MIT; winnowing over Pygments tokens, as MOSS does):
names become ``V``/``F``/``O``, strings ``S``, comments and whitespace are dropped, so renamed
variables, changed comments and whitespace do not hide a copy, and fingerprints do not depend
on where a passage is, so reordered functions do not either. Each step (the answer cells whose
grade ids start ``stepN_``; the others under their own id) is compared with the same step of
the other submission. A side's similarity is the share of its fingerprinted code that matches
the other side's (copydetect's measure); a pair's score is the larger of its two sides, so a
copy padded with extra code is still found.
"""

from __future__ import annotations

import difflib
import io
import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..course import CourseLayout

#: a pair is listed when its score (the larger side's share of matching code) is at least this
DEFAULT_THRESHOLD = 0.5
#: the minimum match length: characters of normalised code (names as one letter, no spaces or
#: comments) a passage must share to count; copydetect's default noise threshold
DEFAULT_MIN_MATCH = 25
#: the most characters of one step's answer code compared per student (the longest step of
#: the course's references is 4.3 KB, a whole reference at most 9 KB): past it the rest of
#: that step is cut, at a line end, and a line names the student, so that one huge answer
#: costs the class's page seconds, not minutes (measured in docs/similarity.md)
MOST_STEP_CHARS = 16 * 1024
#: the id under which the reference solution takes part (``--include-reference``); not an id a
#: student can have (``course.STUDENT_ID`` allows no parentheses)
REFERENCE = "(reference)"


def _blanked(text: str) -> list[str]:
    """The characters of ``text`` as spaces, its newlines kept (positions stay)."""
    return [ch if ch == "\n" else " " for ch in text]


@dataclass(frozen=True)
class StepCode:
    """What one submission wrote for one step: ``text``, its answer cells as written (joined
    by a blank line); ``provided``, the (start, end) character ranges of ``text`` that are
    the starter's own lines; ``unread``, the ranges Python never reads as code (a cell's
    triple-quoted string left open, to the cell's end: ``unclosed_string``)."""

    text: str
    provided: tuple[tuple[int, int], ...] = ()
    unread: tuple[tuple[int, int], ...] = ()

    def masked(self) -> str:
        """``text`` with each Python token that lies wholly in provided lines written as
        spaces (newlines kept): the same length, so positions stay; a token only partly
        provided (a docstring the student edited one line of) stays, so what follows it
        still reads as it runs. The ``unread`` ranges are spaces too: an open string's tail
        is one string token a line, and two students' broken cells would read alike."""
        from pygments.lexers import PythonLexer
        from pygments.token import Whitespace

        provided = bytearray(len(self.text))
        for start, end in self.provided:
            provided[start:end] = b"\x01" * (end - start)
        chars = list(self.text)
        for start, end in self.unread:
            chars[start:end] = _blanked(self.text[start:end])
        read = "".join(chars)
        lexer = PythonLexer(stripnl=False, ensurenl=False)
        for index, kind, value in lexer.get_tokens_unprocessed(read):
            end = index + len(value)
            if kind in Whitespace or not value.strip():
                continue
            if all(provided[i] or self.text[i] == "\n" for i in range(index, end)):
                chars[index:end] = _blanked(value)
        return "".join(chars)


@dataclass(frozen=True)
class Work:
    """One submission's answers: ``student`` id (or ``REFERENCE``), the roster's ``name``,
    ``steps`` (step -> its code, in notebook order), ``status`` ("graded", "noted",
    "flagged" as the grader left it, or "" when not graded yet) and ``cut``."""

    student: str
    name: str
    steps: dict[str, StepCode]
    status: str = ""
    #: what of their answers was cut to ``MOST_STEP_CHARS`` (one line), "" when nothing
    cut: str = ""


@dataclass(frozen=True)
class Skipped:
    """A submission not compared: ``student`` and ``reason`` (one line)."""

    student: str
    reason: str


@dataclass(frozen=True)
class StepMatch:
    """One step of a pair: each side's share of matching code (0..1) and the matching
    regions, (start, end) character ranges of that side's ``StepCode.text``."""

    step: str
    similarity_a: float
    similarity_b: float
    regions_a: tuple[tuple[int, int], ...]
    regions_b: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Pair:
    """Two submissions compared: ``score`` = max(``similarity_a``, ``similarity_b``), each
    side's share (0..1) of its fingerprinted code, all steps together, that matches the other;
    ``steps`` holds the steps with any match."""

    a: Work
    b: Work
    similarity_a: float
    similarity_b: float
    steps: tuple[StepMatch, ...]

    @property
    def likeness(self) -> float:
        """The larger of the two sides' shares of matching code (0 to 1)."""
        return max(self.similarity_a, self.similarity_b)


@dataclass
class Result:
    """The comparison of one assignment: ``pairs`` at or above ``threshold``, best first,
    ``compared`` the submissions compared, ``skipped`` those that could not be read."""

    assignment: str
    threshold: float
    min_match: int
    pairs: list[Pair]
    compared: list[Work]
    skipped: list[Skipped] = field(default_factory=list)
    pair_count: int = 0
    #: the students of the listed pairs whose code is itself at least ``threshold`` alike to
    #: the reference solution (filled by ``similarity`` when the reference is not compared)
    like_reference: set[str] = field(default_factory=set)

    def through_reference(self) -> list[Pair]:
        """Return the listed pairs whose two sides are each alike to the reference solution
        (``like_reference``): alike through it, as the kit's samples all are."""
        return [pair for pair in self.pairs
                if {pair.a.student, pair.b.student} <= self.like_reference]


def check_options(threshold: float, min_match: int) -> None:
    """Raise ValueError in one line unless 0 < ``threshold`` <= 1 and 5 <= ``min_match`` <= 500."""
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold {threshold:g}: give a share of the code between 0 and 1 "
                         f"(exclusive of 0), e.g. {DEFAULT_THRESHOLD}")
    if not 5 <= min_match <= 500:
        raise ValueError(f"min-match {min_match}: give a number of characters of normalised "
                         f"code from 5 to 500 (default {DEFAULT_MIN_MATCH})")


# ------------------------------------------------------------------------------ answer code

def _source(cell: Any) -> str:
    source = cell.get("source", "")
    text = "".join(map(str, source)) if isinstance(source, list) else str(source)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _meta(cell: Any) -> dict:
    meta = cell.get("metadata", {})
    found = meta.get("nbgrader") if isinstance(meta, dict) else None
    return found if isinstance(found, dict) else {}


def answer_code(notebook: Any, release: Any,
                cut: dict[str, int] | None = None) -> dict[str, StepCode]:
    """Return {step: StepCode} of the code answer cells of ``notebook`` (an nbformat notebook
    whose cells carry the release's nbgrader metadata, as ``sanitize`` leaves them), in
    notebook order; ``release`` is the released notebook: the lines of each answer cell that
    are, in order, lines of the same released cell are marked provided. Steps with no code
    written are left out. A step's code is kept up to ``MOST_STEP_CHARS`` characters (cut at
    the last line end within it, before anything else reads it); each step cut is put in
    ``cut`` (step -> the characters it held)."""
    from ..results import scores  # its import reads nbgrader's gradebook API: only when comparing

    released = {m["grade_id"]: _source(c) for c in release.cells
                if (m := _meta(c)).get("grade_id") and m.get("solution")}
    parts: dict[str, list[tuple[str, list[tuple[int, int]]]]] = {}
    for cell in notebook.cells:
        meta = _meta(cell)
        gid = str(meta.get("grade_id"))
        if cell.get("cell_type") != "code" or not meta.get("solution") or gid not in released:
            continue
        text = _source(cell).strip("\n")  # the tokenizer drops them: positions would shift
        step = scores.step_of(gid)
        cells = parts.setdefault(step, [])
        room = MOST_STEP_CHARS - sum(len(t) + 2 for t, _ in cells)
        if len(text) > room:
            if cut is not None:
                cut[step] = cut.get(step, sum(len(t) + 2 for t, _ in cells)) + len(text)
            text = text[:max(text.rfind("\n", 0, max(room, 0)), 0)].rstrip("\n")
            if not text:
                continue
        cells.append((text, _provided(text, released[gid])))
    out = {}
    for step, cells in parts.items():
        text, ranges, unread = "", [], []
        for source, provided in cells:
            if text:
                text += "\n\n"
            ranges += [(start + len(text), end + len(text)) for start, end in provided]
            if (opened := unclosed_string(source)) is not None:
                unread.append((opened + len(text), len(source) + len(text)))
            text += source
        code = StepCode(text, tuple(ranges), tuple(unread))
        if code.masked().strip():
            out[step] = code
    return out


def unclosed_string(source: str) -> int | None:
    """Return the index in ``source`` (one cell's code) where a string opens that is never
    closed (Python's tokenizer: "EOF in multi-line string"), or None. Python reads none of
    what follows it as code. The cell is read as its kernel runs it, IPython's magics and
    shell escapes made Python first: ``!echo '''`` opens no string, and the code below it
    runs; a string opening on a line IPython rewrites is never taken for one (None)."""
    import tokenize

    ran = _as_ipython_runs(source)
    try:
        for _ in tokenize.generate_tokens(io.StringIO(ran).readline):
            pass
    except tokenize.TokenError as error:
        if "string" not in str(error.args[0]) or len(error.args) < 2:
            return None
        line, column = error.args[1]
        lines, ran_lines = source.split("\n"), ran.split("\n")
        if not 1 <= line <= min(len(lines), len(ran_lines)) or \
                lines[line - 1] != ran_lines[line - 1]:
            return None  # a line IPython rewrote: positions in it are not the student's
        return sum(len(text) + 1 for text in lines[:line - 1]) + column
    except (SyntaxError, ValueError):  # an indentation the tokenizer cannot follow
        return None
    return None


def _as_ipython_runs(source: str) -> str:
    """Return ``source`` (one cell) as IPython's kernel compiles it (magics, shell escapes
    and ``?`` help made calls, each on its line), or ``source`` itself without IPython."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        return source
    try:
        return str(TransformerManager().transform_cell(source))
    except Exception:  # noqa: BLE001 - IPython's transforms on any text; read it as written
        return source


def _provided(text: str, released: str) -> list[tuple[int, int]]:
    """The (start, end) ranges of the lines of ``text`` that match, in order, lines of
    ``released`` (compared without surrounding whitespace; blank lines never count)."""
    lines = text.split("\n")
    starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    matcher = difflib.SequenceMatcher(None, [line.strip() for line in released.split("\n")],
                                      [line.strip() for line in lines], autojunk=False)
    ranges = []
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ranges += [(starts[j], starts[j] + len(lines[j])) for j in range(j1, j2)
                       if lines[j].strip()]
    return ranges


# ------------------------------------------------------------------------------- the class

def read_class(root: Path, assignment: str, include_reference: bool = False
               ) -> tuple[list[Work], list[Skipped], Any]:
    """Return the submissions of ``assignment`` under ``assignments/submitted/`` (``Work`` in
    student order, the reference solution first with ``include_reference``), those that could
    not be read (``Skipped``: no notebook, not a notebook, not this assignment's) and the
    released notebook. Names are the gradebook's (the roster's). Raises FileNotFoundError
    when the assignment has no release in ``starter/``."""
    import nbformat

    from ..grading.handed_in import chosen_notebook
    from ..grading.notebook_check import Unreadable, read_submission, sanitize

    layout = CourseLayout(Path(root))
    if not layout.release(assignment).is_file():
        raise FileNotFoundError(f"no release of {assignment!r} at {layout.release(assignment)}: "
                                f"run `plaisante release {assignment}` first")
    release = nbformat.read(layout.release(assignment), as_version=4)
    names = roster_names(layout)
    works, skipped = [], []
    if include_reference:
        source = nbformat.read(layout.source(assignment), as_version=4)
        works.append(Work(REFERENCE, "reference solution", answer_code(source, release),
                          "reference"))
    for student in layout.submitted_students(assignment):
        folder = layout.submitted(student, assignment).parent
        try:
            path = chosen_notebook(folder, assignment, release.cells).path
            notebook = sanitize(read_submission(path), release, assignment).notebook
        except Unreadable as error:
            skipped.append(Skipped(student, str(error)))
            continue
        held: dict[str, int] = {}
        steps = answer_code(notebook, release, held)
        if not steps:
            skipped.append(Skipped(student, "no code of their own in the answer cells"))
            continue
        works.append(Work(student, names.get(student, ""), steps,
                          _status(layout, assignment, student), _cut_line(held)))
    return works, skipped, release


def _cut_line(held: dict[str, int]) -> str:
    """What ``answer_code`` cut ({step: characters it held}), in one line; "" for nothing."""
    if not held:
        return ""
    steps = ", ".join(f"{step} ({chars / 1024:,.0f} KiB)" for step, chars in held.items())
    return (f"answers over {MOST_STEP_CHARS // 1024} KiB in {steps}: only the first "
            f"{MOST_STEP_CHARS // 1024} KiB of each was compared; read the rest by hand")


def roster_names(layout: CourseLayout) -> dict[str, str]:
    """Return {student id: "First Last"} from the gradebook's student table (the roster's
    names); {} when there is no gradebook yet."""
    if layout.gradebook_missing():
        return {}
    with layout.open_gradebook() as gradebook:
        return {s.id: " ".join(n for n in (s.first_name, s.last_name) if n)
                for s in gradebook.students}


def _status(layout: CourseLayout, assignment: str, student: str) -> str:
    """"graded", "noted" or "flagged" as ``plaisante grade``'s report says; "" if none."""
    try:
        report = json.loads(layout.report(assignment, student).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not isinstance(report, dict) or report.get("status") not in ("graded", "flagged"):
        return ""
    reasons, notes = report.get("reasons") or [], report.get("notes") or []
    if report["status"] == "flagged" and isinstance(reasons, list) and isinstance(notes, list) \
            and reasons and all(r in notes for r in reasons):
        return "noted"
    return str(report["status"])


# --------------------------------------------------------------------------------- compare

class Fingerprints:
    """copydetect's fingerprints of every step of every ``Work``, the starter's code removed
    (``boilerplate``: the code cells of the release), and for each work all of its steps'
    fingerprints in one array, each hash salted with its step, for ``scores``."""

    def __init__(self, works: Iterable[Work], release: Any, min_match: int) -> None:
        import numpy as np
        from copydetect import CodeFingerprint

        def fingerprint(text: str, boilerplate: Any = None) -> Any:
            # win_size 1: every k-gram is kept, so any shared passage of min_match is found
            return CodeFingerprint("answer.py", min_match, 1, boilerplate=boilerplate,
                                   fp=io.StringIO(text), language="python")

        starter = "\n\n".join(_source(c) for c in release.cells if c.get("cell_type") == "code")
        self.k = min_match
        self.boilerplate = np.array(sorted(fingerprint(starter).hashes), dtype=np.int64)
        self.of: dict[tuple[str, str], Any] = {}
        self.flat: dict[str, tuple[Any, Any, Any, float]] = {}
        known: dict[str, Any] = {}  # the same code (a step left as most wrote it) once
        for work in works:
            hashes, positions, base, coverage = [], [], 0, 0.0
            for step, code in work.steps.items():
                masked = code.masked()
                if masked not in known:
                    known[masked] = fingerprint(masked, self.boilerplate)
                found = self.of[(work.student, step)] = known[masked]
                salt = hash(step)
                for value, where in found.hash_idx.items():
                    hashes += [int(value) ^ salt] * len(where)
                    positions += [int(i) + base for i in where]
                base += len(found.filtered_code) + 2 * min_match  # no run spans two steps
                coverage += float(found.token_coverage)
            order = np.argsort(np.array(positions, dtype=np.int64), kind="stable")
            flat = np.array(hashes, dtype=np.int64)[order]
            self.flat[work.student] = (flat, np.array(positions, dtype=np.int64)[order],
                                       np.unique(flat), coverage)

    def matrix(self, works: list[Work], rows: int = 256) -> Any:
        """Return the N x N array of similarities of ``works``: entry [i, j] is the share of
        ``works[i]``'s fingerprinted code (0..1) lying in passages ``works[j]`` shares with
        it, every step together (copydetect's measure: the union of the matching k-grams
        over the k-grams kept), as ``compare`` gives it; the diagonal is 0. Computed with an
        index of which works hold each fingerprint, over the positions some other work
        matches, ``rows`` works at a time, in numpy."""
        import numpy as np

        n, k = len(works), self.k
        out = np.zeros((n, n))
        if n < 2:
            return out
        held = [self.flat[w.student][2] for w in works]
        owners = np.concatenate([np.full(len(h), i, dtype=np.int64)
                                 for i, h in enumerate(held)])
        values = np.concatenate(held)
        order = np.argsort(values, kind="stable")
        values, owners = values[order], owners[order]
        keys, first, counts = np.unique(values, return_index=True, return_counts=True)
        for i, work in enumerate(works):
            hashes, positions, distinct, coverage = self.flat[work.student]
            if not len(hashes) or not coverage:
                continue
            at = np.searchsorted(keys, distinct)
            starts, lengths = first[at], counts[at]
            # for each of the work's distinct fingerprints, every work that holds it
            ends = np.cumsum(lengths)
            index = np.arange(ends[-1]) - np.repeat(ends - lengths, lengths) + \
                np.repeat(starts, lengths)
            holds = np.zeros((n, len(distinct)), dtype=bool)
            holds[owners[index], np.repeat(np.arange(len(distinct)), lengths)] = True
            holds[i] = False
            column = np.searchsorted(distinct, hashes)  # each position's fingerprint
            shared = np.take(holds.any(axis=0), column)  # positions another work matches
            column, where = column[shared], positions[shared]
            if not len(where):
                continue
            others = np.flatnonzero(holds.any(axis=1))
            for top in range(0, len(others), rows):
                chunk = others[top:top + rows]
                matched = holds[chunk][:, column]  # works x positions: matched there
                # a match at p covers [p, p + k): up to the next match, or k characters
                at = np.where(matched, where, np.iinfo(np.int64).max)
                following = np.minimum.accumulate(at[:, ::-1], axis=1)[:, ::-1]
                gap = np.empty_like(at)
                gap[:, :-1] = following[:, 1:] - where[:-1]
                gap[:, -1] = k
                covered = np.where(matched, np.minimum(gap, k), 0).sum(axis=1)
                out[i, chunk] = covered / coverage
        return out

    def compare(self, a: Work, b: Work) -> Pair:
        """Return the ``Pair`` of ``a`` and ``b``: each step both wrote, compared by
        copydetect, with the matching regions."""
        from copydetect import compare_files

        steps = []
        covered_a = covered_b = matched_a = matched_b = 0.0
        for step in a.steps.keys() | b.steps.keys():
            fa, fb = self.of.get((a.student, step)), self.of.get((b.student, step))
            cover_a = float(fa.token_coverage) if fa is not None else 0.0
            cover_b = float(fb.token_coverage) if fb is not None else 0.0
            covered_a, covered_b = covered_a + cover_a, covered_b + cover_b
            if fa is None or fb is None or not fa.hashes & fb.hashes:
                continue
            _, (sim_a, sim_b), (slices_a, slices_b) = compare_files(fa, fb)
            if not sim_a and not sim_b:
                continue
            matched_a, matched_b = matched_a + sim_a * cover_a, matched_b + sim_b * cover_b
            steps.append(StepMatch(step, float(sim_a), float(sim_b),
                                   _regions(slices_a, a.steps[step].text),
                                   _regions(slices_b, b.steps[step].text)))
        order = list(a.steps) + [s for s in b.steps if s not in a.steps]
        steps.sort(key=lambda m: order.index(m.step))
        return Pair(a, b, matched_a / covered_a if covered_a else 0.0,
                    matched_b / covered_b if covered_b else 0.0, tuple(steps))


def _regions(slices: Any, text: str) -> tuple[tuple[int, int], ...]:
    """copydetect's slices of ``text`` as (start, end) ranges, each trimmed of the spaces and
    whole comment lines at its ends (fingerprints never hold them; copydetect's mapping back
    to the text takes in what lies between two tokens)."""
    if len(slices) == 0 or len(slices[0]) == 0:
        return ()
    out = []
    for start, end in zip(map(int, slices[0]), map(int, slices[1])):
        while start < end:
            line_end = text.find("\n", start, end)
            line = text[start:line_end if line_end >= 0 else end]
            if line.strip() and not line.lstrip().startswith("#"):
                start += len(line) - len(line.lstrip())
                break
            start = line_end + 1 if line_end >= 0 else end
        while start < end:
            line_start = max(text.rfind("\n", start, end) + 1, start)
            line = text[line_start:end]
            if line.strip() and not line.lstrip().startswith("#"):
                end = line_start + len(line.rstrip())
                break
            end = max(line_start - 1, start)
        if start < end:
            out.append((start, end))
    return tuple(out)


def compare_class(works: list[Work], release: Any, assignment: str,
                  threshold: float = DEFAULT_THRESHOLD, min_match: int = DEFAULT_MIN_MATCH,
                  skipped: list[Skipped] | None = None) -> Result:
    """Compare every pair of ``works``; return the ``Result`` listing the pairs whose score is
    at least ``threshold`` (best first; ties by student ids). Raises ValueError for options
    ``check_options`` refuses."""
    check_options(threshold, min_match)
    prints = Fingerprints(works, release, min_match)
    shares = prints.matrix(works)
    pairs = []
    count = 0
    for i, j in itertools.combinations(range(len(works)), 2):
        count += 1
        if max(shares[i, j], shares[j, i]) >= threshold - 1e-9:
            pairs.append(prints.compare(works[i], works[j]))
    pairs.sort(key=lambda p: (-p.likeness, p.a.student, p.b.student))
    return Result(assignment, threshold, min_match, pairs, works, list(skipped or []), count)


def similarity(root: Path, assignment: str, *, threshold: float = DEFAULT_THRESHOLD,
               min_match: int = DEFAULT_MIN_MATCH, include_reference: bool = False) -> Result:
    """Read the class (``read_class``) and compare it (``compare_class``); note which of
    the listed pairs' students are alike to the reference solution (``alike_to_reference``)
    unless it takes part itself."""
    check_options(threshold, min_match)
    works, skipped, release = read_class(root, assignment, include_reference)
    result = compare_class(works, release, assignment, threshold, min_match, skipped)
    if result.pairs and not include_reference:
        result.like_reference = alike_to_reference(root, assignment, result, release)
    return result


def alike_to_reference(root: Path, assignment: str, result: Result, release: Any) -> set[str]:
    """Return the students of ``result``'s listed pairs whose code is at least its threshold
    alike to the reference solution (the source notebook in ``solutions/``), measured as a
    pair is."""
    import nbformat

    layout = CourseLayout(Path(root))
    source = nbformat.read(layout.source(assignment), as_version=4)
    reference = Work(REFERENCE, "reference solution", answer_code(source, release), "reference")
    paired = {w.student: w for p in result.pairs for w in (p.a, p.b)}
    works = [reference, *paired.values()]
    shares = Fingerprints(works, release, result.min_match).matrix(works)
    return {work.student for i, work in enumerate(works[1:], 1)
            if max(shares[i, 0], shares[0, i]) >= result.threshold - 1e-9}


def reference_note(result: Result) -> list[tuple[str, str]] | None:
    """Return what to say of the listed pairs that are alike through the reference solution
    (``Result.through_reference``), as pieces: ("typed", text) for what a reader types as
    written (an option, a folder of the course), ("text", text) between them; None when
    there are none."""
    through = result.through_reference()
    if not through:
        return None
    which = ("Every pair listed" if len(through) == len(result.pairs)
             else f"{len(through)} of the {len(result.pairs)} pairs listed")
    return [("text", f"{which}: both sides are each {round(result.threshold * 100)}% alike or "
                     "more to the reference solution ("),
            ("typed", "solutions/"),
            ("text", "), so they are alike through it. The kit's sample submissions ("),
            ("typed", "assignments/samples/"),
            ("text", ") are all made from it: on a class of samples every pair is listed. In "
                     "a class of students, look for a leaked solution ("),
            ("typed", "--include-reference"),
            ("text", " ranks it with them).")]
