"""JupyterHub's login by LTI 1.3: students open an assignment from the LMS and land in their
server with its notebook, logged in as their LMS identity (``plaisante.lti.launch`` checks
every launch with pylti1p3).

In ``jupyterhub_config.py`` (README, "Running a class on JupyterHub", LTI 1.3)::

    c.JupyterHub.authenticator_class = "plaisante.lti.hub.LTI13Authenticator"
    c.LTI13Authenticator.course = "/home/teacher/plaisante-kit"   # its lti.json: the registration
    c.LTI13Authenticator.username_claim = "sub"                   # or custom_login, …
    c.Authenticator.allow_all = True                              # anyone the LMS launches

The hub then serves, under its base URL (``/hub/``):

* ``lti13/login``: the OIDC login initiation URL to give the platform;
* ``lti13/launch``: the redirect URI (target link URI) to give it. A student's launch logs
  them in and sends them to ``notebook_url`` of the link's assignment (its custom parameter
  ``assignment``): by default their own server's ``plaisante.lti.landing``, which fetches the
  notebook when they have none and opens it in JupyterLab. An instructor's deep linking
  request shows the course's assignments; the one picked goes back to the LMS as a link with
  its grade column (line item);
* ``lti13/jwks``: the tool's public keys, for a platform that fetches them.

A refused launch answers 400 (401 for an unknown issuer or client) with pylti1p3's reason;
nobody is logged in.
"""

from __future__ import annotations

import asyncio
import json
import typing as t
from pathlib import Path

from jupyterhub.auth import Authenticator
from jupyterhub.handlers import BaseHandler
from jupyterhub.utils import url_path_join
from tornado import web
from traitlets import Unicode

from .. import page_templates
from .launch import (
    LOGIN_SECONDS,
    MESSAGE_TYPE,
    Exchange,
    LaunchRefused,
    LaunchStore,
    assignment_of,
    cookie_names,
    deep_link_form,
    is_instructor,
    login,
    student_id,
    verified,
)


class _LTIHandler(BaseHandler):
    """What the three pages share: the registration, the store, the exchange."""

    def check_xsrf_cookie(self) -> None:
        """LTI's requests come from the platform's pages (cross-site by design): their
        forgery protection is the state cookie and the nonce pylti1p3 checks."""
        return None

    @property
    def lti(self) -> LTI13Authenticator:
        return t.cast(LTI13Authenticator, self.authenticator)

    def exchange(self) -> Exchange:
        params = {name: self.get_argument(name) for name in self.request.arguments}
        cookies = {}
        for name in self.request.cookies:
            if name.startswith(cookie_names()):
                value = self.get_secure_cookie(name, max_age_days=1)
                if value is not None:
                    cookies[name] = value.decode("utf-8", "replace")
        return Exchange(params, cookies, secure=self.request.protocol == "https")

    def answer_cookies(self, exchange: Exchange) -> None:
        for name, value, seconds in exchange.set_cookies:
            self._set_cookie(name, value, encrypted=True, expires_days=seconds / 86400,
                             samesite="None" if exchange.secure else "Lax",
                             path=self.hub.base_url)

    def launch_url(self) -> str:
        """The tool's launch address (the redirect URI registered with the platform)."""
        registration = self.lti.registration()
        if registration.launch_url:
            return registration.launch_url
        return (f"{self.request.protocol}://{self.request.host}"
                f"{url_path_join(self.hub.base_url, 'lti13', 'launch')}")


class LoginHandler(_LTIHandler):
    """The OIDC login initiation (GET or POST from the platform)."""

    async def get(self) -> None:
        exchange = self.exchange()
        try:
            location = login(exchange, self.lti.tool_config(), self.lti.store, self.launch_url())
        except LaunchRefused as error:
            raise web.HTTPError(401, str(error)) from None
        self.answer_cookies(exchange)
        self.redirect(location)

    post = get


class LaunchHandler(_LTIHandler):
    """The launch (the platform's form post of id_token and state)."""

    async def get(self) -> None:
        raise web.HTTPError(405, "a launch is a POST from the platform")

    async def post(self) -> None:
        exchange = self.exchange()
        try:
            launch = await asyncio.to_thread(verified, exchange, self.lti.tool_config(),
                                             self.lti.store)
        except LaunchRefused as error:
            self.log.warning("LTI %s", error)
            raise web.HTTPError(400, str(error)) from None
        for name in exchange.cookies:  # the state is spent
            self.clear_cookie(name, path=self.hub.base_url)
        claims = launch.get_launch_data()
        if claims.get(MESSAGE_TYPE) == "LtiDeepLinkingRequest":
            if not is_instructor(claims):
                raise web.HTTPError(403, "only an instructor picks an assignment to link")
            xsrf = self.xsrf_token
            self.write(self.lti.picker_page(
                launch.get_launch_id(), xsrf.decode() if isinstance(xsrf, bytes) else str(xsrf),
                url_path_join(self.hub.base_url, "lti13", "deeplink")))
            return
        try:
            name = student_id(claims, self.lti.username_claim)
        except LaunchRefused as error:
            raise web.HTTPError(400, str(error)) from None
        user = await self.login_user({"name": name, "auth_state": {
            "sub": claims.get("sub"), "issuer": claims.get("iss"),
            "assignment": assignment_of(claims), "roles": claims.get(
                "https://purl.imsglobal.org/spec/lti/claim/roles", [])}})
        if user is None:
            raise web.HTTPError(403, f"{name} may not use this hub (Authenticator.allowed_users)")
        if isinstance(claims.get("sub"), str) and claims["sub"] != name:
            from .identities import record

            try:
                record(Path(self.lti.course), name, claims["sub"])
            except OSError as error:  # the login stands; passback then sends the student id
                self.log.warning("LTI: could not record %s's LMS id: %s", name, error)
        assignment = assignment_of(claims)
        target = (self.lti.notebook_url.format(assignment=assignment) if assignment
                  else url_path_join(self.hub.base_url, "spawn"))
        if target.startswith("/hub/"):
            target = url_path_join(self.hub.base_url, target[len("/hub/"):])
        self.redirect(target)


class DeepLinkHandler(_LTIHandler):
    """The instructor's pick, posted from the picker page: the deep linking response."""

    def check_xsrf_cookie(self) -> None:
        BaseHandler.check_xsrf_cookie(self)  # a form of the hub's own page

    async def post(self) -> None:
        from pylti1p3.message_launch import MessageLaunch

        launch_id, assignment = self.get_argument("launch_id"), self.get_argument("assignment")
        if assignment not in self.lti.assignments():
            raise web.HTTPError(400, f"no assignment {assignment!r} in the course")
        exchange = self.exchange()
        from .launch import _Cookies, _Launch, _Request, _Session

        try:
            launch: MessageLaunch = _Launch.from_cache(
                launch_id, _Request(exchange), self.lti.tool_config(),
                session_service=_Session(exchange, self.lti.store),
                cookie_service=_Cookies(exchange), launch_data_storage=self.lti.store)
        except Exception as error:  # noqa: BLE001  pylti1p3: launch data not found (expired)
            raise web.HTTPError(400, f"the deep linking launch is over ({error}): open the "
                                     "tool from the LMS again") from None
        title, points = self.lti.title_and_points(assignment)
        self.write(deep_link_form(launch, self.launch_url(), assignment, title, points))


class JwksHandler(_LTIHandler):
    """The tool's public keys (JWKS), for a platform that fetches them."""

    async def get(self) -> None:
        from .registration import public_jwks

        self.set_header("Content-Type", "application/json")
        self.write(json.dumps(public_jwks(self.lti.registration().private_key())))


class LTI13Authenticator(Authenticator):
    """Log in whoever the course's LMS launches (module doc)."""

    login_service = "your course's LMS"

    course = Unicode(
        config=True,
        help="The course folder (its lti.json is the hub's registration with the LMS).")
    username_claim = Unicode(
        "sub", config=True,
        help="The id_token claim that is the student id and hub user name: sub, or "
             "custom_NAME for the custom parameter NAME (e.g. custom_login, with "
             "login=$Canvas.user.loginId or login=$User.username in the LMS).")
    notebook_url = Unicode(
        "/hub/user-redirect/plaisante-lti/open/{assignment}", config=True,
        help="Where a student's launch of an assignment lands ({assignment}: its id); by "
             "default their server's plaisante.lti.landing, which fetches the notebook if "
             "they have none and opens it in JupyterLab.")

    store = LaunchStore()

    def registration(self) -> t.Any:
        """The course's registration (read again at each launch: edits apply at once)."""
        from .registration import load

        if not self.course:
            raise web.HTTPError(500, "LTI13Authenticator.course is not set")
        try:
            found = load(Path(self.course))
        except ValueError as error:
            raise web.HTTPError(500, str(error)) from None
        if found is None:
            raise web.HTTPError(500, f"no lti.json in {self.course}")
        return found

    def tool_config(self) -> t.Any:
        return self.registration().tool_config(keys=False)

    def assignments(self) -> list[str]:
        from ..commands import known_assignments
        from ..course import CourseLayout

        return known_assignments(CourseLayout(Path(self.course)))

    def title_and_points(self, assignment: str) -> tuple[str, float]:
        """The assignment's title (the course's description, else its id) and points (the
        sum of its source notebook's grade cells)."""
        import nbformat

        from ..course import CourseLayout
        from ..games import COURSE, load

        title = load(assignment).title if assignment in COURSE else assignment
        notebook = nbformat.read(CourseLayout(Path(self.course)).source(assignment),
                                 as_version=4)
        points = sum(float(cell.metadata.get("nbgrader", {}).get("points", 0) or 0)
                     for cell in notebook.cells
                     if cell.metadata.get("nbgrader", {}).get("grade"))
        return title, points

    def picker_page(self, launch_id: str, xsrf: str, action: str) -> str:
        """The instructor's page: one button per assignment of the course (its title, id and
        points), each posting the pick to ``action`` (the hub's ``lti13/deeplink``)."""
        choices = [(assignment, *self.title_and_points(assignment))
                   for assignment in self.assignments()]
        return picker_page(choices, launch_id, xsrf, action)

    def login_url(self, base_url: str) -> str:
        return str(url_path_join(base_url, "lti13", "login"))

    def get_handlers(self, app: t.Any) -> list[tuple[str, type]]:
        return [("/lti13/login", LoginHandler), ("/lti13/launch", LaunchHandler),
                ("/lti13/deeplink", DeepLinkHandler), ("/lti13/jwks", JwksHandler)]

    async def authenticate(self, handler: t.Any, data: t.Any = None) -> t.Any:
        """``data`` is what the launch handler made of a launch pylti1p3 verified."""
        return data if isinstance(data, dict) and data.get("name") else None


def picker_page(choices: list[tuple[str, str, float]], launch_id: str, xsrf: str, action: str
                ) -> str:
    """The deep linking picker's HTML: a button for each of ``choices`` ((assignment id,
    title, points)), posting it with ``launch_id`` and the hub's ``xsrf`` token to
    ``action``."""
    return page_templates.render("lti_picker.html.j2", choices=choices, launch_id=launch_id,
                                 xsrf=xsrf, action=action)


__all__ = ["LOGIN_SECONDS", "LTI13Authenticator"]
