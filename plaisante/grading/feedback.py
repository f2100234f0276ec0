"""Feedback that never shows hidden tests' code.

``HideHiddenTests`` is an nbgrader preprocessor for ``generate_feedback`` (the course's
``nbgrader_config.py`` puts it after ``GetGrades``, so plain ``nbgrader generate_feedback`` and
``plaisante feedback`` both use it). In every cell of the autograded notebook it:

* replaces each ``### BEGIN HIDDEN TESTS`` … ``### END HIDDEN TESTS`` region with one comment
  saying what is true of them: they passed (only when they ran and passed), the cell's partial
  score and what it means, a hidden test failed and the rule it checks (the ``# Rule:`` line
  above the failing check in the source notebook, never its input or expected value), or (by
  the judge's report) the visible test above failed first, so they did not run;
* with ``reveal`` (``plaisante feedback --reveal``, or ``c.HideHiddenTests.reveal`` in
  ``nbgrader_config.py``), once the assignment's due date in the gradebook has passed, shows a
  failing hidden check's message in full (its input, the expected and the actual value), as
  the judge wrote it, escaped; the actual value, or the message of an error the student's
  code raised, is the student's own and is quoted as such. After plain ``nbgrader
  autograde`` (the whole message the kernel's) nothing is revealed;
* replaces tracebacks (which quote the failing source line) with the error's one-line
  message, since a traceback of a hidden test would quote hidden code;
* keeps no output a submission could have written in code: a cell that is not a test cell
  loses its outputs (the student has them in their own notebook), a test cell keeps only its
  error, named from a fixed list, and that error's message only where the cell holds no hidden
  test, or where the judge's report (``plaisante grade``, for this very autograded notebook:
  its sha256 matches) says the cell's visible tests failed — the judge wrote that message,
  not the kernel. Quoting-line filters alone were beaten by a submission that printed every
  later cell's code ROT13-encoded from an IPython hook; what is left to it is at most
  ``max_message`` characters in each such message (docs/threat-model.md);
* removes, from what is kept, any line that quotes a hidden test's code.

What the student wrote themselves (markdown, raw cells, outputs' HTML) is made inert by
``plaisante.inert.InertContent``, which every HTML page nbgrader makes of a notebook runs
(feedback and the formgrader alike).
"""

from __future__ import annotations

import ast
import datetime
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Enum, Integer, List, Unicode

from .. import page_templates
from ..course import CourseLayout
from .judge import rule_lines

REMOVED = "[hidden test code removed]"
REVEAL = ("never", "after_due_date", "always")
# where IPython's traceback names a line of the running cell itself: "Cell In[12], line 5" (a
# frame of a function, the student's included, reads "Cell In[3], line 4, in has_pair(cards)")
CELL_LINE = re.compile(r"^Cell In\[\d+\], line (\d+)\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Error names shown as they are; any other (a class a submission made up) shows as "Error".
KNOWN_ERRORS = frozenset({
    "CheckFailed", "AssertionError", "NotImplementedError", "PartNotDefined", "NameError",
    "TypeError", "ValueError", "AttributeError", "KeyError", "IndexError", "ZeroDivisionError",
    "RecursionError", "SyntaxError", "IndentationError", "UnboundLocalError", "MemoryError",
    "KeyboardInterrupt", "SystemExit", "CellTimeoutError", "DeadKernelError",
    "StdinNotImplementedError", "ModuleNotFoundError", "ImportError", "OSError",
    "PermissionError", "FileNotFoundError", "StopIteration", "OverflowError", "RuntimeError",
})

# How the notebook's test cells say the kit's own errors (student_side.tracebacks): a student
# reads "✘ fails: …" there, and the same words on their feedback page, never a class name.
SAID_AS = {"CheckFailed": "✘ fails", "PartNotDefined": "✎ to do"}


class HideHiddenTests(NbGraderPreprocessor):  # type: ignore[misc]  # nbgrader ships no types
    """Remove hidden tests' code from a notebook before it becomes feedback (module doc)."""

    begin = Unicode("BEGIN HIDDEN TESTS", help="marker opening a hidden region").tag(config=True)
    end = Unicode("END HIDDEN TESTS", help="marker closing a hidden region").tag(config=True)
    min_quote = Integer(10, help="shortest hidden line treated as quotable").tag(config=True)
    # nbconvert's HTML exporter configures every NbConvertBase with this; declared here (as
    # nbgrader's GetGrades does) so that it is taken, not warned about
    display_data_priority = List(Unicode(), ["text/html", "image/svg+xml", "image/png",
                                             "text/plain"]).tag(config=True)
    max_message = Integer(200, help="longest error message kept from a visible-only test cell"
                          ).tag(config=True)
    reveal = Enum(REVEAL, "never", help=(
        "show failing hidden checks' messages (input, expected, got): 'never'; "
        "'after_due_date' (once the assignment's due date in the gradebook has passed); "
        "'always' (plaisante feedback --reveal --force)")).tag(config=True)
    max_revealed = Integer(2000, help="longest hidden check's message shown when revealed"
                           ).tag(config=True)

    max_cell_chars = Integer(
        64 * 1024, help="most characters of one cell the student wrote (an answer, their own "
        "markdown) shown in feedback; the rest is cut, said in the cell").tag(config=True)
    max_student_chars = Integer(
        256 * 1024, help="most characters of all the cells the student wrote shown in "
        "feedback; past it a cell shows only that it was left out").tag(config=True)

    max_line_chars = Integer(
        1000, help="longest line of a markdown or raw cell the student wrote: a longer one is "
        "broken into lines of this length (a soft line break in markdown), since nbconvert's "
        "link filters take time quadratic in a line's length").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        cut = within_budget(nb, self.max_cell_chars, self.max_student_chars,
                            self.max_line_chars)
        if cut:
            student = (resources or {}).get("nbgrader", {}).get("student", "the student")
            self.log.warning("%s: feedback shows part of %d cell(s): over %d KiB in a cell or "
                             "%d KiB in all", student, cut, self.max_cell_chars // 1024,
                             self.max_student_chars // 1024)
        # before within_budget: a cut cell would not parse where the student's did
        self._unparsed = {index: line for index, cell in enumerate(nb.cells)
                          if (line := did_not_parse(cell)) is not None}
        report = judged_report(resources)
        self._judged = report is not None
        self._failed_in = failures_in(report)
        found = (report or {}).get("rules")
        self._rules: dict[str, Any] = found if isinstance(found, dict) else {}
        self._revealed = self._judged and revealed(self.reveal, resources)
        self._cell_rules: dict[int, str] = {}
        self._hidden: set[str] = set()
        for cell in nb.cells:
            inside = False
            for line in cell.get("source", "").splitlines():
                if self.begin in line:
                    inside = True
                elif self.end in line:
                    inside = False
                elif inside and len(line.strip()) >= self.min_quote:
                    self._hidden.add(line.strip())
        nb, resources = super().preprocess(nb, resources)
        resources["plaisante_steps"] = step_index(nb, (resources or {}).get("nbgrader", {})
                                                  .get("assignment", ""))
        return nb, resources

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int
                        ) -> tuple[NotebookNode, Any]:
        had_hidden = self.begin in cell.get("source", "")
        if had_hidden:
            self._cell_rules = rule_lines(cell.source, self.begin, self.end)
            cell.source = self._strip_regions(cell)
        if cell.get("cell_type") != "code":
            return cell, resources
        is_test = cell.metadata.get("nbgrader", {}).get("grade", False)
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        # a student's own tests (*_my_tests): what the judge says of them is the grader's
        # own words (how many buggy versions were caught, never which; the failing assertion)
        own_tests = self._judged and str(grade_id).endswith("_my_tests")
        in_hidden = had_hidden and self._failed_in.get(grade_id) != "visible" and not own_tests
        kept = [self._said(o) for o in cell.get("outputs", []) if own_tests and not errors
                and o.get("output_type") == "stream" and o.get("name") == "stdout"]
        cell.outputs = [self._verdict(errors[0], in_hidden)] if is_test and errors else kept
        if not is_test and index in self._unparsed:
            line = self._clean(self._unparsed[index])
            cell.outputs = [NotebookNode(output_type="error", ename="SyntaxError", evalue=line,
                                         traceback=[f"✘ SyntaxError: {line}"])]
        return cell, resources

    def _verdict(self, error: NotebookNode, in_hidden: bool) -> NotebookNode:
        """Return a test cell's error as the grader states it: a known name, and the message
        only for a failure outside hidden tests (first line, cut, hidden quotes removed)."""
        ename = str(error.get("ename", ""))
        ename = ename if ename in KNOWN_ERRORS else "Error"
        if in_hidden and self._revealed:
            lines = str(error.get("evalue", "")).splitlines() or [""]
            evalue = self._clean(lines[0][: self.max_revealed])
            note = " (in hidden tests, shown after the due date)"
            return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                traceback=[f"{SAID_AS.get(ename, ename)}{note}: {evalue}"])
        if in_hidden:
            evalue = "a test in this cell failed (hidden tests' messages are not shown)"
        else:
            lines = str(error.get("evalue", "")).splitlines() or [""]
            evalue = self._clean(lines[0][: self.max_message])
        note = " (in hidden tests)" if in_hidden else ""
        return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                            traceback=[f"{SAID_AS.get(ename, ename)}{note}: {evalue}"])

    def _said(self, stream: NotebookNode) -> NotebookNode:
        """Return the first line of what a judged test cell printed, cut and cleaned."""
        line = (str(stream.get("text", "")).splitlines() or [""])[0][: self.max_message]
        return NotebookNode(output_type="stream", name="stdout", text=self._clean(line) + "\n")

    def _strip_regions(self, cell: NotebookNode) -> str:
        note = self._hidden_note(cell)
        kept, inside, noted = [], False, False
        for line in cell.source.splitlines():
            if self.begin in line:
                inside = True
                if not noted:
                    kept.append(note)
                    noted = True
            elif self.end in line:
                inside = False
            elif not inside:
                kept.append(line)
        return "\n".join(kept)

    def _hidden_note(self, cell: NotebookNode) -> str:
        """Return the comment that stands for a cell's hidden tests: only what is true of them.
        "they passed" only when they ran and passed; a partial score says what it means; a
        failing visible test (the judge's report says so) is named as the cause, not the
        hidden tests, which did not run after it."""
        meta = cell.metadata.get("nbgrader", {})
        grade_id = str(meta.get("grade_id"))
        score, points = meta.get("score"), meta.get("points")
        scored = (f"this cell scored {score:g} of {points:g} points"
                  if score is not None and points is not None else "")
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        failed = bool(errors)
        where = self._failed_in.get(grade_id) if failed else None
        own = grade_id.endswith("_my_tests")
        ran = "# Hidden tests ran here (their code is not shown): "
        if failed and where == "visible":
            return ("# Hidden tests did not run here (their code is not shown): the visible test "
                    "above failed first (its message is shown below the cell)"
                    + (f"; {scored}." if scored else "."))
        if failed and where == "hidden":
            why = (self._failed_rule(grade_id) if not own
                   else "your tests are not written yet" if errors[-1].get("ename") ==
                   "NotImplementedError"
                   else "your tests did not pass on a correct version (the message below the "
                   "cell says why)")
            return ran + (f"{scored}: {why}." if scored else f"{why}.")
        if failed:  # no judge's report (plain nbgrader autograde): which test failed is unknown
            why = "a test in this cell failed, visible or hidden"
            rule = None if own else self._cell_rules.get(traceback_line(errors[-1]) or 0)
            if rule:  # the kernel wrote the traceback: it can only pick another rule line
                why += f" (by the traceback, the hidden check of the rule: {rule})"
            return ("# Hidden tests were here (their code is not shown): "
                    + (f"{scored}: {why}." if scored else f"{why}."))
        if scored and score < points:
            if own:
                caught = "some" if score > 0 else "none"
                how_many = " (the line below the cell says how many)" if self._judged else ""
                why = (f"partial credit: your tests pass on a correct version and catch {caught} "
                       f"of the hidden buggy versions, not all{how_many}")
            else:
                why = "partial credit: the hidden tests passed only in part"
            return ran + f"{scored}: {why}."
        return ran + "they passed."

    def _failed_rule(self, grade_id: str) -> str:
        """Say which hidden rule failed: the judge's report names it, and it is shown only when
        it is one of this cell's own rule lines (text from the source notebook, never from the
        kernel); after the due date (``reveal``) the check's message is below the cell."""
        rule = self._rules.get(grade_id)
        why = ("a hidden test failed: " + rule if isinstance(rule, str)
               and rule in self._cell_rules.values() else "a hidden test failed")
        return why + (" (its message, shown after the due date, is below the cell)"
                      if self._revealed else "")

    def _clean(self, text: str) -> str:
        if not self._hidden:
            return text
        return "\n".join(REMOVED if self._quotes(line) else line for line in text.split("\n"))

    def _quotes(self, line: str) -> bool:
        """Return True when ``line`` quotes a hidden line, as text or HTML-escaped."""
        plain = html.unescape(line)
        return any(hidden in line or hidden in plain for hidden in self._hidden)


def within_budget(nb: NotebookNode, most_cell: int, most_all: int,
                  most_line: int = 1000) -> int:
    """Cut, in place, the source of each cell of ``nb`` the student wrote (every cell but the
    release's locked ones) to ``most_cell`` characters (at a line end) and all of them to
    ``most_all``, each cut said in the cell itself (a comment in code, a line in markdown),
    and break a markdown or raw cell's lines longer than ``most_line`` characters; return how
    many cells were cut. Feedback pages are built from these sources: this bounds the time
    and memory one student's page costs (docs/budgets.md)."""
    left, cut = most_all, 0
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("locked"):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") != "code" and any(
                len(line) > most_line for line in source.split("\n")):
            source = "\n".join(line[i:i + most_line] for line in source.split("\n")
                               for i in range(0, max(len(line), 1), most_line))
            cell.source = source
        room = max(min(most_cell, left), 0)
        if len(source) > room:
            kept = source[:max(source.rfind("\n", 0, room), 0)]
            said = (f"[{(len(source) - len(kept)) / 1024:,.0f} KiB of this cell are not shown "
                    f"in feedback (at most {most_cell // 1024} KiB of a cell, "
                    f"{most_all // 1024} KiB in all); your own notebook has all of it]")
            comment = "# " if cell.get("cell_type") == "code" else ""
            cell.source = (kept + "\n" if kept else "") + comment + said
            cut += 1
            source = kept
        left -= len(source)
    return cut


def did_not_parse(cell: NotebookNode) -> str | None:
    """Return the one line a student's code cell (any code cell not locked by the release)
    shows on its feedback page when its source does not parse as IPython reads a cell (magics,
    a top-level await): the line and Python's message of the SyntaxError (or
    IndentationError), and what it left undefined, e.g. ``this cell did not run: line 3,
    "for card in cards", has a SyntaxError (expected ':'), so count_values was not
    defined; fix that line and run the cell again``. None for a cell that parses, a locked or
    markdown cell. Worked out here by compiling the source, never from what the kernel wrote:
    it names only the student's own text."""
    from IPython.core.inputtransformer2 import TransformerManager

    from ..student_side.tracebacks import an_error, defining

    if cell.get("cell_type") != "code" or cell.metadata.get("nbgrader", {}).get("locked"):
        return None
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else str(source)
    try:
        compile(TransformerManager().transform_cell(source),  # type: ignore[no-untyped-call]
                "<cell>", "exec",
                flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        return None
    except SyntaxError as error:
        kind, where, why = type(error).__name__, error.lineno, error.msg
    except Exception:  # noqa: BLE001  a cell IPython cannot even transform (or too deep)
        return None
    names = list(dict.fromkeys(defining().findall(source)))
    undefined = (f"{', '.join(names)} {'was' if len(names) == 1 else 'were'} not defined"
                 if names else "nothing in it ran")
    return (f"this cell did not run: line {where}{quoted_line(source, where)} has "
            f"{an_error(kind)} ({why}), so {undefined}; fix that line and run the cell again")


#: what ends a line of Python source, as its tokenizer counts lines
PYTHON_LINE_END = re.compile(r"\r\n|\r|\n")


def quoted_line(source: str, number: int | None, most: int = 60) -> str:
    """Return ``, "TEXT",`` for line ``number`` (1-based) of ``source``, stripped and cut to
    ``most`` characters with "…", its control characters (an ANSI escape) shown as "?", so a
    student finds the line without counting (the page shows no line numbers); "" for a line
    out of range or blank."""
    # numbered as Python numbers them: str.splitlines also breaks at a form feed, U+2028 …,
    # which a string or comment may hold, and the quote would be another line
    lines = PYTHON_LINE_END.split(source.removesuffix("\n"))
    if number is None or not 1 <= number <= len(lines) or not lines[number - 1].strip():
        return ""
    text = "".join(c if c.isprintable() else "?" for c in lines[number - 1].strip())
    return f', "{text if len(text) <= most else text[:most - 1] + "…"}",'


def traceback_line(error: NotebookNode) -> int | None:
    """Return the line of the test cell that raised ``error``, as IPython's traceback in the
    notebook names it: the last frame of the running cell's own code ("Cell In[N], line L",
    not in a function; the last, as a chained error's cause is printed first), or None. The
    kernel wrote it: use it only to choose among the cell's own rule lines."""
    found = None
    for entry in error.get("traceback", []) or []:
        for line in ANSI.sub("", str(entry)).splitlines():
            matched = CELL_LINE.match(line.strip())
            if matched:
                found = int(matched.group(1))
    return found


def due_date(db_url: str, assignment: str) -> datetime.datetime | None:
    """Return the assignment's due date in the gradebook at ``db_url`` (naive UTC, as nbgrader
    keeps it), or None when it has none or the gradebook does not have the assignment."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gradebook:
        try:
            due = gradebook.find_assignment(assignment).duedate
        except MissingEntry:
            return None
    return due if isinstance(due, datetime.datetime) else None


def due_passed(db_url: str, assignment: str, now: datetime.datetime | None = None) -> bool:
    """Return True when the assignment has a due date in the gradebook and it has passed
    (``now``: naive UTC, default the clock)."""
    due = due_date(db_url, assignment)
    now = now or datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    return due is not None and due <= now


def revealed(reveal: str, resources: Any) -> bool:
    """Return whether a feedback page shows hidden checks' messages: ``reveal`` is "always",
    or "after_due_date" and the due date in nbgrader's gradebook has passed."""
    if reveal == "always":
        return True
    if reveal != "after_due_date":
        return False
    info = (resources or {}).get("nbgrader", {})
    try:
        return due_passed(str(info["db_url"]), str(info["assignment"]))
    except KeyError:
        return False


def step_index(nb: NotebookNode, assignment: str) -> list[dict[str, Any]]:
    """Return the feedback page's index: one entry per step (``step``, ``title``, ``score``,
    ``points``) with its test cells (``grade_id``, ``title``, ``score``, ``points``), each
    named from its first comment line (what it checks), never "Test cell"."""
    from ..results.scores import cell_title, step_of, step_titles

    try:
        titles = step_titles(assignment)
    except Exception:  # noqa: BLE001  an assignment the course does not describe
        titles = {}
    steps: dict[str, dict[str, Any]] = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("grade") or meta.get("solution"):
            continue
        grade_id = str(meta.get("grade_id", ""))
        step = step_of(grade_id)
        entry = steps.setdefault(step, {
            "step": step, "number": step.removeprefix("step"), "title": titles.get(step, ""),
            "score": 0.0, "points": 0.0, "cells": []})
        score, points = float(meta.get("score") or 0), float(meta.get("points") or 0)
        entry["score"] += score
        entry["points"] += points
        entry["cells"].append({"grade_id": grade_id, "score": score, "points": points,
                               "title": cell_title(cell.source, step, titles)})
    return list(steps.values())


def judged_failures(resources: Any) -> dict[str, str]:
    """Return the judge's {grade_id: "visible" | "hidden"} for the notebook nbgrader is making
    feedback of, from the student's grading report, when that report describes this very
    autograded notebook (same sha256); {} otherwise (e.g. after plain ``nbgrader autograde``,
    whose test outputs the kernel wrote). nbgrader runs from the course root."""
    return failures_in(judged_report(resources))


def failures_in(report: dict[str, Any] | None) -> dict[str, str]:
    """Return a grading report's {grade_id: "visible" | "hidden"} ({} for None)."""
    failed_in = (report or {}).get("failed_in")
    return failed_in if isinstance(failed_in, dict) else {}


def judged_report(resources: Any) -> dict[str, Any] | None:
    """Return the judge's grading report of the notebook nbgrader is making feedback of, when
    that report describes this very autograded notebook (same sha256); None otherwise."""
    info = (resources or {}).get("nbgrader", {})
    try:
        student, assignment, notebook = info["student"], info["assignment"], info["notebook"]
        layout = CourseLayout(Path.cwd())
        report = json.loads(layout.report(assignment, student).read_text("utf-8"))
        autograded = layout.autograded(student, assignment, notebook).read_bytes()
    except (KeyError, OSError, ValueError):
        return None
    if not isinstance(report, dict) \
            or report.get("autograded_sha256") != hashlib.sha256(autograded).hexdigest():
        return None
    return report


def write_missing_pages(root: Path, assignment: str, students: list[str] | None = None,
                        *, after_nbgrader: bool = False) -> list[Path]:
    """Write a short feedback page for every graded student (of ``students``, default every
    one) with no autograded notebook, so none from nbgrader (a submission that was empty, not
    a notebook, or another assignment's): its score and the grader's stated reasons, from
    ``assignments/reports/``. With ``after_nbgrader`` (``generate_feedback`` has run), a
    student whose notebook nbgrader made no page of gets one too, saying so. The reasons are
    listed only when the submission's code never ran (``kernel_ran``): a reason can quote
    what a kernel said after the hidden checks, the inputs it heard included. Returns the
    pages written."""
    written = []
    layout = CourseLayout(Path(root))
    reports = layout.report(assignment, "-").parent
    for report in sorted(reports.glob("*.json")) if reports.is_dir() else []:
        if students and report.stem not in students:
            continue
        try:
            result = json.loads(report.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if not isinstance(result, dict) or "student" not in result:
            continue
        page = layout.feedback(result["student"], assignment)
        if page.exists():
            continue
        has_notebook = layout.autograded(result["student"], assignment).is_file()
        if has_notebook and not after_nbgrader:
            continue  # a notebook to show: its page is nbgrader's
        why = ("The page of your graded notebook could not be made, so there is no "
               "cell-by-cell feedback." if has_notebook else
               "Your submission could not be graded as a notebook, so there is no cell-by-cell "
               "feedback.")
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(page_templates.render(
            "feedback_missing.html.j2", assignment=assignment, total=result["total"],
            max_total=result["max_total"], why=why,
            reasons=None if result.get("kernel_ran") else result["reasons"]), encoding="utf-8")
        written.append(page)
    return written
