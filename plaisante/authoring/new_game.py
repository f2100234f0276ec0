"""``plaisante new-game ID``: a new game's folders, written from a template so that a
maintainer starts from a game that already passes the course-wide tests (docs/course.md,
"Adding an assignment").

The template (``game_template/``, Jinja2) is a small working game of one step per part: each
part returns the highest value among some cards, with its trace-it-by-hand question, visible
and hidden tests (rule lines), the ``KNOWN`` answers (``visible.py`` as data, ``known_good.py``
for the grader), a model and a view, a source notebook with nbgrader's metadata, and three
classic mistakes a step. Everything it writes is then the maintainer's to replace.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import re
import textwrap
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jinja2
import nbformat

from .. import games
from ..course import CourseLayout

#: The games' package, as a path from the course root (the kit's clone is the course).
PACKAGE = Path(*games.__name__.split("."))
TEMPLATES = Path(__file__).with_name("game_template")
#: package files written from the template of the same name (``<name>.j2``)
GAME_FILES = ("__init__.py", "checks.py", "visible.py", "known_good.py", "model.py", "view.py",
              "setup.py", "style.css")
NAME = re.compile(r"[a-z][a-z0-9_]*")
#: The course-wide tests that take each game of COURSE on its own, run by its id (``-k ID``),
#: in seconds to a minute; ``test_course_samples.py`` grades the whole course (many minutes)
COURSE_TESTS = ("test_game_shell.py", "test_course_units.py", "test_rule_lines.py",
                "test_visible_cases.py", "test_course_judge.py", "test_nothing_within_reach.py",
                "test_kernel_tree.py", "test_notebook_tracebacks.py", "test_validate.py")
TRACE = "10♣ Q♦ 4♥"  # the trace-it-by-hand question's cards; 12 is its answer


@dataclass(frozen=True)
class NewGame:
    """What ``scaffold`` wrote: the files (paths under the course root) and the ``COURSE``
    line to put in ``plaisante/games/__init__.py``."""

    files: tuple[Path, ...]
    course_line: str


def check_name(kind: str, name: str) -> None:
    """Raise ValueError in one line unless ``name`` can be a game's id or a part's name: a
    Python name of lowercase letters, digits and _, starting with a letter, no keyword."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        hint = re.sub(r"[^a-z0-9_]", "_", name.lower())
        hint = hint + "_" if keyword.iskeyword(hint) else hint
        hint = hint if NAME.fullmatch(hint) else f"a_{hint}"
        raise ValueError(f"{kind} {name!r}: use lowercase letters, digits and _ and start with a "
                         f"letter (it is a Python name), e.g. {hint!r}")


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                              keep_trailing_newline=True, autoescape=False,
                              undefined=jinja2.StrictUndefined)


@cache
def template_names() -> frozenset[str]:
    """Return the names the scaffolded game's code binds or reads for itself (``hand``,
    ``expect_value``, ``play``…) and Python's builtins (``max``…): a part named so would hide
    one of them in the notebook or in the game's modules (found by scaffolding a probe part)."""
    probe = "zz_probe"
    values = {"id": probe, "title": "Probe", "parts": (probe,), "css": probe}
    environment = _environment()
    texts = [environment.get_template(f"{name}.j2").render(values)
             for name in (*GAME_FILES, "mistakes.py") if name.endswith(".py")]
    texts += [cell.source for cell in source_notebook(probe, "Probe", (probe,)).cells
              if cell.cell_type == "code"]
    names: set[str] = set(dir(builtins))
    for text in texts:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
    return frozenset(name for name in names if probe not in name.lower())


def check_parts(parts: tuple[str, ...]) -> None:
    """Raise ValueError in one line unless ``parts`` can be a game's parts: each a name
    (``check_name``) that, with the names the game makes of it (``check_<part>``,
    ``expect_<part>``, ``trace_<part>``, ``<PART>``), hides none of ``template_names`` and no
    other part's."""
    if not parts:
        raise ValueError("give at least one part (--parts NAME[,NAME…]): one step each")
    for part in parts:
        check_name("part", part)
    if len(set(parts)) != len(parts):
        raise ValueError(f"parts {', '.join(parts)}: each part once")
    made: dict[str, str] = {}
    for part in parts:
        for name in (part, f"check_{part}", f"expect_{part}", f"trace_{part}", part.upper()):
            if name in template_names():
                raise ValueError(f"part {part!r}: the game's code already uses the name {name!r} "
                                 f"(a builtin or the kit's), which the part would hide; e.g. "
                                 f"'{part}_part'")
            if made.setdefault(name, part) != part:
                raise ValueError(f"parts {made[name]!r} and {part!r}: both make the name "
                                 f"{name!r}; rename one")


def check_title(title: str) -> None:
    """Raise ValueError in one line when ``title`` holds a line break or another control
    character (it is one line of the notebook and of the game's files)."""
    if not title.strip() or any(unicodedata.category(char).startswith("C") for char in title):
        raise ValueError(f"title {title!r}: one line of text, no line break or other control "
                         "character")


def in_source(title: str) -> str:
    """Return ``title`` as it is written inside a Python string or docstring of the game's
    files: its quotes and backslashes escaped."""
    return json.dumps(title, ensure_ascii=False)[1:-1]


def course_of(root: Path) -> tuple[str, ...]:
    """Return the ids ``COURSE`` holds in ``root``'s ``plaisante/games/__init__.py`` (the clone
    the game is written into, which need not be the one Python imports). Raises ValueError
    when that file assigns no literal tuple of ids to ``COURSE``."""
    init = root / PACKAGE / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        target: ast.expr
        value: ast.expr | None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "COURSE" and value is not None:
            try:
                ids = ast.literal_eval(value)
            except ValueError:
                break
            if isinstance(ids, tuple) and all(isinstance(known, str) for known in ids):
                return ids
            break
    raise ValueError(f"{init.relative_to(root)}: no COURSE = (\"id\", …) of the course's ids "
                     "there to add the game to")


def course_line(game_id: str, course: tuple[str, ...]) -> str:
    """Return the ``COURSE`` statement of ``plaisante/games/__init__.py``: ``course`` (its ids
    now, ``course_of``) with ``game_id`` last, wrapped to the kit's 100 columns (ruff's
    limit)."""
    head = "COURSE: tuple[str, ...] = ("
    ids = ", ".join(f'"{known}"' for known in (*course, game_id)) + ")"
    return textwrap.fill(ids, width=100, initial_indent=head,
                         subsequent_indent=" " * len(head), break_long_words=False,
                         break_on_hyphens=False)


def scaffold(root: Path, game_id: str, title: str, parts: tuple[str, ...]) -> NewGame:
    """Write the new game ``game_id`` (``title``; one step per name of ``parts``, in order)
    into the course at ``root``: ``plaisante/games/<id>/``, ``solutions/<id>/<id>.ipynb`` and
    ``assignments/samples/<id>/mistakes.py``. Raises ValueError for a bad id, title or part
    (``check_name``, ``check_title``, ``check_parts``), an id already in ``root``'s ``COURSE``
    (``course_of``) or naming a module of its games package, or no part; FileExistsError when
    one of its folders exists; FileNotFoundError when ``root`` holds no ``plaisante/games/``
    (the kit's source tree)."""
    check_name("game id", game_id)
    check_title(title)
    check_parts(parts)
    if not (root / PACKAGE / "__init__.py").is_file():
        raise FileNotFoundError(f"{root}: no {PACKAGE}/ here; new-game writes into the kit's own "
                                "source tree: run it in a clone of the kit")
    course = course_of(root)
    if game_id in course:
        raise ValueError(f"{game_id!r} is already a game of the course ({', '.join(course)})")
    kit_module = next((path for path in (root / PACKAGE).iterdir()
                       if path.is_file() and path.name.split(".")[0] == game_id), None)
    if kit_module is not None:  # a package of that name would hide the kit's module
        raise ValueError(f"game id {game_id!r}: {kit_module.relative_to(root)} is the kit's, "
                         f"which a game of that name would hide; e.g. '{game_id}_game'")
    layout = CourseLayout(root)
    folders = (root / PACKAGE / game_id, layout.source(game_id).parent, layout.samples(game_id))
    for folder in folders:
        if folder.exists():
            raise FileExistsError(f"{folder} exists: a new game's folders must not")
    values = {"id": game_id, "title": in_source(title), "parts": parts,
              "css": game_id.replace("_", "-")}
    environment = _environment()
    in_css = {**values, "title": title.replace("*/", "* /")}  # the title in a CSS comment
    written: dict[Path, str] = {
        folders[0] / name: environment.get_template(f"{name}.j2").render(
            in_css if name.endswith(".css") else values)
        for name in GAME_FILES}
    written[folders[2] / "mistakes.py"] = environment.get_template("mistakes.py.j2").render(values)
    for path, text in written.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    layout.source(game_id).parent.mkdir(parents=True)
    nbformat.write(source_notebook(game_id, title, parts), layout.source(game_id))
    files = (*written, layout.source(game_id))
    return NewGame(tuple(path.relative_to(root) for path in files), course_line(game_id, course))


def cell(source: str, grade_id: str, *, solution: bool = False,
         points: int | None = None) -> nbformat.NotebookNode:
    """Return a code cell with nbgrader's metadata: locked unless a ``solution`` cell, graded
    with ``points`` when given; answer and test cells tagged ``raises-exception`` (Run All goes
    on past a failing step)."""
    meta: dict[str, object] = {"grade": points is not None, "grade_id": grade_id,
                               "locked": not solution, "schema_version": 3,
                               "solution": solution}
    if points is not None:
        meta["points"] = points
    tags = ["raises-exception"] if solution or points is not None else []
    return nbformat.v4.new_code_cell(source, metadata={"nbgrader": meta,
                                                       **({"tags": tags} if tags else {})})


def step_points(steps: int) -> list[tuple[int, int, int]]:
    """Return (trace, visible, hidden) points of each of ``steps`` steps: 100 in all."""
    shares = [100 // steps + (1 if number < 100 % steps else 0) for number in range(steps)]
    return [(4, (share - 4) // 2, share - 4 - (share - 4) // 2) for share in shares]


def source_notebook(game_id: str, title: str, parts: tuple[str, ...]) -> nbformat.NotebookNode:
    """Return the source notebook: intro, locked setup cell, per step an explanation, a
    trace-it-by-hand question (its shape checked visibly, its value in the hidden tests), the
    solution cell, a visible and a hidden test cell; last, the locked ``play(...)`` cell."""
    new_markdown = nbformat.v4.new_markdown_cell
    cells = [
        new_markdown(f"# {title}\n\nTODO: what the student builds, and how to work through the "
                     "notebook (run the setup cell; per step: explanation, trace it by hand, "
                     "code, test cell; the last cell plays)."),
        cell("# Setup: run me first (do not change this cell).\n"
             f"from plaisante.games.{game_id}.setup import *", "setup"),
    ]
    for number, (part, (trace, shown, hidden)) in enumerate(
            zip(parts, step_points(len(parts))), start=1):
        step = f"step{number}_{part}"
        cells += [
            new_markdown(f"## Step {number} · `{part}`\n\nTODO: explain the step. The example: "
                         f"`{part}(cards)` returns the highest value among `cards` (a card's "
                         "`.value` is 2 to 14, ace high), `0` for no card."),
            new_markdown(f"**Trace it by hand.** What does `{part}` return for the cards "
                         f"`{TRACE}`? Set `trace_{part}` to that number (an int)."),
            cell(f"### BEGIN SOLUTION\ntrace_{part} = 12\n### END SOLUTION",
                 f"step{number}_trace_answer", solution=True),
            cell(f"# Step {number}, trace: {part} of {TRACE} (only the shape is checked here).\n"
                 f'check_shape("trace_{part}", trace_{part}, int)\n'
                 "### BEGIN HIDDEN TESTS\n"
                 "# Rule: the value of the highest card, by the values of the ranks\n"
                 f'expect_value("trace_{part}", 12, lambda: trace_{part})\n'
                 "### END HIDDEN TESTS\n"
                 f'print("Step {number} trace: answer recorded.")',
                 f"step{number}_trace", points=trace),
            cell(f"def {part}(cards):\n"
                 '    """Return the highest value among cards, 0 for no card."""\n'
                 "    ### BEGIN SOLUTION\n"
                 "    return max((card.value for card in cards), default=0)\n"
                 "    ### END SOLUTION", f"{step}_code", solution=True),
            cell(f"# Step {number}: {part} of a few cards, and of none.\n"
                 f'expect_{part}({part}, "3♣ K♥ 7♠")\n'
                 f'expect_{part}({part}, "")\n'
                 f'visible_checks_pass("Step {number}")', step, points=shown),
            cell(f"# Step {number}, hidden tests (they run when your work is graded).\n"
                 "### BEGIN HIDDEN TESTS\n"
                 f"from plaisante.games.{game_id}.known_good import expect_{part}\n\n"
                 "# Rule: an ace counts high, above every other card\n"
                 f'expect_{part}({part}, "2♣ A♦ 9♥")\n'
                 "# Rule: one card is the highest of its hand\n"
                 f'expect_{part}({part}, "5♠")\n'
                 "### END HIDDEN TESTS\n"
                 f'print("Step {number} hidden tests: graded later.")', f"{step}_hidden",
                 points=hidden),
        ]
    cells += [
        new_markdown(f"## {title}\n\nRun this cell: until every step passes it lists the steps "
                     "and the first thing that fails; then the game runs on **your** code."),
        cell("# The game, on your code. (Do not change this cell.)\n"
             f"play({', '.join(f'{part}={part}' for part in parts)})", "play"),
    ]
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                       "name": "python3"},
        "language_info": {"name": "python"}})
