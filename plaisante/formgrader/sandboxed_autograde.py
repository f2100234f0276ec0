"""The formgrader's Autograde button grades in the kit's sandbox: a Jupyter server extension
that ``plaisante formgrader`` loads.

nbgrader's own answer to ``POST /formgrader/api/submission/ASSIGNMENT/STUDENT/autograde`` runs
``nbgrader autograde`` inside the Jupyter server: the student's code in the instructor's
process, as the instructor, unsandboxed (SPEC §5 forbids it). This extension answers that route
first, with ``plaisante grade ASSIGNMENT --student STUDENT`` (the same code path as the command
line, the sandboxed judge) run as a child process, and replies in the shape nbgrader's
``manage_submissions.js`` reads: a JSON text ``{"success": bool, "log": str}`` plus ``"error"``
(the reason, one line) when it failed.

The formgrader's other routes that run nbgrader apps execute no notebook: ``assign``
(generate_assignment runs no kernel by default), ``release``/``unrelease``/``collect``
(file copies), ``generate_feedback`` (GetGrades, HideHiddenTests, CSS: no kernel),
``release_feedback`` (a copy).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import JupyterHandler
from tornado import web
from tornado.routing import HostMatches, Rule
from tornado.web import _ApplicationRouter

from ..course import STUDENT_ID, nbgrader_env

ROUTE = r"/formgrader/api/submission/([^/]+)/([^/]+)/autograde"
#: Seconds a sandboxed grading of one submission may take before the button reports failure.
GRADE_TIMEOUT = 900.0


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "plaisante.formgrader.sandboxed_autograde"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Answer the formgrader's autograde route before nbgrader's own handler does.

    Tornado tries its rules in order and nbgrader's extension may load before or after this
    one, so the rule goes first in the application's router."""
    app = serverapp.web_app
    base_url = app.settings.get("base_url", "/").rstrip("/")
    AutogradeInSandbox.course_root = Path(serverapp.root_dir)
    rule = Rule(HostMatches(".*$"), _ApplicationRouter(app, [(base_url + ROUTE,
                                                              AutogradeInSandbox)]))
    app.default_router.rules.insert(0, rule)
    serverapp.log.info("plaisante: the formgrader's Autograde button grades in the sandbox")


def grade_command(root: Path, assignment: str, student: str) -> list[str]:
    """Return the command line that grades ``student``'s ``assignment`` in the sandbox."""
    return [sys.executable, "-m", "plaisante.cli", "--course", str(root), "grade", assignment,
            "--student", student]


async def grade_in_sandbox(root: Path, assignment: str, student: str,
                           timeout: float = GRADE_TIMEOUT) -> dict[str, Any]:
    """Run ``plaisante grade`` for one submission; return nbgrader's API result shape
    (``success``, ``log``, and ``error`` when it failed). Raises ValueError naming the id
    when ``assignment`` or ``student`` is not an id."""
    for kind, value in (("assignment", assignment), ("student", student)):
        if not STUDENT_ID.fullmatch(value):
            raise ValueError(f"{kind} {value!r} is not an id (letters, digits, _ and -, "
                             "not starting with -)")
    process = await asyncio.create_subprocess_exec(
        *grade_command(root, assignment, student), cwd=root, env=nbgrader_env(),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        return {"success": False, "log": "",
                "error": f"plaisante grade {assignment} --student {student} took more than "
                         f"{timeout:.0f} s and was stopped; run it in a terminal"}
    # a progress bar redraws its line with carriage returns: keep each line's last state
    log = "\n".join(line.rsplit("\r", 1)[-1]
                    for line in output.decode("utf-8", errors="replace").splitlines())
    if process.returncode == 0:
        return {"success": True, "log": log}
    last = log.strip().splitlines()[-1] if log.strip() else "no output"
    return {"success": False, "log": log,
            "error": f"plaisante grade {assignment} --student {student} exited "
                     f"{process.returncode}: {last}"}


class AutogradeInSandbox(JupyterHandler):
    """``POST …/autograde``: grade one submission with ``plaisante grade`` (module doc)."""

    course_root = Path(".")

    @web.authenticated
    async def post(self, assignment: str, student: str) -> None:
        try:
            result = await grade_in_sandbox(self.course_root, assignment, student)
        except ValueError as error:
            result = {"success": False, "log": "", "error": str(error)}
        # a JSON text, as nbgrader writes it: its script parses the answer itself
        self.write(json.dumps(result))
