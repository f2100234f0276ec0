"""What the students' site serves instead of a CDN, fetched once from the registries.

The cache (``cache_dir()``: ``$PLAISANTE_LITE_CACHE`` or ``<venv>/share/plaisante-lite``) holds:

* ``pyodide-<VERSION>.tgz``: npm's ``pyodide`` package, the core only (``pyodide.mjs``, the
  WebAssembly runtime, the standard library and ``pyodide-lock.json``), at the version the pinned
  ``jupyterlite-pyodide-kernel`` is built for;
* ``wheels/``: the pure-Python wheels the kernel loads from Pyodide's lock (``micropip``,
  IPython and its dependencies, ``jedi``), fetched from PyPI by the lock's own name and version,
  and those it has not got (``comm``, ``ipywidgets``), at the versions installed here.

``fetch()`` is the only step that needs the network (``make lite-assets``); ``plaisante lite``
builds from the cache alone.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

# Lock packages the kernel loads as it starts (micropip; the kernel's own installs of ipython
# and jedi) and the widgets need (traitlets): their lock dependencies come with them.
LOCK_ROOTS = ("micropip", "ipython", "jedi", "traitlets")
# Packages the lock has not got: the kernel needs comm, the views ipywidgets (``name``:
# ``lock dependencies``), at the versions this environment runs, so both sides agree.
EXTRA = {"comm": (), "ipywidgets": ("comm", "ipython", "traitlets")}


def cache_dir() -> Path:
    """Return the assets' folder: ``$PLAISANTE_LITE_CACHE``, else
    ``<sys.prefix>/share/plaisante-lite``."""
    chosen = os.environ.get("PLAISANTE_LITE_CACHE")
    return Path(chosen) if chosen else Path(sys.prefix) / "share" / "plaisante-lite"


def pyodide_tarball(cache: Path) -> Path:
    """The cached npm tarball of Pyodide ``PYODIDE_VERSION``."""
    return cache / f"pyodide-{PYODIDE_VERSION}.tgz"


def read_lock(cache: Path) -> dict:
    """Return ``pyodide-lock.json`` from the cached tarball (a dict with ``info``, ``packages``).
    Raises FileNotFoundError naming the command that fetches it when it is missing."""
    tarball = pyodide_tarball(cache)
    if not tarball.is_file():
        raise FileNotFoundError(f"no local Pyodide ({tarball}): run `make lite-assets` once, "
                                "with the network (npm's registry and PyPI)")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/pyodide-lock.json")
        assert member is not None
        return json.load(member)


@dataclass(frozen=True)
class Wheel:
    """One wheel the site serves: its distribution ``name`` (as the lock spells it),
    ``version``, ``file_name`` and lock ``depends``."""

    name: str
    version: str
    file_name: str
    depends: tuple[str, ...]


def needed_wheels(lock: dict) -> list[Wheel]:
    """Return the wheels the kernel and the views need, from the lock's closure of
    ``LOCK_ROOTS`` and ``EXTRA``. Raises ValueError naming any needed package the lock holds
    only as a compiled (non pure-Python) file, which PyPI cannot supply."""
    packages = {_normal(key): entry for key, entry in lock["packages"].items()}
    wanted: list[str] = []
    todo = list(LOCK_ROOTS)
    while todo:
        name = _normal(todo.pop(0))
        if name not in wanted:
            wanted.append(name)
            todo.extend(packages[name]["depends"])
    compiled = [n for n in wanted if not packages[n]["file_name"].endswith("-none-any.whl")]
    if compiled:
        raise ValueError(f"the kernel needs {', '.join(compiled)} from Pyodide's full "
                         "distribution (compiled for WebAssembly): not on PyPI or npm")
    wheels = [Wheel(packages[n]["name"], packages[n]["version"], packages[n]["file_name"],
                    tuple(packages[n]["depends"])) for n in wanted]
    for name, depends in EXTRA.items():
        version = metadata.version(name)
        wheels.append(Wheel(name, version, f"{name}-{version}-py3-none-any.whl", depends))
    return wheels


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them (``prompt_toolkit`` is ``prompt-toolkit``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def missing(cache: Path | None = None) -> list[str]:
    """Return what ``fetch`` would fetch (file names): empty when the site can be built."""
    cache = cache or cache_dir()
    try:
        wheels = needed_wheels(read_lock(cache))
    except FileNotFoundError:
        return [pyodide_tarball(cache).name]
    return [w.file_name for w in wheels if not (cache / "wheels" / w.file_name).is_file()]


def fetch(cache: Path | None = None) -> Path:
    """Fetch what is missing into the cache (npm for Pyodide, pip from PyPI for the wheels);
    return the cache. Raises RuntimeError naming what a registry did not give."""
    cache = cache or cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    tarball = pyodide_tarball(cache)
    if not tarball.is_file():
        done = subprocess.run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent",
                               "--pack-destination", str(cache)],
                              capture_output=True, text=True)
        if done.returncode or not tarball.is_file():
            raise RuntimeError(f"npm pack pyodide@{PYODIDE_VERSION} failed: "
                               f"{done.stderr.strip()[-400:]}")
    wheels = [w for w in needed_wheels(read_lock(cache))
              if not (cache / "wheels" / w.file_name).is_file()]
    if wheels:
        # pure-Python wheels for the browser's Python: any platform, Python 3.14
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--only-binary=:all:", "--platform", "any", "--python-version",
                               "3.14", "--implementation", "py", "--abi", "none",
                               "--dest", str(cache / "wheels"),
                               *(f"{w.name}=={w.version}" for w in wheels)],
                              capture_output=True, text=True)
        lost = [w.file_name for w in wheels if not (cache / "wheels" / w.file_name).is_file()]
        if done.returncode or lost:
            raise RuntimeError(f"pip download did not give {', '.join(lost) or 'everything'}: "
                               f"{done.stderr.strip()[-400:]}")
    return cache


def main() -> int:
    """``python -m plaisante.lite.assets``: fetch what is missing, say what the cache holds."""
    try:
        cache = fetch()
    except (RuntimeError, ValueError) as error:
        print(f"plaisante lite assets: {error}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
    print(f"plaisante lite assets: Pyodide {PYODIDE_VERSION} and "
          f"{len(list((cache / 'wheels').glob('*.whl')))} wheels in {cache} "
          f"({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
