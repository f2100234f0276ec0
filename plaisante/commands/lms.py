"""Send scores to the course's LMS by LTI 1.3 (push), compare what it holds (status), the key.

The course's registration with its platform is lti.json beside nbgrader_config.py (README,
"Grades into an LMS by LTI 1.3"). `plaisante grade` and `plaisante watch` send each score as
they record it; these commands do it by hand:

    plaisante lms push [ID …] [--student S …]   # every score again (the platform keeps one each)
    plaisante lms status [ID …]                 # each student's score, gradebook beside LMS
    plaisante lms key                           # make the tool's key (once); print its public half
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import add_assignment_ids, chosen, course_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``push``, ``status`` and ``key``, each with its own options."""
    sub = parser.add_subparsers(dest="action", required=True, metavar="{push,status,key}")
    push = sub.add_parser("push", help="send every score of the assignments to the LMS "
                                       "(again: it keeps one score per student)")
    add_assignment_ids(push)
    push.add_argument("--student", action="append", help="only this student (repeatable)")
    status = sub.add_parser("status", help="what the LMS holds against the gradebook")
    add_assignment_ids(status)
    sub.add_parser("key", help="make the tool's private key if missing (outside the course "
                               "folder); print its public key and JWKS for the platform")


def run(args: argparse.Namespace) -> int:
    """Do ``args.action``; return 0, or 2 with one line on stderr when the platform cannot
    be reached or refuses (nothing in the gradebook changes)."""
    from ..lti import passback, standing
    from ..lti.ags import LmsUnreachable
    from ..lti.registration import default_key_file, load

    layout = course_layout(args)
    registration = load(layout.root)
    if registration is None and args.action == "key":
        # the platform takes the tool's public key before it gives the client id lti.json needs
        return print_key(default_key_file(layout.course_id), layout.root)
    if registration is None:
        raise FileNotFoundError(
            f"no LTI registration: write {layout.root / 'lti.json'} with the platform's "
            "issuer, client_id, deployment_id, auth_login_url, auth_token_url and "
            "key_set_url (README, 'Grades into an LMS by LTI 1.3')")
    if args.action == "key":
        return print_key(registration.private_key_file, registration.root)
    assignments = chosen(layout, args.assignments)
    try:
        if args.action == "push":
            done = passback.push(layout, registration, assignments, args.student)
            print(passback.pushed_line(done, registration))
            return 0
        standings = standing.status(layout, registration, assignments)
    except LmsUnreachable as error:
        print(f"plaisante lms: {error}", file=sys.stderr)
        return 2
    print(standing.status_table(standings))
    counts: dict[str, int] = {}
    for one in standings:
        counts[one.state] = counts.get(one.state, 0) + 1
    if counts:
        print(", ".join(f"{n} {state}" for state, n in sorted(counts.items())))
    elif any(standing.known_lineitem(layout, registration, a) for a in assignments):
        print("nothing graded and nothing on the LMS")
    else:  # no line item to read, nothing graded to find one by: the LMS was never called
        print("nothing graded; the LMS was not asked (no line item known yet)")
    return 0


def print_key(key_file: Path, root: Path) -> int:
    """Make the tool's private key at ``key_file`` unless it is there (refused inside the
    course folder ``root`` unless git ignores it); print its public half; return 0."""
    from ..lti.registration import check_key_place, make_key, public_jwks, public_pem

    check_key_place(key_file, root)
    made = make_key(key_file)
    private = key_file.read_text(encoding="ascii")
    print(f"plaisante lms: the tool's private key: {key_file} "
          f"({'made now' if made else 'kept'}; never copy it into the course folder)")
    print("The public key (PEM), for a platform that takes one (Moodle: 'Public key'):")
    print(public_pem(private).strip())
    print("The public JWKS, for a platform that takes a JWK (Canvas: 'Public JWK' takes "
          "the one key inside):")
    print(json.dumps(public_jwks(private), indent=1))
    return 0
