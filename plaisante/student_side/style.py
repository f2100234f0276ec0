"""The kit's stylesheet: the card table every game's view is drawn on, the gate's checklist and
the pages the kit writes itself (feedback, class report) are shared here; what only one game
draws is in that game's own folder, ``plaisante/games/<id>/style.css``.

Pages and the checklist put ``STYLE`` (the shared stylesheet) in front of what they render; a
game's view puts ``game_style(<id>)`` (the shared one and its own). Classes are the
``plaisante-`` ones, and a game's own prefix (``deck-``, ``vp-``…) for its own layout.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .markup import html, tag

CSS = """
/* the card table: every game's view */
.plaisante-table { background: radial-gradient(ellipse at 50% 30%, #23804d 0%, #17603a 75%);
  border: 6px solid #6b3f1d; border-radius: 18px; padding: 12px 18px 14px; color: #fdfdf8;
  font-size: 17px; max-width: 1000px; box-sizing: border-box; gap: 8px;
  container-type: inline-size; --card-w: clamp(52px, calc((100cqi - 106px) / 8), 74px); }
.plaisante-table .widget-html, .plaisante-table .widget-label { color: #fdfdf8; margin: 0; }
.plaisante-text:focus { outline: none; }
.plaisante-table .widget-html-content { line-height: 1.35; }
.plaisante-status .widget-html-content,
.plaisante-status .plaisante-text { display: flex; flex-wrap: wrap; gap: 8px; }
.plaisante-chip { background: rgba(0,0,0,0.28); border-radius: 999px; padding: 3px 14px;
  font-size: 17px; white-space: nowrap; }
.plaisante-chip b { font-size: 22px; }
.plaisante-area { border-radius: 12px; padding: 6px 14px 10px; }
.plaisante-area-play { background: rgba(0,0,0,0.30); border: 2px dashed rgba(255,255,255,0.55); }
.plaisante-area-held { background: rgba(255,255,255,0.07);
  border: 2px solid rgba(255,255,255,0.25); }
.plaisante-area-title .widget-html-content { font-size: 17px; }
.plaisante-area-title b { letter-spacing: 0.02em; }
.plaisante-hand-name { font-size: 21px; font-weight: 700; color: #ffe28a; }
.plaisante-row { gap: 24px 10px; flex-wrap: wrap; min-height: 122px; align-items: flex-end;
  padding: 30px 2px 2px; overflow: visible; }
.plaisante-card.jupyter-button { position: relative; flex: none;
  width: var(--card-w); height: auto; aspect-ratio: 74 / 104;
  display: flex; flex-direction: column; align-items: flex-start; justify-content: flex-start;
  background: #ffffff; color: #161616; border: 1px solid #9a9a9a; border-radius: 9px;
  padding: 5px 7px; margin: 0; font-family: Georgia, 'DejaVu Serif', serif;
  font-size: calc(var(--card-w) / 3.1);
  font-weight: 700; line-height: 1.05; overflow: visible; opacity: 1;
  box-shadow: 0 2px 5px rgba(0,0,0,0.40); transition: transform 140ms ease-out, box-shadow 140ms; }
.plaisante-card.jupyter-button::before { position: absolute; right: 6px; bottom: 2px;
  font-size: 1.9em; line-height: 1; font-weight: 400; }
.plaisante-card.plaisante-suit-clubs::before { content: "\\2663" / ""; }
.plaisante-card.plaisante-suit-diamonds::before { content: "\\2666" / ""; }
.plaisante-card.plaisante-suit-hearts::before { content: "\\2665" / ""; }
.plaisante-card.plaisante-suit-spades::before { content: "\\2660" / ""; }
.plaisante-card.jupyter-button.plaisante-red { color: #c8102e; }
.plaisante-card.jupyter-button.plaisante-four.plaisante-suit-clubs { color: #0f7a2c; }
.plaisante-card.jupyter-button.plaisante-four.plaisante-suit-diamonds { color: #1450b8; }
.plaisante-card.jupyter-button:not(.plaisante-selected):hover:enabled {
  box-shadow: 0 6px 10px rgba(0,0,0,0.45); transform: translateY(-4px); }
.plaisante-card.jupyter-button.plaisante-selected { transform: translateY(-16px);
  border: 3px solid #f5c518; padding: 3px 5px; box-shadow: 0 12px 16px rgba(0,0,0,0.50); }
.plaisante-card.jupyter-button.plaisante-selected::after { content: "\\2713" / "selected";
  position: absolute; top: -11px; right: -11px; width: 24px; height: 24px; border-radius: 50%;
  background: #f5c518; color: #1b1b1b; border: 2px solid #1b1b1b;
  font: 700 15px/24px sans-serif; text-align: center; }
.plaisante-card.jupyter-button:disabled { opacity: 1; cursor: default; }
.plaisante-card.jupyter-button.plaisante-small { width: 54px; height: 76px; font-size: 18px;
  padding: 4px 5px; }
.plaisante-card.jupyter-button.plaisante-small::before { font-size: 32px; }
/* focus is a ring of two colours, apart from selection's gold border, raise and check mark:
   light blue outside, near-black inside (9:1 between them), so that one of the two stands out
   at 3:1 or more from whatever is behind (the green table 3.5:1 at its lightest, a white box,
   a neighbouring card). ipywidgets' own text boxes show focus only by a faint 1 px border
   (with outline: none !important), hence the !important here. */
.plaisante-table { --ring-light: #5cc8ff; --ring-dark: #1b1b1b; }
.plaisante-table .jupyter-button:focus-visible { outline: 4px solid var(--ring-light);
  outline-offset: 3px; box-shadow: 0 0 0 3px var(--ring-dark); }
.plaisante-table .widget-inline-hbox input:focus {
  outline: 4px solid var(--ring-light) !important; outline-offset: 3px;
  box-shadow: 0 0 0 3px var(--ring-dark) !important; }
/* a row of boxes (ipywidgets' HBox scrolls: overflow auto) would cut their ring off */
.plaisante-table .widget-box:has(> .widget-inline-hbox input) { overflow: visible; }
.plaisante-new { animation: plaisante-deal 360ms ease-out backwards; }
@keyframes plaisante-deal { from { transform: translate(60px, -30px) rotate(8deg); opacity: 0; }
  to { transform: none; opacity: 1; } }
@media (prefers-reduced-motion: reduce) {
  .plaisante-new { animation: none; } .plaisante-card.jupyter-button { transition: none; } }
.plaisante-actions { gap: 12px; align-items: center; flex-wrap: wrap; overflow: visible; }
.plaisante-actions .jupyter-button { font-size: 18px; height: 44px; width: auto;
  min-width: min(150px, 40cqi); padding: 0 20px; border-radius: 8px; margin: 0;
  font-weight: 600; }
.plaisante-actions .jupyter-button:disabled { opacity: 0.45; }
.plaisante-table .fa-play::before { content: "\\f04b" / ""; }
.plaisante-table .fa-trash::before { content: "\\f1f8" / ""; }
.plaisante-table .fa-refresh::before { content: "\\f021" / ""; }
.plaisante-actions .plaisante-new-round.jupyter-button { background: #fdfdf8; color: #1b1b1b; }
.plaisante-message .widget-html-content { color: #ffe28a; min-height: 1.4em; font-size: 17px; }
/* the live region: read by screen readers, drawn nowhere (the table shows the same) */
.plaisante-live-region { position: absolute !important; width: 1px; height: 1px;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; margin: 0; padding: 0; }
/* A table too narrow for 8 cards in a row (JupyterLab at 800 px with its file browser open, a
   600 px window) deals them 4 and 4, and tightens its spacing to stay on one screen. */
@container (max-width: 540px) {
  .plaisante-table .plaisante-held { --card-w: min(74px, calc((100cqi - 70px) / 4));
    max-width: calc(4 * var(--card-w) + 38px); padding-top: 22px; min-height: 0; }
  .plaisante-table .plaisante-area { padding: 4px 10px 8px; }
  .plaisante-table .plaisante-chip { font-size: 15px; padding: 2px 10px; }
  .plaisante-table .plaisante-chip b { font-size: 19px; }
  .plaisante-table .plaisante-card.jupyter-button.plaisante-small { width: 44px; height: 62px;
    font-size: 15px; }
  .plaisante-table .plaisante-card.jupyter-button.plaisante-small::before { font-size: 24px; }
  .plaisante-table .plaisante-actions { gap: 8px; }
  .plaisante-table .plaisante-actions .jupyter-button { padding: 0 12px; min-width: 0; }
}
/* the gate's checklist (the last cell while a step fails) */
.plaisante-checklist { font-size: 18px; line-height: 1.35; color: #1b1b1b; background: #fffdf7;
  border: 3px solid #a3001b; border-radius: 12px; padding: 10px 18px 14px; max-width: 900px; }
.plaisante-checklist h3 { margin: 4px 0 8px; font-size: 22px; }
.plaisante-checklist ul { padding-left: 0; margin: 0 0 10px; }
.plaisante-step { list-style: none; margin: 4px 0; padding: 6px 10px; border-radius: 6px;
  border-left: 6px solid transparent; }
.plaisante-step.plaisante-step-first { background: #fdecee; border-left-color: #a3001b; }
.plaisante-step-mark { font-weight: 700; }
.plaisante-step-pass .plaisante-step-mark { color: #1b6e35; }
.plaisante-step-todo .plaisante-step-mark { color: #7a4f00; }
.plaisante-step-fail .plaisante-step-mark { color: #a3001b; }
.plaisante-step-detail { margin: 4px 0 0 1.9em; font-size: 16px; line-height: 1.4; }
.plaisante-step-detail code { background: #fff; color: #1b1b1b; padding: 2px 6px;
  border-radius: 4px; font-size: 16px; white-space: pre-wrap; }
/* a feedback page the grader writes itself (no notebook to show) */
.plaisante-page { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45;
  color: #1b1b1b; background: #fffdf7; max-width: 900px; margin: 24px auto; padding: 0 18px;
  overflow-wrap: break-word; }
.plaisante-page h1 { font-size: 26px; }
.plaisante-page li { margin: 4px 0; }
/* the class report (plaisante report): a wider page of figures and tables */
.plaisante-page.plaisante-report { max-width: 1100px; font-size: 16px; }
.plaisante-report h2 { font-size: 21px; margin: 28px 0 8px; border-bottom: 2px solid #17603a;
  padding-bottom: 2px; }
.plaisante-report img { display: block; max-width: 100%; height: auto; margin: 6px 0 10px;
  border-radius: 6px; }
.plaisante-report code { font-size: 13px; color: #444; }
.plaisante-report .plaisante-summary { display: flex; flex-wrap: wrap; gap: 8px; }
.plaisante-report .plaisante-chip { background: #17603a; color: #fdfdf8; font-size: 16px; }
.plaisante-report .plaisante-chip b { font-size: 18px; }
.plaisante-note { color: #555; font-size: 15px; }
.plaisante-scroll { overflow-x: auto; max-width: 100%; }
.plaisante-grid { border-collapse: collapse; font-size: 15px; margin: 4px 0 12px; }
.plaisante-grid caption { caption-side: bottom; text-align: left; color: #555; font-size: 14px;
  padding-top: 4px; }
.plaisante-page .plaisante-grid th, .plaisante-page .plaisante-grid td { padding: 4px 8px;
  border-bottom: 1px solid #ddd6c4; text-align: left; vertical-align: top; }
.plaisante-grid th { background: #efe9d8; white-space: nowrap; }
.plaisante-page .plaisante-grid td.num, .plaisante-page .plaisante-grid th.num { text-align: right;
  font-variant-numeric: tabular-nums; }
.plaisante-grid tbody tr:nth-child(even) { background: #f8f4ea; }
.plaisante-tag { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 13px;
  background: #e6e0ff; color: #2d1f7a; }
.plaisante-tag.plaisante-flag { background: #fdecee; color: #a3001b; font-weight: 700; }
"""

STYLE = html(tag("style", CSS))

_GAME_ID = re.compile(r"[a-z][a-z0-9_]*")


@lru_cache(maxsize=None)
def game_css(game: str) -> str:
    """Return the CSS of the game ``game`` alone: the text of ``plaisante/games/<game>/style.css``.
    Raises ValueError naming the file when ``game`` is not a game's folder name or the file is
    missing."""
    if not _GAME_ID.fullmatch(game):
        raise ValueError(f"game {game!r}: a game's folder name is lowercase letters, digits and "
                         "_ (plaisante/games/<id>/)")
    sheet = resources.files("plaisante.games") / game / "style.css"
    if not sheet.is_file():
        raise ValueError(f"game {game!r} has no stylesheet: plaisante/games/{game}/style.css "
                         "is missing")
    return sheet.read_text(encoding="utf-8")


def game_style(game: str, marks: tuple[str, ...] = ()) -> str:
    """Return the ``<style>`` element a view of ``game`` puts first: the shared stylesheet, then
    the game's own (``game_css``), then how its raised cards' ✓ reads each of ``marks``
    (``mark_css``). Raises ValueError as ``game_css`` and ``mark_css`` do."""
    return html(tag("style", CSS + game_css(game) + mark_css(marks)))


#: What the ✓ on a raised card means when nothing else is said: the shared stylesheet reads
#: it so.
SELECTED = "selected"


def mark_class(said: str) -> str:
    """Return the class that makes the ✓ of a raised card read ``said`` (see ``mark_css``).

    >>> mark_class("in the best five")
    'plaisante-mark-in-the-best-five'
    """
    return "plaisante-mark-" + "-".join(re.findall(r"[a-z0-9]+", said.lower()))


def mark_css(words: tuple[str, ...]) -> str:
    """Return CSS by which the ✓ of a card raised with ``mark_class(w)`` is read ``w`` (its
    alternative text, over the shared sheet's "selected"), for each word ``w`` of ``words``:
    the same word its tooltip says (``card_widgets.restyle``). Raises ValueError for a word
    with a quote, backslash or newline. ``SELECTED`` needs none: the shared sheet's own."""
    rules = []
    for word in words:
        if word == SELECTED:
            continue
        if re.search(r'["\\\n]', word):
            raise ValueError(f"a mark's word cannot hold a quote, backslash or newline: {word!r}")
        rules.append(f".plaisante-card.jupyter-button.plaisante-selected.{mark_class(word)}"
                     f'::after {{ content: "\\2713" / "{word}"; }}\n')
    return "".join(rules)
