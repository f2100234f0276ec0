"""What the selected tests of a module need: a module-scoped fixture that builds a course for
several assignments builds only those whose tests run (``make test`` runs one or two of each
exhaustive family; ``make test-slow`` runs them all)."""

from __future__ import annotations

from typing import Any

import pytest


def selected(request: pytest.FixtureRequest, name: str) -> list[Any]:
    """Return the values the parameter ``name`` takes in the requesting module's selected
    tests, in collection order, each once (after ``-m``/``-k`` deselection)."""
    values: list[Any] = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if getattr(item, "module", None) is not request.module or callspec is None:
            continue
        value = callspec.params.get(name)
        if value is not None and value not in values:
            values.append(value)
    return values


def slow_except(values: Any, fast: set[Any]) -> list[Any]:
    """``values`` as pytest params, those not in ``fast`` marked slow."""
    return [pytest.param(value, marks=() if value in fast else pytest.mark.slow)
            for value in values]
