"""Shared fixtures: the reference solution (read from the source notebook) and its parts."""

from __future__ import annotations

import types

import pytest

from plaisante import reference


@pytest.fixture(scope="session")
def ref() -> types.ModuleType:
    """The reference solution, loaded from solutions/plaisante/plaisante.ipynb."""
    return reference.load()


@pytest.fixture(scope="session")
def ref_parts(ref: types.ModuleType) -> dict[str, object]:
    """The keyword arguments play() takes, all from the reference solution."""
    return reference.parts(ref)
