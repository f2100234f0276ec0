"""A course's LTI 1.3 registration with its platform, and the tool's key.

The registration is ``lti.json`` beside the course's ``nbgrader_config.py`` (commit it: it
holds no secret). Its values come from the platform's registration of the tool (Canvas: the
developer key; Moodle: the external tool's "Tool configuration details")::

    {
      "issuer": "https://canvas.instructure.com",
      "client_id": "10000000000042",
      "deployment_id": "77:1f3a…",                       (or "deployment_ids": [...])
      "auth_login_url": "https://sso.canvaslms.com/api/lti/authorize_redirect",
      "auth_token_url": "https://sso.canvaslms.com/login/oauth2/token",
      "key_set_url": "https://sso.canvaslms.com/api/lti/security/jwks",
      "lineitems": {"plaisante": "https://canvas.example.edu/api/lti/courses/7/line_items/12"},
      "lineitems_url": "https://canvas.example.edu/api/lti/courses/7/line_items",
      "feedback_url": "https://hub.example.edu/hub/user-redirect/tree/{assignment}/feedback",
      "private_key_file": "/home/me/.config/plaisante/lti/plaisante-kit.pem"
    }

``lineitems`` names the grade column of each assignment; an assignment without one is found
(or made) in the course's ``lineitems_url`` by its id (AGS ``resourceId``). ``feedback_url``
(optional) is where a student reads their feedback; ``{student}`` and ``{assignment}`` are
filled in. ``auth_audience`` (optional) is the token endpoint's audience when it is not its URL.

The tool's private key (RSA, PEM) is ``private_key_file``, by default
``~/.config/plaisante/lti/<course id>.pem`` (``$XDG_CONFIG_HOME`` if set): outside the course
folder, so never in its git. A key file inside the course folder is refused unless git ignores
it (``.gitignore``). ``plaisante lms key`` makes the key (mode 0600) and prints its public
half for the platform.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..boundary import NAME
from . import REGISTRATION_FILE

REQUIRED = ("issuer", "client_id", "auth_login_url", "auth_token_url", "key_set_url")
OPTIONAL = ("deployment_id", "deployment_ids", "lineitems", "lineitems_url", "feedback_url",
            "private_key_file", "auth_audience", "launch_url")
URLS = ("auth_login_url", "auth_token_url", "key_set_url", "lineitems_url", "auth_audience")


@dataclass(frozen=True)
class CourseRegistration:
    """One course's registration with one platform (module doc): the platform's ``issuer``,
    the tool's ``client_id`` and ``deployment_ids`` there, the platform's OIDC authorization
    (``auth_login_url``), OAuth2 token (``auth_token_url``) and JWKS (``key_set_url``) URLs,
    each assignment's line item URL (``lineitems``), the course's line item container
    (``lineitems_url``, "" if none), the feedback address template (``feedback_url``) and the
    tool's private key file."""

    root: Path
    issuer: str
    client_id: str
    deployment_ids: tuple[str, ...]
    auth_login_url: str
    auth_token_url: str
    key_set_url: str
    private_key_file: Path
    lineitems: dict[str, str] = field(default_factory=dict)
    lineitems_url: str = ""
    feedback_url: str = ""
    auth_audience: str = ""
    launch_url: str = ""

    @property
    def source(self) -> Path:
        """The registration file."""
        return self.root / REGISTRATION_FILE

    def private_key(self) -> str:
        """Return the tool's private key (PEM). Raises FileNotFoundError, in one line, naming
        the file and ``plaisante lms key`` when it is missing; PermissionError when git would
        hold it (``check_key_place``)."""
        check_key_place(self.private_key_file, self.root)
        try:
            return self.private_key_file.read_text(encoding="ascii")
        except FileNotFoundError:
            raise FileNotFoundError(
                f"the tool's private key {self.private_key_file} does not exist: make it with "
                "`plaisante lms key` and give the platform its public key") from None

    def feedback_address(self, student: str, assignment: str) -> str:
        """Return where ``student`` reads their feedback on ``assignment`` ("" if not set)."""
        if not self.feedback_url:
            return ""
        return self.feedback_url.replace("{student}", student).replace(
            "{assignment}", assignment)

    def tool_config(self, keys: bool = True) -> Any:
        """Return pylti1p3's ``ToolConfDict`` of this registration, the tool's keys set (with
        ``keys`` False, only when the key file is there: a launch needs none, a deep link
        response does)."""
        from pylti1p3.tool_config import ToolConfDict

        settings: dict[str, Any] = {
            "default": True, "client_id": self.client_id,
            "auth_login_url": self.auth_login_url, "auth_token_url": self.auth_token_url,
            "key_set_url": self.key_set_url, "key_set": None,
            "deployment_ids": list(self.deployment_ids)}
        if self.auth_audience:
            settings["auth_audience"] = self.auth_audience
        config = ToolConfDict({self.issuer: [settings]})  # type: ignore[list-item]
        if not keys and not self.private_key_file.is_file():
            return config
        private = self.private_key()
        config.set_private_key(self.issuer, private, client_id=self.client_id)
        config.set_public_key(self.issuer, public_pem(private), client_id=self.client_id)
        return config

    def pylti_registration(self) -> Any:
        """Return pylti1p3's ``Registration`` of this course (keys set)."""
        return self.tool_config().find_registration_by_params(self.issuer, self.client_id)


def default_key_file(course_id: str) -> Path:
    """Return where the tool's private key of course ``course_id`` is kept by default:
    ``$XDG_CONFIG_HOME/plaisante/lti/<course id>.pem`` (``~/.config`` when unset)."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / NAME / "lti" / f"{course_id}.pem"  # the kit's own folder


def check_key_place(path: Path, root: Path) -> None:
    """Raise PermissionError, in one line, when the key file ``path`` lies inside the course
    folder ``root`` and is not ignored by the course's git (a course that is not a git
    repository holds no git to leak it into)."""
    try:
        inside = Path(path).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return
    done = subprocess.run(["git", "-C", str(root), "check-ignore", "-q", str(inside)],
                          capture_output=True, check=False)
    if done.returncode == 1:  # 0: ignored; 128: not a repository (or no git at all)
        raise PermissionError(
            f"the tool's private key {path} is inside the course folder and not ignored by "
            f"git: add {inside} to {Path(root) / '.gitignore'} or move it out (default "
            f"{default_key_file('ID').parent}), and tell private_key_file in lti.json")


def load(root: Path) -> CourseRegistration | None:
    """Return the registration of the course at ``root`` (``lti.json``), or None when the
    course has none. Raises ValueError, in one line naming the file, the value and what is
    allowed, for a registration that is not one."""
    from ..course import CourseLayout

    root = Path(root)
    path = root / REGISTRATION_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ValueError(f"{path} is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} must hold a JSON object with {', '.join(REQUIRED)}")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(unknown)}; allowed: "
                         f"{', '.join(REQUIRED + OPTIONAL)}")
    missing = [key for key in REQUIRED if not isinstance(data.get(key), str) or not data[key]]
    if missing:
        raise ValueError(f"{path}: {', '.join(missing)} missing (each a non-empty string, "
                         "from the platform's registration of the tool)")
    for key in URLS:
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or
                                  urlparse(value).scheme not in ("http", "https")
                                  or not urlparse(value).netloc):
            raise ValueError(f"{path}: {key} {value!r} is not an http(s) URL")
    deployments = data.get("deployment_ids", [data["deployment_id"]]
                           if "deployment_id" in data else None)
    if (not isinstance(deployments, list) or not deployments
            or not all(isinstance(d, str) and d for d in deployments)):
        raise ValueError(f"{path}: deployment_id (a string) or deployment_ids (a list of "
                         "strings) is needed: the platform shows it with the tool's deployment")
    lineitems = data.get("lineitems", {})
    if not isinstance(lineitems, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and urlparse(v).scheme in ("http", "https")
            for k, v in lineitems.items()):
        raise ValueError(f"{path}: lineitems must map assignment ids to line item URLs, "
                         '{"plaisante": "https://…/line_items/12"}')
    for key in ("feedback_url", "launch_url"):
        if not isinstance(data.get(key, ""), str):
            raise ValueError(f"{path}: {key} must be a string")
    key_file = data.get("private_key_file")
    if key_file is not None and (not isinstance(key_file, str) or not key_file):
        raise ValueError(f"{path}: private_key_file must be a path to a PEM file")
    key_path = (Path(key_file).expanduser() if key_file
                else default_key_file(CourseLayout(root).course_id))
    if not key_path.is_absolute():
        key_path = root / key_path
    return CourseRegistration(
        root=root, issuer=data["issuer"], client_id=data["client_id"],
        deployment_ids=tuple(deployments), auth_login_url=data["auth_login_url"],
        auth_token_url=data["auth_token_url"], key_set_url=data["key_set_url"],
        private_key_file=key_path, lineitems=dict(lineitems),
        lineitems_url=data.get("lineitems_url", ""), feedback_url=data.get("feedback_url", ""),
        auth_audience=data.get("auth_audience", ""), launch_url=data.get("launch_url", ""))


def make_key(path: Path) -> bool:
    """Make an RSA 2048 private key at ``path`` (PEM, mode 0600, its folder 0700) unless one
    is there; return whether one was made."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    return True


def public_pem(private_pem: str) -> str:
    """Return the public half (PEM) of the private key ``private_pem``."""
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(private_pem.encode("ascii"), password=None)
    return key.public_key().public_bytes(
        serialization.Encoding.PEM,
        serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def public_jwks(private_pem: str) -> dict[str, Any]:
    """Return the JSON Web Key Set of the tool's public key (its ``kid``, ``alg`` RS256,
    ``use`` sig), as pylti1p3 signs with it: what a platform takes as the tool's keys."""
    from pylti1p3.registration import Registration

    return {"keys": [dict(Registration.get_jwk(public_pem(private_pem)))]}
