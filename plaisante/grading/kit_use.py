"""Answer cells that use the kit's own code instead of the student's.

The student's kernel imports the kit (the setup cell, the games), and the kit holds working
versions of some graded parts: the games' bots and the checks' stand-ins need them
(``kit_trick_winner``, ``kit_best_five``…). An answer cell that calls them, or imports from
the kit, scores the kit's work as the student's. The grader cannot stop a kernel from doing
so, but it reads the submitted source itself (trusted: no kernel involved), so such a
submission is flagged for the instructor to check, naming the cell and what it uses.
A determined student can hide the name (``exec`` of an encoded string); that shows in the
code too, and ``exec``/``eval``/``compile`` in an answer cell is flagged the same way.
"""

from __future__ import annotations

import ast
from typing import Any

#: the kit's own package (the top of this module's name)
KIT = __name__.split(".")[0]
#: names that reach code by a name built at run time
DYNAMIC = frozenset({"__import__", "importlib", "exec", "eval", "compile", "__builtins__"})


def _uses(source: str) -> set[str]:
    """Return what ``source`` uses of the kit: ``kit_*`` names, modules of the ``plaisante``
    package, and the ways to reach code by a computed name."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == KIT}
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] == KIT:
                found.add(node.module or KIT)
        elif isinstance(node, ast.Name) and (node.id.startswith("kit_") or node.id in DYNAMIC):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr.startswith("kit_"):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                node.value.startswith("kit_") or node.value.startswith(KIT + ".")):
            found.add(repr(node.value)[:40])
    return found


def kit_code_used(notebook: Any) -> list[str]:
    """Return one flag line per answer cell of ``notebook`` (an nbformat notebook whose cells
    carry nbgrader's metadata) that uses the kit's own code (``_uses``), in notebook order."""
    flags = []
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") != "code" or not meta.get("solution") or meta.get("locked"):
            continue
        used = _uses(cell.get("source", ""))
        if used:
            shown = ", ".join(sorted(used))
            flags.append(f"{meta.get('grade_id', 'an answer cell')} uses the kit's own code "
                         f"({shown[:150]}): its points may be the kit's work, not the "
                         "student's; check the cell")
    return flags
