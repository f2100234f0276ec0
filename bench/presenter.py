"""How fast the presenter view's x-ray follows a click in the browser (the goal: 100 ms).

    python bench/presenter.py [--clicks 20]

Starts ``plaisante demo plaisante`` (Voila) on a temporary copy of the course, opens it in
headless Chromium at 1920×1080 and, for each click, measures in the page the time from the
click to the x-ray panel's next change (a MutationObserver). Prints each time and a last line
``clicks=N median_ms=… max_ms=…``. Not part of the test suite: run it on demand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests" / "browser"))

import harness  # noqa: E402

CLICK_TO_CHANGE = """async (index) => {
  const panel = document.querySelector('.plaisante-xray-panel');
  const card = document.querySelectorAll('.plaisante-presenter-cards .plaisante-card')[index];
  const changed = new Promise(resolve => {
    const watch = new MutationObserver(() => { watch.disconnect(); resolve(performance.now()); });
    watch.observe(panel, {subtree: true, childList: true, characterData: true});
  });
  const start = performance.now();
  card.click();
  return (await changed) - start;
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory(prefix="plaisante-bench-") as tmp:
        root = harness.course_copy(Path(tmp) / "course")
        demo = harness.start_demo(root, Path(tmp), "plaisante")
        try:
            demo.wait_ready(timeout=120)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=harness.chromium_path(),
                                            headless=True, args=harness.CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(demo.url("/"))
                expect(page.locator(".plaisante-presenter-cards .plaisante-card")
                       ).to_have_count(8, timeout=90_000)
                times = []
                for click in range(args.clicks):
                    times.append(page.evaluate(CLICK_TO_CHANGE, click % 5))
                    print(f"click {click + 1}: {times[-1]:.0f} ms")
                browser.close()
        finally:
            demo.stop()
    print(f"clicks={len(times)} median_ms={statistics.median(times):.0f} max_ms={max(times):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
