"""What ``plaisante submit`` does with what it is given: a notebook is checked readable as the
grader reads it (``refuse_unreadable``) and its assignment told from its cells
(``assignment_of``); a folder with ``--student`` is that student's submission; a folder or zip
without it is a class (``submit_many``: each student's newest attempt, read by
``plaisante.intake.downloads``, older ones set aside, one line per student).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .. import course
from ..results.lateness import LMS_LATE
from . import submitted


def _unreadable(notebook: Path) -> str | None:
    """Return why ``notebook`` is not a notebook the grader can read (the grader's own test: a
    file, UTF-8 JSON, a list of cells), in one line; None when it is one."""
    from ..grading.notebook_check import Unreadable, read_submission

    try:
        read_submission(Path(notebook).resolve())
    except Unreadable as problem:
        return f"{problem}. Submit the .ipynb file as Jupyter saved it (File > Download)"
    except RecursionError:
        return "it is nested too deep to be a notebook Jupyter saved"
    return None


def refuse_unreadable(notebook: Path) -> None:
    """Raise ValueError in one line unless ``notebook`` is a notebook the grader can read, so
    that nothing unreadable is collected."""
    if not Path(notebook).is_file():
        raise FileNotFoundError(f"no notebook at {notebook}")
    why = _unreadable(notebook)
    if why:
        raise ValueError(f"refused {notebook}, nothing was collected: {why}")


def submit_many(layout: course.CourseLayout, args: argparse.Namespace) -> int:
    """Submit the folder or zip ``args.notebook``: with ``--student``, as that one student's
    submission; else each student's newest attempt in it (``plaisante.intake.downloads``), older
    attempts set aside in ``replaced/``; print one line per student. A student whose work
    cannot be submitted is said and skipped; returns 1 when any was."""
    import tempfile

    from ..results.roster import lms_users
    from ..results.tables import plain
    from .downloads import read_download

    if args.student:
        return _submit_folder(layout, args)
    with tempfile.TemporaryDirectory(prefix="plaisante-collect-") as unpacked:
        found = read_download(args.notebook, args.pattern, Path(unpacked), zone=_zone(args),
                              assignments=layout.assignments(), users=lms_users(layout.root))
        if found.layout:
            print(f"read as a download of {found.layout}")
        where = Path(args.notebook) if Path(args.notebook).is_dir() else Path()
        for student, ids in found.renamed:
            print(plain(f"{student}: {len(ids)} people of this name in the download, submitted "
                        f"as {', '.join(ids)} (their LMS numbers): tell which is the roster's "
                        f"{student} and resubmit that one with --student {student}"))
        unsubmitted: dict[str, str] = {}
        users = dict(found.users)  # of each refused student, their LMS user
        for student, shown, why in found.refused:
            line = plain(f"{student}: refused ({where / shown}): {why}")
            print(line)
            unsubmitted[student] = line
        refused = len(found.refused)
        people: dict[str, str] = {}
        assignments: list[str] = []
        for submission in found.submissions:
            refusal = _submit_one(layout, args, submission, where, people, assignments)
            if refusal is not None:
                refused += 1
                line, kept_for_scores = refusal
                print(line)
                if kept_for_scores:
                    unsubmitted[submission.student] = line
                    users[submission.student] = submission.kept.who[1]
        _keep_unsubmitted(layout, args.assignment, assignments, unsubmitted, users)
    if people:
        named = submitted.name_students(people, layout.root)
        if named:
            print(f"named {len(named)} student(s) in the gradebook as {found.layout} names "
                  "them (a roster's names are kept)")
    if found.skipped:
        why = "the pattern does not match them" if args.pattern else \
            "the LMS did not name them, or they are its own"
        print(f"skipped {len(found.skipped)} file(s) that name no student ({why}): "
              f"{plain(', '.join(found.skipped[:5]))}{'…' if len(found.skipped) > 5 else ''}")
    print(f"{len(found.submissions) + len(found.refused) - refused} submitted, "
          f"{refused} refused")
    return 1 if refused else 0


def _submit_one(layout: course.CourseLayout, args: argparse.Namespace, submission: Any,
                where: Path, people: dict[str, str], assignments: list[str]
                ) -> tuple[str, bool] | None:
    """Submit one student's newest attempt of a download (``downloads.Submission``) and set
    their older ones aside, printing a line for each; add the assignment it is of to
    ``assignments`` and the name the LMS gave them to ``people``. Return None, or the line
    saying why it was refused and whether that refusal is kept for scores and the class
    report (not when their work of that assignment is there already)."""
    from ..results.tables import plain

    kept, student = submission.kept, submission.student
    kept.shown = plain(str(where / kept.shown))
    try:
        assignment = attempt_assignment(layout, args, kept)
        assignments.append(assignment)
        notes = _submit_attempt(layout, args, kept, assignment)
        target = layout.submitted(student, assignment).parent
        print(f"{student}: {target} ({', '.join([kept.shown, *notes])})")
        if kept.person:
            people[student] = kept.person
        for older in submission.set_aside:
            kept_at = submitted.set_aside(older.files, student, older.label, layout.root)
            print(plain(f"{student}: set aside an older attempt "
                        f"({where / older.shown}), kept in {kept_at}"))
    except (ValueError, FileNotFoundError, FileExistsError) as error:
        return (plain(f"{student}: refused ({kept.shown}): {_one_line(str(error), 600)}"),
                not isinstance(error, FileExistsError))
    except Exception as error:  # noqa: BLE001  e.g. RecursionError: the rest go on
        return (plain(f"{student}: refused ({kept.shown}): could not be submitted "
                      f"({type(error).__name__}: {_one_line(str(error))})"), True)
    return None


def _keep_unsubmitted(layout: course.CourseLayout, given: str | None, assignments: list[str],
                      unsubmitted: dict[str, str], users: dict[str, str]) -> None:
    """Keep the students of a download who were refused (``unsubmitted``: {student: the line
    said}; ``users``: their LMS users) for scores and the class report, under the
    assignment the download is of: ``given`` (``--assignment``), else the one most of its
    submissions were, else the course's only one; else say why they are not kept."""
    from ..results.scores import record_unsubmitted

    course_has = layout.assignments()
    download_of = given or max(sorted(set(assignments)), key=assignments.count,
                               default=None) or (course_has[0] if len(course_has) == 1 else None)
    if download_of:
        record_unsubmitted(layout, download_of, unsubmitted, users)
    elif unsubmitted:
        print(f"the {len(unsubmitted)} refused student(s) above are not kept for scores "
              "and the class report: nothing was submitted to tell which of the course's "
              "assignments this download is; run it again with --assignment ID")


def attempt_assignment(layout: course.CourseLayout, args: argparse.Namespace,
                        attempt: Any) -> str:
    """Return the assignment of one attempt of ``plaisante.intake.downloads``: that of its first
    readable notebook (``assignment_of``). Raises ValueError when none of its notebooks can
    be read or its assignment cannot be told."""
    notebooks = attempt.notebooks
    problems = [why for name in notebooks if (why := _unreadable(attempt.files[name]))]
    if len(problems) == len(notebooks):
        raise ValueError(problems[0])
    readable = [n for n in notebooks if not _unreadable(attempt.files[n])]
    return assignment_of(layout, attempt.files[readable[0]], args.assignment)


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
                    attempt: Any, assignment: str) -> list[str]:
    """Submit one attempt of ``plaisante.intake.downloads`` (its notebooks and data files) to
    ``assignment``; return what the output line says of it. Raises ValueError for a
    student id nbgrader cannot take (saying how to map it), FileExistsError for a student
    already submitted (without --replace)."""
    if not course.STUDENT_ID.fullmatch(attempt.student or ""):
        raise ValueError(submitted.id_refused(attempt.student, attempt.who[1]))
    notebooks = attempt.notebooks
    files = dict(attempt.files)
    if len(notebooks) == 1:  # one notebook: under the name nbgrader expects
        files[f"{assignment}.ipynb"] = files.pop(notebooks[0])
    notes = [f"the roster's id of LMS user {attempt.roster_of}"] if attempt.roster_of else []
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
    target = submitted.submit_files(files, attempt.student, layout.root, replace=args.replace,
                                    assignment=assignment, timestamp=timestamp)
    if late:
        (target.parent / LMS_LATE).write_text(late + "\n", encoding="utf-8")
    return notes


def _submit_folder(layout: course.CourseLayout, args: argparse.Namespace) -> int:
    """Submit the folder ``args.notebook`` as student ``args.student``'s submission: its
    notebooks and the data files beside them (not its subfolders), as nbgrader's exchange
    copies a submission folder."""
    from ..grading.handed_in import MAX_DATA_BYTES
    from .downloads import RESERVED, safe_name

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
    assignment = assignment_of(layout, files[readable[0]], args.assignment)
    if len(notebooks) == 1:
        files[f"{assignment}.ipynb"] = files.pop(notebooks[0])
    target = submitted.submit_files(files, args.student, layout.root, replace=args.replace,
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
    from ..results.tables import plain

    line = plain((text.splitlines() or [""])[0])
    return line if len(line) <= most else line[:most] + "…"


def assignment_of(layout: course.CourseLayout, notebook: Path, said: str | None) -> str:
    """Return the assignment a submitted notebook belongs to: the one whose released notebook
    shares the most grade ids with it (the course's only one, if so). Raises ValueError when
    that cannot be told and ``said`` (--assignment) does not tell it, or when the notebook
    plainly belongs to another assignment than ``said``."""
    known = layout.assignments()
    if len(known) == 1 and said in (None, known[0]):
        return known[0]

    def cells_of(path: Path) -> list[Any]:
        """The notebook's cells as grading reads them (v3 converted, up to its size limit)."""
        from ..grading.notebook_check import Unreadable, read_submission

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
