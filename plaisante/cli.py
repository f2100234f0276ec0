"""The plaisante command: the instructor's nbgrader steps, runnable from any folder.

Every command that acts on assignments takes their ids (plaisante list shows them); with none,
it acts on every assignment of the course. grade is the way to autograde (sandboxed; README).

    plaisante new-course FOLDER [ID …]            # a course of your own: the kit's config and
        [--course-id ID]                          # solutions/ (all five, or those named) in a
                                                  # new FOLDER; never over an existing one
    plaisante list                                # the course's assignments
    plaisante release [ID …]                      # solutions/ → starter/ → exchange (nbgrader)
    plaisante submit NOTEBOOK --student S [--assignment ID]
    plaisante submit FOLDER --student S           # one student's folder: notebooks, data files
    plaisante submit FOLDER_OR_ZIP [--pattern REGEX]  # a class: an LMS download, newest attempts
    plaisante grade [ID …] [--student S …]        # autograde, sandboxed; a table of scores
        [--workers N] [--scheduler tls://HOST:8786]  # every core by default, or a Dask cluster
    plaisante grader [ID] [--stop]                # keep a grader warm: grade --student answers
                                                  # at once (until Ctrl-C or --stop)
    plaisante regrade [ID …]                      # after fixing a test: release, grade all,
                                                  # say whose score changed
    plaisante scores [ID …] [--student S …]       # per-step scores, maximum, class average
    plaisante feedback [ID …] [--student S …]     # feedback pages (hidden tests' code left out)
    plaisante report [ID …] [--open]              # the class report: HTML page with figures
    plaisante similarity [ID …] [--include-reference]  # students whose code is alike
    plaisante export [ID …] [--to grades.csv] [--layout steps|lms]
    plaisante lms push|status [ID …]              # scores to the course's LMS by LTI 1.3 (AGS),
                                                  # and what it holds against the gradebook
    plaisante lms key                             # the tool's LTI key: made once, public half shown
    plaisante roster import FILE.csv              # names and emails (id,first_name,last_name,email)
    plaisante formgrader                          # JupyterLab on the course, formgrader open
    plaisante demo [ID] [--student S] [--seed N]  # the presenter view in Voila, full screen
    plaisante autograde [ID …] [--student S …]    # plain nbgrader autograde: trusted notebooks only
    plaisante validate NOTEBOOK                   # a student's check before handing in: which
                                                  # visible tests pass (needs no course)
    plaisante lite [ID …] --out DIR               # the starters as a JupyterLite site: students
                                                  # need nothing installed (works offline)
    plaisante watch ID                            # a live class: grade each submission of the
                                                  # exchange as it comes, feedback, a lab board
    plaisante new-game ID [--parts A,B]           # a new game's folders, from a template
    plaisante nbgrader ARGS…                      # any nbgrader command, from the course root
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from .commands import (
    demo,
    export,
    feedback,
    formgrader,
    grade,
    grader,
    listing,
    lite,
    lms,
    nbgrader,
    new_course,
    new_game,
    regrade,
    release,
    report,
    roster,
    scores,
    similarity,
    submit,
    validate,
    watch,
)
from .commands import unsandboxed_autograde as autograde

#: The verbs, in the order ``plaisante --help`` lists them: each a module of
#: ``plaisante.commands`` (its docstring the help, ``add_arguments``, ``run``).
VERBS: tuple[tuple[str, ModuleType], ...] = (
    ("new-course", new_course),
    ("list", listing),
    ("demo", demo),
    ("release", release),
    ("submit", submit),
    ("autograde", autograde),
    ("grade", grade),
    ("regrade", regrade),
    ("grader", grader),
    ("feedback", feedback),
    ("export", export),
    ("lms", lms),
    ("scores", scores),
    ("formgrader", formgrader),
    ("report", report),
    ("similarity", similarity),
    ("roster", roster),
    ("validate", validate),
    ("lite", lite),
    ("new-game", new_game),
    ("watch", watch),
    ("nbgrader", nbgrader),
)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of the ``plaisante`` command: the shared options (``--course``,
    taken before the verb or after it), then one subcommand per verb of ``VERBS``, whose
    module it calls with the parsed arguments (``args.run``; ``args.command`` is the verb's
    name)."""
    parser = argparse.ArgumentParser(prog="plaisante", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--course", type=Path, help="course folder (default: found from here)")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in VERBS:
        doc = (module.__doc__ or "").strip()
        if not doc:
            raise RuntimeError(f"plaisante.commands.{name} has no docstring: its first "
                               "paragraph is the verb's help")
        verb = sub.add_parser(name, help=help_line(doc), description=doc,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(verb)
        if name != "nbgrader":  # after the verb too, where a newcomer types it; nbgrader's
            # own arguments pass through untouched (it has a --course of its own)
            take_course_after(verb)
        verb.set_defaults(run=module.run)
    return parser


def take_course_after(parser: argparse.ArgumentParser) -> None:
    """Let ``--course`` follow the verb of ``parser`` and of each of its own subcommands
    (``lms push``, ``roster import``); absent there, the one before the verb stands."""
    parser.add_argument("--course", type=Path, default=argparse.SUPPRESS,
                        help="course folder (default: found from here)")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for nested in dict.fromkeys(action.choices.values()):
                take_course_after(nested)


def help_line(doc: str) -> str:
    """Return the line ``plaisante --help`` shows for a verb whose module docstring is ``doc``:
    its first paragraph on one line, in argparse's style (a first word such as "List" in
    lower case, "JupyterLab" kept; no final full stop; a ``%`` kept as it is)."""
    line = " ".join(doc.strip().split("\n\n")[0].split()).removesuffix(".")
    first = line.split(" ", 1)[0]
    if first[1:].islower() or len(first) == 1:
        line = line[:1].lower() + line[1:]
    return line.replace("%", "%%")


def main(argv: list[str] | None = None) -> int:
    """Run ``plaisante ARGS…`` (``argv``, default the command line); return the exit status:
    the verb's, or 2 with a one-line ``plaisante: …`` on stderr for a run that cannot go on
    (a ValueError, FileNotFoundError, FileExistsError, PermissionError or RuntimeError the
    kit raises, a failed nbgrader command, nbgrader's MissingEntry). Usage errors exit 2
    through argparse."""
    try:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
        return status
    except (ValueError, FileNotFoundError, FileExistsError, PermissionError,
            RuntimeError) as error:  # what the kit raises for a run that cannot go on
        from .results.tables import plain

        print(f"plaisante: {plain(error)}", file=sys.stderr)
    except subprocess.CalledProcessError as error:
        print(f"plaisante: {' '.join(map(str, error.cmd[2:]))} failed (exit {error.returncode});"
              " its output is above", file=sys.stderr)
    except BrokenPipeError:  # the reader went away (plaisante list | head -1): nothing to say
        # what is still buffered for stdout goes nowhere, or Python's exit reports it again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as error:
        if type(error).__name__ != "MissingEntry":  # nbgrader's, imported only when needed
            raise
        from .results.tables import plain

        print(f"plaisante: {plain(error)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
