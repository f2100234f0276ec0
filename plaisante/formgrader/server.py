"""``plaisante formgrader``: nbgrader's formgrader on the course, in JupyterLab.

JupyterLab starts at the course root (its working folder too, so nbgrader's server extensions
read the course's ``nbgrader_config.py``) and the browser opens on the formgrader page; the
rest of JupyterLab is at ``/lab`` on the same server. The course's exchange folder
(``assignments/exchange``, set in ``nbgrader_config.py``) is made first, so nbgrader's
assignment list finds a writable exchange instead of logging CRITICAL "Unwritable directory"
every few seconds. Names come from the roster (``plaisante roster import``). Its pages are
served under a Content Security Policy (``plaisante.formgrader.policy``) and show a student's
notebook in inert forms (``plaisante.inert``, set in the course's ``nbgrader_config.py``).
Its Autograde button grades with ``plaisante grade`` in the sandbox
(``plaisante.formgrader.sandboxed_autograde``), never with nbgrader's autograde in the server.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..course import CourseLayout, course_config, nbgrader_env

POLICY_EXTENSION = "plaisante.formgrader.policy"
#: The Autograde button grades in the sandbox (``plaisante grade``), not in the server.
GRADING_EXTENSION = "plaisante.formgrader.sandboxed_autograde"
#: nbgrader's page of a submission with no autograded notebook, made to render.
PAGES_EXTENSION = "plaisante.formgrader.pages"
#: JupyterLab's "Jupyter news" question off.
NEWS_EXTENSION = "plaisante.lab_news"
#: Voila's server extension, off in the formgrader's JupyterLab, which needs no Voila: its
#: import turns traitlets' DeprecationWarnings on for the whole server (``voila/__init__``),
#: and the log then carried jupyter-server's own about ``ServerApp.token``.
VOILA_EXTENSION = "voila.server_extension"
#: nbgrader's Validate runs the notebook it is given in the server, as the instructor: off here,
#: where the notebooks at hand are students' (students validate in their own JupyterLab).
VALIDATE_EXTENSION = "nbgrader.server_extensions.validate_assignment"


def exchange_folder(root: Path) -> Path:
    """Return the course's exchange folder (``c.Exchange.root`` of its nbgrader_config.py),
    made if missing. Raises ValueError when the config sets none."""
    value = course_config(root).get("Exchange", {}).get("root")
    if not isinstance(value, str) or not value:
        raise ValueError(f"{root / 'nbgrader_config.py'} sets no c.Exchange.root: add "
                         "c.Exchange.root = os.path.join(HERE, 'assignments', 'exchange')")
    folder = Path(value)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def release_to_exchange(root: Path, assignments: list[str]) -> str:
    """Release each of ``assignments`` (their student versions in ``starter/``) into the
    course's exchange with nbgrader's own release (``ExchangeReleaseAssignment``, as
    ``nbgrader release_assignment --force``, or the class ``c.ExchangeFactory`` names: the
    exchange service on a hub), so the formgrader shows them "released" and students on a
    shared server fetch them from JupyterLab; return where (the exchange folder, or the
    service's URL). Raises ValueError when the course's nbgrader_config.py sets no exchange,
    RuntimeError naming the assignment and the exchange when nbgrader cannot release into
    it."""
    import logging

    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange import ExchangeError, ExchangeFactory
    from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment

    config = course_config(root)
    releaser: Any = ExchangeReleaseAssignment
    if config.get("ExchangeFactory", {}).get("release_assignment"):  # another exchange's
        releaser = ExchangeFactory(config=config).ReleaseAssignment
        where = str(config.get("HubExchange", {}).get("service_url", "the exchange service"))
    else:
        where = str(exchange_folder(root))
    config.CourseDirectory.root = str(root)
    quiet = logging.getLogger("plaisante.release")
    quiet.setLevel(logging.ERROR)  # not its notice that it opens the exchange to students
    for assignment in assignments:
        coursedir = CourseDirectory(config=config, log=quiet)
        coursedir.assignment_id = assignment
        release = releaser(coursedir=coursedir, config=config, log=quiet,
                           authenticator=Authenticator(config=config))
        release.force = True
        try:
            release.start()
        except ExchangeError as error:
            raise RuntimeError(f"{assignment} is in starter/ but nbgrader could not release it "
                               f"into the exchange {where}: {error}") from None
    return where


def command(root: Path, *, port: int | None = None, open_browser: bool = True,
            extra: tuple[str, ...] = ()) -> list[str]:
    """Return the JupyterLab command line that serves ``root`` and opens the formgrader."""
    cmd = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={root}",
           "--LabApp.default_url=/formgrader",
           # the formgrader's pages under a Content Security Policy (plaisante.formgrader.policy)
           f"--ServerApp.jpserver_extensions={POLICY_EXTENSION}=True",
           f"--ServerApp.jpserver_extensions={GRADING_EXTENSION}=True",
           f"--ServerApp.jpserver_extensions={PAGES_EXTENSION}=True",
           f"--ServerApp.jpserver_extensions={NEWS_EXTENSION}=True",
           "--LabApp.news_url=None",
           f"--ServerApp.jpserver_extensions={VALIDATE_EXTENSION}=False",
           f"--ServerApp.jpserver_extensions={VOILA_EXTENSION}=False",
           # a kernel opened from the lab talks over a Unix socket: no warning that TCP on
           # loopback is unencrypted in the log
           "--KernelManager.transport=ipc"]
    if port is not None:
        cmd += [f"--ServerApp.port={port}", "--ServerApp.port_retries=0"]
    if not open_browser:
        cmd.append("--no-browser")
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    return [*cmd, *extra]


def serve(root: Path, *, port: int | None = None, open_browser: bool = True,
          extra: tuple[str, ...] = ()) -> int:
    """Run JupyterLab on the course with the formgrader open until it is stopped (Ctrl-C, or
    SIGTERM, which stops JupyterLab too: it shuts its kernels down); return its exit status."""
    import signal

    layout = CourseLayout(Path(root))
    exchange_folder(layout.root)
    print(f"plaisante formgrader: JupyterLab on {layout.root}; the formgrader opens at "
          "/formgrader, JupyterLab itself at /lab. Ctrl-C stops it.", flush=True)
    lab = subprocess.Popen(command(layout.root, port=port, open_browser=open_browser,
                                   extra=extra), cwd=layout.root, env=nbgrader_env())

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        return lab.wait()
    except KeyboardInterrupt:  # Ctrl-C reached JupyterLab too; SIGTERM did not: pass it on
        lab.terminate()
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            lab.kill()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
