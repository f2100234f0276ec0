"""An LTI 1.3 platform on loopback, as the LTI tests run it: a process of its own, real HTTP.

It is the learning platform's side of LTI Advantage, built on ``lti1p3platform`` (PyPI) for
the protocol (its registration keys and JWKS, its signed launches, its access tokens and their
check) and on PyJWT where that library checks less than a platform must (the tool's client
assertion: audience, issuer, subject, a jti used once):

* ``GET /jwks``: the platform's public keys (RSA, its own, made on first start);
* ``POST /token``: OAuth2 client credentials; the tool's assertion is checked against the
  tool's public keys (``tool-jwks.json`` in the state folder, as an administrator pastes
  them); the access token is the platform's signed JWT;
* AGS, under ``/courses/COURSE/lineitems``: line items (list, create, get), ``…/N/scores``
  (POST a score: stored, 409 for one older than the result held) and ``…/N/results``;
* a launch: ``GET /launch?user=U&resource=R[&deployment=D]`` sends the browser to the tool's
  OIDC login initiation; ``/auth`` is the OIDC authorization endpoint that answers with the form
  posting the signed id_token and state to the tool (``redirect_uri``, which must be
  registered); ``message=deeplink`` makes it a deep linking request, whose response the tool
  posts to ``/deeplink`` (checked with the tool's keys; its content items become links);
* ``GET /platform/gradebook``: what the platform's grade book holds (its instructor's view).

Everything it holds is in the state folder (``platform.json``, the keys), so a platform
stopped and started again on the same folder holds what it held. ``--stop-after-scores N``
makes it exit at once, answering nothing, when score N+1 arrives: a platform going down in
the middle of a push.

    python tests/lti_platform.py --port P --state DIR --client-id C --deployment-id D \
        --tool-login URL --tool-launch URL [--redirect-uri URL …] [--stop-after-scores N]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlparse

import jwt
from lti1p3platform.exceptions import LtiException
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

COURSE = "course-1"
SUB_PREFIX = "7f3a9c-"  # the platform's user ids: this, then the login
DEPLOYMENT = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
OTHER_TOOL = "other-tool"  # a second tool registered on the platform: its launches aren't ours
AGS_SCOPES = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
              "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
              "https://purl.imsglobal.org/spec/lti-ags/scope/score"]
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def rsa_pem() -> tuple[str, str]:
    """A new RSA 2048 key pair: (private PEM, public PEM)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class Store:
    """The platform's records (line items, scores, results, links, used jtis) in
    ``platform.json``, written after every change."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "platform.json"
        self.lock = threading.Lock()
        self.data: dict[str, Any] = {"lineitems": {}, "scores": {}, "links": {}, "jti": [],
                                     "next": 1}
        if self.path.is_file():
            self.data = json.loads(self.path.read_text())

    def save(self) -> None:
        partial = self.path.with_suffix(".part")
        partial.write_text(json.dumps(self.data, indent=1))
        partial.replace(self.path)


class Platform(LTI1P3PlatformConfAbstract):
    """lti1p3platform's platform configuration: one registration per tool client."""

    def init_platform_config(self, **kwargs: Any) -> None:
        self.registrations: dict[str, Registration] = kwargs["registrations"]
        self.token_url: str = kwargs["token_url"]
        self.store: Store = kwargs["store"]
        self._registration = self.registrations[kwargs["client_id"]]
        self.audience = self.token_url  # a client assertion's; a deep linking response's: iss

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self.registrations[kwargs["client_id"]]

    def tool_validate_and_decode(self, jwt_token_string: str) -> dict[str, Any]:
        """A JWT the tool signed, checked in full: the signature with the tool's key
        (lti1p3platform finds it by kid), audience (``self.audience``), issuer (the client
        id), times; for a client assertion (audience: this token endpoint) also its subject
        (the client id) and a jti never seen before."""
        self.validate_jwt_format(jwt_token_string)
        key = self.get_tool_public_key()
        client_id = self._registration.get_client_id()
        assertion = self.audience == self.token_url
        claims = jwt.decode(jwt_token_string, key, algorithms=["RS256"],
                            audience=self.audience, issuer=client_id,
                            options={"require": ["exp", "iat", "iss", "aud"]
                                     + (["sub", "jti"] if assertion else [])})
        if not assertion:
            return claims
        if claims["sub"] != client_id:
            raise LtiException("the assertion's sub is not the client id")
        with self.store.lock:
            if claims["jti"] in self.store.data["jti"]:
                raise LtiException("the assertion's jti was used before")
            self.store.data["jti"].append(claims["jti"])
            self.store.save()
        return claims


class PlainRequest(Request):
    """lti1p3platform's request, from what the HTTP handler read."""

    def build_metadata(self, request: dict[str, Any]) -> Any:
        return request


class Launch(LTIAdvantageMessageLaunchAbstract):
    """A launch: lti1p3platform signs it; the page posts it to the tool."""

    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> str:
        fields = "".join(f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
                         for name, value in (("id_token", launch_data["id_token"]),
                                             ("state", launch_data["state"])))
        action = html.escape(launch_data["launch_url"])
        return (f'<!doctype html><html><head><title>Launching…</title></head><body>'
                f'<form id="launch" method="post" action="{action}">'
                f'{fields}<noscript><button>Continue</button></noscript></form>'
                '<script>document.getElementById("launch").submit()</script></body></html>')


class Login(OIDCLoginAbstract):
    """The platform's login initiation: a redirect to the tool's OIDC login URL."""

    def set_lti_message_hint(self, **kwargs: Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


def serve(args: argparse.Namespace) -> None:
    state = Path(args.state)
    state.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{args.port}"
    keys = state / "platform-key.pem"
    if not keys.is_file():
        private, public = rsa_pem()
        keys.write_text(private)
        (state / "platform-key.pub").write_text(public)
    private, public = keys.read_text(), (state / "platform-key.pub").read_text()
    tool_jwks = json.loads((state / "tool-jwks.json").read_text())
    store = Store(state)
    registrations = {}
    redirects = {args.client_id: set(args.redirect_uri or [args.tool_launch]),
                 OTHER_TOOL: {f"{base}/other-tool/launch"}}
    for client_id in (args.client_id, OTHER_TOOL):
        registration = (Registration().set_iss(base).set_client_id(client_id)
                        .set_deployment_id(args.deployment_id)
                        .set_oidc_login_url(args.tool_login).set_launch_url(args.tool_launch)
                        .set_deeplink_launch_url(args.tool_launch)
                        .set_platform_public_key(public).set_platform_private_key(private)
                        .set_tool_key_set(tool_jwks))
        registrations[client_id] = registration
    token_url = f"{base}/token"
    scores_left = [args.stop_after_scores]

    def platform(client_id: str) -> Platform:
        return Platform(registrations=registrations, token_url=token_url, store=store,
                        client_id=client_id)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *fargs: Any) -> None:  # noqa: A002
            if args.verbose:
                super().log_message(format, *fargs)

        def _send(self, status: int, body: Any, kind: str = "application/json",
                  headers: dict[str, str] | None = None) -> None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _form(self) -> dict[str, str]:
            return dict(parse_qsl(self._body().decode()))

        def _token_ok(self, scope: str) -> bool:
            auth = self.headers.get("Authorization", "")
            if not auth.startswith("Bearer "):
                self._send(401, {"error": "no bearer token"})
                return False
            try:
                ok = platform(args.client_id).validate_token(auth[7:], allowed_scopes=[scope])
            except (LtiException, jwt.PyJWTError) as error:
                self._send(401, {"error": f"invalid token: {error}"})
                return False
            if not ok:
                self._send(403, {"error": f"the token lacks the scope {scope}"})
            return bool(ok)

        # ------------------------------------------------------------------ GET
        def do_GET(self) -> None:  # noqa: N802
            url = urlparse(self.path)
            query = dict(parse_qsl(url.query))
            parts = url.path.strip("/").split("/")
            if url.path == "/jwks":
                return self._send(200, platform(args.client_id).get_jwks())
            if url.path == "/platform/gradebook":
                with store.lock:
                    return self._send(200, store.data)
            if url.path == "/launch":
                return self.launch(query)
            if url.path == "/auth":
                return self.authorize(query)
            if parts[:3] == ["courses", COURSE, "lineitems"]:
                scope = AGS_SCOPES[0] if len(parts) < 5 else AGS_SCOPES[1]
                if not self._token_ok(scope):
                    return None
                with store.lock:
                    items = store.data["lineitems"]
                    if len(parts) == 3:
                        wanted = {("resourceId" if k == "resource_id" else k): v
                                  for k, v in query.items() if k in ("resource_id", "tag")}
                        found = [i for i in items.values()
                                 if all(i.get(k) == v for k, v in wanted.items())]
                        return self._send(200, found,
                                          "application/vnd.ims.lis.v2.lineitemcontainer+json")
                    item = items.get(parts[3])
                    if item is None:
                        return self._send(404, {"error": "no such line item"})
                    if len(parts) == 4:
                        return self._send(200, item, "application/vnd.ims.lis.v2.lineitem+json")
                    if parts[4] == "results":
                        results = [result_of(item, user, history[-1])
                                   for user, history in
                                   store.data["scores"].get(parts[3], {}).items()]
                        return self._send(200, results,
                                          "application/vnd.ims.lis.v2.resultcontainer+json")
            return self._send(404, {"error": f"no such page {url.path}"})

        # ----------------------------------------------------------------- POST
        def do_POST(self) -> None:  # noqa: N802
            url = urlparse(self.path)
            parts = url.path.strip("/").split("/")
            if url.path == "/token":
                form = self._form()
                try:
                    token = platform(args.client_id).get_access_token(form)
                except (LtiException, jwt.PyJWTError, KeyError, AssertionError) as error:
                    return self._send(401, {"error": "invalid_client",
                                            "error_description": str(error) or
                                            type(error).__name__})
                return self._send(200, token)
            if url.path == "/auth":
                return self.authorize(self._form())
            if url.path == "/deeplink":
                return self.deep_link_return(self._form())
            if parts[:3] == ["courses", COURSE, "lineitems"] and len(parts) == 3:
                if not self._token_ok(AGS_SCOPES[0]):
                    return None
                item = json.loads(self._body() or b"{}")
                if not isinstance(item.get("scoreMaximum"), (int, float)) or not item.get("label"):
                    return self._send(400, {"error": "a line item needs label and scoreMaximum"})
                with store.lock:
                    number = str(store.data["next"])
                    store.data["next"] += 1
                    item["id"] = f"{base}/courses/{COURSE}/lineitems/{number}"
                    store.data["lineitems"][number] = item
                    store.save()
                return self._send(201, item, "application/vnd.ims.lis.v2.lineitem+json")
            if (parts[:3] == ["courses", COURSE, "lineitems"] and len(parts) == 5
                    and parts[4] == "scores"):
                if scores_left[0] is not None:
                    if scores_left[0] <= 0:
                        os._exit(3)  # down mid-push: this score is never answered
                    scores_left[0] -= 1
                if not self._token_ok(AGS_SCOPES[2]):
                    return None
                return self.score(parts[3], json.loads(self._body() or b"{}"))
            return self._send(404, {"error": f"no such page {url.path}"})

        def score(self, number: str, score: dict[str, Any]) -> None:
            """Store one AGS score, as the AGS spec asks of a platform."""
            needed = ("userId", "activityProgress", "gradingProgress", "timestamp")
            missing = [name for name in needed if not score.get(name)]
            if missing:
                return self._send(400, {"error": f"a score needs {', '.join(missing)}"})
            if "scoreGiven" in score and not isinstance(score.get("scoreMaximum"), (int, float)):
                return self._send(400, {"error": "scoreGiven without scoreMaximum"})
            with store.lock:
                if number not in store.data["lineitems"]:
                    return self._send(404, {"error": "no such line item"})
                history = store.data["scores"].setdefault(number, {}).setdefault(
                    str(score["userId"]), [])
                if history and history[-1]["timestamp"] > score["timestamp"]:
                    return self._send(409, {"error": "a newer score is held"})
                history.append(score)
                store.save()
            return self._send(200, {})

        # --------------------------------------------------------------- launch
        def launch(self, query: dict[str, str]) -> None:
            """Start a launch of ``resource`` for ``user`` (``message=deeplink``: a deep
            linking request) with the tool ``client`` (default the tool under test)."""
            client_id = query.get("client", args.client_id)
            login = Login(None, platform(client_id))
            hint = json.dumps({"resource": query.get("resource", ""),
                               "message": query.get("message", "resource"),
                               "deployment": query.get("deployment", "")})
            login.set_lti_message_hint(hint=hint)
            if query.get("target"):
                login.set_launch_url(query["target"])
            self._send(302, "", "text/plain", {"Location": login.initiate_login(query["user"])})

        def authorize(self, params: dict[str, str]) -> None:
            """The OIDC authorization endpoint: sign the launch the tool asked for."""
            client_id = params.get("client_id", "")
            if client_id not in registrations:
                return self._send(400, {"error": "unknown client_id"})
            if params.get("redirect_uri") not in redirects[client_id]:
                return self._send(400, {"error": "redirect_uri not registered for the tool"})
            if params.get("response_type") != "id_token" or params.get("scope") != "openid":
                return self._send(400, {"error": "response_type id_token, scope openid"})
            hint = json.loads(params.get("lti_message_hint") or "{}")
            resource = hint.get("resource", "")
            user = params.get("login_hint", "")
            message = Launch(PlainRequest({"method": "POST", "form_data": params,
                                           "get_data": {}}), platform(client_id))
            message._registration = registrations[client_id]
            roles = [INSTRUCTOR] if user in (args.instructor or []) else [LEARNER]
            # an opaque LTI user id, as Canvas's and Moodle's are; the login as a custom field
            message.set_user_data(f"{SUB_PREFIX}{user}", roles, full_name=user.title(),
                                  email_address=f"{user}@example.edu",
                                  preferred_username=user)
            message.set_launch_context_claim(COURSE, context_title="Plaisante Kit",
                                             context_label="PK101")
            message.set_ags(f"{base}/courses/{COURSE}/lineitems")
            link: dict[str, Any] = {}
            if hint.get("message") == "deeplink":
                message.set_dl(f"{base}/deeplink", title="Plaisante Kit",
                               accept_types={"ltiResourceLink"})
            else:
                with store.lock:
                    link = store.data["links"].get(resource, {})
                message.set_resource_link_claim(resource, title=link.get("title"))
            message.set_custom_parameters_claim({"login": user, **(link.get("custom") or {})})
            if hint.get("deployment"):  # the tool deployed again elsewhere on the platform
                message.set_extra_claims({DEPLOYMENT: hint["deployment"]})
            self._send(200, message.lti_launch(), "text/html; charset=utf-8")

        def deep_link_return(self, form: dict[str, str]) -> None:
            """The tool's deep linking response: its content items become resource links."""
            checker = platform(args.client_id)
            checker.audience = base
            try:
                items = checker.validate_deeplinking_resp(form)
            except (LtiException, jwt.PyJWTError, KeyError) as error:
                return self._send(400, {"error": f"deep linking response refused: {error}"})
            made = []
            with store.lock:
                for item in items:
                    number = f"link-{store.data['next']}"
                    store.data["next"] += 1
                    store.data["links"][number] = item
                    made.append(number)
                    if isinstance(item.get("lineItem"), dict):  # the link's grade column
                        column = str(store.data["next"])
                        store.data["next"] += 1
                        store.data["lineitems"][column] = {
                            **item["lineItem"], "resourceLinkId": number,
                            "id": f"{base}/courses/{COURSE}/lineitems/{column}"}
                store.save()
            return self._send(200, {"links": made})

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    (state / "ready").write_text(str(os.getpid()))
    try:
        server.serve_forever()
    finally:
        server.server_close()


def result_of(item: dict[str, Any], user: str, score: dict[str, Any]) -> dict[str, Any]:
    """The AGS result of ``user`` on line item ``item``, from the last score held."""
    result: dict[str, Any] = {"id": f"{item['id']}/results/{user}", "scoreOf": item["id"],
                              "userId": user, "comment": score.get("comment", "")}
    if "scoreGiven" in score:
        result["resultScore"] = score["scoreGiven"]
        result["resultMaximum"] = score.get("scoreMaximum")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--deployment-id", required=True)
    parser.add_argument("--tool-login", required=True)
    parser.add_argument("--tool-launch", required=True)
    parser.add_argument("--redirect-uri", action="append")
    parser.add_argument("--instructor", action="append")
    parser.add_argument("--stop-after-scores", type=int)
    parser.add_argument("--verbose", action="store_true")
    serve(parser.parse_args())


if __name__ == "__main__":
    main()
