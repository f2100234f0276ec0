"""The lecture-hall demo: an assignment's presenter view on the reference solution or
on a student's submitted functions (run in the grader's sandbox, ``plaisante.grading.live``),
or the gate's checklist when a step fails. ``plaisante demo [ID] [--student S]`` opens it in
Voila, full screen; a notebook calls ``show(ID)``."""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import Any

from ..course import CourseLayout
from ..games import load
from ..student_side.assignment import check_all


def show(assignment: str, *, seed: int | None = None, student: str | None = None,
         root: Path | None = None) -> Any:
    """Return the presenter view of ``assignment`` on its reference solution (read from the
    course's source notebook), or on ``student``'s submitted parts (their notebook's cells run
    in the grader's sandbox; every call of a part is a request to it); ``seed`` sets the first
    deal. While a step fails, the gate's checklist instead. Raises KeyError for an id not in
    the course, FileNotFoundError naming a missing submission."""
    description = load(assignment)
    layout = CourseLayout.of(root)
    if student is None:
        from ..authoring import reference

        with contextlib.redirect_stdout(io.StringIO()):  # its doctest-like prints: not shown
            module = reference.load(assignment, layout.source(assignment))
        parts = reference.parts(module, assignment)
    else:
        from ..grading.judge import KernelLost

        try:
            parts = student_parts(layout, assignment, student)
            return view_or_checklist(description, parts, seed)
        except KernelLost as lost:  # a submission too slow (or gone) for a live demo
            return notice(f"{student}'s {description.title} cannot be shown live: {lost}.")
    return view_or_checklist(description, parts, seed)


def view_or_checklist(description: Any, parts: dict[str, Any], seed: int | None) -> Any:
    """Return the presenter-sized checklist while a step fails (the step, its input, expected
    and got, in words for a projector), else the presenter view on ``parts``."""
    results = check_all(description, parts)
    if any(result.status != "pass" for result in results):
        from ..student_side.presenting import presenter_checklist

        return presenter_checklist(results, description.title)
    options = {} if seed is None else {"seed": seed}
    return description.demo_view(**options, **parts)


def notice(text: str) -> Any:
    """Return a one-line notice for the presenter's screen (escaped)."""
    import ipywidgets as widgets

    from .. import page_templates

    return widgets.HTML(page_templates.render("notice.html.j2", text=text))


def student_parts(layout: CourseLayout, assignment: str, student: str) -> dict[str, Any]:
    """Return the parts of ``student``'s submission of ``assignment``, live in a sandbox (kept
    running until this process ends); a part the notebook does not define is a stand-in that
    says so. Raises FileNotFoundError naming the missing submission."""
    from ..grading.live import LiveSubmission
    from ..student_side.assignment import placeholders

    notebook = layout.submitted(student, assignment)
    if not notebook.is_file():
        raise FileNotFoundError(f"no submission of {assignment!r} by {student!r} "
                                f"(looked for {notebook}); submitted: "
                                f"{', '.join(layout.submitted_students(assignment)) or 'none'}")
    live = LiveSubmission(notebook, layout.release(assignment))
    atexit.register(live.close)
    description = load(assignment)
    return {**placeholders(description), **live.parts(description.parts)}


def demo_notebook(assignment: str, seed: int | None, student: str | None = None
                  ) -> dict[str, Any]:
    """Return the one-cell notebook Voila runs: ``show(assignment, seed=…, student=…)``."""
    code = (f"from plaisante.live.demo import show\n"
            f"show({assignment!r}, seed={seed!r}, student={student!r})")
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": "presenter",
                       "metadata": {}, "outputs": [], "source": code}],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                        "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


#: Voila's configuration (``voila.json`` beside the notebook, where Voila looks first): it says
#: only what an instructor can act on, its errors (a busy port, a kernel that will not start).
#: Its notices (where it keeps connection files, that the one-cell notebook it runs is not
#: signed), the kernel's warning that it talks over TCP on loopback (it talks over a Unix
#: socket instead) and tornado's that the kernel socket's ping timeout exceeds its interval
#: (jupyter_server's default timeout is three intervals; made one) are all left out, and so is
#: the error a kernel logs when interrupted on its way out (``demo_kernels``).
QUIET: dict[str, Any] = {
    "Voila": {"log_level": "ERROR", "tornado_settings": {"ws_ping_timeout": 30_000}},
    "KernelManager": {"transport": "ipc"},
    "AsyncMappingKernelManager": {
        "kernel_manager_class": "plaisante.live.demo_kernels.DemoKernelManager"},
}


def answering(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> bool:
    """Wait until Voila at ``url`` serves its own script (a static file: asking for the page
    itself would start a kernel); return True then, False when ``process`` ended first or
    ``seconds`` passed."""
    import time
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    return False


def serve(root: Path, assignment: str, *, seed: int | None = None, student: str | None = None,
          port: int = 8866, open_browser: bool = True) -> int:
    """Run Voila on the demo notebook of ``assignment`` until interrupted; open the page in a
    browser unless ``open_browser`` is False. Returns Voila's exit status."""
    try:
        load(assignment)
    except KeyError as error:  # an unknown id: one line naming the course's assignments
        raise ValueError(error.args[0]) from None
    layout = CourseLayout(root)
    if student is not None and not layout.submitted(student, assignment).is_file():
        raise ValueError(f"no submission of {assignment!r} by {student!r}; submitted: "
                         f"{', '.join(layout.submitted_students(assignment)) or 'none'}")
    with tempfile.TemporaryDirectory(prefix="plaisante-demo-") as folder:
        notebook = Path(folder) / f"{assignment}.ipynb"
        notebook.write_text(json.dumps(demo_notebook(assignment, seed, student)),
                            encoding="utf-8")
        (Path(folder) / "voila.json").write_text(json.dumps(QUIET), encoding="utf-8")
        env = dict(os.environ, PLAISANTE_COURSE=str(root))
        voila = Path(sys.executable).with_name("voila")
        # a busy port is an error, never another port: the address printed is the one served
        command = [str(voila) if voila.exists() else "voila", str(notebook), "--no-browser",
                   f"--port={port}", "--Voila.port_retries=0", "--Voila.ip=127.0.0.1",
                   "--theme=dark"]
        url = f"http://127.0.0.1:{port}/"
        whose = f"{student}'s submission" if student else "the reference solution"
        process = subprocess.Popen(command, cwd=folder, env=env)

        def stop(signum: int, frame: Any) -> None:  # `kill PID` stops Voila too, as Ctrl-C does
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGTERM, stop)
        try:
            if answering(url, process):
                print(f"plaisante demo: {assignment} on {whose} at {url} (F11 for full "
                      "screen; Ctrl-C stops)", flush=True)
                if open_browser:
                    webbrowser.open(url)
            elif process.poll() is None:
                print(f"plaisante demo: Voila has not answered at {url} yet; still waiting "
                      "(Ctrl-C stops)", file=sys.stderr, flush=True)
            status = process.wait()
            if status:
                print(f"plaisante demo: Voila stopped (exit {status}); is port {port} in use? "
                      "Try --port with another number.", file=sys.stderr)
            return status
        except KeyboardInterrupt:
            process.terminate()
            return process.wait()
        finally:
            signal.signal(signal.SIGTERM, previous)
