"""``plaisante new-game ID`` gives a game that the course-wide tests pass once it is in
``COURSE``, and adding it touches only its folders and the ``COURSE`` line (docs/course.md,
"Adding an assignment").

In a copy of the kit: the command scaffolds a two-step game, the ``COURSE`` line it prints is
put in place of the old one, ``plaisante release`` and ``python -m plaisante.authoring.samples``
make its starter and samples; then the course-wide per-game tests run on that copy, in a
child pytest, selected by the game's id: every one of them runs and passes."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from plaisante.authoring.new_game import COURSE_TESTS
from plaisante.games import COURSE

ROOT = Path(__file__).resolve().parents[1]
GAME = "tiny_cards"
PARTS = ("high_card", "low_card")  # the parts' names are the maintainer's; the example's code
KIT = ("plaisante", "tests", "solutions", "starter", "assignments", "nbgrader_config.py",
       "pyproject.toml")

#: the course-wide tests that take every game of COURSE, and how many of their tests the new
#: game gets (parametrized by its id, or one test over every game)
SHARED = {
    "test_game_shell.py": 1, "test_course_units.py": 6, "test_rule_lines.py": 1,
    "test_visible_cases.py": 1, "test_course_judge.py": 6, "test_nothing_within_reach.py": 1,
    "test_kernel_tree.py": 1, "test_notebook_tracebacks.py": 1, "test_validate.py": 1,
}
#: tests over the whole course at once, which the new game is part of
WHOLE_COURSE = ("test_each_game_brings_its_own_css", "every_visible_test_cell_of_every",
                "test_no_code_outside_an_assignments_folder_names_it",
                "test_the_course_lists_every_assignment")

pytestmark = pytest.mark.nbgrader


def run(*args: str, kit: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS…`` in the copy ``kit``, its package first on the path; assert exit 0."""
    env = dict(os.environ, PYTHONPATH=str(kit), PLAISANTE_COURSE=str(kit),
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    done = subprocess.run([sys.executable, *args], cwd=kit, env=env, text=True,
                          capture_output=True, timeout=1200)
    assert done.returncode == 0, (args, done.stdout[-4000:], done.stderr[-3000:])
    return done


#: what running the course writes, which .gitignore leaves out of the kit's files
RUNNING = ("assignments/exchange/", "assignments/gradebook.db")


def digests(kit: Path) -> dict[str, str]:
    """{path under kit: sha256} of every file of the kit's, caches and ``RUNNING`` aside."""
    found = {str(path.relative_to(kit)): path for path in kit.rglob("*") if path.is_file()
             and "__pycache__" not in path.parts and ".pytest_cache" not in path.parts}
    return {name: hashlib.sha256(path.read_bytes()).hexdigest()
            for name, path in found.items() if not name.startswith(RUNNING)}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("kit")
    for name in KIT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name,
                            ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            shutil.copy(source, copy / name)
    return copy


def test_a_new_game_passes_the_course_wide_tests_touching_only_its_folders(kit: Path) -> None:
    before = digests(kit)
    made = run("-m", "plaisante.cli", "new-game", GAME, "--title", "Tiny cards", "--parts",
               ",".join(PARTS), kit=kit).stdout
    statement = re.compile(r"^COURSE: .*?\)$", re.M | re.S)  # the line, wrapped or not
    shown = re.search(r"^ +COURSE: .*?\)$", made, re.M | re.S)
    assert shown, made
    printed = statement.search(textwrap.dedent(shown.group()))
    assert printed and " ".join(printed.group().split()).endswith(f', "{GAME}")'), made
    assert f"plaisante release {GAME}" in made
    assert f'pytest -m "not slow" -k {GAME} tests/test_game_shell.py' in made
    assert sorted(SHARED) == sorted(COURSE_TESTS)
    games = kit / "plaisante" / "games" / "__init__.py"
    text = games.read_text(encoding="utf-8")
    assert len(statement.findall(text)) == 1
    games.write_text(statement.sub(printed.group(), text), encoding="utf-8")
    run("-m", "plaisante.cli", "release", GAME, kit=kit)
    run("-m", "plaisante.authoring.samples", GAME, kit=kit)

    after = digests(kit)
    changed = sorted(path for path in after if before.get(path) != after[path])
    own = (f"plaisante/games/{GAME}/", f"solutions/{GAME}/", f"starter/{GAME}/",
           f"assignments/samples/{GAME}/")
    assert [path for path in changed if not path.startswith(own)] == [
        "plaisante/games/__init__.py"]
    assert sorted(before) == sorted(path for path in after if not path.startswith(own))
    assert {path.split("/")[-1] for path in changed if path.startswith(own[3])} >= {
        "mistakes.py", "manifest.json", "full_marks.ipynb", "untouched.ipynb",
        "step_1_only.ipynb", *(f"{part}_{kind}.ipynb" for part in PARTS
                               for kind in ("lowest", "ace_low", "no_cards"))}

    # CI's linter and type checker on what the maintainer changed (a model and checks: strict)
    run("-m", "ruff", "check", f"plaisante/games/{GAME}", "plaisante/games/__init__.py",
        f"assignments/samples/{GAME}", kit=kit)
    run("-m", "mypy", f"plaisante/games/{GAME}", kit=kit)
    report = kit / "shared.xml"
    chosen = " or ".join((GAME, *WHOLE_COURSE))
    run("-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", "-k", chosen,
        f"--junitxml={report}", *(f"tests/{name}" for name in SHARED), "tests/test_style.py",
        "tests/test_visible_message.py", kit=kit)
    cases = ElementTree.parse(report).getroot().iter("testcase")
    ran: dict[str, int] = {}
    for case in cases:
        assert not [outcome.tag for outcome in case], (case.get("name"), case[0].text)
        file = case.get("classname", "").split(".")[-1] + ".py"
        ran[file] = ran.get(file, 0) + (GAME in case.get("name", ""))
    assert {file: count for file, count in ran.items() if file in SHARED} == SHARED
    assert sum(1 for file in ran if file not in SHARED) == 2  # test_style, test_visible_message


def test_a_bad_id_or_an_existing_game_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plaisante.cli import main

    (tmp_path / "plaisante" / "games").mkdir(parents=True)
    (tmp_path / "plaisante" / "games" / "__init__.py").write_text(
        (ROOT / "plaisante" / "games" / "__init__.py").read_text(encoding="utf-8"),
        encoding="utf-8")
    (tmp_path / "plaisante" / "games" / "shell.py").write_text("", encoding="utf-8")
    (tmp_path / "solutions" / "cards").mkdir(parents=True)
    refused = {
        ("shell",): "game id 'shell': plaisante/games/shell.py is the kit's, which a game of "
                    "that name would hide; e.g. 'shell_game'",
        ("cards", "--parts", "max"): "part 'max': the game's code already uses the name 'max' "
                                     "(a builtin or the kit's), which the part would hide; e.g. "
                                     "'max_part'",
        ("cards", "--parts", "play"): "part 'play': the game's code already uses the name "
                                      "'play' (a builtin or the kit's), which the part would "
                                      "hide; e.g. 'play_part'",
        ("cards", "--parts", "cards"): "part 'cards': the game's code already uses the name "
                                       "'cards' (a builtin or the kit's), which the part would "
                                       "hide; e.g. 'cards_part'",
        ("cards", "--parts", "best,check_best"): "parts 'best' and 'check_best': both make the "
                                                 "name 'check_best'; rename one",
        ("cards", "--title", "Two\nlines"): "title 'Two\\nlines': one line of text, no line "
                                            "break or other control character",
        ("high-card",): "game id 'high-card': use lowercase letters, digits and _ and start "
                        "with a letter (it is a Python name), e.g. 'high_card'",
        ("cards", "--parts", "best,class"): "part 'class': use lowercase letters, digits and "
                                            "_ and start with a letter (it is a Python name), "
                                            "e.g. 'class_'",
        ("cards", "--parts", "best,best"): "parts best, best: each part once",
        ("cards", "--parts", "2nd"): "part '2nd': use lowercase letters, digits and _ and "
                                     "start with a letter (it is a Python name), e.g. 'a_2nd'",
        ("cards", "--parts", ","): "give at least one part (--parts NAME[,NAME…]): one step each",
        ("deck",): f"'deck' is already a game of the course ({', '.join(COURSE)})",
        ("cards",): f"{tmp_path / 'solutions' / 'cards'} exists: a new game's folders must not",
    }
    for args, message in refused.items():
        assert main(["--course", str(tmp_path), "new-game", *args]) == 2
        assert capsys.readouterr().err == f"plaisante: {message}\n"
    assert main(["--course", str(tmp_path / "solutions"), "new-game", "cards"]) == 2
    assert capsys.readouterr().err == (
        f"plaisante: {tmp_path / 'solutions'}: no plaisante/games/ here; new-game writes into "
        "the kit's own source tree: run it in a clone of the kit\n")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["__init__.py", "cards", "games",
                                                           "plaisante", "shell.py", "solutions"]


def test_the_course_line_is_the_written_clone_s_course_with_the_game_last(
        tmp_path: Path) -> None:
    """The COURSE line replaces the one in the clone the game is written into, which need not
    be the clone Python imports the kit from: it holds that clone's games (a line made from
    the imported COURSE, copied in, dropped a game the clone had)."""
    from plaisante.authoring.new_game import scaffold

    games = tmp_path / "plaisante" / "games"
    games.mkdir(parents=True)
    (games / "__init__.py").write_text('COURSE: tuple[str, ...] = ("plaisante", "crazy")\n',
                                       encoding="utf-8")
    made = scaffold(tmp_path, "high_card", "High card", ("best_card",))
    assert made.course_line == 'COURSE: tuple[str, ...] = ("plaisante", "crazy", "high_card")'
    with pytest.raises(ValueError, match="'crazy' is already a game of the course "
                                         r"\(plaisante, crazy\)"):
        scaffold(tmp_path, "crazy", "Crazy", ("best_card",))
    (games / "__init__.py").write_text("COURSE = tuple(sorted(IDS))\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no COURSE"):
        scaffold(tmp_path, "low_card", "Low card", ("best_card",))


def test_a_title_with_quotes_and_backslashes_is_written_as_text(tmp_path: Path) -> None:
    """The title goes into the game's Python strings, docstrings and a CSS comment: quotes,
    backslashes and ``*/`` in it stay text (the package imports and holds the title as
    given), not code."""
    from plaisante.authoring.new_game import scaffold

    shutil.copytree(ROOT / "plaisante", tmp_path / "plaisante",
                    ignore=shutil.ignore_patterns("__pycache__"))
    title = 'Crazy "Eights" \\N{x} */ """ \\'
    made = scaffold(tmp_path, "crazy", title, ("high_card",))
    assert Path("plaisante/games/crazy/style.css") in made.files
    css = (tmp_path / "plaisante" / "games" / "crazy" / "style.css").read_text(encoding="utf-8")
    assert css.count("*/") == css.count("/*")
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import plaisante.games.crazy as g, "
         "plaisante.games.crazy.view as v; print(g.ASSIGNMENT.title); "
         "print(v.GameView.placeholder)"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(tmp_path)), text=True,
        capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [title, f"{title}: run this cell to play."]
