"""tests/README.md finds a module's tests: every test file of the suite and every room of the
package (a folder of ``plaisante/``, a module at its top) is named there, and every test file
it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from plaisante.games import COURSE

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "plaisante"
INDEX = (TESTS / "README.md").read_text(encoding="utf-8")


def named_files() -> set[str]:
    """The test files the index names, as paths under tests/ (``games/*/test_judge.py`` names
    one in each game's folder)."""
    found: set[str] = set()
    for written in re.findall(r"[\w/*]*test_\w+\.py", INDEX):
        found.update(str(path.relative_to(TESTS)) for path in TESTS.glob(written))
        if "*" not in written:
            found.add(written)
    return found


def test_every_test_file_is_in_the_index_and_every_one_named_exists() -> None:
    on_disk = {str(path.relative_to(TESTS)) for path in TESTS.rglob("test_*.py")}
    folders = set(re.findall(r"\b(games/\w+/)(?=[ ,|])", INDEX))  # a game's folder: all of it
    folders |= {f"games/{game}/" for game in COURSE}  # a new game's too, without a row
    listed = named_files() | {name for name in on_disk if any(map(name.startswith, folders))}
    assert sorted(on_disk - listed) == [], "add these to tests/README.md"
    assert sorted(named_files() - on_disk) == [], "tests/README.md names files that are gone"


def test_every_room_of_the_package_is_in_the_index() -> None:
    rooms = [f"plaisante/{path.parent.name}/" for path in PACKAGE.glob("*/__init__.py")]
    modules = [path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__"]
    assert [room for room in rooms if f"`{room}`" not in INDEX] == []
    assert [module for module in modules
            if f"`{module}`" not in INDEX and f"`plaisante/{module}.py`" not in INDEX] == []
