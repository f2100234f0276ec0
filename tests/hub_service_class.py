"""A class on a real JupyterHub as Kubernetes (Zero to JupyterHub) runs it, made by the tests
on loopback: ``ServiceHubClass``, as root only. Used by ``tests/browser/test_hub_service.py``.

What changes from ``hub_class.HubClass`` (the hub test's recipe), and only that:

* every hub user's server runs as ONE Unix account, ``plhub-jovyan`` (``hub_spawner``:
  ``SimpleLocalProcessSpawner`` that switches to it), each in its own home, as each pod runs
  ``jovyan``; the students and the TA have no Unix account of their own;
* no exchange folder: the exchange is the kit's JupyterHub service
  (``plaisante.exchange_service``), managed by the hub, run as its own account
  (``plhub-exchange``) with its store in a folder only that account can read; every server's
  nbgrader uses it through ``c.ExchangeFactory`` (``plugin.EXCHANGE_CONFIG``);
* the hub's roles: ``instructor`` (release and grade), ``grader`` (the TA: grade, no
  release), every user ``access:services!service=plaisante-exchange``; each server's
  ``$JUPYTERHUB_API_TOKEN`` gets the subset of those its user holds
  (``Spawner.server_token_scopes``);
* the instructor (a Unix account: their course and gradebook, as on their own pod) releases
  with their hub token; ``plaisante watch`` runs there with the TA's token (a grader grades).

Tokens are made through the hub's REST API by a service of the test's own
(``plhub-tokens``, its ``tokens`` scope), as a user makes one on the hub's Token page.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import grader_user
from course_cli import new_course
from hub_class import (
    ASSIGNMENT,
    COURSE_ID,
    INSTRUCTOR,
    KIT,
    PREFIX,
    STUDENTS,
    TA,
    HubClass,
    free_port,
    wait_http,
)

from plaisante.exchange_service import SCOPE_GRADE, SCOPE_RELEASE, SERVICE_NAME
from plaisante.exchange_service.plugin import EXCHANGE_CONFIG

JOVYAN, EXCHANGE_USER = PREFIX + "jovyan", PREFIX + "exchange"
ACCESS = f"access:services!service={SERVICE_NAME}"
HUB_USERS = (INSTRUCTOR, TA, *STUDENTS)
TOKENS_SERVICE = "plhub-tokens"


class ServiceHubClass(HubClass):
    """The class, every server one Unix user, the exchange a hub service: see the module."""

    def __init__(self) -> None:
        super().__init__(hub=True)
        self.unix_users = (INSTRUCTOR, JOVYAN, EXCHANGE_USER)
        self.service_port = free_port()
        self.tokens_secret = secrets.token_hex(32)
        self.tokens: dict[str, str] = {}
        self.store = self.base / "service" / "store"

    def __enter__(self) -> ServiceHubClass:
        try:
            self._users()
            self._hub()
            self._course_files()
            self._wait_hub()
            wait_http(self.service_url + "api/assignments/x", 60, ok=(403,))
            self._release()
        except BaseException:
            self.close()
            raise
        return self

    @property
    def instructor_uid(self) -> int:
        return pwd.getpwnam(INSTRUCTOR).pw_uid

    @property
    def instructor_gid(self) -> int:
        return pwd.getpwnam(INSTRUCTOR).pw_gid

    @property
    def service_url(self) -> str:
        return f"{self.url}/services/{SERVICE_NAME}/"

    # set-up ---------------------------------------------------------------------------

    def _users(self) -> None:
        (self.base / "home").mkdir(mode=0o755)
        for user in self.unix_users:
            subprocess.run(["userdel", "-r", user], capture_output=True)  # a leftover
            subprocess.run(["useradd", "--no-create-home", "--home-dir",
                            str(self.base / "home" / user), "--shell", "/bin/bash", user],
                           check=True, capture_output=True)
        for user in (*HUB_USERS, EXCHANGE_USER):
            folder = self.home(user) if user != EXCHANGE_USER else self.base / "service"
            folder.mkdir(mode=0o700)
            owner = pwd.getpwnam(INSTRUCTOR if user == INSTRUCTOR else
                                 EXCHANGE_USER if user == EXCHANGE_USER else JOVYAN)
            os.chown(folder, owner.pw_uid, owner.pw_gid)

    def env(self, user: str) -> dict[str, str]:
        """A hub user's environment (their server's, as far as nbgrader reads it): their
        home, their name, their token once made."""
        env = super().env(user)
        env["JUPYTERHUB_USER"] = user
        if user in self.tokens:
            env["JUPYTERHUB_API_TOKEN"] = self.tokens[user]
        return env

    def as_server(self, user: str, argv: list[str], token: str | None = None,
                  check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` as ``user``'s server would: as ``plhub-jovyan``, in their home, with
        their token (or ``token``)."""
        entry = pwd.getpwnam(JOVYAN)
        env = self.env(user)
        if token is not None:
            env["JUPYTERHUB_API_TOKEN"] = token
        done = subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                               "--init-groups", "--", *argv], cwd=self.home(user), env=env,
                              text=True, capture_output=True, timeout=300)
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(argv)} as {user}'s server failed "
                               f"({done.returncode}):\n{done.stdout[-2000:]}\n"
                               f"{done.stderr[-3000:]}")
        return done

    def hand_in(self, user: str, text: str) -> subprocess.Popen[str]:
        """Start, in ``user``'s server's environment, nbgrader's ``fetch_assignment``, the
        notebook written as ``text``, and nbgrader's ``submit``: what the Assignments tab's
        buttons run, through the same plugin. Returns the process (it says "submitted" last)."""
        entry = pwd.getpwnam(JOVYAN)
        script = (f"{self.python} -m nbgrader fetch_assignment {ASSIGNMENT} && "
                  f"cat > {ASSIGNMENT}/{ASSIGNMENT}.ipynb && "
                  f"{self.python} -m nbgrader submit {ASSIGNMENT} && echo submitted")
        process = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups",
             "--", "sh", "-c", script], cwd=self.home(user), env=self.env(user),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdin is not None
        process.stdin.write(text)
        process.stdin.close()
        self.processes.insert(0, process)
        return process

    def _exchange_lines(self) -> str:
        return "".join(f"c.ExchangeFactory.{k} = {v!r}\n" for k, v in EXCHANGE_CONFIG.items()) \
            + f"c.HubExchange.service_url = {self.service_url!r}\n" \
            + f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"

    def _course_files(self) -> None:
        config = self.base / "etc-jupyter"
        config.mkdir()
        (config / "nbgrader_config.py").write_text(
            "c = get_config()  # noqa: F821\n" + self._exchange_lines(), encoding="utf-8")
        for path in (config, config / "nbgrader_config.py"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        self.root = new_course(self.home(INSTRUCTOR) / "course", ("solutions",))
        shutil.rmtree(self.root / "solutions")
        shutil.copytree(KIT / "solutions" / ASSIGNMENT, self.root / "solutions" / ASSIGNMENT)
        with (self.root / "nbgrader_config.py").open("a", encoding="utf-8") as f:
            f.write(self._exchange_lines())
        entry = pwd.getpwnam(INSTRUCTOR)
        for path in grader_user.walk(self.root):
            os.lchown(path, entry.pw_uid, entry.pw_gid)
        roster = self.root / "roster.csv"
        roster.write_text("id,first_name,last_name\n" + "".join(
            f"{s},{s.removeprefix(PREFIX).title()},Student\n" for s in STUDENTS))
        os.chown(roster, entry.pw_uid, entry.pw_gid)

    def _release(self) -> None:
        """The instructor's tokens made, then, as the instructor with their token: `plaisante
        release plaisante` and `plaisante roster import roster.csv`."""
        self.tokens[INSTRUCTOR] = self.make_token(INSTRUCTOR, [SCOPE_RELEASE, SCOPE_GRADE,
                                                               ACCESS])
        self.tokens[TA] = self.make_token(TA, [SCOPE_GRADE, ACCESS])
        for student in STUDENTS:
            self.tokens[student] = self.make_token(student, [ACCESS])
        self.as_user(INSTRUCTOR, [self.python, "-c",
                                  "import sys; from plaisante.cli import main; "
                                  "sys.exit(main(['release', sys.argv[1]]) or "
                                  "main(['roster', 'import', sys.argv[2]]))",
                                  ASSIGNMENT, str(self.root / "roster.csv")], cwd=self.root)

    def hub_config(self, hub: Path, environment: dict[str, str]) -> dict[str, Any]:
        config = super().hub_config(hub, environment)
        service_env = {"PYTHONPATH": str(self.kit), "LANG": "C.UTF-8",
                       "HOME": str(self.base / "service"),
                       "PATH": f"{Path(self.python).parent}:/usr/bin:/bin"}
        config["JupyterHub"].update({
            "spawner_class": "hub_spawner.OneUidSpawner",
            "custom_scopes": {
                SCOPE_GRADE: {"description": "collect and grade submissions, release "
                                             "feedback, see the lab board"},
                SCOPE_RELEASE: {"description": "release and remove assignments"}},
            "load_roles": [
                {"name": "user", "scopes": ["self", ACCESS]},
                {"name": "instructor", "scopes": [SCOPE_RELEASE, SCOPE_GRADE, ACCESS],
                 "users": [INSTRUCTOR]},
                {"name": "grader", "scopes": [SCOPE_GRADE, ACCESS], "users": [TA]},
                {"name": TOKENS_SERVICE, "scopes": ["tokens", "read:users"],
                 "services": [TOKENS_SERVICE]}],
            "services": [
                {"name": SERVICE_NAME, "url": f"http://127.0.0.1:{self.service_port}",
                 "command": [self.python, "-m", "plaisante.exchange_service", "--store",
                             str(self.store), "--course", COURSE_ID],
                 "user": EXCHANGE_USER, "cwd": str(self.base / "service"),
                 "environment": service_env, "oauth_client_allowed_scopes": [SCOPE_GRADE],
                 "oauth_no_confirm": True, "display": False},
                {"name": TOKENS_SERVICE, "api_token": self.tokens_secret, "display": False}],
        })
        config["Authenticator"] = {"allowed_users": list(HUB_USERS), "admin_users": []}
        config["OneUidSpawner"] = {"run_as": JOVYAN,
                                   "home_dir_template": str(self.base / "home" / "{username}")}
        config["Spawner"]["server_token_scopes"] = [
            "users:activity!user", "access:servers!server", ACCESS, SCOPE_GRADE, SCOPE_RELEASE]
        return config

    # the hub's tokens -----------------------------------------------------------------

    def make_token(self, user: str, scopes: list[str], expires_in: int | None = None) -> str:
        """A new hub token of ``user``'s with ``scopes`` (a subset of what their roles
        hold), as they would make on the hub's Token page."""
        body = {"scopes": scopes, "note": "the hub test", "expires_in": expires_in}
        request = urllib.request.Request(
            f"{self.url}/hub/api/users/{user}/tokens", data=json.dumps(body).encode(),
            method="POST", headers={"Authorization": f"token {self.tokens_secret}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(json.loads(answer.read())["token"])

    def call(self, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Call the exchange service's ``api/PATH`` with ``token``; return (status, JSON)."""
        request = urllib.request.Request(
            self.service_url + "api/" + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    # the grader -------------------------------------------------------------------------

    def start_watch(self, *extra: str, wait: bool = True, token_of: str = TA) -> None:
        """Start ``plaisante watch plaisante`` in the instructor's course, with the hub token
        of ``token_of`` (default the TA's: a grader grades)."""
        entry = pwd.getpwnam(INSTRUCTOR)
        self.watch_log = self.base / "watch.log"
        log = open(self.watch_log, "w")  # noqa: SIM115
        env = dict(super().env(INSTRUCTOR), JUPYTERHUB_API_TOKEN=self.tokens[token_of])
        self.watcher = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups",
             "--", self.python, "-m", "plaisante.cli", "watch", ASSIGNMENT, *extra],
            cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, text=True)
        if wait:
            self.wait_watch()

    def wait_watch(self) -> None:
        """Wait until the watcher watches; RuntimeError after 120 s."""
        assert self.watcher is not None
        end = time.monotonic() + 120
        while "watching" not in self.watch_log.read_text():
            if self.watcher.poll() is not None or time.monotonic() > end:
                raise RuntimeError("plaisante watch did not start:\n"
                                   + self.watch_log.read_text()[-3000:])
            time.sleep(0.2)

    @property
    def board_url(self) -> str:
        return f"{self.service_url}board/{COURSE_ID}/{ASSIGNMENT}/"

    def board(self) -> dict[str, Any]:
        """The board as the service holds it (what the board page shows)."""
        return json.loads((self.store / COURSE_ID / "boards" / f"{ASSIGNMENT}.json"
                           ).read_text(encoding="utf-8"))

    # a student's side without a browser: nbgrader's own commands, through the plugin ----

    def nbgrader(self, student: str, *args: str) -> str:
        return self.as_server(student, [self.python, "-m", "nbgrader", *args]).stdout
