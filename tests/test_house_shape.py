"""The package keeps the shape docs/architecture.md gives it: few modules at the top (the rest
in rooms by who runs them) and functions short enough to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

import plaisante

PACKAGE = Path(plaisante.__file__).resolve().parent
#: What the top level holds at most: what every room shares (course layout, CLI table,
#: boundary, pages' templates) and the one-release stand-ins of moved dotted names.
TOP_LEVEL_MODULES = 10
LONGEST_FUNCTION = 80


def test_the_top_level_holds_at_most_ten_modules() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert "__init__.py" in top and "cli.py" in top  # the glob reads the package itself
    assert len(top) <= TOP_LEVEL_MODULES, top


def test_no_function_of_the_package_is_longer_than_eighty_lines() -> None:
    lengths = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}"
                lengths[where] = node.end_lineno - node.lineno + 1
    assert len(lengths) > 500  # every module was read
    longer = {where: length for where, length in lengths.items() if length > LONGEST_FUNCTION}
    assert not longer, longer


def test_the_moved_names_courses_files_still_use_work_for_one_release() -> None:
    """A course's nbgrader_config.py imports ``plaisante.nbgrader_validate.install`` and an
    instructor's notebook ``plaisante.report.show``: both are the moved modules' own objects."""
    import importlib

    moved = {"plaisante.nbgrader_validate": ("plaisante.intake.nbgrader_validate", "install"),
             "plaisante.report": ("plaisante.results.class_report", "show")}
    for old, (new, name) in moved.items():
        assert getattr(importlib.import_module(old), name) is \
            getattr(importlib.import_module(new), name), old

