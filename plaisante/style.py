"""The kit's one stylesheet: the card table (every game's view), the gate's checklist and the
feedback page the grader writes itself. Views and pages put ``STYLE`` in front of what they
render; classes are the ``plaisante-`` ones (``deck-`` for the dealer's table's layout)."""

from __future__ import annotations

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
.plaisante-chip.plaisante-total { background: #f5c518; color: #1b1b1b; }
.plaisante-area { border-radius: 12px; padding: 6px 14px 10px; }
.plaisante-area-play { background: rgba(0,0,0,0.30); border: 2px dashed rgba(255,255,255,0.55); }
.plaisante-area-held { background: rgba(255,255,255,0.07);
  border: 2px solid rgba(255,255,255,0.25); }
.plaisante-area-title .widget-html-content { font-size: 17px; }
.plaisante-area-title b { letter-spacing: 0.02em; }
.plaisante-hand-name { font-size: 21px; font-weight: 700; color: #ffe28a; }
.plaisante-hand-score b { font-size: 22px; }
.plaisante-row { gap: 24px 10px; flex-wrap: wrap; min-height: 122px; align-items: flex-end;
  padding: 30px 2px 2px; overflow: visible; }
.plaisante-row.plaisante-play-area { min-height: 88px; padding-top: 6px; }
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
/* focus is a blue ring, apart from selection's gold border, raise and check mark */
.plaisante-table .jupyter-button:focus-visible { outline: 4px solid #5cc8ff;
  outline-offset: 3px; }
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
.plaisante-actions .fa-play::before { content: "\\f04b" / ""; }
.plaisante-actions .fa-trash::before { content: "\\f1f8" / ""; }
.plaisante-actions .fa-refresh::before { content: "\\f021" / ""; }
.plaisante-actions .plaisante-new-round.jupyter-button { background: #fdfdf8; color: #1b1b1b; }
.plaisante-message .widget-html-content { color: #ffe28a; min-height: 1.4em; font-size: 17px; }
.plaisante-formula-caption { font-size: 15px; opacity: 0.85; }
.plaisante-formula { display: inline-block; max-width: 100%;
  font: 700 18px/1.6 'DejaVu Sans Mono', monospace; background: #fdfdf8; color: #1b1b1b;
  border-radius: 6px; padding: 1px 8px;
  -webkit-box-decoration-break: clone; box-decoration-break: clone; }
.plaisante-confirm { background: #fdfdf8; border-radius: 12px; padding: 8px 14px; }
.plaisante-confirm .widget-html .widget-html-content { color: #1b1b1b; font-size: 17px; }
.plaisante-confirm .jupyter-button { min-width: 0; }
.plaisante-over { background: #fdfdf8; border-radius: 12px; padding: 6px 18px; }
.plaisante-over .widget-html, .plaisante-over .widget-html-content { color: #161616; }
.plaisante-over h3 { margin: 6px 0; font-size: 24px; }
.plaisante-over ol { margin: 4px 0 8px; font-size: 17px; }
/* A table too narrow for 8 cards in a row (JupyterLab at 800 px with its file browser open, a
   600 px window) deals them 4 and 4, and tightens its spacing to stay on one screen. */
@container (max-width: 540px) {
  .plaisante-table .plaisante-held { --card-w: min(74px, calc((100cqi - 70px) / 4));
    max-width: calc(4 * var(--card-w) + 38px); padding-top: 22px; min-height: 0; }
  .plaisante-table .plaisante-play-area { min-height: 0; gap: 6px; }
  .plaisante-table .plaisante-area { padding: 4px 10px 8px; }
  .plaisante-table .plaisante-chip { font-size: 15px; padding: 2px 10px; }
  .plaisante-table .plaisante-chip b { font-size: 19px; }
  .plaisante-table .plaisante-card.jupyter-button.plaisante-small { width: 44px; height: 62px;
    font-size: 15px; }
  .plaisante-table .plaisante-card.jupyter-button.plaisante-small::before { font-size: 24px; }
  .plaisante-table .plaisante-formula { font-size: 15px; }
  .plaisante-table .plaisante-actions { gap: 8px; }
  .plaisante-table .plaisante-actions .jupyter-button { padding: 0 12px; min-width: 0; }
}
/* the dealer's table (deck) */
.deck-table .deck-hand { flex-wrap: wrap; row-gap: 14px; min-height: 0; }
.deck-table .deck-yours { padding-top: 24px; min-height: 130px; }
.deck-table .deck-others { flex-wrap: wrap; gap: 10px 22px; }
.deck-table .deck-player { gap: 2px; max-width: 100%; }
.deck-table .deck-player .deck-hand { padding: 2px; gap: 6px; row-gap: 6px; }
.deck-table .deck-player-name .widget-html-content { font-size: 16px; }
.deck-table .deck-controls { gap: 14px; align-items: center; flex-wrap: wrap; }
.deck-table .deck-controls .widget-inline-hbox .widget-label { color: #fdfdf8;
  font-size: 17px; width: auto; min-width: 0; margin-right: 6px; }
.deck-table .deck-controls input { font-size: 18px; height: 36px; width: 64px; }
.deck-table .deck-controls .widget-text { width: auto; }
/* the trick-taking table (tricks): four seats, the last trick, your hand (playable bright) */
.tricks-table .tricks-seats { gap: 10px; flex-wrap: wrap; overflow: visible; }
.tricks-table .tricks-seat { flex: 1 1 110px; min-width: 110px; margin: 0; }
.tricks-seat-box { display: flex; flex-direction: column; align-items: center; gap: 4px;
  background: rgba(0,0,0,0.22); border: 2px solid transparent; border-radius: 10px;
  padding: 6px 6px 8px; text-align: center; }
.tricks-turn .tricks-seat-box { border-color: #5cc8ff; background: rgba(92,200,255,0.16); }
.tricks-name { font-size: 18px; }
.tricks-rule { font-size: 13px; opacity: 0.85; line-height: 1.2; min-height: 2.4em; }
.tricks-played, .tricks-slot { display: flex; align-items: flex-start; justify-content: flex-start;
  width: 54px; height: 76px; box-sizing: border-box; border-radius: 8px; padding: 4px 6px; }
.tricks-played { background: #ffffff; color: #161616; border: 1px solid #9a9a9a;
  font: 700 19px/1.05 Georgia, 'DejaVu Serif', serif; box-shadow: 0 2px 5px rgba(0,0,0,0.40); }
.tricks-played.plaisante-red { color: #c8102e; }
.tricks-slot { border: 2px dashed rgba(255,255,255,0.45); }
.tricks-to-play { font-size: 14px; font-weight: 700; color: #5cc8ff; }
.tricks-table .tricks-last .widget-html-content { font-size: 16px; }
.tricks-winner { color: #ffe28a; }
.tricks-table .plaisante-card.jupyter-button.tricks-legal { border: 3px solid #ffe28a;
  padding: 3px 5px; }
.tricks-table .plaisante-card.jupyter-button.tricks-dimmed { opacity: 0.42;
  filter: grayscale(0.7); box-shadow: none; }
.tricks-table .plaisante-card.jupyter-button.tricks-dimmed:hover:enabled { transform: none; }
.tricks-table .plaisante-row.tricks-yours { padding-top: 8px; min-height: 0; }
.tricks-table .tricks-seat .plaisante-chip { font-size: 15px; padding: 2px 10px; }
.tricks-table .tricks-seat .plaisante-chip b { font-size: 18px; }
/* narrow (800 px with the file browser open): four seats still in a row, the bots' rules in
   their tooltips only */
@container (max-width: 540px) {
  .tricks-table .tricks-seats { gap: 6px; }
  .tricks-table .tricks-seat { flex: 1 1 0; min-width: 0; }
  .tricks-table .tricks-seat-box { padding: 4px 2px 6px; }
  .tricks-table .tricks-rule { display: none; }
  .tricks-table .tricks-name { font-size: 15px; }
  .tricks-table .tricks-played, .tricks-table .tricks-slot { width: 44px; height: 62px;
    font-size: 15px; }
  .tricks-table .tricks-seat .plaisante-chip { font-size: 12px; padding: 1px 6px; }
  .tricks-table .tricks-seat .plaisante-chip b { font-size: 15px; }
  .tricks-table .tricks-to-play { font-size: 12px; }
}
/* the heads-up table (holdem): the bot's cards, the board, yours; actions, amount, the log */
.plaisante-table.holdem-table { --card-w: clamp(44px, calc((100cqi - 130px) / 7), 74px); }
.holdem-table .plaisante-row { min-height: 0; padding-top: 4px; flex-wrap: nowrap; }
.holdem-table .holdem-players { gap: 8px; flex-wrap: wrap; overflow: visible; }
.holdem-table .holdem-players .plaisante-area { flex: 1 1 200px; margin: 0; }
.holdem-table .plaisante-area { background: rgba(0,0,0,0.18); padding: 4px 14px 8px; }
.holdem-table .holdem-area-you { background: rgba(255,255,255,0.07);
  border: 2px solid rgba(255,255,255,0.25); }
.holdem-table .plaisante-card.jupyter-button.holdem-back { background:
  repeating-linear-gradient(45deg, #a3001b 0 6px, #c8102e 6px 12px); color: #fdfdf8;
  border: 3px solid #fdfdf8; align-items: center; justify-content: center; }
.holdem-table .holdem-actions .jupyter-button { min-width: 0; padding: 0 16px; }
.holdem-table .holdem-amount { width: auto; flex: 1 1 220px; min-width: 200px; }
.holdem-table .holdem-amount .widget-label { color: #fdfdf8; width: auto; min-width: 0;
  margin-right: 8px; font-size: 17px; }
.holdem-table .holdem-amount .widget-readout { color: #fdfdf8; font-size: 19px;
  font-weight: 700; min-width: 3.5em; }
.holdem-table .holdem-log .widget-html-content { font-size: 16px; line-height: 1.35;
  background: rgba(0,0,0,0.25); border-radius: 10px; padding: 4px 12px; }
.holdem-table .holdem-log ol { margin: 2px 0 4px; padding-left: 1.6em; }
/* the presenter view (plaisante demo): sized from the window, readable from the back row */
.plaisante-table.plaisante-presenter { --presenter-text: clamp(15px, 1.36vw, 34px);
  max-width: none; width: 100%; font-size: var(--presenter-text); padding: 0.6em 1em;
  gap: 0.35em; }
.plaisante-presenter .widget-html, .plaisante-presenter .widget-html-content,
.plaisante-presenter .widget-label, .plaisante-presenter input,
.plaisante-presenter .plaisante-xray { font-size: var(--presenter-text); }
.plaisante-presenter-controls { gap: 0.6em; align-items: center; flex-wrap: wrap; }
.plaisante-presenter-controls .widget-label { color: #fdfdf8; width: auto; min-width: 0;
  margin-right: 0.3em; }
.plaisante-presenter-controls .widget-text input { height: 1.8em;
  font-size: var(--presenter-text); }
.plaisante-presenter-controls .plaisante-seed { width: auto; }
.plaisante-presenter-controls .plaisante-seed input { width: 5em; flex: none; }
.plaisante-presenter-controls .plaisante-notation { width: auto; }
.plaisante-presenter-controls .plaisante-notation input { width: 19em; flex: none; }
.plaisante-presenter-controls .jupyter-button { font-size: 1em; height: 1.9em; width: auto;
  padding: 0 0.9em; border-radius: 8px; font-weight: 600; }
.plaisante-presenter .plaisante-presenter-cards { flex-wrap: wrap; gap: 0.6vw;
  min-height: 0; padding-top: 1.3vw; }
.plaisante-presenter .plaisante-card.jupyter-button { width: clamp(64px, 7.3vw, 180px);
  height: clamp(90px, 10.2vw, 252px); font-size: clamp(20px, 2.3vw, 56px);
  padding: 0.25em 0.3em; }
.plaisante-presenter .plaisante-card.jupyter-button::before { font-size: 1.9em; }
.plaisante-presenter .plaisante-card.jupyter-button.plaisante-selected {
  transform: translateY(-1vw); }
.plaisante-xray { display: flex; flex-wrap: wrap; gap: 0.8em 2em; align-items: flex-start;
  background: rgba(0,0,0,0.28); border-radius: 12px; padding: 0.5em 0.9em 0.7em; }
.plaisante-xray h4 { margin: 0 0 0.3em; font-size: 0.85em; font-weight: 600;
  color: #cfe8d8; }
.plaisante-xray h4 code { font-size: 1em; color: #fdfdf8; }
.plaisante-xray-hint { margin: 0.3em 0; }
.plaisante-bars { display: flex; gap: 0.22em; align-items: flex-end; height: 7.2em; }
.plaisante-bar { display: flex; flex-direction: column; align-items: center;
  justify-content: flex-end; width: 1.45em; height: 100%; }
.plaisante-bar-fill { display: block; width: 100%; background: rgba(255,255,255,0.25);
  border-radius: 4px 4px 0 0; min-height: 2px; }
.plaisante-bar-some .plaisante-bar-fill { background: #f5c518; }
.plaisante-bar-n { font-weight: 700; min-height: 1.2em; line-height: 1.2; }
.plaisante-bar-slot { font-size: 0.8em; opacity: 0.85; }
.plaisante-xray-checks ol { list-style: none; margin: 0; padding: 0; }
.plaisante-xray-checks li { display: flex; gap: 0.5em; align-items: baseline; line-height: 1.32;
  padding: 0 0.4em; border-radius: 6px; }
.plaisante-xray-checks li span:first-child { min-width: 12em; font-family: monospace; }
.plaisante-xray-checks li b { min-width: 2em; }
.plaisante-check-no { opacity: 0.6; }
.plaisante-check-yes b { color: #ffe28a; }
.plaisante-check-first { background: #f5c518; color: #1b1b1b; opacity: 1; }
.plaisante-check-hand { font-size: 0.85em; }
.plaisante-xray-name { font-size: 1.5em; font-weight: 700; color: #ffe28a; }
.plaisante-xray-formula { font-size: 1.6em; font-weight: 700; }
.plaisante-xray-cards, .plaisante-xray-sum { opacity: 0.9; }
.plaisante-xray-warn { color: #ffb4b4; font-weight: 600; max-width: 22em; }
/* the video-poker machine (video_poker) */
.vp-machine { max-width: 760px; }
.vp-machine .vp-paytable { border-collapse: collapse; width: 100%; font-size: 15px;
  line-height: 1.25; background: rgba(0,0,0,0.25); border-radius: 8px; }
.vp-paytable caption { text-align: left; font-size: 14px; padding: 0 0 2px; color: #fdfdf8; }
.vp-paytable th, .vp-paytable td { padding: 1px 10px; text-align: left; font-weight: 400; }
.vp-paytable thead th { font-weight: 700; }
.vp-paytable .num { text-align: right; font-variant-numeric: tabular-nums; }
.vp-paytable .vp-lit { background: #f5c518; color: #1b1b1b; font-weight: 700; }
.vp-paytable tr.vp-hit th, .vp-paytable tr.vp-hit td { background: #ffe28a; color: #1b1b1b;
  font-weight: 700; }
.vp-machine .vp-cards { gap: 12px; padding-top: 4px; min-height: 0; justify-content: center;
  overflow: visible; }
.vp-machine .vp-slot { align-items: center; gap: 8px; padding-top: 22px; overflow: visible; }
.vp-slot .vp-hold.jupyter-button { width: 74px; height: 30px; font-weight: 700; font-size: 14px;
  margin: 0; border-radius: 6px; }
.vp-slot .vp-hold.jupyter-button.mod-active { background: #f5c518; color: #1b1b1b; }
.vp-slot .vp-hold.jupyter-button:focus-visible { outline: 4px solid #ffe28a; outline-offset: 2px; }
.plaisante-card.jupyter-button.vp-back { background: repeating-linear-gradient(45deg, #7a1f2b 0
  6px, #a3323f 6px 12px); border: 3px solid #fdfdf8; }
.vp-machine .vp-actions { flex-wrap: wrap; gap: 10px; }
.vp-machine .vp-actions .jupyter-button { min-width: 120px; padding: 0 14px; }
.vp-result .widget-html-content { font-size: 18px; min-height: 1.5em; }
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
  color: #1b1b1b; background: #fffdf7; max-width: 900px; margin: 24px auto; padding: 0 18px; }
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

STYLE = f"<style>{CSS}</style>"
