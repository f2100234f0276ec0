"""The kit's student side, as a wheel for Pyodide: what the starters' setup cells import.

The modules are found, not listed: every ``plaisante.games.<id>.setup`` and, transitively,
every ``plaisante`` module it imports, at the top or inside a function (a game's view is
imported when ``play`` first shows it): ``plaisante.boundary.walk``. Nothing off the kernel's
side (``plaisante.boundary``) may be on that path, nor any library the browser has not got:
either raises ``ValueError`` naming the import chain.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

from .. import boundary

PACKAGE = boundary.PACKAGE  # plaisante/
NAME = boundary.NAME  # the distribution is named as the package
#: What the student side may import in the browser besides its own modules and Python's
#: standard library: the boundary's kernel libraries but ipykernel (Pyodide's kernel is not it).
THIRD_PARTY = boundary.KERNEL_LIBRARIES - {"ipykernel"}


def student_modules(assignments: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Return ``{module name: source file}`` for the student side of ``assignments`` (default:
    the whole course), parents included. Raises ValueError naming the chain when a module off
    the kernel's side, nbgrader or any library outside the standard library and
    ``THIRD_PARTY`` is on it."""
    return boundary.walk(boundary.setup_modules(assignments), functions=True,
                         libraries=THIRD_PARTY)


#: The data files a student-side package reads at run time (``importlib.resources``): each
#: game's stylesheet (``plaisante.student_side.style.game_css``).
DATA_FILES = ("style.css",)


def package_data(modules: dict[str, Path]) -> list[Path]:
    """Return the data files (``DATA_FILES``) of the packages among ``modules``, sorted."""
    folders = {path.parent for name, path in modules.items() if path.name == "__init__.py"}
    return sorted(folder / name for folder in folders for name in DATA_FILES
                  if (folder / name).is_file())


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode()}"


def build_wheel(dest: Path, assignments: tuple[str, ...] | None = None) -> Path:
    """Write ``plaisante-VERSION-py3-none-any.whl`` (the student side, needing ipywidgets)
    into folder ``dest``; return its path. The archive is reproducible: same sources, same
    bytes. Raises ValueError as ``student_modules`` does."""
    version = metadata.version(NAME)
    widgets = metadata.version("ipywidgets")
    modules = student_modules(assignments)
    dist = f"{NAME}-{version}.dist-info"
    files: list[tuple[str, bytes]] = [
        (path.relative_to(PACKAGE.parent).as_posix(), path.read_bytes())
        for path in modules.values()]
    files += [(path.relative_to(PACKAGE.parent).as_posix(), path.read_bytes())
              for path in package_data(modules)]
    files.append((f"{dist}/METADATA", (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\nVersion: {version}\n"
        "Summary: Plaisante Kit, the student side: setup cells, checks, games and views\n"
        f"Requires-Python: >=3.10\nRequires-Dist: ipywidgets=={widgets}\n").encode()))
    files.append((f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: plaisante lite\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{dist}/top_level.txt", f"{NAME}\n".encode()))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files)
    files.append((f"{dist}/RECORD", (record + f"{dist}/RECORD,,\n").encode()))
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return wheel
