"""Who each student is on the platform: the LTI user id (``sub``) the platform's grade book
knows them by, beside the student id nbgrader knows them by.

When the hub logs a student in by the id_token's ``sub`` they are the same. When it uses
another claim (a login, ``LTI13Authenticator.username_claim``), the hub records each student's
``sub`` at their launch in ``assignments/reports/lti-users.json`` of the course (owned by the
course folder's owner), and grade passback reads it: nobody maps ids by hand. A student id
with ``lms_user_id`` set in nbgrader's student table uses that instead.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def record_path(root: Path) -> Path:
    """The course's record of launched students."""
    return Path(root) / "assignments" / "reports" / "lti-users.json"


def launched(root: Path) -> dict[str, str]:
    """Return {student id: LTI user id} of the students launched so far ({} if none)."""
    try:
        data = json.loads(record_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def record(root: Path, student: str, sub: str) -> None:
    """Keep that ``student`` is ``sub`` on the platform (a new file renamed over the old one,
    owned like the course folder when written by root)."""
    known = launched(root)
    if known.get(student) == sub:
        return
    known[student] = sub
    path = record_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".lti-users.{os.getpid()}")
    partial.write_text(json.dumps(known, indent=1, sort_keys=True), encoding="utf-8")
    if os.geteuid() == 0:
        owner = Path(root).stat()
        os.chown(partial, owner.st_uid, owner.st_gid)
        os.chown(path.parent, owner.st_uid, owner.st_gid)
    partial.replace(path)
