"""Import nbgrader's modules without its package's start-up (about 1 s of CPU per process).

``import nbgrader.api`` first runs ``nbgrader/__init__.py``, which imports nbgrader's four
Jupyter server extensions and, through them, jupyter_server, the exchange and every nbgrader
app: about a second of CPU in every ``plaisante`` command and grading worker that only wants
the gradebook API, the preprocessors or ``nbgrader.utils``. ``install()`` registers a stand-in
for the ``nbgrader`` package whose submodules import as usual; the first time anything asks the
package itself for something else (a Jupyter server loading the extension, ``nbgrader.apps``'
start-up), the real ``nbgrader/__init__.py`` runs in it, so nothing is missing, only deferred.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any


class _LazyPackage(types.ModuleType):
    """The ``nbgrader`` package, its ``__init__`` run on first need (see the module doc)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if importlib.util.find_spec(f"{self.__name__}.{name}") is not None:
            return importlib.import_module(f"{self.__name__}.{name}")  # a submodule
        state = self.__dict__
        if not state.get("_plaisante_initialised"):
            state["_plaisante_initialised"] = True
            self.__spec__.loader.exec_module(self)  # type: ignore[union-attr]
            if name in state:
                return state[name]
        raise AttributeError(f"module 'nbgrader' has no attribute {name!r}")


def install() -> None:
    """Register the stand-in, unless nbgrader is already imported or cannot be found."""
    if "nbgrader" in sys.modules:
        return
    spec = importlib.util.find_spec("nbgrader")
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        return
    package = _LazyPackage("nbgrader")
    package.__spec__ = spec
    package.__loader__ = spec.loader
    package.__file__ = spec.origin
    package.__path__ = list(spec.submodule_search_locations)
    package.__package__ = "nbgrader"
    sys.modules["nbgrader"] = package
    try:
        package.__dict__["__version__"] = importlib.import_module("nbgrader._version").__version__
    except Exception:  # noqa: BLE001  a missing version is not worth failing an import for
        pass
