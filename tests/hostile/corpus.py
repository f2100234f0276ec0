"""The hostile corpus: broken or malicious submissions, each built from the full-marks sample
and paired with the outcome the sandboxed grader must reach (issue 4).

``build(kind, course_root)`` returns the bytes of the submitted file; ``CORPUS[kind]`` holds
the expectation: the total, the status and a fragment each reason must contain. Totals are
worked out by hand from the assignment's points (step 1: trace 3, card 6, hidden 6; step 2:
5, 5, 5; step 3: trace 2 and 4 per has-check; step 4: trace 5, evaluate 8, 4, 4, 4; step 5:
trace 3, toggle 6, move 6), not by running the grader.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import nbformat

SAMPLES = Path(__file__).resolve().parents[2] / "assignments" / "samples"
FULL_MARKS = SAMPLES / "full_marks.ipynb"


@dataclass(frozen=True)
class Expect:
    """What a kind must end with: ``total`` points, ``status``, and for a flagged one a
    fragment that one of its reasons contains. ``zero`` lists grade cells that must score 0."""

    total: float
    status: str
    reason: str = ""
    zero: tuple[str, ...] = ()


def base() -> nbformat.NotebookNode:
    """Return the full-marks sample (the reference solution as a student would write it)."""
    return nbformat.read(FULL_MARKS, as_version=4)


def cell(nb: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    """Return the cell with ``grade_id``; raises KeyError if there is none."""
    for each in nb.cells:
        if each.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return each
    raise KeyError(grade_id)


def append(grade_id: str, code: str) -> Callable[[Path], bytes]:
    """Return a builder that appends ``code`` to the cell ``grade_id`` of the sample."""
    def make(root: Path) -> bytes:
        nb = base()
        target = cell(nb, grade_id)
        target.source = target.source.rstrip() + "\n\n" + code.replace("{ROOT}", str(root))
        return nbformat.writes(nb).encode("utf-8")
    return make


def appends(**codes: str) -> Callable[[Path], bytes]:
    """Return a builder that appends each code to the cell named by its keyword."""
    def make(root: Path) -> bytes:
        nb = base()
        for grade_id, code in codes.items():
            target = cell(nb, grade_id)
            target.source = target.source.rstrip() + "\n\n" + code
        return nbformat.writes(nb).encode("utf-8")
    return make


def replace(grade_id: str, old: str, new: str) -> Callable[[Path], bytes]:
    """Return a builder replacing ``old`` (which must be there) by ``new`` in ``grade_id``."""
    def make(root: Path) -> bytes:
        nb = base()
        target = cell(nb, grade_id)
        if old not in target.source:
            raise ValueError(f"{old!r} not in {grade_id}")
        target.source = target.source.replace(old, new.replace("{ROOT}", str(root)))
        return nbformat.writes(nb).encode("utf-8")
    return make


def edit(change: Callable[[nbformat.NotebookNode], None]) -> Callable[[Path], bytes]:
    """Return a builder applying ``change`` to the sample notebook."""
    def make(root: Path) -> bytes:
        nb = base()
        change(nb)
        return nbformat.writes(nb).encode("utf-8")
    return make


def raw(data: bytes) -> Callable[[Path], bytes]:
    """Return a builder that submits ``data`` as the notebook file."""
    return lambda root: data


def _delete(nb: nbformat.NotebookNode) -> None:
    nb.cells.remove(cell(nb, "step1_card"))


def _duplicate_test(nb: nbformat.NotebookNode) -> None:
    # has_pair made wrong, then the test cell copied with the copy "fixed" to pass
    solution = cell(nb, "step3_has_checks")
    solution.source = solution.source.replace("return 2 in count_values(cards)",
                                              "return 2 <= max(count_values(cards))")
    test = cell(nb, "step3_has_pair")
    fake = copy.deepcopy(test)
    fake.source = "print('all good')"
    fake["id"] = "fakecopy"
    nb.cells.insert(nb.cells.index(test) + 1, fake)


def _retype(nb: nbformat.NotebookNode) -> None:
    target = cell(nb, "step2_count_values_code")
    index = nb.cells.index(target)
    markdown = nbformat.v4.new_markdown_cell(target.source)
    markdown.metadata = target.metadata
    nb.cells[index] = markdown


def _rename(nb: nbformat.NotebookNode) -> None:
    cell(nb, "step2_count_values_code").metadata["nbgrader"]["grade_id"] = "my_count_values"


def _other_assignment(nb: nbformat.NotebookNode) -> None:
    for each in nb.cells:
        meta = each.metadata.get("nbgrader")
        if meta:
            meta["grade_id"] = "hw2_" + meta["grade_id"]


# Code run by the hostile submissions ------------------------------------------------------

LOOP_FOREVER = "return 2 in count_values(cards)", "while True:\n        pass"
SWALLOW = ("return 2 in count_values(cards)",
           "import time\n    while True:\n        try:\n            time.sleep(0.05)\n"
           "        except KeyboardInterrupt:\n            pass")
FORK_BOMB = """\
import os, time
children = []
while len(children) < 500:          # bounded: stops at 500 or at the process limit
    pid = os.fork()
    if pid == 0:
        time.sleep(600)
        os._exit(0)
    children.append(pid)
"""
MEMORY_HOG = """\
def hog():
    blocks = []
    while True:
        blocks.append(bytearray(64 * 1024 * 1024))
hog()
"""
READ_SOLUTIONS = """\
import glob, os
found = []
for pattern in ["{ROOT}/solutions/*/*.ipynb", "../../../../solutions/*/*.ipynb",
                "/work/main/solutions/*/*.ipynb", "{ROOT}/assignments/submitted/*/*/*.ipynb",
                "{ROOT}/assignments/gradebook.db", "/dev/shm/plaisante-grade-*/gradebook.db",
                "/dev/shm/plaisante-grade-*/course/*/*/*/*.ipynb",
                "/tmp/plaisante-grade-*/course/*/*/*/*.ipynb"]:
    for path in glob.glob(pattern):
        try:
            found.append((path, len(open(path, 'rb').read())))
        except OSError as error:
            pass
print("LEAKED" if found else "nothing to read", found)
"""
WRITE_GRADEBOOK = """\
import sqlite3
for path in ["{ROOT}/assignments/gradebook.db", "../../gradebook.db", "../../../gradebook.db",
             "../../../../assignments/gradebook.db"]:
    try:
        db = sqlite3.connect("file:" + path + "?mode=rw", uri=True)
        db.execute("UPDATE grade SET auto_score = 0")
        db.commit()
        print("WROTE", path)
    except Exception as error:
        print("could not write", path, type(error).__name__)
"""
NETWORK = """\
import socket
for host, port in [("1.1.1.1", 80), ("127.0.0.1", 22), ("pypi.org", 443)]:
    try:
        socket.create_connection((host, port), timeout=2).close()
        print("CONNECTED", host)
    except OSError as error:
        print("no network:", host, type(error).__name__, error)
"""
KILL_PARENT = """\
import os, signal
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as error:
    print("parent:", error)
os.kill(-1, signal.SIGKILL)         # every other process this user may signal
"""
BACKGROUND = """\
import os, subprocess, time
subprocess.Popen(["sleep", "600"], start_new_session=True)
if os.fork() == 0:                  # a daemon: double fork, new session
    os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
"""
RIGGED_COUNTS = """\
class Always(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None


def count_values(cards):
    return Always()
"""
RIGGED_PAIR = """\
class Yes:
    def __eq__(self, other):
        return True
    def __bool__(self):
        return True


def has_pair(cards):
    return Yes()
"""
PATCH_TRACEBACK = """\
def has_pair(cards):
    return True


import IPython
ip = get_ipython()
ip.showtraceback = lambda *args, **kwargs: None
ip._showtraceback = lambda *args, **kwargs: None
IPython.core.interactiveshell.InteractiveShell.showtraceback = lambda *args, **kwargs: None
"""
PATCH_HELPERS = """\
def has_three_of_a_kind(cards):
    return True


import builtins
import plaisante.checks
check_has = lambda *args, **kwargs: None
expect_has = lambda *args, **kwargs: None
plaisante.checks.check_has = check_has
plaisante.checks.expect_has = expect_has
plaisante.checks.same = lambda expected, actual: True
builtins.all = lambda iterable: True
"""
PRINT_HIDDEN = """\
import html
from IPython.display import HTML, display
history = "\\n".join(In)                # every cell run so far, hidden tests included
print(history)
display(HTML("<pre>" + html.escape(history) + "</pre>"))
"""
INPUT = 'name = input("Your name? ")\nprint("hello", name)'
WIDGET = ("import ipywidgets\nslider = ipywidgets.IntSlider(value=3, description='cards')\n"
          "display(slider)\nslider")
SUITS_PRINT = 'print("♠♥♦♣ é ß", [Card("A", s) for s in SUITS])'
BIG_LINE = 'print("x" * 50_000_000)'
MILLION_LINES = 'for i in range(1_000_000):\n    print(i)'

CORPUS: dict[str, tuple[Callable[[Path], bytes], Expect]] = {
    "infinite_loop": (replace("step3_has_checks", *LOOP_FOREVER),
                      Expect(96, "flagged", "timeout: step3_has_pair", ("step3_has_pair",))),
    "swallow_interrupt": (replace("step3_has_checks", *SWALLOW),
                          Expect(96, "flagged", "ignored the interrupt", ("step3_has_pair",))),
    "sys_exit": (replace("step2_count_values_code", "counts = [0] * 15",
                         "import sys\n    sys.exit('bye')"),
                 Expect(90, "graded", "", ("step2_count_values", "step2_count_values_hidden"))),
    "os_exit": (append("step3_has_checks", "import os\nos._exit(1)"),
                Expect(72, "flagged", "kernel died in step3_has_checks",
                       ("step3_has_pair", "step3_has_straight"))),
    "fork_bomb": (append("step5_tableau", FORK_BOMB),
                  Expect(100, "flagged", "process limit hit in step5_tableau")),
    "memory_hog": (append("step5_tableau", MEMORY_HOG),
                   Expect(100, "flagged", "memory limit hit in step5_tableau")),
    "big_line": (append("step1_card_code", BIG_LINE), Expect(100, "flagged", "output limit")),
    "million_lines": (append("step1_card_code", MILLION_LINES),
                      Expect(100, "flagged", "output limit")),
    "read_solutions": (append("step1_card_code", READ_SOLUTIONS), Expect(100, "graded")),
    "network": (append("step1_card_code", NETWORK), Expect(100, "graded")),
    "write_gradebook": (append("step1_card_code", WRITE_GRADEBOOK), Expect(100, "graded")),
    "kill_parent": (append("step5_tableau", KILL_PARENT), Expect(100, "graded")),
    "background_process": (append("step5_tableau", BACKGROUND), Expect(100, "graded")),
    "rigged_eq": (appends(step2_count_values_code=RIGGED_COUNTS, step3_has_checks=RIGGED_PAIR),
                  Expect(86, "graded", "", ("step2_count_values", "step2_count_values_hidden",
                                            "step3_has_pair"))),
    "patched_showtraceback": (append("step3_has_checks", PATCH_TRACEBACK),
                              Expect(96, "graded", "", ("step3_has_pair",))),
    "patched_helpers": (append("step3_has_checks", PATCH_HELPERS),
                        Expect(96, "graded", "", ("step3_has_three_of_a_kind",))),
    "removed_guard": (append("step3_has_checks", "get_ipython().__dict__.pop('_plaisante_guard')"
                             "\n" + PATCH_HELPERS),
                      Expect(100, "flagged", "the kit could not be restored before "
                             "step3_has_pair and later tests")),
    "deleted_test_cell": (edit(_delete),
                          Expect(100, "flagged", "test cell step1_card was deleted")),
    "duplicated_cell": (edit(_duplicate_test),
                        Expect(96, "flagged", "step3_has_pair appears 2 times",
                               ("step3_has_pair",))),
    "retyped_markdown": (edit(_retype),
                         Expect(100, "flagged", "step2_count_values_code was changed to a "
                                "markdown cell")),
    "changed_grade_id": (edit(_rename),
                         Expect(100, "flagged", "unknown id 'my_count_values'")),
    "invalid_json": (raw(b'{"cells": [{"cell_type": "code", "source": "print(1)"'),
                     Expect(0, "flagged", "invalid notebook: not valid JSON")),
    "empty_file": (raw(b""), Expect(0, "flagged", "empty file")),
    "other_assignment": (edit(_other_assignment),
                         Expect(0, "flagged", "not a notebook of assignment 'plaisante'")),
    "print_hidden_tests": (append("step5_tableau", PRINT_HIDDEN), Expect(100, "graded")),
    "input_call": (append("step1_card_code", INPUT),
                   Expect(100, "flagged", "input() called in step1_card_code")),
    "widget_in_graded_step": (append("step4_scoring", WIDGET), Expect(100, "graded")),
    "suits_non_utf8_locale": (append("step1_card_code", SUITS_PRINT), Expect(100, "graded")),
}

# graded in a grader process whose locale is plain ASCII (LC_ALL=C, PYTHONUTF8=0)
NON_UTF8 = ("suits_non_utf8_locale",)


def build(kind: str, root: Path) -> bytes:
    """Return the submitted file's bytes for ``kind``; raises KeyError for an unknown kind."""
    return CORPUS[kind][0](root)


def hidden_lines(source_notebook: Path, min_length: int = 10) -> list[str]:
    """Return the hidden tests' lines (stripped, at least ``min_length`` long) of a source
    notebook: what feedback must never show."""
    lines = []
    for each in json.loads(source_notebook.read_text(encoding="utf-8"))["cells"]:
        inside = False
        for line in "".join(each["source"]).splitlines():
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) >= min_length:
                lines.append(line.strip())
    return lines
