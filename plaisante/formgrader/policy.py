"""A Content Security Policy for the formgrader's pages: a Jupyter server extension that
``plaisante formgrader`` loads.

The manual-grading page shows a student's notebook on the Jupyter server's origin, in the
instructor's session: script that ran there could use the contents API and the formgrader's
API as the instructor. ``plaisante.inert`` keeps the notebook's content inert; this is the
second line. Every HTML page under ``/formgrader`` gets a policy under which a browser runs
only

* scripts loaded from the formgrader's own static folder (``/formgrader/static/``: nbgrader's
  jQuery, Backbone and formgrader code, and the kit's stand-in for MathJax in
  ``/formgrader/static/kit/``); no other origin (the MathJax that nbgrader's template
  asks of a CDN included: its script tag becomes the stand-in's, which tells formgrade.js
  MathJax's start-up has ended, so its keyboard navigation works offline; TeX shows as text),
  no other folder;
* inline scripts that are nbgrader's own: each inline script of the page is allowed by its
  hash only when it is, character for character, one of the inline scripts of nbgrader's
  formgrader templates with their values filled in by ids (letters, digits, ``_ . / : + -``);
  the same for the ``onclick`` handlers of those templates (CSP's ``'unsafe-hashes'``).
  A script anywhere in a student's content, or in a name that reached the gradebook, is no
  such script and does not run;
* requests to the server's own origin only (``connect-src``, ``img-src`` with ``data:``
  images), no plugins, no ``<base>``, forms only to the server.

Pages whose path under ``/formgrader`` is not made of ids (letters, digits, ``_ . -`` between
slashes) are answered 400: nbgrader writes ids from the path into inline scripts unescaped, so
such a path is a script the instructor would run by opening a link.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.routing import HostMatches, Rule
from tornado.web import OutputTransform, StaticFileHandler, _ApplicationRouter

#: A value nbgrader fills into its templates' inline scripts: an id, a path, a time zone.
TEMPLATE_VALUE = r"[\w./:+-]*"
#: A formgrader page's path below ``formgrader/``: ids between slashes.
PAGE_PATH = re.compile(r"[A-Za-z0-9_.-]*(/[A-Za-z0-9_.-]*)*")
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
# HTML attribute names are case-insensitive: nbgrader's templates write ``onClick=`` too
HANDLER = re.compile(r"\bon[a-z]+=\"([^\"]*)\"", re.I)
PLACEHOLDER = re.compile(r"\{\{.*?\}\}", re.S)
JAVASCRIPT_TYPES = ("", "text/javascript", "application/javascript", "module")
#: The script that stands in for MathJax (``static/mathjax_absent.js``), served
#: from the formgrader's static folder in place of the CDN's MathJax nbgrader's template loads.
KIT_STATIC = "/formgrader/static/kit/"
MATHJAX_ABSENT = "mathjax_absent.js"
CDN_MATHJAX = re.compile(rb'<script src="https://cdnjs\.cloudflare\.com/ajax/libs/mathjax/'
                         rb'[^"]*">\s*</script>')


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "plaisante.formgrader.policy"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Apply the policy to every response of the server's web application."""
    FormgraderPolicy.base_url = serverapp.web_app.settings.get("base_url", "/")
    serverapp.web_app.add_transform(FormgraderPolicy)
    static = Path(__file__).parent / "static"
    route = FormgraderPolicy.base_url.rstrip("/") + KIT_STATIC + "(.*)"
    app = serverapp.web_app
    app.default_router.rules.insert(0, Rule(HostMatches(".*$"), _ApplicationRouter(
        app, [(route, StaticFileHandler, {"path": str(static)})])))
    serverapp.log.info("plaisante: a Content Security Policy on the formgrader's pages")


def template_folder() -> Path:
    """nbgrader's formgrader templates."""
    import nbgrader.server_extensions.formgrader as formgrader

    return Path(formgrader.__file__).parent / "templates"


@lru_cache(maxsize=1)
def nbgrader_scripts() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """Return the inline scripts and the ``on…`` handlers of nbgrader's formgrader templates,
    each as a pattern that matches it rendered (``{{ … }}`` filled by ``TEMPLATE_VALUE``)."""
    scripts, handlers = [], []
    folder = template_folder()
    for path in sorted([*folder.glob("*.tpl"), *folder.glob("*/*.j2")]):
        text = path.read_text(encoding="utf-8")
        for attrs, body in SCRIPT.findall(text):
            if "src=" not in attrs and _script_type(attrs) in JAVASCRIPT_TYPES:
                scripts.append(_pattern(body))
        handlers += [_pattern(value) for value in HANDLER.findall(text)]
    return scripts, handlers


def _pattern(template: str) -> re.Pattern[str]:
    pieces = PLACEHOLDER.split(template)
    return re.compile(TEMPLATE_VALUE.join(re.escape(piece) for piece in pieces), re.S)


def _script_type(attrs: str) -> str:
    found = re.search(r"\btype\s*=\s*[\"']?([^\"'\s>]*)", attrs, re.I)
    return found.group(1).lower() if found else ""


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()
                                         ).decode("ascii") + "'"


def allowed_hashes(page: str) -> list[str]:
    """Return the CSP hashes of the inline scripts and handlers of ``page`` that are
    nbgrader's own (module doc); every other one is left out, so it does not run."""
    scripts, handlers = nbgrader_scripts()
    found = []
    for attrs, body in SCRIPT.findall(page):
        if "src=" in attrs or _script_type(attrs) not in JAVASCRIPT_TYPES:
            continue
        if any(pattern.fullmatch(body) for pattern in scripts):
            found.append(_hash(body))
    for value in set(HANDLER.findall(page)):
        if any(pattern.fullmatch(value) for pattern in handlers):
            found.append(_hash(value))
    return sorted(set(found))


def with_mathjax_absent(page: bytes, base_url: str) -> bytes:
    """Return ``page`` with the CDN's MathJax script tag (which the policy would refuse)
    replaced by the kit's stand-in (``MATHJAX_ABSENT``, from the server)."""
    from .. import page_templates

    tag = page_templates.render(
        "script_src.html.j2", src=f"{base_url.rstrip('/')}{KIT_STATIC}{MATHJAX_ABSENT}").encode()
    return CDN_MATHJAX.sub(lambda _: tag, page)


def policy(origin: str, base_url: str, hashes: list[str]) -> str:
    """Return the Content-Security-Policy of a formgrader page served from ``origin`` (e.g.
    ``http://127.0.0.1:8888``) under ``base_url`` (``/`` or a JupyterHub prefix), whose own
    inline scripts have ``hashes``."""
    static = f"{origin}{base_url.rstrip('/')}/formgrader/static/"
    inline = " 'unsafe-hashes' " + " ".join(hashes) if hashes else ""
    return "; ".join([
        "default-src 'none'",
        f"script-src {static}{inline}",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
        "frame-ancestors 'self'",
        f"report-uri {base_url.rstrip('/')}/api/security/csp-report",
    ])


class FormgraderPolicy(OutputTransform):
    """Set the policy on the formgrader's HTML pages; refuse those at a path not made of ids."""

    base_url = "/"

    def __init__(self, request: HTTPServerRequest):
        self.request = request
        prefix = self.base_url.rstrip("/") + "/formgrader"
        path = unquote(request.path)
        self.applies = path == prefix or path.startswith(prefix + "/")
        self.ids_only = bool(PAGE_PATH.fullmatch(path[len(prefix) + 1:])) if self.applies else True

    def transform_first_chunk(self, status_code: int, headers: HTTPHeaders, chunk: bytes,
                              finishing: bool) -> tuple[int, HTTPHeaders, bytes]:
        if not self.applies or not headers.get("Content-Type", "").startswith("text/html"):
            return status_code, headers, chunk
        if not self.ids_only:
            chunk = (b"400: a formgrader page's path is made of ids (letters, digits, _ . - "
                     b"between slashes)\n")
            headers["Content-Type"] = "text/plain; charset=UTF-8"
            headers["Content-Length"] = str(len(chunk))
            status_code = 400
        hashes = []
        if finishing and "Content-Encoding" not in headers:  # the whole page, as written
            chunk = with_mathjax_absent(chunk, self.base_url)
            if "Content-Length" in headers:
                headers["Content-Length"] = str(len(chunk))
            hashes = allowed_hashes(chunk.decode("utf-8", errors="replace"))
        origin = f"{self.request.protocol}://{self.request.host}"
        headers["Content-Security-Policy"] = policy(origin, self.base_url, hashes)
        return status_code, headers, chunk
