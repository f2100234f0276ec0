"""README.md's first block sets the kit up on a fresh clone.

A newcomer runs the two commands of README.md's first fenced block and nothing else, so a
missing install step must fail here, not on their machine.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[1]
SETUP_DONE = "SETUP_ONLY: set up; would run:"  # what the Makefile prints instead of the last step


def first_block_commands(readme: str) -> list[str]:
    """The commands of README.md's first fenced block, comments dropped."""
    block = re.search(r"^```[^\n]*\n(.*?)^```", readme, re.M | re.S)
    assert block, "README.md has no fenced block"
    lines = (line.split("#", 1)[0].strip() for line in block.group(1).splitlines())
    return [line for line in lines if line]


def clean_env() -> dict[str, str]:
    """A newcomer's environment: none of this run's venv, make or kit variables."""
    outer_bin = str(Path(sys.executable).parent)
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != outer_bin]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PLAISANTE_", "MAKE", "PYTEST_"))
           and k not in ("MFLAGS", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    return dict(env, PATH=os.pathsep.join(path), SETUP_ONLY="1", NO_BROWSER="1",
                PIP_DISABLE_PIP_VERSION_CHECK="1")


def test_readme_first_block_names_the_two_commands():
    assert first_block_commands((KIT / "README.md").read_text(encoding="utf-8")) == [
        "make demo", "make test"]


def printed_address(command: str, clone: Path, env: dict[str, str]) -> str | None:
    """Start ``command`` (the Makefile's JupyterLab line) in ``clone`` on a free port, read its
    output up to the first address it prints, stop it; return that address's path (None if
    it ended without printing one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = re.sub(r"--ServerApp\.port=\d+", f"--ServerApp.port={port}", command)
    lab = subprocess.Popen(["bash", "-c", command], cwd=clone, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           start_new_session=True)
    try:
        assert lab.stdout is not None
        for line in lab.stdout:
            found = re.search(rf"http://127\.0\.0\.1:{port}(/[^?\s]*)", line)
            if found:
                return found.group(1)
        return None
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.wait(timeout=60)


@pytest.mark.fresh_clone
def test_readme_first_block_sets_up_a_fresh_clone(tmp_path):
    """``git clone`` of HEAD into a temporary folder, then each command of README.md's first
    block run there as written, with SETUP_ONLY=1 (the Makefile then sets everything up — system
    packages, .venv, as root the grading user — and prints its last command instead of running
    the suite or JupyterLab); then the installed kit must work from that clone.

    Cost: about 55 s on the 2-core machine with pip's cache warm (the venv's install is most of
    it; nothing is downloaded), a few minutes with a cold cache.
    """
    clone = tmp_path / "kit"
    subprocess.run(["git", "clone", "--quiet", str(KIT), str(clone)], check=True, timeout=120)
    env = clean_env()
    commands = first_block_commands((clone / "README.md").read_text(encoding="utf-8"))
    said: dict[str, str] = {}
    for command in commands:
        words = command.split()
        assert words[0] == "make", f"README's first block runs {command!r}: not a make target; " \
            "this test only knows how to stop make commands before their last step"
        done = subprocess.run(words, cwd=clone, env=env, text=True, capture_output=True,
                              timeout=900, check=False)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{command} failed in a fresh clone:\n{output[-4000:]}"
        assert SETUP_DONE in output, f"{command} did not reach its last step:\n{output[-4000:]}"
        said[command] = output.split(SETUP_DONE, 1)[1].splitlines()[0].strip()

    # NO_BROWSER=1 on a server: the address JupyterLab prints is the one a newcomer opens, so
    # it must be the demo notebook's (it once opened an empty Launcher)
    assert printed_address(said["make demo"], clone, env) == "/lab/tree/notebooks/demo.ipynb"

    venv = clone / ".venv" / "bin"
    done = subprocess.run([str(venv / "plaisante"), "--help"], cwd=clone, env=env, text=True,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0 and "usage: plaisante" in done.stdout, done.stderr[-2000:]

    # the kit comes from the clone, and every pin of requirements.txt is installed as pinned
    check = (
        "import sys, importlib.metadata as md, plaisante, nbgrader, ipywidgets, jupyterlab\n"
        "print(plaisante.__file__)\n"
        "for line in open('requirements.txt'):\n"
        "    line = line.split('#')[0].strip()\n"
        "    if '==' in line:\n"
        "        name, pin = line.split('==')\n"
        "        if md.version(name) != pin: sys.exit(f'{name} is {md.version(name)}, not {pin}')\n"
    )
    done = subprocess.run([str(venv / "python"), "-c", check], cwd=clone, env=env, text=True,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert Path(done.stdout.strip()).is_relative_to(clone / "plaisante")
    shutil.rmtree(clone, ignore_errors=True)
