"""Nothing a graded kernel can reach answers a graded question (SPEC §5).

For every assignment, every callable of the kit that a kernel grading it could reach (``tests.
reach``: by names, ``__globals__``, closures, defaults, class attributes, ``sys.modules`` or the
garbage collector) is tried as every graded part of the same kind, through all the test cells,
visible and hidden, that read the part; none may pass them all. The reference solution's own
parts, tried the same way, must each pass (so the search finds a working part when one is
there)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plaisante.games import COURSE

ROOT = Path(__file__).resolve().parents[1]


def survey(game: str, folder: Path) -> dict[str, object]:
    """Run ``tests.reach`` on ``game`` in a fresh interpreter, in ``folder`` (a reference
    solution may save files where it runs)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.reach", game], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


#: What is still within reach, known and open (docs/threat-model.md, "What it does not
#: promise"): nothing today. Anything found fails the test.
KNOWN_OPEN: dict[str, list[list[str]]] = {}


@pytest.mark.parametrize("game", COURSE)
def test_no_callable_a_graded_kernel_can_reach_answers_a_graded_part(game: str,
                                                                    tmp_path: Path) -> None:
    result = survey(game, tmp_path)
    assert result["checked"], f"{game}: no part is read by any test cell"
    assert sorted(part for part, _ in result["control"]) == result["checked"], (
        f"{game}: the reference's own parts were not all found: {result['control']}")
    assert result["found"] == KNOWN_OPEN.get(game, []), (
        f"{game}: a graded kernel can reach working parts ({result['tried']} tried): "
        f"{result['found']}")
