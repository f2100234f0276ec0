"""The trust boundary, by folder (``plaisante.boundary``): every module on the kernel's side
(``plaisante/student_side/``, ``plaisante/kernel/``, ``plaisante/games/`` but each game's
``known_good``, and the package's start-up) imports, anywhere in its code, only the kernel's
side, the standard library and what a kernel runs on.

Read from the source (every ``import`` and ``from … import`` of each module, at any depth of
its code, relative ones resolved, and every package on the way), not by importing: an import
inside a function counts as much as one at the top."""

from __future__ import annotations

from pathlib import Path

import pytest

from plaisante import boundary


def test_the_kernel_side_imports_only_the_kernel_side() -> None:
    found = boundary.crossings()
    assert not found, "the kernel's side imports what it may not:\n" + "\n".join(found)


def test_the_kernel_side_is_its_folders_and_the_start_up() -> None:
    side = boundary.kernel_side()
    assert {"plaisante", "plaisante.lazy_nbgrader", "plaisante.student_side.student_tests",
            "plaisante.student_side.wire", "plaisante.kernel.oracle", "plaisante.games.shell",
            "plaisante.games.deck.setup", "plaisante.games.holdem.view"} <= set(side)
    assert {name.split(".")[1] for name in side if name.count(".") >= 1} == {
        "lazy_nbgrader", "student_side", "kernel", "games"}
    assert not [name for name in side if name.endswith(".known_good")]
    for trusted in ("plaisante.grading.judge", "plaisante.grading.routed", "plaisante.course",
                    "plaisante.cli", "plaisante.boundary", "plaisante.games.deck.known_good",
                    "plaisante.authoring.reference", "plaisante.lite.student_wheel"):
        assert not boundary.on_kernel_side(trusted), trusted


def kit(root: Path, files: dict[str, str]) -> Path:
    """A package ``plaisante`` under ``root`` made of ``files`` (path -> source), every folder a
    package; return its folder."""
    package = root / "plaisante"
    for name, source in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in [path.parent, *path.parent.parents]:
            if folder == root:
                break
            (folder / "__init__.py").touch()
        path.write_text(source)
    return package


def test_the_check_finds_a_crossing_however_it_is_written(tmp_path: Path) -> None:
    """Inside a function, relative, through a game's known-good parts, or a library no kernel
    has: each named with its line; a trusted module may import anything."""
    package = kit(tmp_path, {
        "helper.py": "from .grading import judge\n",
        "grading/judge.py": "import nbgrader.api\n",
        "kernel/served.py": "import json\n\ndef f():\n    from .. import helper\n",
        "student_side/view.py": "import ipywidgets\nfrom ..kernel import served\n"
                                "import nbgrader.api\n",
        "games/g/checks.py": "from ...student_side import view\n",
        "games/g/setup.py": "from .checks import *\nfrom . import known_good\n",
        "games/g/known_good.py": "from ...grading.judge import x\n",
    })
    assert boundary.crossings(package) == [
        "plaisante.games.g.setup:2 imports plaisante.games.g.known_good (trusted code)",
        "plaisante.kernel.served:4 imports plaisante.helper (trusted code)",
        "plaisante.student_side.view:3 imports nbgrader.api (not a library a kernel has)"]


def test_a_walk_from_the_setup_modules_stops_at_trusted_code_naming_the_chain(
        tmp_path: Path) -> None:
    package = kit(tmp_path, {
        "grading/judge.py": "",
        "student_side/checks.py": "def later():\n    from ..grading import judge\n",
        "games/g/setup.py": "from ...student_side import checks\n",
    })
    top_only = boundary.walk(["plaisante.games.g.setup"], functions=False, package=package)
    assert list(top_only) == ["plaisante", "plaisante.games", "plaisante.games.g",
                              "plaisante.games.g.setup", "plaisante.student_side",
                              "plaisante.student_side.checks"]
    with pytest.raises(ValueError) as refused:
        boundary.walk(["plaisante.games.g.setup"], functions=True, package=package)
    assert str(refused.value) == (
        "the kernel's side imports trusted code: plaisante.grading.judge <- "
        "plaisante.student_side.checks <- plaisante.games.g.setup")


def test_the_kernel_side_has_no_second_home() -> None:
    """The modules that moved into plaisante/kernel/ and plaisante/student_side/ left no
    stand-in behind at their old names (a stand-in would be kernel code outside its folder)."""
    old = ["oracle", "kernel_zygote", "live_oracle", "kernel_filter", "kernel_data", "cards",
           "hand_names", "checking", "tracebacks", "assignment", "card_widgets", "style",
           "presenting", "student_tests", "surface", "wire"]
    assert [name for name in old if boundary.module_file(f"plaisante.{name}")] == []
