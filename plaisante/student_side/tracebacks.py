"""One line per unfinished or failing test cell in the student's notebook, in the words of the
last cell's checklist: ``✎ to do: has_pair still raises NotImplementedError`` or ``✘
Card('2', 'spades').value: expected 2, got 1``. Never a frame of the kit's.

The cell still fails: IPython shows the line as the cell's error output (``ename`` and
``evalue`` are the exception's own), which is what nbgrader scores a test cell by. Under
``%xmode Verbose`` the whole traceback is shown as IPython would show it.

Two hooks of IPython make the line. ``CheckFailed`` answers ``_render_traceback_``
(``BriefTraceback``). A student's own ``NotImplementedError``, and a ``NameError`` of a test cell
for an answer not set yet, go through IPython's custom exception handler, which importing this
module installs in a running IPython (``install``); any other case of those two kinds is shown
as IPython always shows it. A notebook nbgrader runs (``NBGRADER_EXECUTION`` set: validate, a
plain autograde) keeps IPython's tracebacks, less the kit's frames: the kit reads them there
(the failing test line, the stub that raised). The grader runs test cells in its own process
and reads the full traceback (``grading.judge.failing_line``).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import traceback
import types
from typing import Any

#: The kit's own source files: their frames are left out of a notebook's traceback.
KIT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

#: each line starts with its mark and the word a screen reader says for it (the mark alone
#: is read as a symbol's name, or not at all)
TO_DO, FAILS = "✎ to do: ", "✘ fails: "


def without_kit_frames(trace: types.TracebackType | None) -> types.TracebackType | None:
    """Return a new traceback holding the entries of ``trace`` whose code is not the kit's
    (None when none is left). ``trace`` itself is not changed."""
    kept = []
    while trace is not None:
        if not trace.tb_frame.f_code.co_filename.startswith(KIT_DIR):
            kept.append(trace)
        trace = trace.tb_next
    shorter = None
    for entry in reversed(kept):
        shorter = types.TracebackType(shorter, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return shorter


def chain_of(error: BaseException) -> list[BaseException]:
    """Return ``error`` and the errors Python shows with it (its cause, or else its context),
    outermost first."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and not any(current is seen for seen in chain):
        chain.append(current)
        current = current.__cause__ if current.__suppress_context__ else current.__context__
    return chain


def _shell() -> Any:
    """Return the running IPython shell, or None (plain Python, the grader, pytest)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def verbose(shell: Any) -> bool:
    """Return True when the student asked for whole tracebacks (``%xmode Verbose``)."""
    return getattr(getattr(shell, "InteractiveTB", None), "mode", None) == "Verbose"


def _cell_files(shell: Any) -> set[str]:
    """Return the file names IPython gave the cells it ran (empty when it keeps none)."""
    return set(getattr(getattr(shell, "compile", None), "_filename_map", {}) or ())


def _frames(trace: types.TracebackType | None) -> list[types.FrameType]:
    frames = []
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    return frames


def _name(code: types.CodeType) -> str:
    return str(getattr(code, "co_qualname", code.co_name))


def defining(name: str = r"\w+") -> re.Pattern[str]:
    """Return the pattern of a top-level ``def``/``async def``/``class`` of ``name`` (a
    regular expression; any name by default, captured as group 1)."""
    return re.compile(rf"^(?:async[ \t]+def|def|class)[ \t]+({name})\b", re.M)


def an_error(kind: str) -> str:
    """Return ``kind`` (an error's class name) with its article: "an IndentationError",
    "a SyntaxError"."""
    return f"{'an' if kind[:1] in tuple('AEIOU') else 'a'} {kind}"


def _cell_numbers(shell: Any) -> dict[str, int]:
    """Return, per file name IPython gave a cell, the execution count it last ran as."""
    return dict(getattr(getattr(shell, "compile", None), "_filename_map", {}) or {})


def newer_version_failed(name: str, filename: str, shell: Any = None) -> str | None:
    """Return why the ``name`` that runs is an older one, when a cell run after ``filename``
    (the cell that defined the running ``name``) also defines ``name`` at its top level: that
    newer cell stopped before its ``def``/``class`` ran (a SyntaxError, most often). E.g. ``your
    new count_values did not run: its cell [12] has a SyntaxError on line 3 (expected ':'); fix
    it and run that cell again``. None when no newer cell defines it, or outside IPython."""
    shell = _shell() if shell is None else shell
    number = _cell_numbers(shell).get(filename)
    inputs = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if number is None or not inputs:
        return None
    defines = defining(re.escape(name))
    for later in range(len(inputs) - 1, number, -1):
        source = inputs[later]
        if not isinstance(source, str) or not defines.search(source):
            continue
        said = f"your new {name} did not run: its cell [{later}]"
        try:
            # as IPython compiles a cell: a top-level await is no SyntaxError there
            compile(shell.transform_cell(source), "<cell>", "exec",
                    flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError as error:
            return (f"{said} has {an_error(type(error).__name__)} on line {error.lineno} "
                    f"({error.msg}); fix it and run that cell again")
        except Exception:  # noqa: BLE001  a cell IPython itself cannot read: said as below
            pass
        return f"{said} stopped on an error before defining it; fix that error and run it again"
    return None


def defined_in(part: Any) -> str | None:
    """Return the file name of the code that defined ``part`` (a function, or a class by its
    first method), or None."""
    code = getattr(part, "__code__", None)
    if code is None and isinstance(part, type):
        code = next((getattr(member, "__code__", None) for member in vars(part).values()
                     if hasattr(member, "__code__")), None)
    return getattr(code, "co_filename", None)


def stale_part(error: BaseException, shell: Any = None) -> str | None:
    """Return ``newer_version_failed`` for the function whose own code raised ``error`` (a
    stub's NotImplementedError), or None."""
    frames = _frames(error.__traceback__)
    if not frames or frames[-1].f_code.co_name == "<module>":
        return None
    raised = frames[-1].f_code
    return newer_version_failed(_name(raised).split(".")[0], raised.co_filename, shell)


def failing_line(error: BaseException) -> str:
    """Return the one line shown for a failing check: ``✘`` and its message (which names the
    input, the expected and the actual value)."""
    return FAILS + str(error)


def to_do_line(error: BaseException, cells: set[str]) -> str | None:
    """Return the one line shown for ``error``, a NotImplementedError, when the code still to
    write is a cell's, e.g. ``✎ to do: has_pair still raises NotImplementedError``; None when
    it came from elsewhere (a library's abstract method), which is shown in full. The kit's
    own NotImplementedError (a part not defined yet, tests of the student's not written yet)
    is shown by its message. ``cells`` holds the file names of the notebook's cells."""
    message = str(error).strip()
    frames = _frames(error.__traceback__)
    if not frames:
        return None
    if frames[-1].f_code.co_filename.startswith(KIT_DIR) and message:  # the kit's own words
        return TO_DO + message
    if frames[-1].f_code.co_filename not in cells:
        return None
    raised = frames[-1].f_code
    said = f": {message}" if message else ""
    if raised.co_name == "<module>":
        return (TO_DO + "this cell still raises NotImplementedError" + said
                + ": put your code in its place")
    stale = stale_part(error)
    if stale:
        return TO_DO + stale
    return f"{TO_DO}{_name(raised)} still raises NotImplementedError{said}"


def unset_line(error: NameError, cells: set[str]) -> str | None:
    """Return the one line shown for ``error``, a NameError, when a test cell reads an answer
    the student has not set yet (its top level calls the kit's checks, e.g. ``check_shape(
    "trace_values", trace_values, …)``), e.g. ``✎ to do: trace_values is not set yet: …``;
    None for any other NameError (a typo in the student's code is shown in full)."""
    frames = _frames(error.__traceback__)
    name = getattr(error, "name", None)
    if not name or not frames or frames[-1].f_code.co_filename not in cells:
        return None
    cell = frames[-1]
    if cell.f_code.co_name != "<module>":
        return None
    calls_kit = any(
        str(getattr(cell.f_globals.get(used), "__module__", "")).startswith(__package__ + ".")
        for used in cell.f_code.co_names)
    if not calls_kit:
        return None
    return (f"{TO_DO}{name} is not set yet: run the cell above that sets it "
            "(if it shows an error, finish it first)")


def show_short(shell: Any, etype: type[BaseException], value: BaseException,
               trace: types.TracebackType | None, tb_offset: int | None = None) -> None:
    """IPython's custom exception handler: show ``value`` as its one line when it has one
    (``to_do_line``, ``unset_line``), as IPython always does otherwise or under
    ``%xmode Verbose``."""
    line = None
    if not verbose(shell):
        cells = _cell_files(shell)
        if isinstance(value, NotImplementedError):
            line = to_do_line(value, cells)
        elif isinstance(value, NameError):
            line = unset_line(value, cells)
    if line is None:
        shell.showtraceback((etype, value, trace), tb_offset=tb_offset)
        return
    # as IPython's own showtraceback does: %debug and %tb then find this error
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, trace
    shell._showtraceback(etype, value, [line])


def install(shell: Any = None) -> bool:
    """Install ``show_short`` as ``shell``'s handler of NotImplementedError and NameError
    (the running IPython when None). Returns False, changing nothing, outside IPython, in a
    notebook nbgrader runs (``NBGRADER_EXECUTION`` set) or when the shell already has a
    handler of its own."""
    if os.environ.get("NBGRADER_EXECUTION"):  # nbgrader runs it: its readers parse IPython's
        return False  # own tracebacks (``validate.unwritten``, the feedback's line numbers)
    shell = _shell() if shell is None else shell
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    installed = getattr(shell, "custom_exceptions", ())
    if installed == (NotImplementedError, NameError):
        return True
    if installed:
        return False
    shell.set_custom_exc((NotImplementedError, NameError), show_short)
    return True


class BriefTraceback:
    """Mixin for an exception a student reads in a notebook: IPython shows it as one line,
    ``✘`` and its message (``failing_line``); under ``%xmode Verbose`` in full; in a notebook
    nbgrader runs, as IPython would less the kit's frames (the feedback reads the test cell's
    line from it)."""

    def _render_traceback_(self) -> list[str]:
        assert isinstance(self, BaseException)
        shell = _shell()
        if shell is not None and verbose(shell):
            try:
                return list(shell.InteractiveTB.structured_traceback(
                    type(self), self, self.__traceback__))
            except Exception:  # noqa: BLE001  never lose the error itself
                return traceback.format_exception(self)
        if shell is not None and os.environ.get("NBGRADER_EXECUTION"):
            return without_kit_traceback(self, shell)
        return [failing_line(self)]


def without_kit_traceback(error: BaseException, shell: Any) -> list[str]:
    """Return IPython's traceback of ``error`` (and the errors chained to it) without the
    kit's frames; Python's whole one if IPython cannot make it."""
    chain = chain_of(error)
    saved = [each.__traceback__ for each in chain]
    try:
        for each in chain:
            each.__traceback__ = without_kit_frames(each.__traceback__)
        return list(shell.InteractiveTB.structured_traceback(type(error), error,
                                                             error.__traceback__))
    except Exception:  # noqa: BLE001  never lose the error itself: show it in full
        for each, trace in zip(chain, saved):
            each.__traceback__ = trace
        return traceback.format_exception(error)
    finally:
        for each, trace in zip(chain, saved):
            each.__traceback__ = trace


install()

__all__ = ["BriefTraceback", "FAILS", "KIT_DIR", "TO_DO", "chain_of", "defined_in",
           "failing_line", "install", "newer_version_failed", "show_short", "stale_part",
           "to_do_line", "unset_line", "verbose", "without_kit_frames", "without_kit_traceback"]
