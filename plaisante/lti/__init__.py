"""The course in a learning platform by LTI 1.3 (Canvas, Moodle, any LTI Advantage platform).

* ``registration``: the course's registration with its platform (``lti.json`` beside
  ``nbgrader_config.py``) and the tool's private key, kept outside the course's git.
* ``passback``: scores out of nbgrader's gradebook to the platform's grade book through
  Assignment and Grade Services (``plaisante lms push``, and after ``plaisante grade``);
  ``ags`` is the platform's side as pylti1p3 reaches it, ``standing`` what it holds beside
  the gradebook (``plaisante lms status``).
* ``launch``: the tool's side of a launch (OIDC login initiation, the id_token checked by
  pylti1p3), as JupyterHub's authenticator (``hub``) serves it, with deep linking;
* ``landing``: the student's server opening the assignment's notebook (fetched if missing);
* ``identities``: each launched student's LMS user id, for passback.

The protocol is pylti1p3's: this package never checks a signature or a claim itself.
"""

from __future__ import annotations

from pathlib import Path

REGISTRATION_FILE = "lti.json"


def after_grading(root: Path, assignments: list[str], students: list[str] | None = None) -> str:
    """Send the scores just graded to the course's LMS when the course at ``root`` has an LTI
    registration (``lti.json``); return the line to show, "" when it has none (nothing is
    imported then). ``plaisante.lti.passback.after_grading`` says the rest."""
    if not (Path(root) / REGISTRATION_FILE).is_file():
        return ""
    from .passback import after_grading as send

    return send(Path(root), assignments, students)
