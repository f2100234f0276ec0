"""Autograde in a sandbox; print a table of scores and reasons (the way to grade).

Autograde submissions in a sandbox and print a table of scores and reasons. With --student, and
`plaisante grader` running for the course, the resident grader grades them (about half a second
each).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import course
from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The assignments, the students, the sandbox, the time limits and where to grade."""
    add_assignment_ids(parser)
    add_grading_options(parser)


def add_grading_options(parser: argparse.ArgumentParser) -> None:
    """Add what ``grade`` and ``regrade`` share: ``--student``, ``--no-sandbox``,
    ``--cell-timeout`` and ``--timeout`` (seconds), ``--workers``, ``--scheduler`` and its
    TLS files (``--tls-ca-file``, ``--tls-cert``, ``--tls-key``) or ``--insecure-scheduler``."""
    parser.add_argument("--student", action="append",
                        help="grade only this student (repeatable)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run kernels unsandboxed (only for notebooks you trust)")
    parser.add_argument("--cell-timeout", type=float,
                        help="seconds per cell (default: c.Execute.timeout of "
                             "nbgrader_config.py, else 30)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per submission")
    parser.add_argument("--workers", type=int,
                        help="grading processes (default: every core; 1: serial)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a Dask scheduler, tls://host:8786, to fan the grading out to, "
                             "over mutual TLS ('local': a Dask LocalCluster of --workers "
                             "processes, with certificates made for the run)")
    for flag, what, config in (
            ("--tls-ca-file", "the Dask cluster's CA certificate", "ca-file"),
            ("--tls-cert", "this coordinator's certificate, signed by that CA", "client.cert"),
            ("--tls-key", "its private key, unless in --tls-cert", "client.key")):
        parser.add_argument(flag, metavar="PEM",
                            help=f"{what} (default: Dask's distributed.comm.tls.{config})")
    parser.add_argument("--insecure-scheduler", action="store_true",
                        help="UNSAFE: allow a plain tcp:// scheduler; anyone who reaches it "
                             "can forge scores and run code here (a private network only)")


def run(args: argparse.Namespace) -> int:
    """Grade each chosen assignment (with ``--student`` and no ids: those the students
    submitted to); return the worst exit status (0 all graded, 1 some flagged, 2 a run that
    could not go on)."""
    layout = course_layout(args)
    assignments = chosen(layout, args.assignments)
    if args.student and not args.assignments:  # only where these students submitted
        assignments = submitted_by(layout, assignments, args.student)
    statuses = []
    for assignment in assignments:
        if len(assignments) > 1:
            print(f"== {assignment} ==")
        try:
            statuses.append(grade_assignment(layout.root, assignment, args))
        except Exception as error:  # noqa: BLE001  the next assignment is graded still
            print(f"plaisante grade: {assignment}: {type(error).__name__}: {error}",
                  file=sys.stderr)
            statuses.append(2)
    from ..lti import after_grading  # the scores to the course's LMS, when it has LTI

    sent = after_grading(layout.root, assignments, args.student)
    if sent:
        print(sent, file=sys.stderr)
    return max(statuses, default=0)


def submitted_by(layout: course.CourseLayout, assignments: list[str],
                 students: list[str]) -> list[str]:
    """Return those of ``assignments`` that any of ``students`` submitted. Raises ValueError
    for a student with no submission at all."""
    submitted = {a: set(layout.submitted_students(a)) for a in assignments}
    for student in students:
        if not any(student in present for present in submitted.values()):
            raise ValueError(f"student {student!r} has no submission of any assignment "
                             f"(plaisante submit NOTEBOOK --student {student})")
    return [a for a in assignments if submitted[a] & set(students)]


def grade_assignment(root: Path, assignment: str, args: argparse.Namespace) -> int:
    """Grade one assignment's submissions (``args.student``, default every one); print the
    table; return the exit status. Named students go to the course's resident grader when one
    runs (``plaisante grader``; a Dask ``--scheduler`` is always used as asked)."""
    if args.student and not args.scheduler:
        from ..grading.service import ask_to_grade

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
    from ..grading.parallel import grade_parallel
    from ..grading.result import Limits
    from ..grading.run import submitted_students
    from ..grading.run_table import summary

    submitted = course.CourseLayout(root).submitted_root
    folders = sorted(p.name for p in submitted.iterdir()) if submitted.is_dir() else []
    for odd in (name for name in folders if not course.STUDENT_ID.fullmatch(name)):
        print(f"plaisante grade: skipped {submitted / odd}: a student id holds only ASCII "
              "letters, digits, '_' and '-'; rename the folder to grade it", file=sys.stderr)
    if not args.student and not submitted_students(root, assignment):
        print(f"plaisante grade: no submissions of {assignment!r} in {submitted}; add them with "
              f"`plaisante submit NOTEBOOK --student ID --assignment {assignment}`")
        return 0
    try:
        security, insecure = None, False
        if args.scheduler is not None:
            from ..grading.cluster import cluster_security, tls_files

            security = tls_files(args.tls_ca_file, args.tls_cert, args.tls_key)
            insecure = args.insecure_scheduler
            if args.scheduler != "local":  # refused now, in one line, before any grading
                cluster_security(args.scheduler, security, insecure=insecure)
        limits = Limits.for_course(root, args.cell_timeout, args.timeout)
        # always in worker processes, even one: a worker's memory is bounded, and one that
        # dies costs its submission a retry, never the run
        results = grade_parallel(root, assignment, args.student, limits=limits,
                                 sandbox=not args.no_sandbox, workers=args.workers,
                                 scheduler=args.scheduler, progress=True,
                                 security=security,
                                 insecure_scheduler=insecure)
    except (ValueError, FileNotFoundError, RuntimeError) as error:
        print(f"plaisante grade: {error}", file=sys.stderr)
        return 2
    status, table, problem = summary(root, assignment, results)
    if table:
        print(table)
    if problem:
        print(problem, file=sys.stderr)
    return status
