"""The plaisante command is a table of verbs: one module of plaisante.commands each, with its
help in its docstring, and the errors of every verb said in one place, in one line."""

from __future__ import annotations

import builtins
import pkgutil

import pytest
from course_cli import new_course

from plaisante import cli, commands


def test_every_verb_module_is_in_the_table_with_its_help_arguments_and_run():
    modules = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    table = {module.__name__.rsplit(".", 1)[1]: name for name, module in cli.VERBS}
    assert set(table) == modules, "a module of plaisante.commands is missing from cli.VERBS"
    assert len({name for name, _ in cli.VERBS}) == len(cli.VERBS)
    # importing plaisante.commands.X binds X in the package: a module named list would hide
    # the builtin from the shared helpers there
    assert not modules & set(dir(builtins)), "name the verb's module otherwise, e.g. listing"
    for name, module in cli.VERBS:
        assert (module.__doc__ or "").strip(), name
        assert callable(module.add_arguments) and callable(module.run), name


def test_plaisante_help_lists_each_verb_with_the_first_paragraph_of_its_docstring(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    listed = " ".join(capsys.readouterr().out.split())
    assert "grade autograde in a sandbox; print a table of scores and reasons (the way to " \
        "grade)" in listed
    assert "formgrader JupyterLab on the course" in listed
    for name, module in cli.VERBS:
        assert f" {name} {cli.help_line(module.__doc__)}" in listed, name


def test_a_verbs_help_shows_its_whole_docstring_and_its_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["grade", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: plaisante grade [-h] [--student STUDENT]")
    assert "With --student, and\n`plaisante grader` running for the course, the resident " \
        "grader grades them" in out
    assert "--workers WORKERS     grading processes (default: every core; 1: serial)" in out
    with pytest.raises(SystemExit):
        cli.main(["roster", "import", "--help"])
    assert "usage: plaisante roster import [-h] [--course COURSE] file" in capsys.readouterr().out


def test_every_option_and_argument_of_every_verb_says_what_it_takes():
    """``plaisante scores --help`` listed ``--student STUDENT`` with nothing beside it (so did
    autograde's ``--student``, demo's ``--port`` and three positionals): a newcomer reading the
    help could not tell whether it filters, repeats or names a default."""
    import argparse

    silent = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, verb in action.choices.items():
                    walk(verb, f"{path} {name}")
            elif action.help is None:
                silent.append(f"{path} {'/'.join(action.option_strings) or action.dest}")

    walk(cli.build_parser(), "plaisante")
    assert silent == []


def test_help_lines_follow_argparse_style():
    assert cli.help_line("List the course's assignments.\n\nMore.") == \
        "list the course's assignments"
    assert cli.help_line("JupyterLab on the\ncourse (100% open).") == \
        "JupyterLab on the course (100%% open)"
    assert cli.help_line("A student's check.") == "a student's check"


def test_a_verb_that_cannot_go_on_says_why_in_one_line_and_exits_2(tmp_path, capsys):
    course = new_course(tmp_path / "course")
    assert cli.main(["--course", str(course), "release", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("plaisante: unknown assignment 'nope'; the course has: plaisante, ")
    assert err.count("\n") == 1


def test_a_course_folder_that_is_not_there_is_said_in_one_line(tmp_path, capsys):
    """Before, every verb read a missing folder as an empty course: ``list`` printed nothing
    and exited 0."""
    missing = tmp_path / "no-course"
    for verb in (["list"], ["scores"], ["release", "deck"]):
        assert cli.main(["--course", str(missing), *verb]) == 2, verb
        assert capsys.readouterr().err == (
            f"plaisante: --course {missing}: no such folder; give the course's folder (the one "
            "holding nbgrader_config.py)\n"), verb
    assert not missing.exists()


def test_an_unknown_verb_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["gradde"])
    assert done.value.code == 2
    assert "invalid choice: 'gradde'" in capsys.readouterr().err


def test_building_the_parser_imports_no_nbgrader_gradebook_or_server():
    """Every command starts by building the whole table; a verb's arguments must not import
    nbgrader's gradebook or Jupyter's server (about a second of CPU in every command)."""
    import subprocess
    import sys

    probe = ("import sys; from plaisante import cli; cli.build_parser(); "
             "print(sorted(m for m in ('nbgrader.api', 'jupyter_server', 'sqlalchemy', 'dask')"
             " if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_validating_a_notebook_builds_no_grammar_at_import():
    """jsonschema 4.25+ imports rfc3987-syntax, which builds 38 lark parsers (about 1.5 s of
    CPU) in every process that imports nbformat's validator; requirements.txt pins 4.24."""
    import subprocess
    import sys

    probe = ("import sys, nbformat.validator, jsonschema; "
             "print('lark' in sys.modules, 'rfc3987_syntax' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "False"]
