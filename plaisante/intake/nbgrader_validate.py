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
"""

from __future__ import annotations

import sys
import textwrap
from typing import Any

from .validate import HIDDEN

NBGRADER_SAYS = "Success! Your notebook passes all the tests."
PASSED = "Your notebook passes its visible tests. " + HIDDEN


def install() -> None:
    """Make nbgrader's ``Validator`` print ``PASSED`` (wrapped to its width) where it would
    print ``NBGRADER_SAYS``; failures, changed cells and the inverted mode are untouched.
    Only where nbgrader's validator is already loaded (an nbgrader command, the Validate
    server handler): a process that reads the config for its settings imports nothing more.
    Installing twice changes nothing more."""
    validator = sys.modules.get("nbgrader.validator")
    if validator is None:
        return
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
