"""nbgrader's own Validate, made to say what it ran.

nbgrader's ``Validator`` runs the notebook it is given and, when no test cell fails, prints
"Success! Your notebook passes all the tests." (a fixed text, not one of its configurable
messages). On a student's notebook that is not true: the release holds the visible tests only,
and the hidden ones run when the work is graded. The course's ``nbgrader_config.py`` calls
``install()``, so ``nbgrader validate`` (and ``plaisante nbgrader validate``) run from the
course print ``PASSED`` instead; JupyterLab's Validate button shows the same sentence through
the kit's JupyterLab extension (``plaisante/labextension``: nbgrader's dialog text is fixed in
its own extension). ``plaisante validate`` says the same in its own words
(``plaisante.intake.validate``).

A failing test cell is told the same way: nbgrader's validate names it by its source and the
traceback its run showed (the kernel it starts keeps IPython's full tracebacks, as every run
nbgrader makes does), so a notebook half done showed the Validate dialog a page of
``NameError`` frames for answers not written yet. Installed, it names the cell by its
grade_id and says the one line ``plaisante validate`` says (``validate.results_of``:
"trace_values is not set yet…", "has_pair is not written yet…", a check's "input: expected
…, got …"); the kit's JupyterLab extension then shows one line per failing cell.
"""

from __future__ import annotations

import sys
import textwrap
from typing import Any

from .validate import HIDDEN, results_of

NBGRADER_SAYS = "Success! Your notebook passes all the tests."
PASSED = "Your notebook passes its visible tests. " + HIDDEN


def install() -> None:
    """Make nbgrader's ``Validator`` print ``PASSED`` (wrapped to its width) where it would
    print ``NBGRADER_SAYS``; and in its results, name each failing test cell the kit has a
    line for by its grade_id (the entry's ``source``) and say that line (``raw_error``, and
    ``error``, which nbgrader escapes for HTML). Other failing cells, changed cells and the
    inverted mode are nbgrader's own.
    Only where nbgrader's validator is already loaded (an nbgrader command, the Validate
    server handler): a process that reads the config for its settings imports nothing more.
    Installing twice changes nothing more."""
    validator = sys.modules.get("nbgrader.validator")
    if validator is None:
        return
    from nbformat import NotebookNode
    from nbformat.v4 import new_output

    cls: Any = validator.Validator
    if getattr(cls._print_num_failed, "says_what_it_ran", False):
        return
    original = cls._print_num_failed

    def _print_num_failed(self: Any, num_failed: int) -> None:
        if num_failed:
            original(self, num_failed)
        else:
            self.stream.write(textwrap.fill(PASSED, width=self.width) + "\n")

    _print_num_failed.says_what_it_ran = True  # type: ignore[attr-defined]
    cls._print_num_failed = _print_num_failed
    failed_cells = cls._get_failed_cells

    def _get_failed_cells(self: Any, nb: Any) -> list[Any]:
        try:
            said = {result.grade_id: result.error for result in results_of(nb) if result.error}
        except Exception:  # noqa: BLE001  a notebook the kit cannot read: nbgrader's own words
            said = {}
        cells = []
        for cell in failed_cells(self, nb):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id in said:  # named by its grade_id, its one error the kit's line, which
                # nbgrader's own _extract_error then reads; the notebook's cell is unchanged
                cell = NotebookNode(cell, source=grade_id, outputs=[new_output(
                    "error", ename="", evalue="", traceback=[said[grade_id]])])
            cells.append(cell)
        return cells

    cls._get_failed_cells = _get_failed_cells
