"""The exchange as a JupyterHub service: ``python -m plaisante.exchange_service --store DIR
--course ID``, started by the hub (``c.JupyterHub.services``, which sets the ``JUPYTERHUB_*``
variables it reads) or next to it.

Authentication is the hub's, through its service API (``HubOAuthenticated`` handlers and one
``HubOAuth``): the API (``api/…``) takes only a hub token in the ``Authorization`` header (the
caller's server's ``$JUPYTERHUB_API_TOKEN``, or a token the user made), never a cookie, so a
web page cannot make a student's browser call it; the lab board (``board/…``) takes the hub's
OAuth login, as any hub service's page does, and no token in its URL. A token the hub does not
know, has revoked or let expire identifies no one: 403. The hub answers for a token at most
``TOKEN_CACHE_SECONDS`` before it is asked again.

Routes, under the service's prefix (``/services/plaisante-exchange/``)::

    GET    api/assignments/COURSE                     released assignments      any user
    GET    api/assignments/COURSE/ID                  a release's files         any user
    PUT    api/assignments/COURSE/ID {"files"}        release                   SCOPE_RELEASE
    DELETE api/assignments/COURSE/ID                  remove a release          SCOPE_RELEASE
    POST   api/submissions/COURSE/ID {"files"}        submit, as the caller     any user
    GET    api/submissions/COURSE[?assignment=ID]     the caller's submissions  any user
    GET    api/submissions/COURSE/ID                  each student's newest     SCOPE_GRADE
    GET    api/submissions/COURSE/ID/STUDENT/SUB      one submission's files    SCOPE_GRADE
    POST   api/feedback/COURSE/ID/STUDENT {...}       release feedback          SCOPE_GRADE
    GET    api/feedback/COURSE/ID                     the caller's feedback     any user
    PUT    api/board/COURSE/ID                        the board's JSON          SCOPE_GRADE
    GET    board/COURSE/ID/ and …/board.json          the lab board (OAuth)     SCOPE_GRADE

Files travel as JSON ``{"files": {relative path: base64}}``. Errors are JSON ``{"message"}``,
one line, with the HTTP status.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from tornado import ioloop, web
from tornado.httpserver import HTTPServer

from . import SCOPE_GRADE, SCOPE_RELEASE
from .store import MOST_BYTES, Store, StoreError, checksum, decode_files, encode_folder

#: Seconds the service keeps the hub's answer for a token (a revoked token works that long).
TOKEN_CACHE_SECONDS = 10
#: The largest request body taken: a release or submission's files, base64 in JSON.
MOST_BODY_BYTES = MOST_BYTES * 4 // 3 + 2**20
#: The board page's policy: its own script and styles, board.json from its own origin.
BOARD_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                "form-action 'none'; frame-ancestors 'none'")


class ApiHandler(HubOAuthenticated, web.RequestHandler):
    """A call of the API: the caller is whom the hub says the ``Authorization`` header's
    token belongs to (a cookie is never read here); 403 otherwise."""

    def initialize(self, store: Store, hub_auth: HubOAuth) -> None:
        self.store = store
        self.hub_auth = hub_auth

    def get_current_user(self) -> Any:
        if not self.request.headers.get("Authorization", "").lower().startswith(
                ("token ", "bearer ")):
            return None
        return super().get_current_user()

    def prepare(self) -> None:
        user = self.current_user
        if not user:
            raise web.HTTPError(403, "the hub does not know this token (none given, made up, "
                                "revoked or expired): use your hub token")
        if user.get("kind", "user") != "user":
            raise web.HTTPError(403, "only a hub user may use the exchange, not a service")

    @property
    def caller(self) -> str:
        return str(self.current_user["name"])

    def need(self, scope: str, what: str) -> None:
        """Raise 403 unless the caller's token holds ``scope``."""
        if not self.hub_auth.check_scopes(scope, self.current_user):
            raise web.HTTPError(403, f"{self.caller} may not {what}: the hub grants it to "
                                f"the roles holding {scope}")

    def body(self) -> dict[str, Any]:
        try:
            data = json.loads(self.request.body or b"{}")
        except ValueError:
            raise web.HTTPError(400, "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise web.HTTPError(400, "the request body must be a JSON object")
        return data

    def answer(self, value: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(value))

    def _handle_request_exception(self, error: BaseException) -> None:
        if isinstance(error, StoreError):
            self.send_error(error.status, reason=None, message=str(error))
            return
        super()._handle_request_exception(error)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        message = kwargs.get("message")
        error = kwargs.get("exc_info", (None, None, None))[1]
        if message is None and isinstance(error, web.HTTPError) and error.log_message:
            message = error.log_message % error.args if error.args else error.log_message
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"message": message or self._reason}))


class Assignments(ApiHandler):
    def get(self, course: str) -> None:
        self.answer(self.store.released(course))


class Assignment(ApiHandler):
    def get(self, course: str, assignment: str) -> None:
        self.answer({"files": encode_folder(self.store.release_files(course, assignment))})

    def put(self, course: str, assignment: str) -> None:
        self.need(SCOPE_RELEASE, "release an assignment")
        self.store.release(course, assignment, decode_files(self.body().get("files")))
        self.answer({"released": assignment})

    def delete(self, course: str, assignment: str) -> None:
        self.need(SCOPE_RELEASE, "remove an assignment")
        self.store.remove(course, assignment)
        self.answer({"removed": assignment})


def _own(store: Store, course: str, assignment: str, student: str, submission: Any
         ) -> dict[str, Any]:
    """A submission as its student sees it: id, time, notebooks, feedback's checksums."""
    folder = store.feedback(course, assignment, student, submission.id)
    feedback = {p.stem: checksum(p.read_bytes()) for p in sorted(folder.glob("*.html"))} \
        if folder is not None else {}
    _, files, _ = store.submission_files(course, assignment, student, submission.id)
    return {"assignment_id": assignment, "id": submission.id,
            "timestamp": submission.timestamp,
            "notebooks": sorted(p.stem for p in files.glob("*.ipynb")), "feedback": feedback}


class Submissions(ApiHandler):
    def get(self, course: str) -> None:
        assignment = self.get_argument("assignment", None)
        self.answer([_own(self.store, course, a, self.caller, s) for a, s in
                     self.store.submissions(course, assignment, self.caller)])


class AssignmentSubmissions(ApiHandler):
    def post(self, course: str, assignment: str) -> None:
        made = self.store.submit(course, assignment, self.caller,
                                 decode_files(self.body().get("files")))
        self.answer({"id": made.id, "timestamp": made.timestamp, "student": made.student})

    def get(self, course: str, assignment: str) -> None:
        self.need(SCOPE_GRADE, "list the class's submissions")
        self.answer([{"student": s.student, "id": s.id, "timestamp": s.timestamp,
                      "ns": s.ns} for s in self.store.newest(course, assignment)])


class SubmissionFiles(ApiHandler):
    def get(self, course: str, assignment: str, student: str, submission_id: str) -> None:
        self.need(SCOPE_GRADE, "collect a submission")
        made, files, secret = self.store.submission_files(course, assignment, student,
                                                          submission_id)
        self.answer({"student": made.student, "id": made.id, "timestamp": made.timestamp,
                     "ns": made.ns, "secret": secret, "files": encode_folder(files)})


class Feedback(ApiHandler):
    def post(self, course: str, assignment: str, student: str) -> None:
        self.need(SCOPE_GRADE, "release feedback")
        body = self.body()
        timestamp = body.get("timestamp")
        if not isinstance(timestamp, str):
            raise web.HTTPError(400, "'timestamp' (the graded submission's) is missing")
        made = self.store.add_feedback(course, assignment, student, timestamp,
                                       decode_files(body.get("files")))
        self.answer({"student": student, "id": made.id})


class OwnFeedback(ApiHandler):
    def get(self, course: str, assignment: str) -> None:
        found = []
        for _, submission in self.store.submissions(course, assignment, self.caller):
            folder = self.store.feedback(course, assignment, self.caller, submission.id)
            if folder is not None:
                found.append({"timestamp": submission.timestamp, "files": {
                    p.name: base64.b64encode(p.read_bytes()).decode("ascii")
                    for p in sorted(folder.glob("*.html"))}})
        self.answer(found)


class BoardData(ApiHandler):
    def put(self, course: str, assignment: str) -> None:
        self.need(SCOPE_GRADE, "publish the lab board")
        self.store.put_board(course, assignment, self.request.body)
        self.answer({"board": assignment})


class BoardPage(HubOAuthenticated, web.RequestHandler):
    """The lab board, behind the hub's login (its OAuth): instructors and graders only."""

    def initialize(self, store: Store, hub_auth: HubOAuth) -> None:
        self.store = store
        self.hub_auth = hub_auth

    @web.authenticated
    def get(self, course: str, assignment: str, name: str) -> None:
        from ..live import board

        user = self.current_user
        if not self.hub_auth.check_scopes(SCOPE_GRADE, user):
            raise web.HTTPError(403, "the lab board is for the course's instructors and "
                                "graders")
        try:
            data = self.store.board(course, assignment)
        except StoreError as error:
            raise web.HTTPError(error.status, str(error)) from None
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        if name == "board.json":
            self.set_header("Content-Type", "application/json")
            self.finish(data)
            return
        if name:
            raise web.HTTPError(404)
        shown = json.loads(data)
        self.set_header("Content-Security-Policy", BOARD_POLICY)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        xsrf = self.xsrf_token
        self.finish(board.page(assignment, str(shown.get("title") or assignment),
                               anonymous=bool(shown.get("anonymous")),
                               xsrf=xsrf.decode() if isinstance(xsrf, bytes) else str(xsrf)))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A page that says why, in one line (the reason escaped)."""
        from .. import page_templates

        error = kwargs.get("exc_info", (None, None, None))[1]
        why = error.log_message if isinstance(error, web.HTTPError) and error.log_message \
            else self._reason
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page_templates.render("error.html.j2", status=status_code,
                                          reason=self._reason, why=str(why)))


def make_app(store: Store, prefix: str, hub_auth: HubOAuth) -> web.Application:
    """Return the service's tornado application, its routes under ``prefix``."""
    part = r"([^/]+)"
    kwargs = {"store": store, "hub_auth": hub_auth}
    api = prefix + "api/"
    return web.Application([
        (api + f"assignments/{part}", Assignments, kwargs),
        (api + f"assignments/{part}/{part}", Assignment, kwargs),
        (api + f"submissions/{part}", Submissions, kwargs),
        (api + f"submissions/{part}/{part}", AssignmentSubmissions, kwargs),
        (api + f"submissions/{part}/{part}/{part}/{part}", SubmissionFiles, kwargs),
        (api + f"feedback/{part}/{part}/{part}", Feedback, kwargs),
        (api + f"feedback/{part}/{part}", OwnFeedback, kwargs),
        (api + f"board/{part}/{part}", BoardData, kwargs),
        (prefix + f"board/{part}/{part}/(|board\\.json)", BoardPage, kwargs),
        (prefix + "oauth_callback", HubOAuthCallbackHandler),
    ], cookie_secret=os.urandom(32), hub_auth=hub_auth)


def main(argv: list[str] | None = None) -> int:
    """Run the service until it is stopped; return 0. Its address and prefix come from the
    hub's ``JUPYTERHUB_SERVICE_URL`` and ``JUPYTERHUB_SERVICE_PREFIX``."""
    parser = argparse.ArgumentParser(prog="python -m plaisante.exchange_service",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path,
                        help="the service's own folder (made mode 0700)")
    parser.add_argument("--course", required=True, help="the course id (nbgrader's)")
    parser.add_argument("--ip", help="the address to listen on (default: the host of "
                        "$JUPYTERHUB_SERVICE_URL; 0.0.0.0 in a hub pod the proxy reaches)")
    args = parser.parse_args(argv)
    missing = [n for n in ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_API_TOKEN",
                           "JUPYTERHUB_API_URL") if not os.environ.get(n)]
    if missing:
        print(f"plaisante exchange: {', '.join(missing)} not set: run it as a JupyterHub "
              "service (c.JupyterHub.services), which sets them", file=sys.stderr)
        return 2
    url = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/plaisante-exchange/")
    # the one instance: the OAuth callback handler finds its login states there
    hub_auth = HubOAuth.instance(cache_max_age=TOKEN_CACHE_SECONDS, allow_token_in_url=False)
    store = Store(args.store, args.course)
    server = HTTPServer(make_app(store, prefix, hub_auth), max_body_size=MOST_BODY_BYTES)
    server.listen(url.port or 80, args.ip or url.hostname or "127.0.0.1")
    print(f"plaisante exchange: course {args.course} on {url.geturl()} ({prefix}), store "
          f"{args.store}", flush=True)
    ioloop.IOLoop.current().start()
    return 0
