"""The lecture-hall demo (issue 12): an assignment's presenter view on the reference solution,
or the gate's checklist when a step fails. ``plaisante demo [ID]`` opens it in Voila, full
screen; a notebook calls ``show(ID)``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import Any

from .assignment import check_all, checklist_widget
from .course import CourseLayout
from .games import load


def show(assignment: str, *, seed: int | None = None, root: Path | None = None) -> Any:
    """Return the presenter view of ``assignment`` on its reference solution (read from the
    course's source notebook); ``seed`` sets the first deal. While a step fails, the gate's
    checklist instead (an ipywidgets HTML). Raises KeyError for an id not in the course."""
    from . import reference

    description = load(assignment)
    module = reference.load(assignment, CourseLayout.of(root).source(assignment))
    parts = reference.parts(module, assignment)
    results = check_all(description, parts)
    if any(result.status != "pass" for result in results):
        return checklist_widget(results)
    options = {} if seed is None else {"seed": seed}
    return description.demo_view(**options, **parts)


def demo_notebook(assignment: str, seed: int | None) -> dict[str, Any]:
    """Return the one-cell notebook Voila runs: ``show(assignment, seed=seed)``."""
    code = f"from plaisante.demo import show\nshow({assignment!r}, seed={seed!r})"
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": "presenter",
                       "metadata": {}, "outputs": [], "source": code}],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                        "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def serve(root: Path, assignment: str, *, seed: int | None = None, port: int = 8866,
          open_browser: bool = True) -> int:
    """Run Voila on the demo notebook of ``assignment`` until interrupted; open the page in a
    browser unless ``open_browser`` is False. Returns Voila's exit status."""
    try:
        load(assignment)
    except KeyError as error:  # an unknown id: one line naming the course's assignments
        raise ValueError(error.args[0]) from None
    with tempfile.TemporaryDirectory(prefix="plaisante-demo-") as folder:
        notebook = Path(folder) / f"{assignment}.ipynb"
        notebook.write_text(json.dumps(demo_notebook(assignment, seed)), encoding="utf-8")
        env = dict(os.environ, PLAISANTE_COURSE=str(root))
        voila = Path(sys.executable).with_name("voila")
        command = [str(voila) if voila.exists() else "voila", str(notebook), "--no-browser",
                   f"--port={port}", "--Voila.ip=127.0.0.1", "--theme=dark"]
        url = f"http://127.0.0.1:{port}/"
        print(f"plaisante demo: {assignment} at {url} (F11 for full screen; Ctrl-C stops)",
              flush=True)
        process = subprocess.Popen(command, cwd=folder, env=env)
        if open_browser:
            webbrowser.open(url)
        try:
            return process.wait()
        except KeyboardInterrupt:
            process.terminate()
            return process.wait()
