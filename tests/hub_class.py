"""A class on a real JupyterHub, made by the tests themselves on loopback: the class live on a
shared server. Used by ``tests/browser/test_hub.py`` and ``bench/hub.py``.

``HubClass`` (a context manager), as root only:

* Unix accounts made with ``useradd``: an instructor, a TA and three students (``NAMES``),
  homes under the class's folder in /var/tmp; removed (``userdel``) at the end;
* the course, the instructor's: the kit's ``nbgrader_config.py`` with the shared exchange
  and ``solutions/``; ``plaisante release plaisante`` run **as the instructor** into the
  exchange, a folder open to all (mode 0777, as nbgrader's docs set ``/srv/nbgrader/exchange``);
* the students' nbgrader config (``c.Exchange.root``, ``c.CourseDirectory.course_id``), found
  by their servers through ``JUPYTER_CONFIG_PATH``, as ``/etc/jupyter`` would on a server;
* JupyterHub (this venv's) with ``configurable-http-proxy`` from npm (``.venv/hub-proxy``,
  ``make test`` installs it), DummyAuthenticator with one password, LocalProcessSpawner:
  each user's ``jupyterhub-singleuser`` runs as that user, with the hub Python
  (``$PLAISANTE_HUB_PYTHON``, default the grading user's venv: Debian's Python, readable by
  everyone) and the kit from a world-readable copy (PYTHONPATH);
* ``start_watch()``: ``plaisante watch plaisante`` as the instructor, the board served on a
  free loopback port.

``HubClass(hub=False)`` makes all but the hub (``bench/hub.py``: students submit with
nbgrader's own exchange code, as their servers' Assignments panel does).

Everything listens on 127.0.0.1. A missing piece raises RuntimeError naming it and the command
that installs it: the hub test fails, never skips, on a machine that should run it.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests"))
import grader_user  # noqa: E402
from course_cli import new_course  # noqa: E402

PROXY = KIT / ".venv" / "hub-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
PREFIX = "plhub-"
INSTRUCTOR, TA = PREFIX + "teacher", PREFIX + "ta"
STUDENTS = (PREFIX + "alice", PREFIX + "bob", PREFIX + "carol")
NAMES = (INSTRUCTOR, TA, *STUDENTS)
COURSE_ID = "plaisante-kit"
ASSIGNMENT = "plaisante"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hub_python() -> str:
    """The Python every hub user runs (their servers, the instructor's grader): readable by
    all, with jupyterhub, jupyterlab and nbgrader. Raises RuntimeError naming what is missing."""
    python = os.environ.get("PLAISANTE_HUB_PYTHON") or grader_user.DEFAULT_PYTHON
    if not os.access(python, os.X_OK):
        raise RuntimeError(f"the hub users' Python {python} is missing: run `make grader-user` "
                           "as root (`make test` does), or set PLAISANTE_HUB_PYTHON")
    done = subprocess.run([python, "-c", "import jupyterhub, nbgrader, jupyterlab"],
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{python} lacks jupyterhub, nbgrader or jupyterlab (its venv predates "
                           "requirements.txt's jupyterhub pin: `make grader-user` rebuilds it): "
                           + done.stderr.strip().splitlines()[-1])
    return python


def wait_http(url: str, timeout: float, ok: tuple[int, ...] = (200, 302)) -> None:
    """Wait until ``url`` answers one of ``ok``; raise RuntimeError after ``timeout`` s."""
    end = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status in ok:
                    return
                last = answer.status
        except urllib.error.HTTPError as error:
            if error.code in ok:
                return
            last = error
        except OSError as error:
            last = error
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s (last: {last})")


SUBMITTER = r"""
import os, sys
from traitlets.config.loader import PyFileConfigLoader
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default.submit import ExchangeSubmit
folder = os.environ["JUPYTER_CONFIG_PATH"]
config = PyFileConfigLoader("nbgrader_config.py", path=folder).load_config()
config.Exchange.assignment_dir = os.environ["HOME"]
for line in sys.stdin:
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "plaisante"
    ExchangeSubmit(coursedir=coursedir, authenticator=Authenticator(config=config),
                   config=config).start()
    print("done", flush=True)
"""


class Submitter:
    """One student's submitting process (``HubClass.submitter``)."""

    def __init__(self, made: HubClass, student: str, process: subprocess.Popen[str]) -> None:
        self.made, self.student, self.process = made, student, process
        self.notebook = made.home(student) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"

    def submit(self, text: str | None = None) -> Path:
        """Write ``text`` as the notebook (if given), submit; return the new inbound folder."""
        if text is not None:
            self.notebook.write_text(text, encoding="utf-8")
        inbound = self.made.exchange / COURSE_ID / "inbound"
        before = set(inbound.iterdir())
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("submit\n")
        self.process.stdin.flush()
        if self.process.stdout.readline().strip() != "done":
            raise RuntimeError(f"{self.student}'s nbgrader submit failed")
        return next(p for p in set(inbound.iterdir()) - before
                    if p.name.startswith(self.student + "+"))

    def feedback_page(self, folder: Path) -> Path:
        """Where nbgrader's fetch_feedback finds the feedback of the submission ``folder``."""
        from nbgrader.utils import notebook_hash

        secret = (folder / "submission_secret.txt").read_text()
        digest = notebook_hash(secret=secret, notebook_id=ASSIGNMENT)
        return self.made.exchange / COURSE_ID / "feedback" / f"{digest}.html"


def versions(count: int) -> list[str]:
    """``count`` notebooks' texts: the release with 0, 1, … 5 of its steps' answers written."""
    import nbformat

    source = nbformat.read(KIT / "solutions" / "plaisante" / "plaisante.ipynb", as_version=4)
    release = nbformat.read(KIT / "starter" / "plaisante" / "plaisante.ipynb", as_version=4)
    answers = [n for n, c in enumerate(source.cells)
               if c.metadata.get("nbgrader", {}).get("solution")]
    texts = []
    for k in range(count):
        steps = k % 6
        nb = nbformat.from_dict(json.loads(nbformat.writes(release)))
        for n in answers:
            grade_id = source.cells[n].metadata["nbgrader"]["grade_id"]
            if grade_id.startswith("step") and int(grade_id[4]) <= steps:
                nb.cells[n].source = "\n".join(
                    line for line in source.cells[n].source.split("\n")
                    if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)
        texts.append(nbformat.writes(nb))
    return texts


def leftover_pids(uids: set[int]) -> list[int]:
    """The ids of the processes still running as one of ``uids`` (the class's accounts)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid in uids:
                    pids.append(int(entry.name))
            except FileNotFoundError:
                pass
    return pids


class HubClass:
    """The class: users, course, exchange, hub; see the module's docstring."""

    def __init__(self, hub: bool = True,
                 hub_config: dict[str, dict[str, Any]] | None = None) -> None:
        self.with_hub = hub
        self.extra_hub_config = hub_config or {}  # sections merged over the hub's own (LTI's test)
        if os.geteuid() != 0:
            raise RuntimeError("the hub class makes Unix accounts: run as root")
        for tool in ("useradd", "userdel", "setpriv", "node"):
            if shutil.which(tool) is None:
                raise RuntimeError(f"{tool} is missing (apt-get install passwd util-linux "
                                   "nodejs)")
        if not os.access(PROXY, os.X_OK):
            raise RuntimeError(f"configurable-http-proxy is missing at {PROXY}: `make test` "
                               "installs it (npm install --prefix .venv/hub-proxy "
                               "configurable-http-proxy@5.3.0)")
        self.python = hub_python()
        self.base = Path(tempfile.mkdtemp(prefix="plaisante-hub-", dir="/var/tmp"))
        self.base.chmod(0o755)
        self.password = secrets.token_urlsafe(12)
        self.processes: list[subprocess.Popen[str]] = []
        self.submitters: dict[str, Submitter] = {}
        self.watcher: subprocess.Popen[str] | None = None
        self.board_port = free_port()
        self.port = free_port()
        self.kit = grader_user.kit_path()
        self.unix_users: tuple[str, ...] = NAMES  # the accounts made, removed by close()

    # set-up --------------------------------------------------------------------------------

    def __enter__(self) -> HubClass:
        try:
            self._users()
            if self.with_hub:
                self._hub()  # started now, waited for after the course is made
            self._course()
            if self.with_hub:
                self._wait_hub()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def home(self, user: str) -> Path:
        return self.base / "home" / user

    def _users(self) -> None:
        (self.base / "home").mkdir(mode=0o755)
        for user in NAMES:
            subprocess.run(["userdel", "-r", user], capture_output=True)  # a leftover
            subprocess.run(["useradd", "--no-create-home", "--home-dir", str(self.home(user)),
                            "--shell", "/bin/bash", user], check=True, capture_output=True)
            self.home(user).mkdir(mode=0o700)
            entry = pwd.getpwnam(user)
            os.chown(self.home(user), entry.pw_uid, entry.pw_gid)

    def env(self, user: str) -> dict[str, str]:
        """The environment a user's processes get (as a login on the server would)."""
        return {"PATH": f"{Path(self.python).parent}:/usr/local/bin:/usr/bin:/bin",
                "HOME": str(self.home(user)), "USER": user, "LANG": "C.UTF-8",
                "PYTHONPATH": str(self.kit),
                "JUPYTER_CONFIG_PATH": str(self.base / "etc-jupyter")}

    def as_user(self, user: str, argv: list[str], cwd: Path | None = None,
                timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` as ``user`` (setpriv), in their environment; check it exits 0."""
        entry = pwd.getpwnam(user)
        done = subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                               "--init-groups", "--", *argv], cwd=cwd or self.home(user),
                              env=self.env(user), text=True, capture_output=True,
                              timeout=timeout)
        if done.returncode:
            raise RuntimeError(f"{' '.join(argv)} as {user} failed ({done.returncode}):\n"
                               f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        return done

    def _course(self) -> None:
        self.exchange = self.base / "exchange"
        self.exchange.mkdir()
        self.exchange.chmod(0o777)  # nbgrader's docs: chmod ugo+rw the exchange root
        config = self.base / "etc-jupyter"
        config.mkdir()
        (config / "nbgrader_config.py").write_text(
            "c = get_config()  # noqa: F821\n"
            f"c.Exchange.root = {str(self.exchange)!r}\n"
            f"c.CourseDirectory.course_id = {COURSE_ID!r}\n", encoding="utf-8")
        for path in (config, config / "nbgrader_config.py"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        self.root = new_course(self.home(INSTRUCTOR) / "course", ("solutions",))
        shutil.rmtree(self.root / "solutions")
        shutil.copytree(KIT / "solutions" / ASSIGNMENT, self.root / "solutions" / ASSIGNMENT)
        with (self.root / "nbgrader_config.py").open("a", encoding="utf-8") as f:
            f.write(f"c.Exchange.root = {str(self.exchange)!r}\n")
        entry = pwd.getpwnam(INSTRUCTOR)
        for path in grader_user.walk(self.root):
            os.lchown(path, entry.pw_uid, entry.pw_gid)
        roster = self.root / "roster.csv"
        roster.write_text("id,first_name,last_name\n" + "".join(
            f"{s},{s.removeprefix(PREFIX).title()},Student\n" for s in STUDENTS))
        os.chown(roster, entry.pw_uid, entry.pw_gid)
        # `plaisante release plaisante`, then `plaisante roster import roster.csv`, as the
        # instructor, in one process (one start-up the less)
        self.as_user(INSTRUCTOR, [self.python, "-c",
                                  "import sys; from plaisante.cli import main; "
                                  "sys.exit(main(['release', sys.argv[1]]) or "
                                  "main(['roster', 'import', sys.argv[2]]))",
                                  ASSIGNMENT, str(roster)], cwd=self.root)

    def _hub(self) -> None:
        hub = self.base / "hub"
        hub.mkdir(mode=0o700)
        settings = self.base / "lab-settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        for path in grader_user.walk(self.base / "lab-settings"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        environment = {k: v for k, v in self.env(STUDENTS[0]).items()
                       if k in ("PYTHONPATH", "JUPYTER_CONFIG_PATH", "LANG")}
        environment["PATH"] = self.env(STUDENTS[0])["PATH"]
        environment["JUPYTERLAB_SETTINGS_DIR"] = str(self.base / "lab-settings")
        config = self.hub_config(hub, environment)
        for section, values in self.extra_hub_config.items():
            config.setdefault(section, {}).update(values)
        (hub / "jupyterhub_config.json").write_text(json.dumps(config))
        log = open(hub / "hub.log", "w")  # noqa: SIM115  (closed with the process)
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f",
             str(hub / "jupyterhub_config.json")], cwd=hub, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True, text=True,
            env=dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",
                     PYTHONPATH=str(KIT / "tests")))
        self.processes.append(process)
        self.hub_log = hub / "hub.log"

    def hub_config(self, hub: Path, environment: dict[str, str]) -> dict[str, Any]:
        """The hub's configuration (``jupyterhub_config.json``): the students' servers'
        ``environment``, the hub's files in ``hub``."""
        return {
            "JupyterHub": {"ip": "127.0.0.1", "port": self.port, "hub_ip": "127.0.0.1",
                           "hub_port": free_port(), "authenticator_class": "dummy",
                           "db_url": f"sqlite:///{hub / 'jupyterhub.sqlite'}",
                           "cookie_secret_file": str(hub / "cookie_secret"),
                           "pid_file": str(hub / "jupyterhub.pid"),
                           "cleanup_servers": True},
            "ConfigurableHTTPProxy": {"command": [str(PROXY)],
                                      "api_url": f"http://127.0.0.1:{free_port()}"},
            "DummyAuthenticator": {"password": self.password},
            "Authenticator": {"allowed_users": list(NAMES), "admin_users": [INSTRUCTOR]},
            "Spawner": {"cmd": [self.python, "-m", "jupyterhub.singleuser"],
                        "default_url": "/lab", "environment": environment,
                        "start_timeout": 120, "http_timeout": 120,
                        "args": ["--LabApp.news_url=None",
                                 "--LabApp.check_for_updates_class="
                                 "jupyterlab.NeverCheckForUpdate"]},
        }

    def _wait_hub(self) -> None:
        try:
            wait_http(f"{self.url}/hub/login", 90, ok=(200,))
        except RuntimeError as error:
            raise RuntimeError(f"{error}; the hub's log:\n{self.hub_log.read_text()[-3000:]}"
                               ) from None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def board_url(self) -> str:
        """The board's address, with its token, as the watcher printed it."""
        found = re.search(r"the board: (http://\S+/)", self.watch_said())
        if not found:
            raise RuntimeError("the watcher named no board:\n" + self.watch_said()[-2000:])
        return found.group(1)

    # the instructor's grader ---------------------------------------------------------------

    def start_watch(self, *extra: str, wait: bool = True) -> None:
        """Start ``plaisante watch plaisante`` as the instructor; with ``wait``, wait for its
        board (else ``wait_watch`` does)."""
        entry = pwd.getpwnam(INSTRUCTOR)
        self.watch_log = self.base / "watch.log"
        log = open(self.watch_log, "w")  # noqa: SIM115
        self.watcher = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups",
             "--", self.python, "-m", "plaisante.cli", "watch", ASSIGNMENT, "--board-port",
             str(self.board_port), *extra], cwd=self.root, env=self.env(INSTRUCTOR),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, text=True)
        if wait:
            self.wait_watch()

    def wait_watch(self) -> None:
        """Wait until the watcher watches and its board answers; RuntimeError after 120 s."""
        assert self.watcher is not None
        end = time.monotonic() + 120
        while "watching" not in self.watch_log.read_text():
            if self.watcher.poll() is not None or time.monotonic() > end:
                raise RuntimeError("plaisante watch did not start:\n"
                                   + self.watch_log.read_text()[-3000:])
            time.sleep(0.2)
        wait_http(self.board_url + "board.json", 30, ok=(200,))

    def board(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.board_url + "board.json", timeout=5) as answer:
            return json.loads(answer.read())

    def watch_said(self) -> str:
        return self.watch_log.read_text() if self.watcher is not None else ""

    # a student's side without a browser (nbgrader's own commands, as that student) -------

    def nbgrader(self, student: str, *args: str) -> str:
        return self.as_user(student, [self.python, "-m", "nbgrader", *args]).stdout

    def submitter(self, student: str) -> Submitter:
        """A process of ``student``'s that submits with nbgrader's own ExchangeSubmit (the
        code the Assignments panel's Submit runs), each ``submit()`` in about 50 ms; the
        assignment fetched first (``nbgrader fetch_assignment``); one per student."""
        if student in self.submitters:
            return self.submitters[student]
        self.nbgrader(student, "fetch_assignment", ASSIGNMENT)
        entry = pwd.getpwnam(student)
        process = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups",
             "--", self.python, "-c", SUBMITTER], cwd=self.home(student),
            env=self.env(student), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            start_new_session=True)
        self.processes.insert(0, process)
        self.submitters[student] = Submitter(self, student, process)
        return self.submitters[student]

    # ending --------------------------------------------------------------------------------

    def close(self) -> None:
        for process in ([self.watcher] if self.watcher else []) + self.processes[::-1]:
            if process.stdin is not None:
                process.stdin.close()
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)
        uids = set()
        for user in self.unix_users:
            try:
                uids.add(pwd.getpwnam(user).pw_uid)
            except KeyError:
                pass
        for pid in leftover_pids(uids):  # a server or kernel the hub did not stop, by its id
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for user in self.unix_users:
            subprocess.run(["userdel", user], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)
