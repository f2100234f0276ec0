"""Short tracebacks in the notebook: a failing check shows the student's own lines and its
message, not the kit's frames.

IPython asks an exception for ``_render_traceback_`` before it formats one; the kit's errors
that students read (``checking.CheckFailed``) answer with the traceback IPython would show,
less every frame whose code is the kit's. Nothing else calls ``_render_traceback_``: the
grader runs test cells in its own process and reads the full traceback
(``grading.judge.failing_line``), and the exception keeps it after it is shown.
"""

from __future__ import annotations

import os
import traceback
import types

#: The kit's own source files: their frames are left out of a notebook's traceback.
KIT_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


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


class BriefTraceback:
    """Mixin for an exception a student reads in a notebook: in IPython its traceback shows
    the notebook's lines (the test cell's call, the student's code that raised) and the
    message, without the kit's frames."""

    def _render_traceback_(self) -> list[str]:
        assert isinstance(self, BaseException)
        chain = chain_of(self)
        saved = [error.__traceback__ for error in chain]
        try:
            for error in chain:
                error.__traceback__ = without_kit_frames(error.__traceback__)
            from IPython import get_ipython

            shell = get_ipython()
            if shell is None:
                return traceback.format_exception(self)
            return list(shell.InteractiveTB.structured_traceback(type(self), self,
                                                                 self.__traceback__))
        except Exception:  # noqa: BLE001  never lose the error itself: show it in full
            for error, trace in zip(chain, saved):
                error.__traceback__ = trace
            return traceback.format_exception(self)
        finally:
            for error, trace in zip(chain, saved):
                error.__traceback__ = trace


__all__ = ["BriefTraceback", "KIT_DIR", "chain_of", "without_kit_frames"]
