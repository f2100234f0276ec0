"""Plaisante Kit: a Jupyter teaching kit of card-game assignments, graded with nbgrader.

Shared by every game: ``plaisante.student_side.cards`` (ranks, suits, notation, seeded decks),
``plaisante.student_side.hand_names``, ``plaisante.student_side.checking`` (what checks are made
of), ``plaisante.student_side.card_widgets`` and ``plaisante.student_side.style``;
``plaisante.student_side.assignment`` (steps, the gate, stand-ins). Each assignment lives in
``plaisante.games.<id>``; ``plaisante.course`` is the course's folders and ``plaisante.grading`` the
grader.
"""

import sys as _sys

# jsonschema (imported with nbformat) compiles about forty grammars for its IRI formats as it is
# imported when the optional ``rfc3987_syntax`` is installed: about 1 s of CPU in every process
# that imports nbformat (each `plaisante` command, each Dask worker), for formats nothing the
# kit reads uses. The kit's processes leave it out (jsonschema then skips those two formats).
_sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

# nbgrader's package start-up (its Jupyter server extensions, about 1 s of CPU) is deferred
# until something asks the package itself for more than its modules (plaisante.lazy_nbgrader).
from . import lazy_nbgrader as _lazy_nbgrader  # noqa: E402

_lazy_nbgrader.install()
