"""What IPython sends to the notebook when a cell shows a game's view: the outputs as a real
``InteractiveShell`` publishes them, for the tests of a saved notebook's stand-in."""

from __future__ import annotations

import html
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

WIDGET = "application/vnd.jupyter.widget-view+json"


def shown(value: Any) -> list[dict[str, Any]]:
    """Return the mime bundles of the outputs a cell whose last line is ``value`` produces
    (its execute result, or what its ``_ipython_display_`` displays), in order."""
    shell = InteractiveShell.instance()
    shell.user_ns["_shown_value"] = value
    with capture_output() as captured:
        shell.run_cell("_shown_value", store_history=False)
    return [output.data for output in captured.outputs]


def assert_saved_shows(value: Any, line: str) -> None:
    """Assert that a cell showing the view ``value`` saves two outputs: first the stand-in,
    HTML with ``line`` and the stylesheet that hides it beside a drawn widget, then the
    widget, whose plain text is empty (so nothing else shows where it cannot be drawn)."""
    outputs = shown(value)
    assert [sorted(bundle) for bundle in outputs] == [["text/html"], [WIDGET, "text/plain"]]
    stand_in, widget = outputs
    expected = f'<div class="plaisante-fallback-line">▶ {html.escape(line, quote=False)}</div>'
    assert expected in stand_in["text/html"]
    assert ":has(+ .jp-OutputArea-child .plaisante-live)" in stand_in["text/html"]
    assert widget["text/plain"] == "" and widget[WIDGET]["model_id"] == value.model_id
    assert "plaisante-live" in value._dom_classes


def mark_read_as(view: Any, button: Any) -> str:
    """Return the word a screen reader reads for ``button``'s ✓ in ``view``: the alternative
    text of the CSS rule, in the view's first (style) widget, for the most specific of the
    button's mark classes; "selected" (the shared stylesheet's) when none of its own applies."""
    import re

    sheet = view.children[0].value
    words = {name: word for name, word in re.findall(
        r'\.(plaisante-mark-[a-z0-9-]+)::after \{ content: "\\2713" / "([^"]*)"', sheet)}
    own = [words[css] for css in button._dom_classes if css in words]
    return own[0] if own else "selected"
