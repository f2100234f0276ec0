"""Scaffold a new game of the course: its folders, from a template that already passes the
course-wide tests.

Writes plaisante/games/ID/ (description, checks, visible answers, known-good parts, model,
view, setup, style.css), solutions/ID/ID.ipynb (the source notebook, with nbgrader's metadata)
and assignments/samples/ID/mistakes.py, then prints the COURSE line to put in
plaisante/games/__init__.py and what to fill in next (docs/course.md, "Adding an assignment").
Run it in the kit's clone: the game is part of the package.
"""

from __future__ import annotations

import argparse
import textwrap

from . import course_layout

NEXT = """\
Next (docs/course.md, "Adding an assignment"):
  1. in plaisante/games/__init__.py, put in place of the COURSE line:
{line}
  2. replace the example (each part returns the highest value of some cards) with your game:
     the notebook's explanations and cells, checks.py and visible.py, known_good.py, model.py
     and view.py, mistakes.py
  3. plaisante release {id}
  4. python -m plaisante.authoring.samples {id}
  5. the course-wide tests on it (after every change, with 3 and 4 first):
       python -m pytest -m "not slow" -k {id} {tests}
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``new-game ID [--title T] [--parts A,B…]``."""
    parser.add_argument("id", help="the game's id: a Python name (lowercase, digits, _)")
    parser.add_argument("--title", help="its title (default: from the id)")
    parser.add_argument("--parts", default="first_part,second_part",
                        help="the parts students write, one step each, comma-separated "
                             "(default: first_part,second_part)")


def run(args: argparse.Namespace) -> int:
    """Write the game's folders; print them, the COURSE line and what comes next; return 0."""
    from ..authoring.new_game import COURSE_TESTS, scaffold

    root = course_layout(args, configured=False).root  # scaffold checks it is a kit
    title = args.title or args.id.replace("_", " ").capitalize()
    parts = tuple(part.strip() for part in args.parts.split(",") if part.strip())
    made = scaffold(root, args.id, title, parts)
    for path in made.files:
        print(f"wrote {path}")
    tests = " ".join(f"tests/{name}" for name in COURSE_TESTS)
    print(NEXT.format(line=textwrap.indent(made.course_line, "    "), id=args.id, tests=tests))
    return 0
