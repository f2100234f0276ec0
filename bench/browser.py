"""How fast the round is in a real browser: Run All → round rendered, card click → updated DOM.

    python bench/browser.py [--clicks 20] [--runs 1]

Starts JupyterLab on 127.0.0.1 in a temporary copy of the course (as the browser tests do,
see tests/browser/harness.py), opens the reference solution in headless Chromium, and measures

* run_all_s: seconds from the click on Run ▸ Run All Cells to the last cell showing the round's
  8 cards (the kernel was idle before; page load and kernel start are not counted);
* click_ms: milliseconds from a card's click event to the DOM showing it selected (or
  deselected), measured inside the page with a MutationObserver; median of N clicks that
  alternate select and deselect.

Not part of the test suite: run it on demand. The last line is exactly
``run_all_s=… click_ms_median=… click_ms_p90=… clicks=N load=…`` (load: the 1-minute load
average at the end, since other work on the machine skews every figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests" / "browser"))

import harness  # noqa: E402

# Resolves with the ms between the click event on the card and the mutation of its class list.
CLICK_JS = """
(card) => new Promise((resolve) => {
  const before = card.classList.contains('plaisante-selected');
  let start = 0;
  const observer = new MutationObserver(() => {
    if (card.classList.contains('plaisante-selected') !== before) {
      observer.disconnect();
      resolve(performance.now() - start);
    }
  });
  observer.observe(card, {attributes: true, attributeFilter: ['class']});
  start = performance.now();
  card.click();
})
"""

ROUND_RENDERED_JS = """
() => {
  const cells = document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell');
  const last = cells[cells.length - 1];
  return !!last && last.querySelectorAll('.plaisante-held .plaisante-card').length === 8;
}
"""


def measure(page, lab, notebook: str, clicks: int) -> tuple[float, list[float]]:
    from playwright.sync_api import expect

    harness.open_notebook(page, lab, notebook)
    start = time.perf_counter()
    harness.run_all(page)
    page.wait_for_function(ROUND_RENDERED_JS, polling="raf", timeout=120_000)
    run_all_s = time.perf_counter() - start
    table = harness.Table(harness.last_output(page))
    harness.wait_queue_empty(page)
    card = table.held.nth(2)
    times = []
    for _ in range(clicks):
        times.append(card.evaluate(CLICK_JS))
    expect(table.selected).to_have_count(clicks % 2)
    return run_all_s, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1, help="repeat Run All (median reported)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="plaisante-bench-") as tmp:
        root = harness.course_copy(Path(tmp) / "course")
        for run in range(args.runs):  # one notebook, so one fresh kernel, per run
            harness.student_copy(harness.SOURCE, root / "students" / f"reference-{run}.ipynb")
        lab = harness.start_lab(root, Path(tmp) / "home")
        try:
            lab.wait_ready()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=harness.chromium_path(),
                                            headless=True, args=harness.CHROMIUM_ARGS)
                page = browser.new_page(viewport=harness.VIEWPORT)
                run_alls, clicks = [], []
                for run in range(args.runs):
                    run_all_s, times = measure(page, lab, f"students/reference-{run}.ipynb",
                                               args.clicks)
                    print(f"run {run + 1}: Run All → round {run_all_s:.2f} s; clicks (ms): "
                          + " ".join(f"{t:.0f}" for t in times))
                    run_alls.append(run_all_s)
                    clicks.extend(times)
                browser.close()
        finally:
            lab.stop()
    clicks.sort()
    p90 = clicks[min(len(clicks) - 1, int(0.9 * len(clicks)))]
    print(f"run_all_s={statistics.median(run_alls):.2f} "
          f"click_ms_median={statistics.median(clicks):.0f} click_ms_p90={p90:.0f} "
          f"clicks={len(clicks)} load={os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
