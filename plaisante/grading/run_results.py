"""The coordinator's side of a grading run: every result by student, the progress bar, and the
one thread that records results in the course gradebook as they arrive."""

from __future__ import annotations

import queue
import sys
import threading
from pathlib import Path
from typing import Any

from .result import SubmissionResult

#: Results recorded per call of ``record`` (at most; fewer when grading is faster than that).
RECORD_BATCH = 25


class RunResults:
    """What the coordinator keeps of a run: every result by student, the progress bar, and
    the recording thread that writes results to the gradebook in batches as they arrive.

    ``close()`` waits for every result handed over to be recorded, then re-raises the first
    error ``record`` raised, if any.
    """

    def __init__(self, root: Path, assignment: str, total: int, progress: bool) -> None:
        self.root, self.assignment = root, assignment
        self.total, self.progress = total, progress
        self.results: dict[str, SubmissionResult] = {}
        self.flagged = 0
        self.bar: Any = None
        self._queue: queue.Queue[SubmissionResult | None] = queue.Queue()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Show the bar and start the recording thread (after any worker is forked: both
        start threads in this process)."""
        from tqdm import tqdm

        self.bar = tqdm(total=self.total, desc="grading", unit="sub", disable=not self.progress,
                        file=sys.stderr, dynamic_ncols=True, smoothing=0.1,
                        postfix={"flagged": 0})
        self._thread = threading.Thread(target=self._record_loop, name="plaisante-record",
                                        daemon=True)
        self._thread.start()

    def add(self, result: SubmissionResult) -> None:
        """Keep ``result``, count it on the bar and queue it for the gradebook."""
        self.results[result.student] = result
        self.flagged += result.status != "graded"
        self.bar.set_postfix(flagged=self.flagged, refresh=False)
        self.bar.update(1)
        self._queue.put(result)

    def _record_loop(self) -> None:
        from .. import grading

        stop = False
        while not stop:
            batch = [self._queue.get()]
            while len(batch) < RECORD_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = batch[-1] is None
            results = [r for r in batch if r is not None]
            if results and self._error is None:
                try:
                    grading.record(self.root, results, self.assignment)
                except BaseException as error:  # noqa: BLE001  re-raised by close()
                    self._error = error

    def close(self) -> None:
        """Record what is still queued, close the bar; raise what ``record`` raised."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self.bar is not None:
            self.bar.close()
        if self._error is not None:
            raise self._error
