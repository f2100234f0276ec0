"""The tool's side of an LTI 1.3 launch, done by pylti1p3, apart from any web framework.

A launch is two requests from the student's browser:

1. **login initiation** (``login``): the platform sends ``iss``, ``login_hint``,
   ``target_link_uri``, maybe ``lti_message_hint`` and ``client_id``; pylti1p3's ``OIDCLogin``
   finds the course's registration, keeps a new nonce (``LaunchStore``) and a state cookie,
   and answers with the platform's authorization URL to send the browser to;
2. **launch** (``verified``): the platform posts ``id_token`` and ``state``; pylti1p3's
   ``MessageLaunch`` checks the state against its cookie, the token's signature with the
   platform's key from its JWKS URL (kept ``KEYS_SECONDS`` in the store), issuer and audience
   (the registration's issuer and client id), the nonce (one this tool gave, used once: the
   store forgets it as it is checked), the deployment id (one of the registration's), the
   message's claims; any failure raises ``LaunchRefused``.

``Exchange`` is what a web framework hands over: the request's parameters and cookies, and the
cookies to set. ``plaisante.lti.hub`` serves both steps in JupyterHub.
"""

from __future__ import annotations

import threading
import time
import typing as t
from dataclasses import dataclass, field

from pylti1p3.cookie import CookieService
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.message_launch import MessageLaunch
from pylti1p3.oidc_login import OIDCLogin
from pylti1p3.redirect import Redirect
from pylti1p3.request import Request
from pylti1p3.session import SessionService

from ..boundary import NAME
from ..course import STUDENT_ID

#: seconds the platform's keys (its JWKS) are kept before being fetched again
KEYS_SECONDS = 3600
#: seconds a login initiation's nonce and state stay usable
LOGIN_SECONDS = 300

CUSTOM = "https://purl.imsglobal.org/spec/lti/claim/custom"
ROLES = "https://purl.imsglobal.org/spec/lti/claim/roles"
MESSAGE_TYPE = "https://purl.imsglobal.org/spec/lti/claim/message_type"
RESOURCE_LINK = "https://purl.imsglobal.org/spec/lti/claim/resource_link"


class LaunchRefused(Exception):
    """A login initiation or launch that is not one from the course's platform: the message
    says what failed (pylti1p3's words)."""


@dataclass
class Exchange:
    """One request as the framework received it: ``params`` (query and form, one value
    each), ``cookies`` (the request's, by name, already checked by the framework's signing),
    ``secure`` (https); ``set_cookies`` collects (name, value, seconds) to set on the answer."""

    params: dict[str, str]
    cookies: dict[str, str]
    secure: bool = False
    set_cookies: list[tuple[str, str, int]] = field(default_factory=list)


class LaunchStore(LaunchDataStorage[t.Any]):
    """What a launch keeps between its two requests, in this process's memory: nonces
    (each used once: checking one forgets it), states, the platform's keys, the launch data.
    Every value has its expiry. One store serves every launch of a process."""

    def __init__(self) -> None:
        super().__init__()
        self._values: dict[str, tuple[float, t.Any]] = {}
        self._lock = threading.Lock()

    def get_session_cookie_name(self) -> str | None:
        return None  # keys are random (nonce, state, launch id): no per-browser prefix needed

    def can_set_keys_expiration(self) -> bool:
        return True

    def _live(self, key: str) -> t.Any:
        entry = self._values.get(key)
        if entry is None or entry[0] < time.monotonic():
            self._values.pop(key, None)
            return None
        return entry[1]

    def get_value(self, key: str) -> t.Any:
        with self._lock:
            return self._live(self._prepare_key(key))

    def set_value(self, key: str, value: t.Any, exp: int | None = None) -> None:
        with self._lock:
            now = time.monotonic()
            for old in [k for k, (until, _) in self._values.items() if until < now]:
                del self._values[old]
            self._values[self._prepare_key(key)] = (now + (exp or LOGIN_SECONDS), value)

    def check_value(self, key: str) -> bool:
        """Whether ``key`` is held; a nonce is forgotten as it is checked (used once)."""
        key = self._prepare_key(key)
        with self._lock:
            found = self._live(key) is not None
            if "-nonce-" in key:
                self._values.pop(key, None)
            return found


class _Request(Request):
    def __init__(self, exchange: Exchange) -> None:
        self.exchange = exchange

    @property
    def session(self) -> t.Any:
        return {}

    def is_secure(self) -> bool:
        return self.exchange.secure

    def get_param(self, key: str) -> str:
        return self.exchange.params.get(key, "")


class _Cookies(CookieService):
    def __init__(self, exchange: Exchange) -> None:
        self.exchange = exchange

    def _name(self, name: str) -> str:
        return f"{self._cookie_prefix}-{name}"

    def get_cookie(self, name: str) -> str | None:
        return self.exchange.cookies.get(self._name(name))

    def set_cookie(self, name: str, value: t.Union[str, int], exp: int | None = 3600) -> None:
        self.exchange.set_cookies.append((self._name(name), str(value), exp or LOGIN_SECONDS))


class _Redirect(Redirect[str]):
    def __init__(self, location: str) -> None:
        self.location = location

    def do_redirect(self) -> str:
        return self.location

    def do_js_redirect(self) -> str:
        return self.location

    def set_redirect_url(self, location: str) -> None:
        self.location = location

    def get_redirect_url(self) -> str:
        return self.location


class _Session(SessionService):
    def __init__(self, exchange: Exchange, store: LaunchStore) -> None:
        super().__init__(_Request(exchange))
        self.set_data_storage(store)


class _Login(OIDCLogin[_Request, t.Any, _Session, _Cookies, str]):
    def get_redirect(self, url: str) -> _Redirect:
        return _Redirect(url)


class _Launch(MessageLaunch[_Request, t.Any, _Session, _Cookies]):
    def _get_request_param(self, key: str) -> str:
        return self._request.get_param(key)


def cookie_names() -> str:
    """The prefix of the cookies a launch sets (pylti1p3's)."""
    return f"{CookieService._cookie_prefix}-"


def login(exchange: Exchange, tool_config: t.Any, store: LaunchStore, launch_url: str) -> str:
    """Answer a login initiation: return the platform's authorization URL to redirect the
    browser to (the state cookie is in ``exchange.set_cookies``). ``launch_url`` is the
    tool's launch address, registered with the platform as its redirect URI. Raises
    LaunchRefused for an issuer or client the course is not registered with."""
    request = _Request(exchange)
    oidc = _Login(request, tool_config, _Session(exchange, store), _Cookies(exchange),
                  launch_data_storage=store)
    try:
        return oidc.disable_check_cookies().get_redirect_object(launch_url).get_redirect_url()
    except (OIDCException, LtiException) as error:
        raise LaunchRefused(f"login refused: {error}") from None
    except Exception as error:  # noqa: BLE001  pylti1p3's ToolConfDict: an unknown issuer
        raise LaunchRefused(f"login refused: {error}") from None


def verified(exchange: Exchange, tool_config: t.Any, store: LaunchStore) -> t.Any:
    """Check a launch (module doc) with pylti1p3; return its validated ``MessageLaunch``
    (``get_launch_data()`` the id_token's claims). Raises LaunchRefused saying what failed."""
    from .ags import http_session

    launch = _Launch(_Request(exchange), tool_config, session_service=_Session(exchange, store),
                     cookie_service=_Cookies(exchange), launch_data_storage=store,
                     requests_session=http_session())
    launch.set_public_key_caching(store, cache_lifetime=KEYS_SECONDS)
    try:
        return launch.validate()
    except LtiException as error:
        raise LaunchRefused(f"launch refused: {error}") from None
    except Exception as error:  # noqa: BLE001  a registration lookup's own Exception
        raise LaunchRefused(f"launch refused: {type(error).__name__}: {error}") from None


def student_id(claims: dict[str, t.Any], claim: str = "sub") -> str:
    """Return the nbgrader student id (and JupyterHub user name) of a verified launch: the
    claim ``claim`` (``sub`` by default; ``custom_NAME`` reads NAME of the custom claim, as
    Canvas's ``$Canvas.user.loginId`` or Moodle's ``$User.username`` fill it). Raises
    LaunchRefused when it is missing or not an id nbgrader takes."""
    source = claims.get(CUSTOM, {}) if claim.startswith("custom_") else claims
    value = source.get(claim.removeprefix("custom_")) if isinstance(source, dict) else None
    if not isinstance(value, str) or not STUDENT_ID.fullmatch(value):
        raise LaunchRefused(
            f"launch refused: the {claim} claim {value!r} is not a student id (ASCII letters, "
            "digits, '_' and '-'): set LTI13Authenticator.username_claim to a claim that is, "
            "such as custom_login with the LMS's login as a custom field")
    return value


def assignment_of(claims: dict[str, t.Any]) -> str:
    """Return the assignment a launch opens: its custom parameter ``assignment`` (set on the
    link by deep linking, or typed in the LMS's link as ``assignment=ID``), "" if none."""
    custom = claims.get(CUSTOM, {})
    value = custom.get("assignment", "") if isinstance(custom, dict) else ""
    return value if isinstance(value, str) and STUDENT_ID.fullmatch(value) else ""


def is_instructor(claims: dict[str, t.Any]) -> bool:
    """Whether the launch's roles include an instructor or administrator of the context."""
    roles = claims.get(ROLES, [])
    return any(str(role).endswith(("#Instructor", "#Administrator", "#ContentDeveloper"))
               for role in roles) if isinstance(roles, list) else False


def deep_link_form(launch: t.Any, launch_url: str, assignment: str, title: str,
                   points: float) -> str:
    """Return the HTML page that posts the tool's deep linking response for ``assignment``
    back to the platform (pylti1p3 signs it with the tool's key): one LTI resource link to
    ``launch_url`` whose custom parameter ``assignment`` names it, with a line item of
    ``points`` whose resourceId is the assignment (its grade column)."""
    from pylti1p3.deep_link_resource import DeepLinkResource

    resource = (DeepLinkResource().set_url(launch_url).set_title(title)
                .set_custom_params({"assignment": assignment}))
    resource.set_lineitem(_lineitem(assignment, title, points))
    return str(launch.get_deep_link().output_response_form([resource]))


def _lineitem(assignment: str, title: str, points: float) -> t.Any:
    from pylti1p3.lineitem import LineItem

    item: t.Any = {"label": title, "scoreMaximum": points, "resourceId": assignment,
                   "tag": NAME}
    return LineItem(item)
