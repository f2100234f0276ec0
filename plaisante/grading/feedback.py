"""Feedback that never shows hidden tests' code.

``HideHiddenTests`` is an nbgrader preprocessor for ``generate_feedback`` (the course's
``nbgrader_config.py`` puts it after ``GetGrades``, so plain ``nbgrader generate_feedback`` and
``plaisante feedback`` both use it). In every cell of the autograded notebook it:

* replaces each ``### BEGIN HIDDEN TESTS`` … ``### END HIDDEN TESTS`` region with one comment
  saying hidden tests ran there, whether the cell passed and what it cost;
* replaces tracebacks (which quote the failing source line) with the error's one-line
  message, since a traceback of a hidden test would quote hidden code;
* removes, from every output of every cell, any line that quotes a hidden test's code, so a
  submission that prints its notebook's history (``In``, ``_ih``) leaks nothing either.
"""

from __future__ import annotations

import html
from typing import Any

from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer, Unicode

REMOVED = "[hidden test code removed]"


class HideHiddenTests(NbGraderPreprocessor):
    """Remove hidden tests' code from a notebook before it becomes feedback (module doc)."""

    begin = Unicode("BEGIN HIDDEN TESTS", help="marker opening a hidden region").tag(config=True)
    end = Unicode("END HIDDEN TESTS", help="marker closing a hidden region").tag(config=True)
    min_quote = Integer(10, help="shortest hidden line treated as quotable").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
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
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int
                        ) -> tuple[NotebookNode, Any]:
        had_hidden = self.begin in cell.get("source", "")
        if had_hidden:
            cell.source = self._strip_regions(cell)
        for output in cell.get("outputs", []):
            self._scrub(output, had_hidden)
        return cell, resources

    def _strip_regions(self, cell: NotebookNode) -> str:
        meta = cell.metadata.get("nbgrader", {})
        score, points = meta.get("score"), meta.get("points")
        failed = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        if score is not None and points is not None:
            verdict = (f"this cell scored {score:g} of {points:g} points" if failed
                       else "they passed")
        else:
            verdict = "some failed" if failed else "they passed"
        note = f"# Hidden tests ran here (their code is not shown): {verdict}."
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

    def _clean(self, text: str) -> str:
        if not self._hidden:
            return text
        return "\n".join(REMOVED if self._quotes(line) else line for line in text.split("\n"))

    def _quotes(self, line: str) -> bool:
        """Return True when ``line`` quotes a hidden line, as text or HTML-escaped."""
        plain = html.unescape(line)
        return any(hidden in line or hidden in plain for hidden in self._hidden)

    def _scrub(self, output: NotebookNode, had_hidden: bool) -> None:
        kind = output.get("output_type")
        if kind == "error":
            evalue = self._clean(str(output.get("evalue", "")))
            output.evalue = evalue
            note = " (in hidden tests)" if had_hidden else ""
            output.traceback = [f"{output.get('ename', 'Error')}{note}: {evalue}"]
        elif kind == "stream":
            output.text = self._clean(output.get("text", ""))
        elif kind in ("display_data", "execute_result"):
            for mime, value in list(output.get("data", {}).items()):
                if isinstance(value, str):
                    output.data[mime] = self._clean(value)
                elif isinstance(value, list):
                    output.data[mime] = self._clean("".join(value))
