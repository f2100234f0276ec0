"""The students' JupyterLite site, timed in headless Chromium, offline (``python bench/lite.py``).

Prints: the site's build time and size (``plaisante lite``); first load -> kernel ready; the
starter's Run All -> checklist shown; its checklist cell run again; the reference's Run All ->
game shown; a card click -> the card marked selected (median of 10); PNGs of the checklist and the
game at 1280 and 800 px wide in build/screenshots/lite-*.png. Every request outside the
site is aborted and counted (0 expected). JupyterLab's figures for the same notebook:
``make bench-browser``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT / "tests" / "browser"))
sys.path.insert(0, str(KIT / "tests"))

import harness  # noqa: E402
import test_lite as lite  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

SHOTS = KIT / "build" / "screenshots"


def shoot(page: object, name: str) -> None:
    """PNGs of the page at 1280 and 800 px wide into build/screenshots/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 800})  # type: ignore[attr-defined]
        harness.last_output(page).last.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"lite-{name}-{width}.png"))  # type: ignore[attr-defined]
    page.set_viewport_size(harness.VIEWPORT)  # type: ignore[attr-defined]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="plaisante-lite-bench-") as tmp:
        out = Path(tmp) / "site"
        began = time.monotonic()
        subprocess.run([str(harness.VENV_BIN / "plaisante"), "--course", str(KIT), "lite",
                        "plaisante", "--out", str(out)], check=True, capture_output=True)
        built = time.monotonic() - began
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"build: {built:.1f} s, {size / 1e6:.1f} MB ({sum(1 for _ in out.rglob('*'))} "
              "files)")
        port = harness.free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                                   "127.0.0.1", "--directory", str(out)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        site = f"http://127.0.0.1:{port}/"
        aborted: list[str] = []
        try:
            harness.Server("http.server", port, "", server, out / "none.log", "/").wait_ready()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=harness.chromium_path(),
                                            headless=True, args=harness.CHROMIUM_ARGS)
                context = browser.new_context(viewport=harness.VIEWPORT)
                context.route(lite.outside(site), lambda r: (aborted.append(r.request.url),
                                                        r.abort()))
                page = context.new_page()
                began = time.monotonic()
                cells = lite.open_in_lite(page, site, "plaisante")
                print(f"first load -> kernel ready: {time.monotonic() - began:.1f} s")
                began = time.monotonic()
                lite.run_all(page, cells)
                expect(harness.last_output(page).locator(".plaisante-checklist")
                       ).to_be_visible(timeout=lite.KERNEL)
                print(f"starter's Run All -> checklist: {time.monotonic() - began:.1f} s")
                shoot(page, "starter-checklist")
                began = time.monotonic()
                lite.run_cell(page, cells, cells.count() - 1)
                print(f"checklist cell again -> checklist: {time.monotonic() - began:.1f} s")
                lite.paste_reference(page, cells, "plaisante")
                began = time.monotonic()
                lite.run_all(page, cells)
                table = harness.Table(harness.last_output(page))
                expect(table.held).to_have_count(8, timeout=lite.KERNEL)
                print(f"reference's Run All -> game: {time.monotonic() - began:.1f} s")
                clicks = []
                for _ in range(10):
                    began = time.monotonic()
                    table.held.nth(0).click()
                    expect(table.selected).to_have_count(1)
                    clicks.append(time.monotonic() - began)
                    table.held.nth(0).click()
                    expect(table.selected).to_have_count(0)
                print(f"card click -> selected: {statistics.median(clicks) * 1000:.0f} ms "
                      "(median of 10)")
                shoot(page, "game")
                browser.close()
        finally:
            server.terminate()
        print(f"requests outside the site: {len(aborted)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
