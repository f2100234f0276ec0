"""The plaisante command: the instructor's nbgrader steps, runnable from any folder.

Every command that acts on assignments takes their ids (plaisante list shows them); with none,
it acts on every assignment of the course. grade is the way to autograde (sandboxed; README).

    plaisante list                                # the course's assignments
    plaisante release [ID …]                      # solutions/ → starter/ → exchange (nbgrader)
    plaisante submit NOTEBOOK --student S [--assignment ID]
    plaisante submit FOLDER --student S           # one student's folder: notebooks, data files
    plaisante submit FOLDER_OR_ZIP [--pattern REGEX]  # a class: an LMS download, newest attempts
    plaisante grade [ID …] [--student S …]        # autograde, sandboxed; a table of scores
        [--workers N] [--scheduler tcp://HOST:8786]  # every core by default, or a Dask cluster
    plaisante grader [ID] [--stop]                # keep a grader warm: grade --student answers
                                                  # at once (until Ctrl-C or --stop)
    plaisante regrade [ID …]                      # after fixing a test: release, grade all,
                                                  # say whose score changed
    plaisante scores [ID …] [--student S …]       # per-step scores, maximum, class average
    plaisante feedback [ID …] [--student S …]     # feedback pages (hidden tests' code left out)
    plaisante report [ID …] [--open]              # the class report: HTML page with figures
    plaisante export [ID …] [--to grades.csv] [--layout steps|lms]
    plaisante roster import FILE.csv              # names and emails (id,first_name,last_name,email)
    plaisante formgrader                          # JupyterLab on the course, formgrader open
    plaisante demo [ID] [--student S] [--seed N]  # the presenter view in Voila, full screen
    plaisante autograde [ID …] [--student S …]    # plain nbgrader autograde: trusted notebooks only
    plaisante validate NOTEBOOK                   # a student's check before handing in: which
                                                  # visible tests pass (needs no course)
    plaisante nbgrader ARGS…                      # any nbgrader command, from the course root
    plaisante lite [ID …] --out DIR               # the starters as a static JupyterLite site
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from . import course
from .commands import lite
from .course import course_root
from .lateness import LMS_LATE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plaisante", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--course", type=Path, help="course folder (default: found from here)")
    sub = parser.add_subparsers(dest="command", required=True)
    ids: dict[str, Any] = {"nargs": "*", "metavar": "ID",
                           "help": "assignment ids (default: every one)"}
    sub.add_parser("list", help="list the course's assignments")
    p = sub.add_parser("demo", help="the lecture-hall presenter view of an assignment, in Voila")
    p.add_argument("assignment", nargs="?", metavar="ID",
                   help="the assignment (default: the course's first)")
    p.add_argument("--seed", type=int, help="the first deal's seed (default 2026)")
    p.add_argument("--port", type=int, default=8866)
    p.add_argument("--no-browser", action="store_true", help="print the address, open nothing")
    p.add_argument("--student", help="play on this student's submitted functions (run in the "
                                     "grading sandbox) instead of the reference")
    p = sub.add_parser("release", help="generate the student version into starter/ and "
                                       "release it into the course's exchange")
    p.add_argument("assignments", **ids)
    p = sub.add_parser("submit", help="copy a student's notebook into assignments/submitted; "
                                      "or every notebook of a folder or .zip (LMS download)")
    p.add_argument("notebook", type=Path, help="a notebook (with --student), or a folder or "
                                               ".zip of notebooks named by --pattern")
    p.add_argument("--student", help="the student's id (a notebook, or one student's folder: "
                                     "its notebooks and data files)")
    p.add_argument("--pattern", help="for a folder or .zip: a regex with a (?P<student_id>…) "
                                     "group that must match a whole file name, with or "
                                     "without its .ipynb (so '(?P<student_id>[a-z]+)_\\d+_deck' "
                                     "names smithkara_1234_deck.ipynb; default: the names "
                                     "Canvas, Moodle, Blackboard and Brightspace downloads "
                                     "give, else ID.ipynb)")
    p.add_argument("--assignment", help="its assignment (default: the one whose cells the "
                                        "notebook holds; checked either way)")
    p.add_argument("--replace", action="store_true",
                   help="replace an earlier submission (kept in assignments/replaced/)")
    p.add_argument("--timezone", help="for an LMS download: the time zone of the times in "
                                      "its file names (an IANA name; default UTC)")
    p = sub.add_parser("autograde", help="autograde submissions with plain nbgrader "
                                         "(trusts the student's code)")
    p.add_argument("assignments", **ids)
    p.add_argument("--student", action="append")
    grade = sub.add_parser("grade", help="autograde in a sandbox; print a table of scores and "
                                         "reasons (the way to grade)",
                           description="Autograde submissions in a sandbox and print a table of "
                           "scores and reasons. With --student, and `plaisante grader` running "
                           "for the course, the resident grader grades them (about half a "
                           "second each).")
    regrade = sub.add_parser("regrade", help="after fixing a test in solutions/: release again, "
                                             "grade everyone, say whose score changed")
    for p in (grade, regrade):
        p.add_argument("assignments", **ids)
        p.add_argument("--student", action="append", help="grade only this student (repeatable)")
        p.add_argument("--no-sandbox", action="store_true",
                       help="run kernels unsandboxed (only for notebooks you trust)")
        p.add_argument("--cell-timeout", type=float,
                       help="seconds per cell (default: c.Execute.timeout of nbgrader_config.py, "
                            "else 30)")
        p.add_argument("--timeout", type=float, default=300.0, help="seconds per submission")
        p.add_argument("--workers", type=int,
                       help="grading processes (default: every core; 1: serial)")
        p.add_argument("--scheduler", metavar="ADDRESS",
                       help="a Dask scheduler, e.g. tcp://host:8786, to fan the grading out to "
                            "('local': a Dask LocalCluster of --workers processes)")
    p = sub.add_parser("grader", help="keep a grader running for this course, warm, so that "
                                      "`grade ID --student S` hands it the submission and "
                                      "answers at once (Ctrl-C stops it)",
                       description="Keep a grader running for this course, warm, so that "
                       "`plaisante grade ID --student S` hands it the submission and answers "
                       "in about half a second, with the same scores. It runs in the "
                       "foreground: Ctrl-C, or `plaisante grader --stop` from another "
                       "terminal, stops it. It restarts itself when the kit's code changes.")
    p.add_argument("assignment", nargs="?", help="the assignment to get ready for (default: "
                                                 "the one submitted to last); any is graded")
    p.add_argument("--workers", type=int, default=1,
                   help="grading processes kept warm (default: %(default)s)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="get ready for unsandboxed grading (only for notebooks you trust)")
    p.add_argument("--stop", action="store_true", help="stop this course's running grader")
    p = sub.add_parser("feedback", help="generate feedback HTML (hidden tests' code left out)")
    p.add_argument("assignments", **ids)
    p.add_argument("--student", action="append", help="only this student (repeatable)")
    p = sub.add_parser("export", help="export grades to CSV (nbgrader export): per-step "
                                      "columns, flagged and reason; or an LMS layout")
    p.add_argument("assignments", **ids)
    p.add_argument("--to", default="grades.csv", help="the CSV file (default: %(default)s)")
    p.add_argument("--layout", choices=("steps", "lms"), default="steps",
                   help="steps: one row per submission, each step's points, total, max, "
                        "flagged, reason, timestamp, late penalty (default); lms: one row per "
                        "student, an id column and one column per assignment, for a Canvas or "
                        "Moodle grade book import (README)")
    p.add_argument("--student", action="append", help="only this student (repeatable)")
    p = sub.add_parser("scores", help="print per-step scores from the gradebook")
    p.add_argument("assignments", **ids)
    p.add_argument("--student", action="append")
    p = sub.add_parser("formgrader", help="JupyterLab on the course with nbgrader's formgrader "
                                          "open (roster names shown; Ctrl-C stops it)")
    p.add_argument("--port", type=int, help="the server's port (default: JupyterLab's, 8888)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser (a server)")
    p.add_argument("lab_args", nargs=argparse.REMAINDER,
                   help="more JupyterLab options, after --, e.g. -- --ServerApp.ip=0.0.0.0")
    p = sub.add_parser("report", help="the class report: assignments/reports/ID/index.html "
                                      "with figures (histogram, steps, failing test cells)")
    p.add_argument("assignments", **ids)
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p = sub.add_parser("roster", help="names and emails of the class (nbgrader's student table)")
    roster = p.add_subparsers(dest="roster_command", required=True)
    p = roster.add_parser("import", help="import a CSV: a header row with id (or student_id) "
                                         "and any of first_name, last_name, email")
    p.add_argument("file", type=Path)
    p = sub.add_parser("validate", help="a student's check: run a notebook and say which "
                       "visible tests pass (hidden tests run when graded)")
    p.add_argument("notebook", type=Path)
    p = sub.add_parser("nbgrader", help="run any nbgrader command from the course root")
    p.add_argument("args", nargs=argparse.REMAINDER)
    lite.add_arguments(sub.add_parser("lite", help=lite.__doc__.split(":")[0]))
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command == "validate":  # a student's check: needs no course folder
            from .validate import validate

            return validate(args.notebook)
        if args.command == "lite":
            return lite.run(args)
        return _run(args)
    except (ValueError, FileNotFoundError, FileExistsError, PermissionError,
            RuntimeError) as error:  # what the kit raises for a run that cannot go on
        from .tables import plain

        print(f"plaisante: {plain(error)}", file=sys.stderr)
    except subprocess.CalledProcessError as error:
        print(f"plaisante: {' '.join(map(str, error.cmd[2:]))} failed (exit {error.returncode});"
              " its output is above", file=sys.stderr)
    except Exception as error:
        if type(error).__name__ != "MissingEntry":  # nbgrader's, imported only when needed
            raise
        from .tables import plain

        print(f"plaisante: {plain(error)}", file=sys.stderr)
    return 2


def chosen(layout: course.CourseLayout, asked: list[str]) -> list[str]:
    """Return the assignment ids a command acts on: ``asked``, or every one of the course.
    Raises ValueError naming the course's assignments for an id it does not have."""
    from .games import COURSE

    found = layout.assignments()
    known = [a for a in COURSE if a in found] + [a for a in found if a not in COURSE]
    for assignment in asked:
        if assignment not in known:
            raise ValueError(f"unknown assignment {assignment!r}; the course has: "
                             f"{', '.join(known) or 'none (no solutions/ID/ID.ipynb)'}")
    return list(dict.fromkeys(asked)) or known


def _run(args: argparse.Namespace) -> int:
    root = args.course.resolve() if args.course else course_root()
    layout = course.CourseLayout(root)
    if args.command == "list":
        from .games import COURSE, load

        found = layout.assignments()
        ordered = [a for a in COURSE if a in found] + [a for a in found if a not in COURSE]
        titles = {a: load(a).title if a in COURSE else "" for a in ordered}
        wide = max((len(a) for a in ordered), default=0), max(map(len, titles.values()), default=0)
        states = {a: release_state(layout, a) for a in ordered}
        wide_state = max(map(len, states.values()), default=0)
        for assignment in ordered:  # in teaching order (the course's list), then any other
            count = len(layout.submitted_students(assignment))
            print(f"{assignment:<{wide[0]}}  {titles[assignment]:<{wide[1]}}  "
                  f"{states[assignment]:<{wide_state}}  {count} submission(s)")
    elif args.command == "demo":
        from . import demo
        from .games import COURSE

        return demo.serve(root, args.assignment or COURSE[0], seed=args.seed,
                          student=args.student, port=args.port,
                          open_browser=not args.no_browser)
    elif args.command == "release":
        for assignment in chosen(layout, args.assignments):
            again = layout.release(assignment).is_file()
            course.run_nbgrader("generate_assignment", assignment, "--force",
                                "--log-level=ERROR", root=root)
            print(f"plaisante release: {assignment} -> {_released(layout, assignment)}"
                  + (", replacing the earlier release" if again else ""))
        try:  # into the course's exchange too: "released" in the formgrader, fetched there
            from .formgrader import release_to_exchange

            release_to_exchange(root, chosen(layout, args.assignments))
        except ValueError:
            pass  # a course whose nbgrader_config.py sets no exchange: nbgrader's default
    elif args.command == "submit":
        chosen(layout, [args.assignment] if args.assignment else [])
        if args.notebook.is_dir() or args.notebook.suffix.lower() == ".zip":
            return _submit_many(layout, args)
        if not args.student:
            raise ValueError("submit NOTEBOOK needs --student ID (a folder or .zip of "
                             "notebooks needs none: --pattern names them)")
        _readable(args.notebook)
        assignment = _assignment_of(layout, args.notebook, args.assignment)
        print(course.submit(args.notebook, args.student, root, replace=args.replace,
                            assignment=assignment))
    elif args.command == "autograde":
        for assignment in chosen(layout, args.assignments):
            if not args.student and not layout.submitted_students(assignment):
                print(f"plaisante autograde: no submissions of {assignment!r}, skipped")
                continue
            for student in args.student or [None]:
                flags = ["--student", student] if student else []
                course.run_nbgrader("autograde", assignment, "--force", *flags, root=root)
    elif args.command == "grade":
        assignments = chosen(layout, args.assignments)
        if args.student and not args.assignments:  # only where these students submitted
            assignments = _submitted_by(layout, assignments, args.student)
        statuses = []
        for assignment in assignments:
            if len(assignments) > 1:
                print(f"== {assignment} ==")
            try:
                statuses.append(_grade(root, assignment, args))
            except Exception as error:  # noqa: BLE001  the next assignment is graded still
                print(f"plaisante grade: {assignment}: {type(error).__name__}: {error}",
                      file=sys.stderr)
                statuses.append(2)
        return max(statuses, default=0)
    elif args.command == "grader":
        from .grading import service

        if args.stop:
            stopped = service.ask_to_stop(root)
            print("plaisante grader: " + (f"stopped the grader of {root} (pid {stopped})"
                                          if stopped else f"no grader serves {root}"))
            return 0 if stopped else 1
        if args.assignment:
            chosen(layout, [args.assignment])
        return service.serve(root, assignment=args.assignment, workers=args.workers,
                             sandbox=not args.no_sandbox)
    elif args.command == "regrade":
        statuses = [_regrade(root, assignment, args)
                    for assignment in chosen(layout, args.assignments)
                    if args.assignments or layout.submitted_students(assignment)]
        return max(statuses, default=0)
    elif args.command == "feedback":
        from .grading.feedback import write_missing_pages
        from .tables import plain

        failed: list[str] = []
        for assignment in chosen(layout, args.assignments):
            present = layout.submitted_students(assignment)
            for student in args.student or []:
                if student not in present:
                    raise ValueError(f"no submission of {assignment!r} for student "
                                     f"{student!r}; submitted: {', '.join(present) or 'none'}")
            if not present:
                continue
            said = course.run_nbgrader("generate_feedback", assignment, "--force",
                                       *only_students(args.student, present),
                                       "--log-level=ERROR", root=root, check=False,
                                       capture=True)
            sys.stdout.write(said.stdout)
            unmade = [s for s in args.student or present
                      if layout.autograded(s, assignment).is_file()
                      and not layout.feedback(s, assignment).is_file()]
            for page in write_missing_pages(root, assignment, args.student,
                                            after_nbgrader=True):
                print(f"plaisante feedback: no notebook to show, wrote the grader's reasons "
                      f"to {page}")
            if unmade:
                last = said.stderr.strip().splitlines()[-1:] or ["no error shown"]
                failed.append(f"nbgrader made no feedback page of {assignment!r} for "
                              f"{', '.join(unmade)} (a page with the grader's reasons instead); "
                              f"nbgrader said: {plain(last[0])[:300]}")
            else:
                sys.stderr.write(said.stderr)
            made = [s for s in args.student or present
                    if layout.feedback(s, assignment).is_file()]
            print(f"plaisante feedback: {len(made)} page(s) of {assignment!r} in "
                  f"{layout.feedback('STUDENT', assignment)}")
        for line in failed:
            print(f"plaisante feedback: {line}", file=sys.stderr)
        return 1 if failed else 0
    elif args.command == "export":
        from .export import LAYOUTS

        target = Path(args.to).resolve()
        if not target.parent.is_dir():
            raise FileNotFoundError(f"cannot write {target}: folder {target.parent} does not exist")
        flags = [f"--assignment={a}" for a in chosen(layout, args.assignments)
                 if args.assignments]
        flags += [f"--student={s}" for s in args.student or []]
        course.run_nbgrader("export", f"--exporter={LAYOUTS[args.layout]}", f"--to={target}",
                            *flags, "--log-level=WARN", root=root)
        print(f"plaisante export: wrote {target} ({args.layout} layout)")
    elif args.command == "scores":
        _scores(root, chosen(layout, args.assignments), args.student)
    elif args.command == "formgrader":
        from .formgrader import serve

        extra = tuple(a for a in args.lab_args if a != "--")
        return serve(root, port=args.port, open_browser=not args.no_browser, extra=extra)
    elif args.command == "report":
        from . import report

        for assignment in chosen(layout, args.assignments):
            if not args.assignments and not layout.submitted_students(assignment):
                continue
            page = report.write(root, assignment)
            print(f"plaisante report: wrote {page}")
            if args.open:
                import webbrowser

                webbrowser.open(page.as_uri())
    elif args.command == "roster":
        from .roster import import_roster

        count = import_roster(args.file, root)
        print(f"plaisante roster: {count} student(s) from {args.file} are in the gradebook")
    elif args.command == "nbgrader":
        return course.run_nbgrader(*args.args, root=root, check=False).returncode
    return 0


def only_students(asked: list[str] | None, present: list[str]) -> list[str]:
    """Return the nbgrader options that limit a converter (generate_feedback, autograde) to
    the ``asked`` students of those ``present``: nbgrader's ``--student`` is one glob, so a
    repeated one keeps only the last; several are every present student but the others
    (``CourseDirectory.student_id_exclude``). None asked: no option, every student."""
    wanted = list(dict.fromkeys(asked or []))
    if not wanted:
        return []
    if len(wanted) == 1:
        return [f"--student={wanted[0]}"]
    others = [s for s in present if s not in wanted]
    return [f"--CourseDirectory.student_id_exclude={','.join(others)}"] if others else []


def _submitted_by(layout: course.CourseLayout, assignments: list[str],
                  students: list[str]) -> list[str]:
    """Return those of ``assignments`` that any of ``students`` submitted. Raises ValueError
    for a student with no submission at all."""
    submitted = {a: set(layout.submitted_students(a)) for a in assignments}
    for student in students:
        if not any(student in present for present in submitted.values()):
            raise ValueError(f"student {student!r} has no submission of any assignment "
                             f"(plaisante submit NOTEBOOK --student {student})")
    return [a for a in assignments if submitted[a] & set(students)]


def release_state(layout: course.CourseLayout, assignment: str) -> str:
    """Return what ``list`` says of an assignment's release: whether its student version is
    generated in ``starter/``, and whether it is released into nbgrader's exchange (students
    can fetch it; the formgrader says "released") or not (the formgrader says "draft").
    Nothing is made: a course without an exchange folder has released nothing into it."""
    if not layout.release(assignment).is_file():
        return "not generated (plaisante release)"
    config = course.course_config(layout.root)
    exchange = config.get("Exchange", {}).get("root")
    course_id = config.get("CourseDirectory", {}).get("course_id")
    if not isinstance(exchange, str) or not exchange or not isinstance(course_id, str):
        return "in starter/ (no exchange configured)"
    if (Path(exchange) / course_id / "outbound" / assignment).is_dir():
        return "released (students can fetch it)"
    return "in starter/, not released (plaisante release)"


def _released(layout: course.CourseLayout, assignment: str) -> str:
    """Return what ``release`` made of ``assignment``: the student version's path, its test
    cells and points."""
    import json

    path = layout.release(assignment)
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    graded = [c.get("metadata", {}).get("nbgrader", {}) for c in cells]
    points = sum(float(g.get("points", 0)) for g in graded if g.get("grade"))
    tests = sum(1 for g in graded if g.get("grade") and not g.get("solution"))
    shown = path.relative_to(layout.root) if path.is_relative_to(layout.root) else path
    return f"{shown} ({tests} test cells, {points:g} points)"


def _unreadable(notebook: Path) -> str | None:
    """Return why ``notebook`` is not a notebook the grader can read (the grader's own test: a
    file, UTF-8 JSON, a list of cells), in one line; None when it is one."""
    from .grading.notebook_check import Unreadable, read_submission

    try:
        read_submission(Path(notebook).resolve())
    except Unreadable as problem:
        return f"{problem}. Submit the .ipynb file as Jupyter saved it (File > Download)"
    except RecursionError:
        return "it is nested too deep to be a notebook Jupyter saved"
    return None


def _readable(notebook: Path) -> None:
    """Raise ValueError in one line unless ``notebook`` is a notebook the grader can read, so
    that nothing unreadable is collected."""
    if not Path(notebook).is_file():
        raise FileNotFoundError(f"no notebook at {notebook}")
    why = _unreadable(notebook)
    if why:
        raise ValueError(f"refused {notebook}, nothing was collected: {why}")


def _submit_many(layout: course.CourseLayout, args: argparse.Namespace) -> int:
    """Submit the folder or zip ``args.notebook``: with ``--student``, as that one student's
    submission; else each student's newest attempt in it (``plaisante.collect``), older
    attempts set aside in ``replaced/``; print one line per student. A student whose work
    cannot be submitted is said and skipped; returns 1 when any was."""
    import tempfile

    from .collect import collected
    from .tables import plain

    if args.student:
        return _submit_folder(layout, args)
    with tempfile.TemporaryDirectory(prefix="plaisante-collect-") as unpacked:
        found = collected(args.notebook, args.pattern, Path(unpacked), zone=_zone(args),
                          assignments=layout.assignments())
        if found.layout:
            print(f"read as a download of {found.layout}")
        where = Path(args.notebook) if Path(args.notebook).is_dir() else Path()
        for student, ids in found.renamed:
            print(plain(f"{student}: {len(ids)} people of this name in the download, submitted "
                        f"as {', '.join(ids)} (their LMS numbers): tell which is the roster's "
                        f"{student} and resubmit that one with --student {student}"))
        for student, shown, why in found.refused:
            print(plain(f"{student}: refused ({where / shown}): {why}"))
        refused = len(found.refused)
        people: dict[str, str] = {}
        for submission in found.submissions:
            kept, student = submission.kept, submission.student
            kept.shown = plain(str(where / kept.shown))
            try:
                assignment, notes = _submit_attempt(layout, args, kept)
                target = layout.submitted(student, assignment).parent
                print(f"{student}: {target} ({', '.join([kept.shown, *notes])})")
                if kept.person:
                    people[student] = kept.person
                for older in submission.set_aside:
                    kept_at = course.set_aside(older.files, student, older.label, layout.root)
                    print(plain(f"{student}: set aside an older attempt "
                                f"({where / older.shown}), kept in {kept_at}"))
            except (ValueError, FileNotFoundError, FileExistsError) as error:
                refused += 1
                print(plain(f"{student}: refused ({kept.shown}): {_one_line(str(error))}"))
            except Exception as error:  # noqa: BLE001  e.g. RecursionError: the rest go on
                refused += 1
                print(plain(f"{student}: refused ({kept.shown}): could not be submitted "
                            f"({type(error).__name__}: {_one_line(str(error))})"))
    if people:
        named = course.name_students(people, layout.root)
        if named:
            print(f"named {len(named)} student(s) in the gradebook as {found.layout} names "
                  "them (a roster's names are kept)")
    if found.skipped:
        print(f"skipped {len(found.skipped)} file(s) the pattern does not name: "
              f"{plain(', '.join(found.skipped[:5]))}{'…' if len(found.skipped) > 5 else ''}")
    print(f"{len(found.submissions) + len(found.refused) - refused} submitted, "
          f"{refused} refused")
    return 1 if refused else 0


def _zone(args: argparse.Namespace) -> Any:
    """Return the time zone ``--timezone`` names (default UTC). Raises ValueError for one
    that is not an IANA name."""
    import datetime
    import zoneinfo

    if not getattr(args, "timezone", None):
        return datetime.timezone.utc
    try:
        return zoneinfo.ZoneInfo(args.timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"--timezone {args.timezone!r} is not a time zone name; use an "
                         "IANA name such as Europe/Paris or America/New_York") from None


def _submit_attempt(layout: course.CourseLayout, args: argparse.Namespace,
                    attempt: Any) -> tuple[str, list[str]]:
    """Submit one attempt of ``plaisante.collect`` (its notebooks and data files); return its
    assignment and what the output line says of it. Raises ValueError when none of its
    notebooks can be read."""
    notebooks = attempt.notebooks
    problems = [why for name in notebooks if (why := _unreadable(attempt.files[name]))]
    if len(problems) == len(notebooks):
        raise ValueError(problems[0])
    readable = [n for n in notebooks if not _unreadable(attempt.files[n])]
    assignment = _assignment_of(layout, attempt.files[readable[0]], args.assignment)
    files = dict(attempt.files)
    if len(notebooks) == 1:  # one notebook: under the name nbgrader expects
        files[f"{assignment}.ipynb"] = files.pop(notebooks[0])
    notes = []
    timestamp: Any = attempt.timestamp or (None if attempt.lms else True)
    if attempt.lms and attempt.timestamp is None:
        notes.append(f"{attempt.lms} gives no time: no timestamp.txt")
    late = None
    if attempt.late:
        notes.append(attempt.late.replace(" it ", " this "))
        late = attempt.late
    if len(notebooks) > 1:
        notes.append(f"{len(notebooks)} notebooks: the grader grades the one holding the work")
    if len(files) > len(notebooks):
        notes.append(f"{len(files) - len(notebooks)} data file(s)")
    if attempt.left_out:
        notes.append(f"left out: {', '.join(attempt.left_out[:3])}")
    target = course.submit_files(files, attempt.student, layout.root, replace=args.replace,
                                 assignment=assignment, timestamp=timestamp)
    if late:
        (target.parent / LMS_LATE).write_text(late + "\n", encoding="utf-8")
    return assignment, notes


def _submit_folder(layout: course.CourseLayout, args: argparse.Namespace) -> int:
    """Submit the folder ``args.notebook`` as student ``args.student``'s submission: its
    notebooks and the data files beside them (not its subfolders), as nbgrader's exchange
    copies a submission folder."""
    from .collect import RESERVED, safe_name
    from .grading.handed_in import MAX_DATA_BYTES

    if Path(args.notebook).suffix.lower() == ".zip":
        raise ValueError("--student names one student: give that student's notebook or "
                         "folder; for a .zip of a class, --pattern (or the LMS's names) finds "
                         "each student")
    folder = Path(args.notebook)
    entries = [p for p in sorted(folder.iterdir()) if not p.name.startswith(".")]
    files = {safe_name(p.name): p for p in entries
             if p.is_file() and not p.is_symlink() and p.name not in RESERVED
             and (p.name.endswith(".ipynb") or p.stat().st_size <= MAX_DATA_BYTES)}
    left_out = [p.name for p in entries if p not in files.values()]
    notebooks = [name for name in files if name.endswith(".ipynb")]
    if not notebooks:
        raise ValueError(f"{folder} holds no notebook (.ipynb) to submit")
    problems = [why for name in notebooks if (why := _unreadable(files[name]))]
    if len(problems) == len(notebooks):
        raise ValueError(f"refused {folder}, nothing was collected: {problems[0]}")
    readable = [n for n in notebooks if not _unreadable(files[n])]
    assignment = _assignment_of(layout, files[readable[0]], args.assignment)
    if len(notebooks) == 1:
        files[f"{assignment}.ipynb"] = files.pop(notebooks[0])
    target = course.submit_files(files, args.student, layout.root, replace=args.replace,
                                 assignment=assignment)
    print(f"{args.student}: {target.parent} ({len(notebooks)} notebook(s), "
          f"{len(files) - len(notebooks)} data file(s))")
    if left_out:
        print(f"{args.student}: left out {', '.join(left_out[:5])}"
              f"{'…' if len(left_out) > 5 else ''} (folders, links, files over 20 MiB and "
              "the course's own names are not submitted)")
    return 0


def _one_line(text: str, most: int = 300) -> str:
    """Return the first line of ``text``, cut to ``most`` characters, as a terminal may show
    it (``tables.plain``: a message can quote a file name a student chose)."""
    from .tables import plain

    line = plain((text.splitlines() or [""])[0])
    return line if len(line) <= most else line[:most] + "…"


def _assignment_of(layout: course.CourseLayout, notebook: Path, said: str | None) -> str:
    """Return the assignment a submitted notebook belongs to: the one whose released notebook
    shares the most grade ids with it (the course's only one, if so). Raises ValueError when
    that cannot be told and ``said`` (--assignment) does not tell it, or when the notebook
    plainly belongs to another assignment than ``said``."""
    known = layout.assignments()
    if len(known) == 1 and said in (None, known[0]):
        return known[0]

    def cells_of(path: Path) -> list[Any]:
        """The notebook's cells as grading reads them (v3 converted, up to its size limit)."""
        from .grading.notebook_check import Unreadable, read_submission

        try:
            return list(read_submission(path.resolve()).cells)
        except (Unreadable, RecursionError, OSError, ValueError):
            return []

    def grade_ids(path: Path) -> set[str]:
        try:
            cells = cells_of(path)
            return {str(cell["metadata"]["nbgrader"]["grade_id"]) for cell in cells
                    if isinstance(cell, dict) and "grade_id" in cell.get("metadata", {})
                    .get("nbgrader", {})}
        except (OSError, ValueError, AttributeError, TypeError, KeyError):
            return set()

    def locked_sources(path: Path, locked_only: bool) -> set[str]:
        try:
            cells = cells_of(path)
            return {"".join(c.get("source", "")).strip() for c in cells
                    if isinstance(c, dict) and c.get("cell_type") == "code"
                    and (not locked_only or c.get("metadata", {}).get("nbgrader", {})
                         .get("locked"))} - {""}
        except (OSError, ValueError, AttributeError, TypeError):
            return set()

    mine = grade_ids(Path(notebook))
    overlap = {a: len(mine & grade_ids(layout.release(a))) for a in known}
    if not any(overlap.values()):  # no nbgrader metadata (an editor dropped it): locked cells
        sources = locked_sources(Path(notebook), locked_only=False)
        overlap = {a: len(sources & locked_sources(layout.release(a), locked_only=True))
                   for a in known}
    best = max(overlap.values(), default=0)
    matches = [a for a, count in overlap.items() if count == best]
    if said is not None:
        if best > 0 and said not in matches:
            raise ValueError(f"{notebook} holds the cells of assignment {matches[0]!r}, not "
                             f"{said!r}: submit it with --assignment {matches[0]}")
        return said
    if best == 0 or len(matches) != 1:
        raise ValueError(f"cannot tell which assignment {notebook} is: say it with "
                         f"--assignment (the course has: {', '.join(known) or 'none'})")
    return matches[0]


def _scores(root: Path, assignments: list[str], students: list[str] | None) -> None:
    """Print a table of per-step scores for each of ``assignments`` someone submitted to: of
    ``students`` (default: every one with a submission), with the maximum and the average of
    the work that is not flagged; flagged work is marked with its reason."""
    from nbgrader.api import MissingEntry

    from . import scores
    from .tables import scores_table

    for student in students or []:
        if not course.STUDENT_ID.fullmatch(student):
            raise ValueError(f"student id {student!r}: use ASCII letters, digits, '_' and "
                             "'-' (not first) only")
    layout = course.CourseLayout(root)
    submitted = {a: layout.submitted_students(a) for a in assignments}
    shown = [a for a in assignments if submitted[a]] or assignments[:1]
    for index, assignment in enumerate(shown):
        try:
            rows = scores.class_rows(root, assignment)
        except MissingEntry:
            rows = []
        graded = {row.student for row in rows}
        if students:
            rows = [row for row in rows if row.student in students]
        waiting = [s for s in students or submitted[assignment] if s not in graded]
        if index:
            print()
        if rows:
            print(scores_table(rows, scores.step_titles(assignment), title=assignment))
        elif not waiting:
            print(f"{assignment}: no submissions yet (plaisante submit, then plaisante grade)")
        for student in waiting:
            print(f"{student} not graded yet" + (f" ({assignment})" if len(shown) > 1 else ""))


def _regrade(root: Path, assignment: str, args: argparse.Namespace) -> int:
    """Release ``assignment`` again (its source may have changed), grade its submissions, and
    print whose total changed; return the exit status."""
    from nbgrader.api import MissingEntry

    from . import scores

    def totals() -> dict[str, tuple[float, bool]]:
        try:
            return {r.student: (r.total, r.flagged) for r in scores.class_rows(root, assignment)}
        except MissingEntry:
            return {}

    before = totals()
    print(f"plaisante regrade: releasing {assignment!r} again from "
          f"{course.CourseLayout(root).source(assignment)}")
    course.run_nbgrader("generate_assignment", assignment, "--force", "--log-level=WARN",
                        root=root)
    status = _grade(root, assignment, args)
    lines = regrade_summary(assignment, before, totals())
    print("\n".join(lines))
    return status


def regrade_summary(assignment: str, before: dict[str, tuple[float, bool]],
                    after: dict[str, tuple[float, bool]]) -> list[str]:
    """Return what regrade says: the students whose total changed (old -> new, the
    difference), then, apart, those whose flag changed (with their total, changed or not).
    ``before`` and ``after`` map each student to (total, flagged)."""
    def flag(flagged: bool) -> str:
        return "flagged" if flagged else "not flagged"

    scores, flags = [], []
    for student in sorted(after):
        old, new = before.get(student), after[student]
        if old is None:
            scores.append(f"  {student}: not graded -> {new[0]:g}")
            if new[1]:
                flags.append(f"  {student}: not graded -> flagged (score {new[0]:g})")
            continue
        if abs(old[0] - new[0]) > 1e-9:
            scores.append(f"  {student}: {old[0]:g} -> {new[0]:g}  ({new[0] - old[0]:+g})")
        if old[1] != new[1]:
            score = (f"score {new[0]:g}, unchanged" if abs(old[0] - new[0]) <= 1e-9
                     else f"score {old[0]:g} -> {new[0]:g}")
            flags.append(f"  {student}: {flag(old[1])} -> {flag(new[1])} ({score})")
    lines = [f"plaisante regrade: {len(scores)} score(s) of {assignment!r} changed:", *scores]\
        if scores else [f"plaisante regrade: no score of {assignment!r} changed"]
    if flags:
        lines += [f"plaisante regrade: {len(flags)} flag(s) of {assignment!r} changed:", *flags]
    if scores or flags:
        lines.append(f"Return the new feedback with `plaisante feedback {assignment}`.")
    return lines


def _grade(root: Path, assignment: str, args: argparse.Namespace) -> int:
    """Grade one assignment's submissions (``args.student``, default every one); print the
    table; return the exit status. Named students go to the course's resident grader when one
    runs (``plaisante grader``; a Dask ``--scheduler`` is always used as asked)."""
    if args.student and not args.scheduler:
        from .grading.service import ask_to_grade

        answer = ask_to_grade(root, assignment, list(args.student),
                              cell_seconds=args.cell_timeout, submission_seconds=args.timeout,
                              sandbox=not args.no_sandbox)
        if answer is not None:
            for text, stream in ((answer.stdout, sys.stdout), (answer.stderr, sys.stderr)):
                if text:
                    print(text, file=stream)
            if answer.stdout:
                print("plaisante grade: graded by the resident grader (plaisante grader)",
                      file=sys.stderr)
            return answer.status
    from . import grading
    from .grading.report import summary

    layout = course.CourseLayout(root)
    submitted = layout.submitted_root
    folders = sorted(p.name for p in submitted.iterdir()) if submitted.is_dir() else []
    for odd in (name for name in folders if not course.STUDENT_ID.fullmatch(name)):
        print(f"plaisante grade: skipped {submitted / odd}: a student id holds only ASCII "
              "letters, digits, '_' and '-'; rename the folder to grade it", file=sys.stderr)
    from .grading.run import submitted_students

    if not args.student and not submitted_students(root, assignment):
        print(f"plaisante grade: no submissions of {assignment!r} in {submitted}; add them with "
              f"`plaisante submit NOTEBOOK --student ID --assignment {assignment}`")
        return 0

    try:
        limits = grading.Limits.for_course(root, args.cell_timeout, args.timeout)
        from .grading.parallel import grade_parallel

        # always in worker processes, even one: a worker's memory is bounded, and one that
        # dies costs its submission a retry, never the run
        results = grade_parallel(root, assignment, args.student, limits=limits,
                                 sandbox=not args.no_sandbox, workers=args.workers,
                                 scheduler=args.scheduler, progress=True)
    except (ValueError, FileNotFoundError, RuntimeError) as error:
        print(f"plaisante grade: {error}", file=sys.stderr)
        return 2
    status, table, problem = summary(root, assignment, results)
    if table:
        print(table)
    if problem:
        print(problem, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
