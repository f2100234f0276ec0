"""The LTI tests' platform: ``tests/lti_platform.py`` run as a process of its own on loopback,
and a course registered with it (``lti.json``, the tool's key outside the course folder, the
tool's public keys given to the platform as an administrator pastes them).

    platform = PlatformProcess(tmp_path / "platform").start()
    register(course_root, platform, tmp_path / "keys")
    ...
    platform.gradebook()          # what the platform holds (its own records)
    platform.stop()
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import requests

KIT = Path(__file__).resolve().parents[1]
PLATFORM = KIT / "tests" / "lti_platform.py"
CLIENT_ID, DEPLOYMENT_ID = "plaisante-tool", "deployment-1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PlatformProcess:
    """The test platform as a child process (module doc of ``tests/lti_platform.py``),
    holding its records in ``state``. ``tool_login``/``tool_launch`` are the tool's OIDC
    login initiation and launch (redirect) URLs the platform knows."""

    def __init__(self, state: Path, *, port: int | None = None,
                 tool_login: str = "http://127.0.0.1:9/login",
                 tool_launch: str = "http://127.0.0.1:9/launch",
                 instructors: tuple[str, ...] = ()) -> None:
        self.state = Path(state)
        self.port = port or free_port()
        self.tool_login, self.tool_launch = tool_login, tool_launch
        self.instructors = instructors
        self.process: subprocess.Popen[str] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, stop_after_scores: int | None = None) -> PlatformProcess:
        """Start it (again, on the same port and records); return once it answers. Raises
        RuntimeError with its output when it does not start."""
        self.stop()  # a run before (ended by itself, say): its pipe closed
        self.state.mkdir(parents=True, exist_ok=True)
        if not (self.state / "tool-jwks.json").is_file():
            raise RuntimeError("register a course first: the platform needs the tool's keys")
        argv = [sys.executable, str(PLATFORM), "--port", str(self.port), "--state",
                str(self.state), "--client-id", CLIENT_ID, "--deployment-id", DEPLOYMENT_ID,
                "--tool-login", self.tool_login, "--tool-launch", self.tool_launch]
        argv += [f"--instructor={name}" for name in self.instructors]
        if stop_after_scores is not None:
            argv += ["--stop-after-scores", str(stop_after_scores)]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        for _ in range(600):  # until it answers (bounded: 60 s), or it ends
            if self.process.poll() is not None:
                said = self.process.stdout.read() if self.process.stdout else ""
                raise RuntimeError(f"the LTI test platform ended ({self.process.returncode}): "
                                   f"{said[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/jwks", timeout=5) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the LTI test platform did not answer on {self.base}")

    def wait_ended(self) -> int:
        """Wait for the process to end by itself (``--stop-after-scores``); its status."""
        assert self.process is not None
        return self.process.wait(timeout=60)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        if self.process is not None and self.process.stdout:
            self.process.stdout.close()
        self.process = None

    def gradebook(self) -> dict[str, Any]:
        """The platform's records: line items, every score posted (per line item and user,
        in order), links."""
        with urllib.request.urlopen(f"{self.base}/platform/gradebook", timeout=10) as answer:
            return json.loads(answer.read())

    def scores(self, assignment: str) -> dict[str, list[dict[str, Any]]]:
        """Every score the platform holds on ``assignment``'s line item: {user: [score …]}."""
        book = self.gradebook()
        number = next(n for n, item in book["lineitems"].items()
                      if item.get("resourceId") == assignment)
        return book["scores"].get(number, {})


def register(root: Path, platform: PlatformProcess, keys: Path, **extra: Any) -> Path:
    """Register the course at ``root`` with ``platform``: ``lti.json`` naming its endpoints
    and a key file under ``keys`` (outside the course), the key made with ``plaisante lms
    key``'s own function, and its public JWKS given to the platform. Return the key file."""
    from plaisante.lti.registration import make_key, public_jwks

    key = Path(keys) / "tool.pem"
    make_key(key)
    settings = {
        "issuer": platform.base, "client_id": CLIENT_ID, "deployment_id": DEPLOYMENT_ID,
        "auth_login_url": f"{platform.base}/auth", "auth_token_url": f"{platform.base}/token",
        "key_set_url": f"{platform.base}/jwks",
        "lineitems_url": f"{platform.base}/courses/course-1/lineitems",
        "feedback_url": "https://hub.example.edu/hub/user-redirect/tree/{assignment}/feedback",
        "private_key_file": str(key), **extra}
    (Path(root) / "lti.json").write_text(json.dumps(settings, indent=1))
    platform.state.mkdir(parents=True, exist_ok=True)
    (platform.state / "tool-jwks.json").write_text(
        json.dumps(public_jwks(key.read_text())))
    return key


def get_json(url: str, token: str = "") -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"}
                                     if token else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{url}: HTTP {error.code} {error.read()[:300]!r}") from None


# ------------------------------------------------------------- a browser's side of a launch

class Forms(HTMLParser):
    """The forms of a page: [(action, {name: value})] of their hidden inputs."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self.buttons: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.forms.append((found.get("action") or "", {}))
        elif tag == "input" and self.forms and found.get("name"):
            self.forms[-1][1][str(found["name"])] = found.get("value") or ""
        elif tag == "button" and found.get("name") == "assignment":
            self.buttons.append(found.get("value") or "")


def start(session: requests.Session, platform: PlatformProcess, user: str, resource: str = "",
          message: str = "resource", deployment: str = "") -> tuple[str, dict[str, str]]:
    """Open a link as ``user`` on the platform: its login initiation goes to the hub, the hub
    sends the browser to the platform's authorization, whose page posts the launch. Return
    that form: (the hub's launch URL, {"id_token": …, "state": …})."""
    page = session.get(f"{platform.base}/launch", params={
        "user": user, "resource": resource, "message": message, "deployment": deployment},
        timeout=30)
    assert page.status_code == 200, page.text[:500]
    (action, fields), = Forms(page.text).forms
    return action, fields


def post(session: requests.Session, action: str, fields: dict[str, str]) -> requests.Response:
    return session.post(action, data=fields, allow_redirects=False, timeout=30)


def deep_link(hub_url: str, platform: PlatformProcess, assignment: str,
              instructor: str = "teacher") -> str:
    """The instructor adds ``assignment`` to the course by deep linking (the hub at
    ``hub_url`` shows its picker); return the platform's new link."""
    teacher = requests.Session()
    action, fields = start(teacher, platform, instructor, message="deeplink")
    picker = post(teacher, action, fields)
    assert picker.status_code == 200, picker.text[:500]
    forms = Forms(picker.text)
    assert assignment in forms.buttons
    (pick_action, pick_fields), = forms.forms
    assert urljoin(action, pick_action) == f"{hub_url}/hub/lti13/deeplink"  # as a browser
    response = teacher.post(urljoin(action, pick_action),
                            data={**pick_fields, "assignment": assignment}, timeout=30)
    assert response.status_code == 200, response.text[:500]
    (back, jwt_field), = Forms(response.text).forms
    assert back == f"{platform.base}/deeplink"
    made = teacher.post(back, data=jwt_field, timeout=30)
    assert made.status_code == 200, made.text
    link, = made.json()["links"]
    return str(link)
