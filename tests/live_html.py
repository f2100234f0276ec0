"""What of an HTML page would run in a browser, read with the standard library's parser: for
tests that a page holds no student script; and ``LyingText``, a student's text that lies to
whatever escapes it."""

from __future__ import annotations

from html.parser import HTMLParser


class Live(HTMLParser):
    """What a browser's tokenizer makes of the HTML fed to it (entities decoded): every
    element's name (``tags``), with its attributes (``elements``: (name, {attribute: value}),
    in order), every attribute (``attributes``), every ``on*`` attribute (``handlers``), every
    script's text (``scripts``), every ``href``/``src`` (``hrefs``) and the text outside
    tags (``texts``, joined: ``text``). ``Live.read(page)`` feeds and closes one."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.handlers: list[str] = []
        self.scripts: list[str] = []
        self.hrefs: list[str] = []
        self.tags: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.texts: list[str] = []
        self._in_script = False

    @classmethod
    def read(cls, page: str) -> Live:
        """Return ``page`` read whole."""
        live = cls()
        live.feed(page)
        live.close()
        return live

    @property
    def text(self) -> str:
        """The page's text outside tags, in order."""
        return "".join(self.texts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.elements.append((tag, dict(attrs)))
        self.attributes += attrs
        self.handlers += [f"{name}={value}" for name, value in attrs if name.startswith("on")]
        self.hrefs += [value or "" for name, value in attrs if name in ("href", "src")]
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        if self._in_script:
            self.scripts.append(data)


class LyingText(str):
    """A student's str whose methods lie: ``in`` finds nothing, ``replace`` and ``strip`` change
    nothing, ``str()`` and ``format`` give itself, and ``"" + text`` (which asks the right
    operand's ``__radd__`` first) keeps it a LyingText. ElementTree and ``html.escape`` escape
    with exactly these methods."""

    def __str__(self) -> str:
        return self

    def __format__(self, spec: str) -> str:
        return self

    def __contains__(self, part: object) -> bool:
        return False

    def replace(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        return self

    def strip(self, *args: object) -> str:  # type: ignore[override]
        return self

    def __radd__(self, other: str) -> str:
        return LyingText(str.__add__(other, self))

    def __add__(self, other: str) -> str:
        return LyingText(str.__add__(self, other))
