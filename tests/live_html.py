"""What of an HTML page would run in a browser, read with the standard library's parser: for
tests that a page holds no student script."""

from __future__ import annotations

from html.parser import HTMLParser


class Live(HTMLParser):
    """Collects every element's name (``tags``), every ``on*`` attribute (``handlers``), every
    script's text (``scripts``) and every ``href``/``src`` (``hrefs``) of the HTML fed to it."""

    def __init__(self) -> None:
        super().__init__()
        self.handlers: list[str] = []
        self.scripts: list[str] = []
        self.hrefs: list[str] = []
        self.tags: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.handlers += [f"{name}={value}" for name, value in attrs if name.startswith("on")]
        self.hrefs += [value or "" for name, value in attrs if name in ("href", "src")]
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)
