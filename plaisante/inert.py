"""What of a student's notebook an instructor's page may show: inert forms only.

``InertContent`` is an nbconvert preprocessor. The course's ``nbgrader_config.py`` gives it to
every ``HTMLExporter`` (``c.HTMLExporter.preprocessors``), so both HTML pages nbgrader makes of
an autograded notebook use it: the formgrader's manual-grading page (served on the Jupyter
server's origin, in the instructor's session) and each student's feedback page. A student's
kernel wrote every output of the notebook and the student wrote its markdown, so the policy is
the same for both pages and assumes nothing of either:

* **outputs** keep plain text (``text/plain``, streams, errors: nbconvert escapes them), PNG and
  JPEG images whose data is base64 (nothing else reaches the ``src`` attribute nbconvert builds),
  and HTML passed through nbconvert's own sanitiser (``SanitizeHTML``: bleach; the tags of
  ``TAGS`` kept, any other stripped to its text, so no script, style, image, frame, event
  handler or ``javascript:`` link is left). Everything else is dropped:
  JavaScript, SVG, Markdown, LaTeX and widget views; so are the outputs' metadata (sizes that
  nbconvert writes into attributes) and the notebook's saved widget state (nbconvert would load
  a widget manager from a CDN to render it);
* **markdown** that is not, word for word, a markdown cell of the release (the student's own,
  or an instructor's cell the student edited) is rendered as text: ``&``, ``<``, ``[`` and
  ``]`` become entities, so no tag, link or image can form; emphasis, headings and lists stay.
  Its attachments go. The release's own cells are the instructor's and render as written;
* a **raw** cell that is not the release's loses its format, so nbconvert leaves it out;
* execution counts that are not integers, cell ids and tags that are not plain names, and
  notebook metadata but the kernel's and language's names, are removed; a cell's metadata
  keeps only nbgrader's, its tags and a plain ``magics_language`` (``inert_cell_metadata``):
  nbconvert's templates read others (``transient`` leaves a cell's input out of the page, a
  ``magics_language`` that is not text makes the page fail).

nbconvert's own ``HTMLExporter.sanitize_html`` is not used: nbgrader's formgrade template
renders markdown without it, and its filter escapes every paragraph of the HTML it keeps.

Which release: the notebook's ``starter/ASSIGNMENT/NOTEBOOK.ipynb`` under the course root (the
working folder of nbgrader's commands and of ``plaisante formgrader``), the assignment and
notebook named by nbgrader's resources (feedback's ``resources["nbgrader"]``, the formgrader's
``assignment_id``/``notebook_id``). When it cannot be read, every markdown cell renders as text.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from pathlib import Path
from typing import Any

from bleach import ALLOWED_TAGS
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbformat.notebooknode import NotebookNode
from traitlets import Bool, List, Set, Unicode

from .course import CourseLayout

#: The output representations kept as they are (images checked to be base64).
PLAIN = frozenset({"text/plain", "image/png", "image/jpeg"})
IMAGES = frozenset({"image/png", "image/jpeg"})
#: The tags HTML output keeps (their text stays when a tag goes): bleach's defaults (links,
#: emphasis, lists, code) and the structure of a table or a paragraph. No image (a request to
#: anywhere), no form, no style, no class (it would borrow the page's own looks).
TAGS = sorted({*ALLOWED_TAGS, "p", "div", "span", "pre", "br", "hr", "h1", "h2", "h3", "h4",
               "h5", "h6", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
               "sub", "sup", "small", "del", "ins", "dl", "dt", "dd", "kbd", "samp", "var"})
#: A cell id, a tag or a language name that can go into an HTML attribute as it is.
NAME = re.compile(r"[A-Za-z0-9_+.-]{1,64}")
#: A kernel's or language's name as notebooks write it ("Python 3 (ipykernel)").
PLAIN_NAME = re.compile(r"[A-Za-z0-9_+. ()-]{1,64}")
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
LANGUAGE_INFO = {"name": "python", "pygments_lexer": "ipython3", "file_extension": ".py"}


class InertContent(SanitizeHTML):
    """Reduce an autograded notebook to inert content before it becomes HTML (module doc)."""

    tags = List(Unicode(), TAGS, help="HTML tags an output's HTML keeps").tag(config=True)
    strip = Bool(True, help="remove unsafe markup rather than showing it escaped"
                 ).tag(config=True)
    safe_output_keys = Set(set(PLAIN), help="output representations kept as they are"
                           ).tag(config=True)
    sanitized_output_types = Set({"text/html"}, help="representations passed through the "
                                 "sanitiser; every other one is dropped").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        self._released = released_texts(resources)
        nb.metadata = inert_metadata(nb.get("metadata", {}))
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int
                        ) -> tuple[NotebookNode, Any]:
        if "id" in cell and not NAME.fullmatch(str(cell.id)):
            cell.id = f"cell-{index}"
        kind = cell.get("cell_type")
        source = cell.get("source", "")
        cell.metadata = inert_cell_metadata(cell.get("metadata", {}),
                                            kind == "raw" and source in self._released)
        if kind == "markdown":
            if source not in self._released:
                cell.source = as_text(source)
                cell.pop("attachments", None)
            else:
                cell.attachments = inert_attachments(cell.get("attachments", {}))
            return cell, resources
        if kind == "raw":
            return cell, resources
        if kind == "code":
            if not _is_count(cell.get("execution_count")):
                cell.execution_count = None
            cell.outputs = [kept for kept in map(self.inert_output, cell.get("outputs", []))
                            if kept is not None]
        return cell, resources

    def inert_output(self, output: NotebookNode) -> NotebookNode | None:
        """Return ``output`` reduced to its inert representations, or None when none is left
        (an output type nbformat does not know, or data that is all dropped)."""
        kind = output.get("output_type")
        if kind == "stream":
            name = output.get("name") if output.get("name") in ("stdout", "stderr") else "stdout"
            return NotebookNode(output_type="stream", name=name, text=_text(output.get("text")))
        if kind == "error":
            traceback = output.get("traceback")
            return NotebookNode(output_type="error", ename=_text(output.get("ename")),
                                evalue=_text(output.get("evalue")),
                                traceback=[_text(line) for line in traceback]
                                if isinstance(traceback, list) else [])
        if kind not in ("display_data", "execute_result"):
            return None
        data = output.get("data")
        kept: dict[str, str] = {}
        for key, value in (data.items() if isinstance(data, dict) else ()):
            value = _text(value)
            if key in IMAGES:
                if _is_base64(value):
                    kept[key] = value
            elif key in self.safe_output_keys:
                kept[key] = value
            elif key in self.sanitized_output_types:
                kept[key] = self.sanitize_html_tags(value)
        if not kept:
            return None
        inert = NotebookNode(output_type=kind, data=NotebookNode(kept), metadata=NotebookNode())
        if kind == "execute_result":
            count = output.get("execution_count")
            inert.execution_count = count if _is_count(count) else None
        return inert


def as_text(markdown: str) -> str:
    """Return ``markdown`` written so that nbconvert's markdown renders it as text: no tag, no
    link or image (``&``, ``<``, ``[`` and ``]`` as entities); emphasis, headings, lists stay.

    >>> as_text('<img src=x onerror=alert(1)> [a](javascript:b) **c**')
    '&lt;img src=x onerror=alert(1)> &#91;a&#93;(javascript:b) **c**'
    """
    return (markdown.replace("&", "&amp;").replace("<", "&lt;")
            .replace("[", "&#91;").replace("]", "&#93;"))


def released_texts(resources: Any) -> set[str]:
    """Return the sources of the markdown and raw cells of the release of the notebook being
    rendered (module doc: which release); empty when it cannot be read."""
    resources = resources or {}
    info = resources.get("nbgrader") or {}
    assignment = info.get("assignment") or resources.get("assignment_id")
    notebook = info.get("notebook") or resources.get("notebook_id")
    if not isinstance(assignment, str) or not isinstance(notebook, str) \
            or not NAME.fullmatch(assignment) or not NAME.fullmatch(notebook):
        return set()
    try:
        release = CourseLayout(Path.cwd()).release(assignment).with_name(f"{notebook}.ipynb")
        cells = json.loads(release.read_text("utf-8"))["cells"]
        return {"".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in cells if c.get("cell_type") in ("markdown", "raw")}
    except (KeyError, OSError, ValueError, TypeError):
        return set()


def inert_metadata(metadata: Any) -> NotebookNode:
    """Return a notebook's metadata reduced to the kernel's and the language's names (what
    nbconvert reads to highlight code; a name that is not plain becomes Python's); widget
    state, title and everything else go."""
    kept = NotebookNode()
    for key, defaults in (("kernelspec", KERNELSPEC), ("language_info", LANGUAGE_INFO)):
        value = metadata.get(key) if isinstance(metadata, dict) else None
        if isinstance(value, dict):
            kept[key] = NotebookNode({
                field: value[field] if isinstance(value.get(field), str)
                and PLAIN_NAME.fullmatch(value[field]) else default
                for field, default in defaults.items()})
    return kept


def inert_cell_metadata(metadata: Any, released_raw: bool = False) -> NotebookNode:
    """Return a cell's metadata reduced to what the pages read of it: nbgrader's (a dict:
    the grade cells' ids and points, restored from the release when autograded), the tags that
    are plain names, a ``magics_language`` that is a plain name (nbconvert highlights with it)
    and, for a raw cell that is the release's (``released_raw``), its format. Everything else
    goes: ``transient`` (nbconvert leaves out a cell's input for it), ``jupyter``, collapse and
    scroll states, slideshow, widgets' and any other tool's.

    >>> inert_cell_metadata({"transient": {"remove_source": True}, "magics_language": 5,
    ...                      "tags": ["ok", "<x>", 1], "nbgrader": {"grade_id": "a"}})
    {'nbgrader': {'grade_id': 'a'}, 'tags': ['ok']}
    """
    kept = NotebookNode()
    if not isinstance(metadata, dict):
        return kept
    if isinstance(metadata.get("nbgrader"), dict):
        kept["nbgrader"] = metadata["nbgrader"]
    tags = metadata.get("tags")
    if tags is not None:
        kept["tags"] = [t for t in tags if isinstance(t, str) and NAME.fullmatch(t)] \
            if isinstance(tags, list) else []
    language = metadata.get("magics_language")
    if isinstance(language, str) and NAME.fullmatch(language):
        kept["magics_language"] = language
    if released_raw:
        for key in ("format", "raw_mimetype"):
            if isinstance(metadata.get(key), str):
                kept[key] = metadata[key]
    return kept


def inert_attachments(attachments: Any) -> NotebookNode:
    """Return a released markdown cell's attachments reduced to PNG and JPEG base64 data."""
    kept = NotebookNode()
    for name, bundle in (attachments.items() if isinstance(attachments, dict) else ()):
        if not isinstance(bundle, dict):
            continue
        images = {k: v for k, v in bundle.items() if k in IMAGES and _is_base64(_text(v))}
        if images and isinstance(name, str) and NAME.fullmatch(name):
            kept[name] = NotebookNode(images)
    return kept


def _text(value: Any) -> str:
    """nbformat's multiline strings (a list of lines) joined; anything else as its ``str``."""
    if isinstance(value, list):
        return "".join(str(line) for line in value)
    return value if isinstance(value, str) else str(value if value is not None else "")


def _is_count(value: Any) -> bool:
    return value is None or (type(value) is int and value >= 0)


def _is_base64(value: str) -> bool:
    """True when ``value`` is base64 (line breaks allowed) and nothing else."""
    try:
        base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True
