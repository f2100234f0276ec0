"""A graded kernel sees the kit's student side only (``plaisante.grading.kernel_tree``): in the
real sandbox, the grader, the course's commands and every game's known-good parts cannot be
imported or found on disk, while everything a setup cell imports can."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from plaisante import boundary
from plaisante.games import COURSE
from plaisante.grading import sandbox
from plaisante.grading.result import Limits

PROBE = """
import importlib, json, pathlib, sys
import plaisante
found = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        found[name] = True
    except ImportError:
        found[name] = False
package = pathlib.Path(plaisante.__file__).parent
files = sorted(str(p.relative_to(package)) for p in package.rglob("*") if p.is_file())
print(json.dumps({"imports": found, "files": files}))
"""

TRUSTED = ["plaisante.grading", "plaisante.grading.judge", "plaisante.commands",
           "plaisante.cli", "plaisante.course", "plaisante.authoring.reference", "plaisante.lite",
           *[f"plaisante.games.{game}.known_good" for game in COURSE]]
STUDENT_SIDE = [f"plaisante.games.{game}.setup" for game in COURSE] + [
    "plaisante.kernel.oracle", "plaisante.kernel.routed", "plaisante.student_side.checking"]


def run_in_sandbox(names: list[str], preload: tuple[str, ...] = ()) -> dict[str, object]:
    """Run PROBE in a real grading sandbox (a kernel of the assignments whose setup modules
    are ``preload``; none: the whole course); return what it found."""
    return run_code(PROBE, names, preload)


def run_code(code: str, args: list[str], preload: tuple[str, ...] = ()) -> dict[str, object]:
    """Run Python ``code`` with ``args`` in a real grading sandbox; return the JSON it printed
    last."""
    sandbox.require_sandbox()
    with tempfile.TemporaryDirectory(dir=sandbox.scratch_base()) as folder:
        work, sockets = Path(folder) / "work", Path(folder) / "sockets"
        work.mkdir()
        sockets.mkdir()
        os.chmod(folder, 0o755)
        uid = sandbox.pick_uid() if sandbox.as_root() else os.getuid()
        command = sandbox.bwrap_command(work, sockets, uid, Limits(), sandbox.kernel_env(),
                                        preload)
        done = subprocess.run([*command, sys.executable, "-c", code, *args],
                              capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def probe() -> dict[str, object]:
    return run_in_sandbox(TRUSTED + STUDENT_SIDE)


def test_a_graded_kernel_cannot_import_the_grader_or_any_known_good_part(probe):
    imports = probe["imports"]
    assert {name: imports[name] for name in TRUSTED} == {name: False for name in TRUSTED}


def test_a_graded_kernel_imports_every_setup_and_its_own_package(probe):
    imports = probe["imports"]
    assert {name: imports[name] for name in STUDENT_SIDE} == {name: True
                                                              for name in STUDENT_SIDE}


def test_no_file_of_the_grader_is_in_the_kernels_copy_of_the_kit(probe):
    files = probe["files"]
    modules = [boundary.module_name(Path("plaisante") / name, Path("plaisante"))
               for name in files if name.endswith(".py")]
    assert [module for module in modules if not boundary.on_kernel_side(module)] == []
    assert "games/tricks/setup.py" in files and "kernel/oracle.py" in files
    assert "games/plaisante/style.css" in files


def test_a_kernel_grading_one_assignment_sees_no_other_games_side():
    found = run_in_sandbox(["plaisante.games.deck.setup", "plaisante.games.video_poker.rules",
                            "plaisante.games.tricks.checks"], ("plaisante.games.deck.setup",))
    assert found["imports"] == {"plaisante.games.deck.setup": True,
                                "plaisante.games.video_poker.rules": False,
                                "plaisante.games.tricks.checks": False}


def test_a_games_visible_answers_come_empty_into_a_graded_kernel(tmp_path):
    from plaisante.grading.kernel_tree import emptied

    source = ('"""Answers."""\nTABLE: dict[str, int] = {"K♥": 13}\nOTHER = {("a", None): "b"}\n'
              'NAME = "kept"\n')
    namespace: dict[str, object] = {}
    exec(emptied(source), namespace)  # noqa: S102
    assert (namespace["TABLE"], namespace["OTHER"], namespace["NAME"]) == ({}, {}, "kept")
    assert namespace["__doc__"] == "Answers."


TABLES = """
import importlib, json, sys
checks = importlib.import_module(f"plaisante.games.{sys.argv[1]}.checks")
parts = object.__getattribute__(checks.KNOWN, "_parts")
print(json.dumps({name: len(table.cases()) for name, table in parts.items()}))
"""


@pytest.mark.parametrize("game", COURSE)
def test_in_a_graded_kernel_the_visible_answers_hold_nothing(game):
    """Each game's ``KNOWN`` answers from the tables of its ``visible`` module in the student's
    notebook; in a graded kernel every one of them is empty (``kernel_tree.emptied``), while
    the module itself holds them."""
    visible = importlib.import_module(f"plaisante.games.{game}.visible")
    held = {name: len(value) for name, value in vars(visible).items()
            if name.isupper() and isinstance(value, dict)}
    assert held and all(held.values()), held
    there = run_code(TABLES, [game], (f"plaisante.games.{game}.setup",))
    assert there and set(there.values()) == {0}, there


MISTAKES = """
import importlib, json, sys
checks = importlib.import_module(f"plaisante.games.{sys.argv[1]}.checks")
found = {}
for name, value in vars(checks).items():
    if name.endswith("_MISTAKES"):
        found[name] = len(value)
refused = []
for name in sys.argv[2:]:
    try:
        getattr(checks, name)(*[None] * getattr(checks, name).__code__.co_argcount)
    except RuntimeError as error:
        refused.append("runs in the grader" in str(error))
    except Exception:
        refused.append(False)
print(json.dumps({"tables": found, "refused": refused}))
"""


def with_visible_buggy_versions() -> list[str]:
    """The games whose checks show buggy versions (a ``*_MISTAKES`` table of a students'
    own tests step); a game without such a step has none to hide."""
    return [game for game in COURSE if any(
        name.endswith("_MISTAKES")
        for name in vars(importlib.import_module(f"plaisante.games.{game}.checks")))]


@pytest.mark.parametrize("game", with_visible_buggy_versions())
def test_in_a_graded_kernel_the_visible_buggy_versions_are_gone(game):
    """A visible buggy version is one bug away from a right part: a graded kernel's checks hold
    none (their tables empty, the functions they name refuse), while here they do."""
    from plaisante.student_side.student_tests import Version

    here = importlib.import_module(f"plaisante.games.{game}.checks")
    tables = {name: value for name, value in vars(here).items() if name.endswith("_MISTAKES")}
    assert tables and all(tables.values())
    functions = sorted({name for versions in tables.values() for each in versions
                        if isinstance(each, Version)
                        for name, part in vars(here).items()
                        if callable(part) and name.startswith("_")
                        and part in each.parts.values()})
    assert functions
    there = run_code(MISTAKES, [game, *functions], (f"plaisante.games.{game}.setup",))
    assert there == {"tables": {name: 0 for name in tables}, "refused": [True] * len(functions)}
