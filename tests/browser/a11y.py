"""axe-core in the browser tests: inject npm's ``axe-core`` (pinned, installed by ``make test``
into ``.venv/axe``, served from disk, nothing fetched) into a page and return the violations a
test must not have: impact serious or critical under the WCAG 2.0 / 2.1 A and AA rules.

JupyterLab's own chrome (menus, toolbars, side panels) fails some of these rules upstream; a
JupyterLab test passes ``include`` (the kit's output) so that only what the kit draws is judged.
Voila pages and the kit's own HTML pages are judged whole.

What axe leaves to a person is measured here too: the focused element's ring and its contrast
with what lies behind it (``focus_ring_problem``), by WCAG 2.1's formula (``contrast``); and a
walk by Tab to an element, every stop on a table showing its ring (``tab_to``).
"""

from __future__ import annotations

import os
import re
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


# ------------------------------------------------------------------ what axe does not measure

_RGB = re.compile(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)")


def colours(css: str) -> list[tuple[float, float, float, float]]:
    """Every ``rgb()``/``rgba()`` colour in a computed CSS value, as (r, g, b, alpha)."""
    return [(float(r), float(g), float(b), float(a) if a else 1.0)
            for r, g, b, a in _RGB.findall(css)]


def luminance(colour: tuple[float, ...]) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour (0-255 channels)."""
    channels = [c / 255 for c in colour[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    """WCAG 2.1's contrast ratio of two opaque colours, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(base: tuple[float, ...], layer: tuple[float, ...]) -> tuple[float, ...]:
    """``layer`` (r, g, b, alpha) painted over the opaque ``base``."""
    alpha = layer[3]
    return tuple(b * (1 - alpha) + c * alpha for b, c in zip(base[:3], layer[:3])) + (1.0,)


#: the focused element's ring (outline and a box-shadow ring that touches it), once its
#: transitions are over; the backgrounds of its ancestors, nearest first, up to the first
#: opaque one; and the first ancestor, up to its table, that cuts the ring off (its overflow
#: not visible and the ring's outer edge outside its padding box), or null
_RING = """async () => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    await Promise.all(el.getAnimations().map(a => a.finished.catch(() => null)));
    const css = getComputedStyle(el);
    const layers = [];
    for (let node = el.parentElement; node; node = node.parentElement) {
        const s = getComputedStyle(node);
        layers.push([s.backgroundColor, s.backgroundImage]);
        if (s.backgroundImage.includes('gradient') || /^rgb\\(/.test(s.backgroundColor)) break;
    }
    const reach = Math.max(0, parseFloat(css.outlineOffset) + parseFloat(css.outlineWidth));
    const box = el.getBoundingClientRect();
    let cut = null;
    for (let node = el.parentElement; node && !cut; node = node.parentElement) {
        const s = getComputedStyle(node);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
            const q = node.getBoundingClientRect();
            const left = q.left + node.clientLeft, top = q.top + node.clientTop;
            if (box.left - reach < left - 0.5 || box.top - reach < top - 0.5 ||
                box.right + reach > left + node.clientWidth + 0.5 ||
                box.bottom + reach > top + node.clientHeight + 0.5)
                cut = node.className.toString().slice(0, 100);
        }
        if (node.classList.contains('plaisante-table')) break;
    }
    return {style: css.outlineStyle, width: parseFloat(css.outlineWidth),
            offset: parseFloat(css.outlineOffset), colour: css.outlineColor,
            shadow: css.boxShadow, layers, cut, what: el.outerHTML.slice(0, 120)};
}"""


def behind(layers: list[list[str]]) -> list[tuple[float, ...]]:
    """The colours a ring drawn just outside an element can lie on: each colour stop of the
    first opaque ancestor's gradient (or its colour; the page's white if none), with the
    see-through backgrounds of the ancestors between painted over it."""
    base_css = layers[-1] if layers else ["rgb(255, 255, 255)", "none"]
    stops = colours(base_css[1]) if "gradient" in base_css[1] else colours(base_css[0])
    found = [stop for stop in stops if stop[3] == 1.0] or [(255.0, 255.0, 255.0, 1.0)]
    for colour_css, _ in reversed(layers[:-1]):
        for layer in colours(colour_css):
            if layer[3] > 0:
                found = [over(base, layer) for base in found]
    return found


def ring_colours(ring: dict[str, Any]) -> list[tuple[float, ...]]:
    """The ring's colours: its outline's, and a box-shadow's that is a plain ring (no offset,
    no blur) wide enough to reach the outline (a two-colour ring, WCAG technique C40)."""
    found = colours(ring["colour"])[:1]
    for shadow in re.split(r",\s*(?![^()]*\))", ring["shadow"]):
        lengths = [float(n) for n in re.findall(r"(-?[\d.]+)px", _RGB.sub("", shadow))]
        if len(lengths) == 4 and lengths[:3] == [0, 0, 0] and lengths[3] >= ring["offset"]:
            found += colours(shadow)[:1]
    return found


def focus_ring_problem(page: Any) -> str | None:
    """Why the focused element's ring is not a visible focus indicator (None when it is): a
    solid ring at least 2 px wide, not cut off by a box around it, one of whose colours
    contrasts at least 3:1 with every colour behind it (WCAG 2.1 SC 1.4.11 and 2.4.7)."""
    ring = page.evaluate(_RING)
    if ring is None:
        return "nothing has the focus"
    if ring["style"] in ("none", "hidden") or ring["width"] < 2:
        return f"no ring ({ring['style']} {ring['width']} px) on {ring['what']}"
    if ring["cut"]:
        return f"the ring of {ring['what']} is cut off by {ring['cut']}"
    worst = min(max(contrast(mine, bg) for mine in ring_colours(ring))
                for bg in behind(ring["layers"]))
    if worst < 3:
        return (f"ring {ring_colours(ring)} only {worst:.2f}:1 against "
                f"{behind(ring['layers'])} on {ring['what']}")
    return None


# ------------------------------------------------------------------ the keyboard

#: where the focus is: on an element matching the selector, and on a game's table at all
WHERE = """s => { const el = document.activeElement;
                  return [!!el && el.matches(s), !!el && !!el.closest('.plaisante-table')]; }"""


def ring_shown(page: Any) -> None:
    """The focused element shows a ring of at least 3:1 against what is behind it."""
    problem = focus_ring_problem(page)
    assert problem is None, problem


def tab_to(page: Any, selector: str, limit: int = 120, key: str = "Tab") -> None:
    """Press Tab (or ``key``) until the focused element matches ``selector`` (CSS); fail after
    ``limit``. Every stop on a table on the way shows its focus ring (``ring_shown``)."""
    for _ in range(limit):
        matches, on_table = page.evaluate(WHERE, selector)
        if on_table:
            ring_shown(page)
        if matches:
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector!r} in {limit} presses")
