"""The calls nbgrader's exchange plugin and ``plaisante watch`` make to the exchange service,
with the caller's own hub token (``$JUPYTERHUB_API_TOKEN``: every user's server, its
terminals and kernels have it; elsewhere a token the user made on the hub's token page)."""

from __future__ import annotations

import base64
import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .store import relative_path

#: Seconds one call may take (a 100 MiB submission on a slow link included).
CALL_SECONDS = 120


class ServiceError(RuntimeError):
    """The service refused a call (``status``: its HTTP status, 0 when it could not be
    reached); the message is one line, the service's own reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ServiceClient:
    """The exchange service at ``url`` (its prefix, e.g.
    ``http://proxy-public/services/plaisante-exchange/``), called with ``token``."""

    def __init__(self, url: str, token: str | None = None) -> None:
        if not url:
            raise ServiceError(0, "no exchange service URL: set c.HubExchange.service_url in "
                               "nbgrader_config.py (e.g. http://proxy-public/services/"
                               "plaisante-exchange/)")
        self.url = url if url.endswith("/") else url + "/"
        token = token if token is not None else os.environ.get("JUPYTERHUB_API_TOKEN", "")
        if not token:
            raise ServiceError(0, "no hub token: $JUPYTERHUB_API_TOKEN is not set (run this "
                               "in your JupyterHub server, or set it to a token made on the "
                               "hub's Token page)")
        self._token = token

    def call(self, method: str, *parts: str, body: Any = None, raw: bytes | None = None,
             query: str = "") -> Any:
        """Call ``api/PART/…`` (each part quoted) with ``method``; return the JSON answer.
        Raises ServiceError with the service's one-line reason."""
        path = "api/" + "/".join(quote(p, safe="") for p in parts) + (f"?{query}" if query
                                                                         else "")
        data = raw if raw is not None else (None if body is None else
                                            json.dumps(body).encode("utf-8"))
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"token {self._token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=CALL_SECONDS) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                message = json.loads(error.read()).get("message") or error.reason
            except ValueError:
                message = error.reason
            raise ServiceError(error.code, f"the exchange said {error.code}: {message}"
                               ) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ServiceError(0, f"the exchange at {self.url} could not be reached: {reason}"
                               ) from None


def encode_files(files: dict[str, Path]) -> dict[str, str]:
    """Return ``{relative path: base64 of the file}`` for ``files``."""
    return {name: base64.b64encode(path.read_bytes()).decode("ascii")
            for name, path in files.items()}


def write_files(folder: Path, files: dict[str, str], *, only_missing: bool = False) -> list[str]:
    """Write ``files`` (``{relative path: base64}``, as the service sends them) under
    ``folder``; with ``only_missing``, keep files already there. Return the paths written.
    Raises ValueError for a path that would leave ``folder``."""
    written = []
    for name, text in sorted(files.items()):
        target = folder / relative_path(name)
        if only_missing and target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(text))
        written.append(name)
    return written
