"""The mend of JupyterLite's kernel client (``plaisante.lite.run_all``), on the pinned
jupyterlite-core's own bundle: each edit lands once, the script still parses, patching twice
changes nothing, and another bundle stops the build in one line. Its effect in a browser (a
starter's Run All reaching the checklist) is tests/browser/test_lite.py's."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import jupyterlite_core
import pytest

from plaisante.lite import run_all


def kernel_client_site(tmp_path: Path) -> Path:
    """A folder shaped like a built site holding jupyterlite-core's own ``build/*.js``."""
    app = next(Path(jupyterlite_core.__file__).parent.glob("jupyterlite-app-*.tgz"))
    site = tmp_path / "site"
    (site / "build").mkdir(parents=True)
    with tarfile.open(app) as archive:
        for member in archive.getmembers():
            name = Path(member.name)
            if name.parent == Path("package/build") and name.suffix == ".js":
                extracted = archive.extractfile(member)
                assert extracted is not None
                (site / "build" / name.name).write_bytes(extracted.read())
    return site


def test_the_pinned_kernel_client_is_mended_once(tmp_path: Path) -> None:
    site = kernel_client_site(tmp_path)
    script = run_all.patch(site)
    text = script.read_text(encoding="utf-8")
    for _, after in run_all.EDITS:
        assert text.count(after) == 1
    assert 'content:{status:"aborted",execution_count:null}' in text
    done = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert run_all.patch(site) == script
    assert script.read_text(encoding="utf-8") == text  # twice: unchanged


def test_another_kernel_client_stops_the_build_in_one_line(tmp_path: Path) -> None:
    site = kernel_client_site(tmp_path)
    script = next(p for p in (site / "build").glob("*.js")
                  if "this._cancelReason" in p.read_text(encoding="utf-8"))
    script.write_text(script.read_text(encoding="utf-8").replace("i.runExclusive(", "i.run("),
                      encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"holds .* 0 times, 1 expected: pin "
                                           r"jupyterlite-core==0\.8\.6") as caught:
        run_all.patch(site)
    assert "\n" not in str(caught.value)
    script.unlink()
    with pytest.raises(RuntimeError, match="0 scripts of the site hold JupyterLite's kernel"):
        run_all.patch(site)
