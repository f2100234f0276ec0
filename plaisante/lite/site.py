"""Build the students' static JupyterLite site from the cached assets, with no network.

The site (``build``) holds JupyterLab (``jupyterlite-core``), the Pyodide kernel
(``jupyterlite-pyodide-kernel``) and the widgets' front end (``jupyterlab_widgets``), the
starters at its root (``ID.ipynb``), and under ``static/pyodide/`` a local Pyodide: the npm
core, the wheels the kernel loads, and ``plaisante`` (the student side, ``student_wheel``). Its
``pyodide-lock.json`` is the npm one with each served wheel's real SHA-256 (PyPI's files, not
Pyodide's rebuilds of them) and three entries more (comm, ipywidgets, plaisante); the kernel
loads ``plaisante`` with its dependencies as it starts, so a starter's setup cell imports it
as in JupyterLab. PyPI fallback is off: nothing is fetched from outside the site. The kernel
client's script is mended so Run All goes on past a cell tagged ``raises-exception`` (``run_all``).
The kit's extension ``starting/`` says, over the notebook, that Python is starting while it does.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from jupyterlite_pyodide_kernel.constants import PYODIDE_KERNEL_PLUGIN_ID

from . import assets, run_all, student_wheel

# Pyodide's core files the kernel loads (the rest of the npm package: types, consoles, maps).
PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                "pyodide.js", "package.json")
# The federated extensions the site holds: the kernel's and the widgets' front end (nothing
# else of this environment: no nbgrader, no Voila, which need a server).
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager")
# The kit's own extension in the site: a notice over the notebook while Python starts in the
# browser (the first start takes up to a minute or two, the status bar saying "Initializing").
STARTING = Path(__file__).parent / "starting"
STARTING_NAME = "@plaisante/lite-starting"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _lock_entry(wheel: assets.Wheel, path: Path, imports: list[str]) -> dict:
    return {"name": wheel.name, "version": wheel.version, "file_name": wheel.file_name,
            "install_dir": "site", "sha256": _sha256(path), "package_type": "package",
            "imports": imports, "depends": list(wheel.depends), "unvendored_tests": False,
            "shared_library": False}


def stage_pyodide(dest: Path, cache: Path, assignments: tuple[str, ...]) -> list[str]:
    """Write the local Pyodide into folder ``dest``: core, wheels, the student-side wheel and
    the rewritten lock. Return the lock names the kernel preloads (``["plaisante"]``)."""
    dest.mkdir(parents=True)
    with tarfile.open(assets.pyodide_tarball(cache)) as archive:
        for name in PYODIDE_CORE:
            member = archive.extractfile(f"package/{name}")
            assert member is not None, f"npm's pyodide has no {name}"
            (dest / name).write_bytes(member.read())
    lock = assets.read_lock(cache)
    packages = lock["packages"]
    keys = {assets._normal(key): key for key in packages}
    for wheel in assets.needed_wheels(lock):
        served = dest / wheel.file_name
        shutil.copyfile(cache / "wheels" / wheel.file_name, served)
        key = keys.get(assets._normal(wheel.name))
        if key is None:
            packages[wheel.name] = _lock_entry(wheel, served, [wheel.name])
        else:
            packages[key] = {**packages[key], "file_name": wheel.file_name,
                             "sha256": _sha256(served)}
    kit = student_wheel.build_wheel(dest, assignments)
    version = kit.name.split("-")[1]
    packages[student_wheel.NAME] = _lock_entry(
        assets.Wheel(student_wheel.NAME, version, kit.name, ("ipywidgets",)), kit,
        [student_wheel.NAME])
    (dest / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    return [student_wheel.NAME]


def build(out: Path, starters: dict[str, Path], cache: Path | None = None) -> Path:
    """Build the site into folder ``out`` (replaced if it holds a site) from ``starters``
    (``{assignment id: its released notebook}``) and the cached assets; return ``out``.

    Raises FileNotFoundError naming ``make lite-assets`` when the cache lacks something,
    FileExistsError when ``out`` is a non-empty folder that is not a site, RuntimeError with
    JupyterLite's last lines when its build fails or when its kernel client is not the one
    ``run_all`` mends."""
    cache = cache or assets.cache_dir()
    lacking = assets.missing(cache)
    if lacking:
        raise FileNotFoundError(f"the site's local files are missing from {cache} "
                                f"({', '.join(lacking[:4])}{' …' if len(lacking) > 4 else ''}): "
                                "run `make lite-assets` once, with the network")
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / "jupyter-lite.json").is_file():
        raise FileExistsError(f"{out} holds files and no JupyterLite site: give an empty or "
                              "new folder to --out")
    with tempfile.TemporaryDirectory(prefix="plaisante-lite-") as tmp:
        lite = Path(tmp)
        preload = stage_pyodide(lite / "static" / "pyodide", cache, tuple(starters))
        labextensions = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
        for name in EXTENSIONS:
            shutil.copytree(labextensions / name, lite / "labextensions" / name)
        shutil.copytree(STARTING, lite / "labextensions" / STARTING_NAME)
        contents = lite / "contents"
        contents.mkdir()
        for assignment, notebook in starters.items():
            shutil.copyfile(notebook, contents / f"{assignment}.ipynb")
        settings = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": preload}}
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "Plaisante Kit",
                                    "litePluginSettings": {PYODIDE_KERNEL_PLUGIN_ID: settings}},
        }), encoding="utf-8")
        (lite / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions"],
                                "apps": ["lab"], "no_sourcemaps": True,
                                "contents": [str(contents)]},
            "FederatedExtensionAddon": {"extra_labextensions_path": [str(lite / "labextensions")]},
        }), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        env = {**os.environ, "JUPYTERLITE_NO_LIBARCHIVE": "1"}
        env.pop("JUPYTERLITE_PYODIDE_URL", None)
        done = subprocess.run([str(Path(sys.executable).parent / "jupyter-lite"), "build",
                               "--lite-dir", str(lite), "--output-dir", str(out)],
                              cwd=lite, env=env, capture_output=True, text=True)
        if done.returncode:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"jupyter lite build failed (exit {done.returncode}):\n{tail}")
    run_all.patch(out)
    return out
