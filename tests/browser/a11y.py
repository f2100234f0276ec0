"""axe-core in the browser tests: inject npm's ``axe-core`` (pinned, installed by ``make test``
into ``.venv/axe``, served from disk, nothing fetched) into a page and return the violations a
test must not have: impact serious or critical under the WCAG 2.0 / 2.1 A and AA rules.

JupyterLab's own chrome (menus, toolbars, side panels) fails some of these rules upstream; a
JupyterLab test passes ``include`` (the kit's output) so that only what the kit draws is judged.
Voila pages and the kit's own HTML pages are judged whole.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from harness import KIT

AXE_VERSION = "4.14.1"
#: where ``make test`` installs it (the Makefile's AXE); $PLAISANTE_AXE overrides
AXE = Path(os.environ.get("PLAISANTE_AXE")
           or KIT / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
JUDGED = ("serious", "critical")


def axe_source() -> str:
    """Return axe-core's script; FileNotFoundError (a failure, not a skip) when missing."""
    if not AXE.is_file():
        raise FileNotFoundError(f"axe-core is missing: {AXE}; `make test` installs it "
                                f"(npm install --prefix .venv/axe axe-core@{AXE_VERSION})")
    return AXE.read_text(encoding="utf-8")


def violations(page: Any, include: str | None = None) -> list[dict[str, Any]]:
    """Run axe on ``page`` (or only inside the elements matching the CSS selector ``include``)
    and return its serious and critical WCAG 2.0/2.1 A and AA violations, each
    ``{id, impact, help, targets}``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated, not a <script> tag: the kit's pages forbid inline scripts (CSP), and a
        # test that counts the page's scripts must not count axe
        page.evaluate(f"() => {{ {axe_source()}\n}}")
    found = page.evaluate(
        """async ([include, tags]) => {
            const context = include ? {include: [[include]]} : document;
            const result = await axe.run(context, {runOnly: {type: 'tag', values: tags},
                                                   resultTypes: ['violations']});
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
        }""", [include, TAGS])
    return [v for v in found if v["impact"] in JUDGED]


def assert_accessible(page: Any, include: str | None = None, where: str = "") -> None:
    """Assert that axe finds no serious or critical violation (see ``violations``)."""
    found = violations(page, include)
    assert not found, f"axe on {where or page.url}:\n" + "\n".join(
        f"- {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["targets"][:6])
        for v in found)
