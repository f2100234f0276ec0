"""The kit as a graded kernel sees it: its student side only.

A graded kernel runs the student's code, so whatever of the kit it can import is within the
student's reach. The sandbox (``plaisante.grading.sandbox``) therefore never shows it the kit's
package folder: it shows, at the same path, a copy holding only the modules a kernel grading
that assignment needs (``plaisante.boundary.kernel_modules``: what its setup cells
import, and the kernel's own package) and their stylesheets. Another game's side is not in it
(a helper of one game may answer another's part), nor the grader, the course's commands or any
game's known-good parts (``plaisante.games.<id>.known_good``), so no import, no ``sys.modules``
walk and no garbage-collector search in a kernel can find them. Each game's visible answers
(``plaisante/games/<id>/visible.py``, the tables the student's own notebook checks with) come
with every table emptied: in a graded kernel no check runs (the judge runs them, from the
known-good parts), so a table there would only be an answer to copy; and each game's visible
buggy versions (``*_MISTAKES`` in its checks) are left out the same way.

The copy is made once per content (its folder is named by a hash of what it holds) under the
grader's own folder for such files, readable by the kernel's user, and reused by every sandbox.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

STYLESHEETS = (".css",)
#: The module of a game that holds its visible cases' answers
#: (``plaisante.student_side.checking.Table`` data, for the student's own notebook): a graded kernel
#: gets it with every table empty.
VISIBLE_ANSWERS = "visible.py"
#: A game's checks (its visible buggy versions, ``*_MISTAKES``, go: ``without_mistakes``).
CHECKS, MISTAKES = "checks.py", "_MISTAKES"
GRADED_ELSEWHERE = ("a buggy version shown in the notebook: it runs in the grader when your "
                    "work is graded")
PACKAGE = Path(__file__).resolve().parents[1]  # the kit's package folder


def emptied(source: str) -> str:
    """Return the Python ``source`` of a game's visible answers with every table at its top
    (a dict literal) empty: the names stay, so the checks import as before, and no answer is
    left in them."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            node.value = ast.Dict(keys=[], values=[])
    return ast.unparse(tree) + "\n"


def without_mistakes(source: str) -> str:
    """Return the Python ``source`` of a game's checks with its visible buggy versions gone:
    every ``*_MISTAKES`` table at its top empty, and each function such a table names answers
    only that it runs in the grader. A buggy version is one bug away from a right part, so in a
    graded kernel, where the own-tests cells run in the grader, it would only be an answer to
    adapt."""
    tree = ast.parse(source)
    named: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id.endswith(MISTAKES) for t in targets):
                named |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
                node.value = ast.Tuple(elts=[], ctx=ast.Load())
    refusal = ast.parse(f"raise RuntimeError({GRADED_ELSEWHERE!r})").body
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in named:
            node.body = refusal
    return ast.unparse(tree) + "\n"


def assignments_of(modules: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Return the ids of the assignments whose setup modules (``plaisante.games.<id>.setup``)
    are among ``modules`` (a release's setup cells' imports), in order."""
    games = re.escape(PACKAGE.name + ".games.")
    found = [match.group(1) for name in modules
             if (match := re.fullmatch(games + r"(\w+)\.setup", name))]
    return tuple(dict.fromkeys(found))


def _files(assignments: tuple[str, ...]) -> dict[str, Path]:
    """Return {path relative to the package's parent: source file} of the kernel's side of
    ``assignments`` (none: the whole course)."""
    import plaisante
    from plaisante.boundary import kernel_modules

    parent = Path(plaisante.__file__).resolve().parents[1]
    files: dict[str, Path] = {}
    folders: set[Path] = set()
    for path in kernel_modules(assignments or None).values():
        files[str(path.resolve().relative_to(parent))] = path
        folders.add(path.resolve().parent)
    for folder in folders:
        for sheet in sorted(folder.iterdir()):
            if sheet.suffix in STYLESHEETS and sheet.is_file():
                files[str(sheet.relative_to(parent))] = sheet
    return dict(sorted(files.items()))


def kernel_tree(base: Path, assignments: tuple[str, ...] = ()) -> Path:
    """Return the folder of the ``plaisante`` package a kernel grading ``assignments`` sees
    (their student side; none given: the whole course's), made under ``base`` if it is not there
    yet. Raises ValueError when the student side would import trusted code
    (``kernel_modules``)."""
    files = _files(assignments)
    digest = hashlib.sha256(Path(__file__).read_bytes())  # how the copy is made, too
    for relative, path in files.items():
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    name = PACKAGE.name
    top = base / f"{name}-kernel-side-{digest.hexdigest()[:16]}"
    package = top / name
    if package.is_dir():
        return package
    base.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".kernel-side-", dir=base))
    try:
        for relative, path in files.items():
            target = building / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.name == VISIBLE_ANSWERS:
                target.write_text(emptied(path.read_text(encoding="utf-8")), encoding="utf-8")
            elif path.name == CHECKS:
                target.write_text(without_mistakes(path.read_text(encoding="utf-8")),
                                  encoding="utf-8")
            else:
                shutil.copyfile(path, target)
        for root, _folders, names in os.walk(building):
            os.chmod(root, 0o755)
            for name in names:
                os.chmod(Path(root) / name, 0o644)
        try:
            building.rename(top)
        except OSError:  # another worker made the same copy first: theirs is as good
            shutil.rmtree(building, ignore_errors=True)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return package
