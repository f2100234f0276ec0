"""LTI 1.3 launches into a real JupyterHub (``plaisante.lti.hub.LTI13Authenticator``) from the
test platform process (``tests/lti_platform.py``), every request real HTTP on loopback:

* the instructor's deep linking request shows the course's assignments; the one picked goes
  back to the platform, signed, as a link with its grade column;
* a student's launch of that link logs them in as their LMS identity and sends them to the
  assignment's notebook;
* forged launches log nobody in: an id_token signed with another key, a launch replayed
  (nonce already used), an id_token the platform made for another tool (audience) or for
  another deployment of this one, a login from a platform the course does not know (issuer).

No user server is started here (no Unix account is needed): the tests stop at the hub's
answer and its API.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlparse

import jwt
import pytest
import requests
from course_cli import new_course
from lti_platform import SUB_PREFIX
from lti_support import (
    CLIENT_ID,
    Forms,
    PlatformProcess,
    deep_link,
    free_port,
    post,
    register,
    start,
)

from plaisante.lti.identities import launched

KIT = Path(__file__).resolve().parents[1]
PROXY = KIT / ".venv" / "hub-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"


class Hub:
    """JupyterHub with the kit's LTI authenticator on the course at ``root``."""

    def __init__(self, folder: Path, root: Path, port: int) -> None:
        self.port = port
        folder.mkdir(mode=0o700)
        config = {
            "JupyterHub": {"ip": "127.0.0.1", "port": port, "hub_ip": "127.0.0.1",
                           "hub_port": free_port(),
                           "authenticator_class": "plaisante.lti.hub.LTI13Authenticator",
                           "db_url": f"sqlite:///{folder / 'jupyterhub.sqlite'}",
                           "cookie_secret_file": str(folder / "cookie_secret"),
                           "pid_file": str(folder / "jupyterhub.pid")},
            "ConfigurableHTTPProxy": {"command": [str(PROXY)],
                                      "api_url": f"http://127.0.0.1:{free_port()}"},
            "LTI13Authenticator": {"course": str(root), "username_claim": "custom_login"},
            "Authenticator": {"allow_all": True},
        }
        (folder / "jupyterhub_config.json").write_text(json.dumps(config))
        if not PROXY.exists():
            raise RuntimeError(f"{PROXY} is missing: `make test` installs it (npm)")
        self.log = folder / "hub.log"
        env = dict(os.environ, PYTHONPATH=str(KIT),
                   PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [str(Path(sys.executable).parent / "jupyterhub"), "-f",
                 str(folder / "jupyterhub_config.json")], cwd=folder, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True, env=env)
        for _ in range(900):  # until the hub answers (bounded: 90 s), or it ends
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub ended:\n{self.log.read_text()[-3000:]}")
            try:
                if requests.get(f"{self.url}/hub/health", timeout=5).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"JupyterHub did not answer:\n{self.log.read_text()[-3000:]}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            self.process.wait(timeout=60)

    def whoami(self, session: requests.Session) -> str | None:
        """The hub user ``session``'s cookie logs in, None for none."""
        answer = session.get(f"{self.url}/hub/api/user", allow_redirects=False, timeout=30)
        return answer.json()["name"] if answer.status_code == 200 else None


@pytest.fixture(scope="module")
def lti_hub(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("lti-hub")
    root = new_course(folder / "course")
    hub_port = free_port()
    hub_url = f"http://127.0.0.1:{hub_port}"
    platform = PlatformProcess(folder / "platform", tool_login=f"{hub_url}/hub/lti13/login",
                               tool_launch=f"{hub_url}/hub/lti13/launch",
                               instructors=("teacher",))
    register(root, platform, folder / "keys")
    platform.start()
    try:
        hub = Hub(folder / "hub", root, hub_port)
    except Exception:
        platform.stop()
        raise
    yield hub, platform, root
    hub.stop()
    platform.stop()


def test_lti_deep_link_then_launch_logs_the_student_in_at_the_assignments_notebook(lti_hub):
    hub, platform, root = lti_hub
    link = deep_link(hub.url, platform, "deck")
    book = platform.gradebook()
    assert book["links"][link]["custom"] == {"assignment": "deck"}
    assert book["links"][link]["url"] == f"{hub.url}/hub/lti13/launch"
    column, = [item for item in book["lineitems"].values() if item["resourceLinkId"] == link]
    assert (column["resourceId"], column["scoreMaximum"]) == ("deck", 100.0)

    ada = requests.Session()
    action, fields = start(ada, platform, "ada", resource=link)
    assert action == f"{hub.url}/hub/lti13/launch"
    landed = post(ada, action, fields)
    assert landed.status_code == 302, landed.text[:500]
    assert landed.headers["Location"] == "/hub/user-redirect/plaisante-lti/open/deck"
    assert hub.whoami(ada) == "ada"
    # the hub user is the LMS login; the LMS's own user id is kept for grade passback
    assert launched(root) == {"ada": f"{SUB_PREFIX}ada"}


def test_lti_the_picker_is_for_instructors_only(lti_hub):
    hub, platform, _ = lti_hub
    student = requests.Session()
    action, fields = start(student, platform, "bob", message="deeplink")
    refused = post(student, action, fields)
    assert refused.status_code == 403
    assert hub.whoami(student) is None


def forged(claims: dict, kid: str) -> str:
    """``claims`` signed with a key the platform never had, under the platform's kid."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return jwt.encode(claims, pem, algorithm="RS256", headers={"kid": kid})


def test_lti_an_id_token_signed_with_another_key_is_refused(lti_hub):
    hub, platform, _ = lti_hub
    mallory = requests.Session()
    action, fields = start(mallory, platform, "ada", resource="link-x")
    genuine = jwt.decode(fields["id_token"], options={"verify_signature": False})
    header = jwt.get_unverified_header(fields["id_token"])
    refused = post(mallory, action, {**fields, "id_token": forged(genuine, header["kid"])})
    assert refused.status_code == 400
    assert "Signature verification failed" in refused.text
    assert hub.whoami(mallory) is None


def test_lti_a_replayed_launch_is_refused_its_nonce_spent(lti_hub):
    hub, platform, _ = lti_hub
    carol = requests.Session()
    action, fields = start(carol, platform, "carol", resource="link-x")
    assert post(carol, action, fields).status_code == 302
    assert hub.whoami(carol) == "carol"
    for replay in (requests.Session(), carol):  # another browser; the same one
        again = post(replay, action, fields)
        assert again.status_code == 400, again.text[:300]
        assert "Invalid Nonce" in again.text
    assert hub.whoami(requests.Session()) is None


def test_lti_an_id_token_for_another_tool_is_refused(lti_hub):
    hub, platform, _ = lti_hub
    mallory = requests.Session()
    # the hub's own login initiation: its state cookie and nonce for this browser
    login = mallory.get(f"{hub.url}/hub/lti13/login", params={
        "iss": platform.base, "login_hint": "ada", "target_link_uri":
        f"{hub.url}/hub/lti13/launch", "client_id": CLIENT_ID}, allow_redirects=False,
        timeout=30)
    assert login.status_code == 302
    asked = dict(parse_qsl(urlparse(login.headers["Location"]).query))
    assert asked["client_id"] == CLIENT_ID and asked["nonce"] and asked["state"]
    # ... answered by the platform for another tool registered there: its aud is that tool
    other = {**asked, "client_id": "other-tool",
             "redirect_uri": f"{platform.base}/other-tool/launch"}
    page = requests.get(f"{platform.base}/auth?{urlencode(other)}", timeout=30)
    (_, fields), = Forms(page.text).forms
    assert jwt.decode(fields["id_token"], options={"verify_signature": False})["aud"] == \
        "other-tool"
    refused = post(mallory, f"{hub.url}/hub/lti13/launch", fields)
    assert refused.status_code == 400
    assert re.search(r"other-tool|Client id not registered", refused.text), refused.text[:500]
    assert hub.whoami(mallory) is None


def test_lti_a_launch_from_another_deployment_is_refused(lti_hub):
    hub, platform, _ = lti_hub
    elsewhere = requests.Session()
    action, fields = start(elsewhere, platform, "dan", resource="link-x",
                           deployment="deployment-2")
    claims = jwt.decode(fields["id_token"], options={"verify_signature": False})
    assert claims["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] == "deployment-2"
    refused = post(elsewhere, action, fields)
    assert refused.status_code == 400
    assert "Unable to find deployment" in refused.text
    assert hub.whoami(elsewhere) is None


def test_lti_a_login_from_a_platform_the_course_does_not_know_is_refused(lti_hub):
    hub, _, _ = lti_hub
    stranger = requests.Session()
    refused = stranger.get(f"{hub.url}/hub/lti13/login", params={
        "iss": "https://lms.example.org", "login_hint": "ada", "client_id": CLIENT_ID,
        "target_link_uri": f"{hub.url}/hub/lti13/launch"}, allow_redirects=False, timeout=30)
    assert refused.status_code == 401
    assert "https://lms.example.org" in refused.text and "not found" in refused.text
    assert not [c for c in stranger.cookies if c.name.startswith("lti1p3-")]


def test_lti_the_hub_serves_the_tools_public_keys(lti_hub):
    hub, _, root = lti_hub
    from plaisante.lti.registration import load, public_jwks

    registration = load(root)
    assert registration is not None
    served = requests.get(f"{hub.url}/hub/lti13/jwks", timeout=30).json()
    assert served == public_jwks(registration.private_key())
    assert set(served["keys"][0]) >= {"kty", "kid", "n", "e", "alg", "use"}
    assert "d" not in served["keys"][0]  # no private part
