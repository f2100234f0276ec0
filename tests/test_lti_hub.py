"""A student opens the assignment in the LMS and lands in it on the class's JupyterHub; their
score comes back to the LMS: the LTI 1.3 path end to end, every piece real on loopback.

The class of ``tests/hub_class.py`` (Unix accounts, nbgrader's exchange, JupyterHub with its
proxy and LocalProcessSpawner, ``plaisante watch`` as the instructor) with the kit's LTI
authenticator (``plaisante.lti.hub``) and landing extension (``plaisante.lti.landing``), and
the test platform process (``tests/lti_platform.py``): the instructor deep-links the
assignment; the student's launch logs them in as their LMS login, starts their server, fetches
the notebook into their home and opens it in JupyterLab; they submit with nbgrader; ``watch``
grades it and sends the score; the platform holds it under the student's LMS user id, and
``plaisante lms status`` (as the instructor) reads it back through AGS.

Root only (it makes Unix accounts): as another user it is skipped, saying why.
"""

from __future__ import annotations

import json
import os
import pwd
import time
from pathlib import Path

import pytest
import requests
from lti_platform import SUB_PREFIX
from lti_support import PlatformProcess, deep_link, post, register, start

#: The whole path with servers started is `make test-slow`'s: `make test` keeps the real hub
#: once (tests/test_hub_exchange.py) and the LTI launch against a real hub without servers
#: (tests/test_lti_launch.py), within its time.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="LOUD SKIP: the LTI hub test makes "
                                 "Unix accounts (useradd) and must run as root, as "
                                 "`make test-slow` in CI")]

#: the class's accounts here: not the browser hub test's (``plhub-``), which may run meanwhile
PREFIX = "plti-"


@pytest.fixture
def hub_class(monkeypatch: pytest.MonkeyPatch):
    """``tests/hub_class.py`` with accounts of this test's own (its names are module
    constants, read as the class runs)."""
    import hub_class as module

    instructor, ta = PREFIX + "teacher", PREFIX + "ta"
    students = (PREFIX + "alice", PREFIX + "bob", PREFIX + "carol")
    for name, value in (("PREFIX", PREFIX), ("INSTRUCTOR", instructor), ("TA", ta),
                        ("STUDENTS", students), ("NAMES", (instructor, ta, *students))):
        monkeypatch.setattr(module, name, value)
    return module


def own(path: Path, user: str) -> None:
    entry = pwd.getpwnam(user)
    os.chown(path, entry.pw_uid, entry.pw_gid)


def test_lti_a_launched_student_lands_in_the_notebook_and_their_score_comes_back(
        tmp_path, hub_class):
    ASSIGNMENT, INSTRUCTOR, STUDENTS = (  # noqa: N806
        hub_class.ASSIGNMENT, hub_class.INSTRUCTOR, hub_class.STUDENTS)

    made = hub_class.HubClass(hub_config={
        "JupyterHub": {"authenticator_class": "plaisante.lti.hub.LTI13Authenticator"},
        "LTI13Authenticator": {"username_claim": "custom_login"}})
    made.extra_hub_config["LTI13Authenticator"]["course"] = str(
        made.home(INSTRUCTOR) / "course")  # where HubClass makes the instructor's course
    platform = PlatformProcess(tmp_path / "platform", tool_login=f"{made.url}/hub/lti13/login",
                               tool_launch=f"{made.url}/hub/lti13/launch",
                               instructors=(INSTRUCTOR,))
    with made:
        assert made.root == made.home(INSTRUCTOR) / "course"
        keys = made.home(INSTRUCTOR) / ".config" / "plaisante" / "lti"
        register(made.root, platform, keys)
        for path in (made.home(INSTRUCTOR) / ".config", keys.parent, keys, keys / "tool.pem",
                     made.root / "lti.json"):
            own(path, INSTRUCTOR)
        server_config = made.base / "etc-jupyter" / "jupyter_server_config.json"
        server_config.write_text(json.dumps(
            {"ServerApp": {"jpserver_extensions": {"plaisante.lti.landing": True}}}))
        server_config.chmod(0o644)
        platform.start()
        try:
            made.start_watch(wait=False)
            link = deep_link(made.url, platform, ASSIGNMENT, instructor=INSTRUCTOR)

            student = STUDENTS[0]
            browser = requests.Session()
            action, fields = start(browser, platform, student, resource=link)
            landed = post(browser, action, fields)
            assert landed.status_code == 302, landed.text[:500]
            assert landed.headers["Location"] == \
                f"/hub/user-redirect/plaisante-lti/open/{ASSIGNMENT}"
            lab = f"/user/{student}/lab/tree/{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
            page = None
            for _ in range(120):  # the server starts (bounded: about 2 minutes)
                page = browser.get(made.url + landed.headers["Location"], timeout=60)
                if page.url.endswith(lab) and page.status_code == 200:
                    break
                time.sleep(1)
            assert page is not None and page.url == made.url + lab, \
                (page.url if page else None, made.hub_log.read_text()[-3000:])
            notebook = made.home(student) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
            assert notebook.is_file() and notebook.stat().st_uid == pwd.getpwnam(student).pw_uid
            assert json.loads(notebook.read_text())["cells"], "the fetched notebook is empty"

            # the student works and submits, as the Assignments panel's Submit does
            owner = notebook.stat()
            notebook.write_text(hub_class.versions(6)[-1], encoding="utf-8")
            os.chown(notebook, owner.st_uid, owner.st_gid)
            made.nbgrader(student, "submit", ASSIGNMENT)
            made.wait_watch()
            sub = f"{SUB_PREFIX}{student}"
            held = None
            for _ in range(300):  # watch grades it and sends it (bounded: about 5 minutes)
                scores = platform.gradebook()["scores"]
                held = next((users[sub][-1] for users in scores.values() if sub in users),
                            None)
                if held is not None:
                    break
                time.sleep(1)
            assert held is not None, made.watch_said()[-3000:]
            from plaisante.course import CourseLayout
            from plaisante.results.scores import rows_from

            with CourseLayout(made.root).open_gradebook() as gradebook:
                row, = rows_from(gradebook, CourseLayout(made.root), ASSIGNMENT)
            assert (held["scoreGiven"], held["scoreMaximum"], held["gradingProgress"]) == \
                (row.total, row.max_total, "FullyGraded")
            assert row.total > 0
            said = made.as_user(INSTRUCTOR, [made.python, "-m", "plaisante.cli", "lms",
                                             "status"], cwd=made.root).stdout
            mine = [line.split() for line in said.splitlines() if student in line]
            assert mine and mine[0][-1] == "same", said
        finally:
            platform.stop()
