"""``plaisante report ID --open`` where no web browser can open (a server, ssh): it says so
and where the page is, rather than nothing at all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from course_cli import cli as run
from course_cli import new_course

ROOT = Path(__file__).resolve().parents[1]
FULL_MARKS = ROOT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb"

pytestmark = pytest.mark.nbgrader


def test_open_without_a_browser_says_where_the_page_is(tmp_path: Path) -> None:
    root = new_course(tmp_path / "course")
    run("release", "plaisante", cwd=root)
    run("submit", str(FULL_MARKS), "--student", "ada", cwd=root)
    run("grade", "plaisante", "--workers", "1", cwd=root)
    # no display and no console browser on PATH: Python's webbrowser finds nothing to run
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "PLAISANTE_COURSE")}
    env["PATH"] = str(Path(sys.executable).parent)
    done = subprocess.run([sys.executable, "-m", "plaisante.cli", "report", "plaisante",
                           "--open"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    page = root / "assignments" / "reports" / "plaisante" / "index.html"
    assert page.is_file()
    assert done.stdout.splitlines()[-1] == (
        f"plaisante report: no web browser to open here (a server without a display?): open "
        f"{page} in yours (from another machine: copy {page.parent} there first)")
