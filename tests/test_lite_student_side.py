"""The student side packed for JupyterLite: found from the setup cells' imports, free of the
grader and of nbgrader, and importable from the wheel alone with both blocked."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from plaisante import boundary
from plaisante.games import COURSE
from plaisante.lite import student_wheel

BLOCKED = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith(("plaisante.grading", "plaisante.course")):
            raise ImportError(f"blocked on the student side: {name}")
sys.meta_path.insert(0, Block())
sys.modules["nbgrader"] = None  # as if not installed: any import of it raises ImportError
"""


def test_the_student_side_holds_every_game_its_folder_and_nothing_trusted() -> None:
    modules = student_wheel.student_modules()
    for assignment in COURSE:
        for part in ("setup", "checks", "model", "view"):
            assert f"plaisante.games.{assignment}.{part}" in modules
    folder = [m for m in boundary.kernel_side() if m.startswith("plaisante.student_side")]
    files = sorted((boundary.PACKAGE / "student_side").glob("*.py"))
    assert len(folder) == len(files) > 1 and set(folder) <= set(modules)  # every module of it
    assert [m for m in modules if not boundary.on_kernel_side(m)] == []


def test_the_wheel_imports_and_shows_a_checklist_with_nbgrader_blocked(tmp_path: Path) -> None:
    modules = student_wheel.student_modules()
    wheel = student_wheel.build_wheel(tmp_path / "dist")
    assert wheel.name == "plaisante-0.1.0-py3-none-any.whl"
    again = student_wheel.build_wheel(tmp_path / "again")
    assert again.read_bytes() == wheel.read_bytes()  # reproducible
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    assert "plaisante/grading/judge.py" not in names and "plaisante/cli.py" not in names
    assert {f"{m.replace('.', '/')}.py" for m in modules if m.count(".") == 2
            and m.startswith("plaisante.student_side.")} <= set(names)
    assert {f"plaisante/games/{a}/style.css" for a in COURSE} <= set(names)
    code = BLOCKED + f"""
sys.path.insert(0, {str(tmp_path / "site")!r})
import importlib
for a in {list(COURSE)!r}:
    importlib.import_module(f"plaisante.games.{{a}}.setup")
import plaisante
assert plaisante.__file__.startswith({str(tmp_path / "site")!r}), plaisante.__file__
from plaisante.student_side.style import game_style
for a in {list(COURSE)!r}:
    game_style(a)  # each game's stylesheet is in the wheel, as its view reads it
from plaisante.games.plaisante import setup
shown = setup.play(**{{p: getattr(setup, p) for p in setup.ASSIGNMENT.parts}})
print(type(shown).__name__, sorted(m for m, v in sys.modules.items() if v is not None
                                     and (m.startswith("nbgrader") or "grading" in m)))
"""
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    shown, loaded = done.stdout.split()
    assert (shown, loaded) == ("Checklist", "[]"), done.stdout
