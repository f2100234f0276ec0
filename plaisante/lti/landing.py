"""Where an LTI launch lands in the student's own Jupyter server: their copy of the assignment's
notebook, fetched first if they have none (a Jupyter server extension).

``GET /plaisante-lti/open/ID`` (under the server's base URL, the student logged in) looks for
``ID/ID.ipynb`` in the server's root folder; when it is missing it runs nbgrader's
``fetch_assignment ID`` there, as the student, with the course's nbgrader config (exactly what
*Nbgrader › Assignment List › Fetch* does), then redirects to JupyterLab on the notebook. An
assignment that is not released (or cannot be fetched) is a page saying so, with nbgrader's
last line. ``plaisante.lti.hub.LTI13Authenticator.notebook_url`` sends launches here.

Enable it in every student's server: ``jupyter server extension enable --sys-prefix
plaisante.lti.landing`` in the users' environment, or ``{"ServerApp": {"jpserver_extensions":
{"plaisante.lti.landing": true}}}`` in ``/etc/jupyter/jupyter_server_config.json``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web

from .. import page_templates
from ..course import STUDENT_ID

#: seconds nbgrader's fetch may take
FETCH_SECONDS = 120


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "plaisante.lti.landing"}]


class OpenHandler(JupyterHandler):
    """The student's copy of an assignment's notebook, fetched if missing, opened in the lab."""

    @web.authenticated
    async def get(self, assignment: str) -> None:
        if not STUDENT_ID.fullmatch(assignment):
            raise web.HTTPError(404, "not an assignment id")
        root = Path(self.settings.get("server_root_dir") or ".").expanduser()
        notebook = root / assignment / f"{assignment}.ipynb"
        said = ""
        if not notebook.is_file():
            fetch = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "nbgrader", "fetch_assignment", assignment, cwd=root,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            try:
                out, _ = await asyncio.wait_for(fetch.communicate(), FETCH_SECONDS)
            except asyncio.TimeoutError:
                fetch.kill()
                out = b"nbgrader fetch_assignment did not finish"
            lines = [line for line in out.decode("utf-8", "replace").splitlines() if line.strip()]
            said = lines[-1] if lines else ""
        if not notebook.is_file():
            self.set_status(404)
            self.write(not_fetched_page(assignment, said))
            return
        self.redirect(url_path_join(self.base_url, "lab", "tree", assignment,
                                    f"{assignment}.ipynb"))


def not_fetched_page(assignment: str, said: str) -> str:
    """The page of an assignment that could not be fetched: what nbgrader said, what to do."""
    return page_templates.render("lti_not_fetched.html.j2", assignment=assignment, said=said)


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Serve ``plaisante-lti/open/ID`` under the server's base URL."""
    base = serverapp.web_app.settings.get("base_url", "/")
    serverapp.web_app.add_handlers(
        ".*$", [(url_path_join(base, "plaisante-lti", "open", r"([^/]+)"), OpenHandler)])
