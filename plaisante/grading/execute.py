"""nbgrader's ``Execute`` preprocessor, with the judge for test cells and bounds for hostile
notebooks.

``JudgedExecute`` runs in place of ``nbgrader.preprocessors.Execute`` inside nbgrader's own
``Autograde`` converter. The student's cells (setup, answers, anything they added) run in the
sandboxed kernel, one at a time and in order, as nbgrader would run them, with their outputs
(``_run``: through the judge's conversation with the kernel, not an ``execute_request`` each,
which cost half a grading's CPU in Jupyter's messages). Test cells do not run there: each one
is judged in this process by ``plaisante.grading.judge`` from the instructor's source
(``test_sources``, read from the gradebook), asking the kernel only for what the student's
parts answer. The cell gets the judge's outputs (what the test printed, and an error for a
failure), so nbgrader's own ``SaveAutoGrades`` scores it and formgrader shows the judge's
messages. On top of that it:

* bounds the whole notebook's wall time (``submission_seconds``): a cell not reached in time
  gets an error output, so nbgrader scores its tests 0;
* survives a kernel that dies (``os._exit``, a CPU or memory limit, a killed parent) or that
  ignores the interrupt after a timeout: the cell gets an error output, the kernel is
  restarted (in a fresh sandbox), the notebook's earlier non-test cells are replayed silently,
  and grading goes on with the next cell, so later steps still earn their points;
* keeps at most ``output_bytes`` of output per notebook (nbgrader's own limit counts lines),
  then a few KB per cell;
* writes what happened (timeouts, dead kernels, cut output, ``input()``, limits hit, a kernel
  that broke the judge's protocol) as JSON lines to ``incident_file``, which ``grade_one``
  turns into the reasons of a flagged result.
"""

from __future__ import annotations

import json
import time
from typing import Any

from jupyter_core.utils import run_sync
from nbclient.exceptions import CellExecutionComplete
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.preprocessors import Execute
from traitlets import Dict, Float, Integer, List, Unicode

from ..kernel.zygote import EXITED_HIGH, SIGXCPU_UNDER_LIMIT
from ..student_side.checking import visible_answers_only
from .conversation import KernelConversation, cell_count
from .judge import KernelLost, Verdict, judge_cell, setup_namespace, split_hidden

NOT_RUN = "NotGraded"
OWN_TESTS_LOST = ("the grader lost the kernel while your tests ran (it broke the grader's "
                  "protocol, ran out of time or died); your instructor is told why")
AFTER_CUT = 4096  # bytes each cell may still print once the notebook's allowance is spent
#: Cells that raised only when run again, named in the reasons: a student can make every cell
#: do so, and the instructor's table would list them all.
REPLAY_NOTES = 3

def is_test(cell: NotebookNode) -> bool:
    """Return True for an autograded test cell: a graded code cell that is not an answer."""
    return cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell)


def is_setup(cell: NotebookNode) -> bool:
    """Return True for a locked code cell that is neither graded nor a solution (setup)."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return (cell.cell_type == "code" and bool(meta.get("locked"))
            and not meta.get("grade") and not meta.get("solution"))


def _size(content: Any) -> int:
    """Return an estimate in bytes of an output message's content."""
    if isinstance(content.get("text"), str) and len(content) <= 2:  # a stream: cheap
        return len(content["text"]) + 20
    try:
        return len(json.dumps(content, default=str))
    except (TypeError, ValueError):
        return 0


def cell_name(cell: NotebookNode, index: int) -> str:
    """Return the cell's nbgrader grade_id, or for a plain cell 'cell <n>': its place in the
    notebook counted from 1, as a student counts them (``index`` counts from 0)."""
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return str(grade_id) if grade_id else f"cell {index + 1}"


def error_output(ename: str, evalue: str) -> NotebookNode:
    """Return an nbformat error output; nbgrader scores a test cell holding one 0."""
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"{ename}: {evalue}"])


class JudgedExecute(Execute):  # type: ignore[misc]  # nbgrader ships no types
    """nbgrader's Execute with test cells judged outside the kernel, a notebook deadline,
    kernel restarts, an output byte limit and an incident log (see the module doc)."""

    submission_seconds = Float(300.0, help="wall time of the whole notebook").tag(config=True)
    hidden_share = Float(0.25, help="share of submission_seconds kept for the hidden checks, "
                         "which run after every cell").tag(config=True)
    output_bytes = Integer(1 << 20, help="bytes of output kept per notebook").tag(config=True)
    max_restarts = Integer(3, help="kernel restarts before the rest is left unrun").tag(config=True)
    incident_file = Unicode("", help="JSON-lines file receiving incidents").tag(config=True)
    test_sources = Dict(help="{grade_id: source} of every test cell, hidden tests included "
                        "(from the gradebook)").tag(config=True)
    setup_sources = List(Unicode(), help="the release's locked setup cells, in order").tag(
        config=True)
    student_names = List(Unicode(), help="names the student's solution cells define").tag(
        config=True)
    test_order = List(Unicode(), help="the release's test cells' grade ids, in its order: the "
                      "order of the hidden checks").tag(config=True)

    # ------------------------------------------------------------------ bookkeeping

    def incident(self, kind: str, text: str, cell: str | None = None) -> None:
        """Record one incident (kind, text, cell) in ``incident_file``: a reason to flag."""
        self.record(kind, cell, text=text)

    def record(self, kind: str, cell: str | None, **fields: str | None) -> None:
        """Write one JSON line (kind, cell, fields) to ``incident_file``."""
        if self.incident_file:
            with open(self.incident_file, "a", encoding="utf-8") as log:
                log.write(json.dumps({"kind": kind, "cell": cell, **fields}) + "\n")

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        self._deadline = time.monotonic() + self.submission_seconds
        # the notebook's cells stop this much before its time, kept for their hidden checks
        self._kept = self.submission_seconds * self.hidden_share
        self._cells_ran_over = False  # the cells were cut at their share of the time
        self._stopped: str | None = None
        self._restarts = 0
        # the notebook's own cells that ran, in order: (source, name, whether it raised)
        self._replay: list[tuple[str, str, bool]] = []
        self._replay_noted: set[str] = set()
        self._output_used = 0
        self._output_cut = False
        self._cell_used: dict[int, int] = {}
        self._setup: dict[str, Any] | None = None
        self._conversation: KernelConversation | None = None
        self._locked = False
        self._malformed = False
        # hidden checks still to run: (cell, name, hidden source, the cells that ran before it)
        self._pending: list[tuple[NotebookNode, str, str, int]] = []
        self._renewed: KernelConversation | None = None  # a run's own kernel, while judged
        self._runs_deadline = 0.0  # when the runs of a student's tests must end (monotonic)
        try:
            return super().preprocess(nb, resources, km)
        finally:
            if self._conversation is not None:
                self._conversation.close()
                self._conversation = None

    def latest_end(self) -> float:
        """The latest a cell may run to (``time.monotonic()``): the notebook's time, less what
        is kept for the hidden checks while the notebook's own cells run."""
        return self._deadline - self._kept

    def _get_timeout(self, cell: NotebookNode | None) -> int | None:
        timeout = super()._get_timeout(cell)
        remaining = max(1, int(self._deadline - self._kept - time.monotonic()))
        return remaining if timeout is None else min(timeout, remaining)

    # ------------------------------------------------------------------ executing a cell

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        try:
            return self._preprocess_one(cell, resources, index)
        finally:
            if index == len(self.nb.cells) - 1:
                self._hidden_phase()

    def _preprocess_one(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, resources
        name = cell_name(cell, index)
        if not self._stopped and time.monotonic() > self._deadline - self._kept - 1:
            self._cells_ran_over = True
            self._stopped = (f"time limit: the notebook ran over {self.submission_seconds:g} s "
                             f"({self.submission_seconds - self._kept:g} s for its cells, the "
                             "rest for their hidden tests); "
                             f"cells from {name} on were not run")
            self.incident("submission-timeout", self._stopped, name)
        if self._stopped:
            cell.outputs = [error_output(NOT_RUN, self._stopped)]
            return cell, resources
        if not self._locked:
            self._lock_sockets()
        self._cell_timeout = self._get_timeout(cell)
        if is_test(cell):
            cell.outputs = self._judge(cell, name)
            cell.execution_count = None
            return cell, resources
        self._run(cell, name, index)
        return cell, resources

    def _run(self, cell: NotebookNode, name: str, index: int) -> None:
        """Run a cell of the notebook's own (setup, answer, any other) in the kernel through
        the judge's conversation (``KernelConversation.run``): the outputs the kernel
        publishes go through nbclient's ``process_message`` (and this class's output limit)
        as they would for an ``execute_request``, without its per-cell messages. A timeout,
        a dead kernel or a broken protocol is handled as in a test cell (``_lost``)."""
        cell.outputs = []
        cell.execution_count = None
        self.clear_before_next_output = False  # nbclient's state for one cell's outputs
        deadline = time.monotonic() + (self._cell_timeout or self.submission_seconds)
        conversation = self._conversation
        if conversation is None:
            conversation = self._conversation = KernelConversation(self, deadline)
        else:
            conversation.renew(deadline)

        def take(msg: dict[str, Any]) -> None:
            if msg["msg_type"] in ("status", "execute_input"):  # not outputs of the cell
                return
            kept = len(cell.outputs)
            try:
                self.process_message(msg, cell, index)
            except CellExecutionComplete:
                pass
            except Exception:  # noqa: BLE001  a malformed output (the kernel forged it): dropped
                del cell.outputs[kept:]
                if not self._malformed:
                    self._malformed = True
                    self.incident("protocol", f"{name}: the kernel published a malformed "
                                  f"{str(msg.get('msg_type'))[:40]!r} output (dropped)", name)

        try:
            cell.execution_count = conversation.run(cell.source, take, lambda: self._full(index))
        except KernelLost as lost:
            timed_out = conversation.timed_out
            self._conversation = None
            self._lost(name, str(lost), conversation)  # an interrupt's traceback lands in cell
            conversation.collect = None
            conversation.close()
            if timed_out:
                cell.execution_count = cell_count(conversation.late_answer)
                cell.outputs.append(error_output("CellTimeoutError",
                                                 f"ran over {self._cell_timeout} s"))
            elif conversation.died:
                cell.outputs.append(error_output("DeadKernelError", "the kernel died"))
            else:
                cell.outputs.append(error_output("KernelLost", str(lost)))
            return
        self._note_errors(cell, name)
        self._replay.append((cell.source, name, any(output.output_type == "error"
                                                     for output in cell.outputs)))

    def _full(self, index: int) -> bool:
        """Return True when cell ``index`` may show no more output (the notebook's allowance
        and the cell's few KB after the cut are spent)."""
        return (self._output_used >= self.output_bytes
                and self._cell_used.get(index, 0) >= AFTER_CUT)

    def _note_errors(self, cell: NotebookNode, name: str) -> None:
        for output in cell.outputs:
            if output.output_type != "error":
                continue
            ename = output.get("ename", "")
            if ename == "StdinNotImplementedError":
                self.incident("input", f"input() called in {name}: there is no keyboard "
                              "when grading (nor in validate)", name)
            # read from the error the cell showed, which its own code may raise as well:
            # the reason names the limit it points to, never as certain
            elif ename == "MemoryError":
                self.incident("memory", f"MemoryError in {name}: the memory limit, or raised "
                              "by its own code", name)
            elif ename == "BlockingIOError" and "temporarily" in str(output.get("evalue")):
                self.incident("processes", f"BlockingIOError in {name}: the process limit, or "
                              "raised by its own code", name)
            elif ename == "OSError" and "[Errno 28]" in str(output.get("evalue")):
                self.incident("files", f"no space left in {name}: the file space limit (its "
                              "/tmp, working folder and /dev/shm are small memory folders), or "
                              "raised by its own code", name)

    # ------------------------------------------------------------------ judging a test cell

    def _judge(self, cell: NotebookNode, name: str) -> list[NotebookNode]:
        """Judge the test cell ``name`` here (see ``plaisante.grading.judge``); return the
        outputs the cell gets: what the test printed, and an error output for a failure.

        Only the cell's visible checks run now; its hidden checks wait until every cell of the
        notebook has run (``split_hidden``, ``_hidden_phase``). Every cell of the notebook
        shares one conversation with the kernel (each test cell starts by resetting its
        references)."""
        source = self.test_sources.get(name)
        if source is None:
            return [error_output("NotGraded", f"{name} is not a test cell of this assignment")]
        visible, hidden = split_hidden(source)
        with visible_answers_only():  # a stand-in answers only what the notebook's would
            verdict = self._verdict(name, visible)
        if hidden is not None and verdict.passed and verdict.lost is None:
            self._pending.append((cell, name, hidden, len(self._replay)))
        outputs = []
        if verdict.printed:
            outputs.append(NotebookNode(output_type="stream", name="stdout",
                                        text=verdict.printed))
        if verdict.score is not None and not verdict.error:  # partial credit, as nbgrader reads it
            outputs.append(NotebookNode(output_type="execute_result", execution_count=None,
                                        metadata={}, data={"text/plain": repr(verdict.score)}))
        if verdict.error:
            outputs.append(error_output(*verdict.error))
            if verdict.lost is None:  # for feedback: a visible test's message may be shown
                self.record("verdict", name, failed_in="hidden" if verdict.in_hidden
                            else "visible", rule=verdict.rule if verdict.in_hidden else None)
        return outputs

    def _verdict(self, name: str, source: str, before: int | None = None) -> Verdict:
        """Judge ``source`` (test cell ``name``'s, or a part of it) against the kernel; a lost
        kernel is said and restarted (``_lost``). With ``before`` (the number of the notebook's
        own cells that ran before the cell), every run of the student's tests gets a kernel of
        its own, in which those cells ran again (``_fresh_kernel``)."""
        if self._setup is None:
            self._setup = setup_namespace(list(self.setup_sources))
        deadline = time.monotonic() + (self._cell_timeout or self.submission_seconds)
        conversation, fresh = self._conversation, self._conversation is None
        if conversation is None:
            conversation = KernelConversation(self, deadline)
        else:
            conversation.renew(deadline)
        renewal = None
        if before is not None:
            self._runs_deadline = deadline
            first = conversation

            def renewal() -> Any:
                return self._fresh_kernel(name, before, first).transport
        verdict = judge_cell(source, self._setup, set(self.student_names),
                             conversation.transport, fresh=fresh, renewal=renewal)
        if self._renewed is not None:
            conversation, self._renewed = self._renewed, None
        self._count_dropped(conversation.take_dropped(), name)
        self._conversation = conversation
        if verdict.lost is not None:
            self._conversation = None
            self._lost(name, verdict.lost, conversation)
            conversation.close()
        return verdict

    def _hidden_phase(self) -> None:
        """Run the hidden checks of every test cell whose visible checks passed, now that every
        cell has run and its outputs are final: nothing the student's code hears from a hidden
        check (its inputs) can reach an output the student reads. A hidden check's failure
        adds an error output to its cell (the message is for the instructor; feedback shows
        only that a hidden test failed and its rule); what the check printed is dropped."""
        pending, self._pending = self._pending, []
        self._kept = 0.0  # the time kept for the hidden checks is theirs now
        if self._cells_ran_over and self._stopped:  # the kernel lives on: its cells were cut
            self._stopped = None
        # in the release's order (a submission may move its test cells), so a hidden check of
        # a part runs before any later step's hidden checks stand in with that part's
        # known-good answers (which the kernel could keep); a student's own tests last: each
        # of their runs gets a kernel of its own, and the notebook's kernel is gone after the
        # first
        place = {name: index for index, name in enumerate(self.test_order)}
        pending.sort(key=lambda entry: ("grade_my_tests(" in entry[2],
                                        place.get(entry[1], len(place))))
        for cell, name, hidden, before in pending:
            if not self._stopped and time.monotonic() > self._deadline - 1:
                self._stopped = (f"time limit: the notebook ran over "
                                 f"{self.submission_seconds:g} s; hidden tests from {name} on "
                                 "were not run")
                self.incident("submission-timeout", self._stopped, name)
            if self._stopped:
                cell.outputs.append(error_output(NOT_RUN, self._stopped))
                self.record("verdict", name, failed_in="hidden", rule=None)
                continue
            if not self._locked:
                self._lock_sockets()
            self._cell_timeout = self._get_timeout(cell)
            own_tests = "grade_my_tests(" in hidden
            verdict = self._verdict(name, hidden, before if own_tests else None)
            if verdict.error and own_tests and verdict.lost is not None:
                # feedback shows an own-tests cell's message: not the kernel's words, which
                # may quote what a run was answered (the instructor has them as a reason)
                cell.outputs.append(error_output(verdict.error[0], OWN_TESTS_LOST))
            elif verdict.error:
                cell.outputs.append(error_output(*verdict.error))
                if verdict.lost is None:
                    self.record("verdict", name, failed_in="hidden", rule=verdict.rule)
            elif own_tests:  # the grader's own words (how many caught) and partial credit
                if verdict.printed:
                    cell.outputs.append(NotebookNode(output_type="stream", name="stdout",
                                                     text=verdict.printed))
                if verdict.score is not None:
                    cell.outputs.append(NotebookNode(
                        output_type="execute_result", execution_count=None, metadata={},
                        data={"text/plain": repr(verdict.score)}))

    def _fresh_kernel(self, name: str, before: int,
                      first: KernelConversation) -> KernelConversation:
        """Start a kernel for one run of test cell ``name``'s student tests: restart the
        kernel (a new one, in a new sandbox), run the notebook's first ``before`` own cells
        again in it (outputs dropped) and return the conversation the run goes through. A run
        of the tests thus learns nothing of another's answers (a test that remembered them
        could tell a correct version from a buggy one without testing anything).

        The kernel's start and the cells run again are not the runs' time: each cell has its
        own time limit again, as when it first ran, and the runs' deadline
        (``_runs_deadline``, the test cell's) moves on by what they took, within the
        notebook's. A cell that took a few seconds would otherwise spend the test cell's time
        once a run, and honest tests would lose their points to it. Raises KernelLost when
        the kernel does not start or a cell does not run again."""
        started = time.monotonic()
        previous = self._renewed or first
        previous.collect = None
        previous.close()
        try:
            run_sync(self.km.restart_kernel)(now=True)
            run_sync(self.kc.wait_for_ready)(timeout=60)
        except Exception as error:  # noqa: BLE001
            raise KernelLost(f"a fresh kernel for a run of {name}'s tests did not start: "
                             f"{error}{self._start_failure()}") from None
        self._locked = False
        self._lock_sockets()
        each = float(self.timeout) if self.timeout else self.submission_seconds
        conversation = KernelConversation(self, min(self._deadline, time.monotonic() + each))
        self._renewed = conversation
        for source, ran, raised in self._replay[:before]:
            conversation.renew(min(self._deadline, time.monotonic() + each))
            try:
                conversation.run(source, lambda _msg: None, lambda: True, quiet=self._output_cut)
            except KernelLost as lost:
                raise KernelLost(f"a cell before {name}, run again for a run of its tests: "
                                 f"{lost}") from None
            self._note_replay(conversation, ran, raised, f"for a run of {name}'s tests")
        self._runs_deadline = min(self._deadline,
                                  self._runs_deadline + time.monotonic() - started)
        conversation.renew(self._runs_deadline)
        return conversation

    def _count_dropped(self, size: int, name: str) -> None:
        """Count what the student's parts printed while judged (dropped, never shown) in the
        notebook's output allowance; past it, flag the submission once, as for a cell."""
        self._output_used += size
        if self._output_used > self.output_bytes and not self._output_cut:
            self._output_cut = True
            self.incident("output", f"output limit: over {self.output_bytes} bytes of output "
                          f"(cut from {name} on)", name)

    def _lost(self, name: str, why: str, conversation: KernelConversation) -> None:
        """After the kernel was lost in a test cell: say why, and get a working kernel back
        (an interrupt for a timeout, else, or when it is ignored, a restart)."""
        if conversation.timed_out:
            if conversation.interrupt():
                self.incident("timeout", f"timeout: {name} ran over {self._cell_timeout} s "
                              "(interrupted)", name)
                return
            self.incident("timeout", f"timeout: {name} ran over {self._cell_timeout} s and "
                          "ignored the interrupt (kernel restarted)", name)
        elif conversation.died:
            self.incident("kernel-died", f"kernel died in {name} ({self._death_cause()}"
                          f"{self._then()})", name)
        else:
            self.incident("protocol", f"{name}: {why} (kernel restarted)", name)
        self._restart(name)

    # ------------------------------------------------------------------ kernel plumbing

    def _then(self) -> str:
        """What follows a kernel's death: a restart, unless it overflowed its folder."""
        return "" if getattr(self.km, "sandbox_overflow", "") else "; kernel restarted"

    def _lock_sockets(self) -> None:
        lock = getattr(self.km, "lock_socket_folder", None)
        if lock is not None:
            lock()
        self._locked = True

    def _start_failure(self) -> str:
        """" (the kernel: why it did not start)" when a kernel that failed to start said why."""
        why = getattr(self.km, "start_failure", lambda: "")()
        return f" (the kernel: {why})" if why else ""

    def _death_cause(self) -> str:
        overflow = getattr(self.km, "sandbox_overflow", "")
        if overflow:
            return overflow
        memory = getattr(self.km, "memory_overrun", None)
        overrun = memory() if memory is not None else ""
        if overrun:
            return overrun
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        code = process.poll() if process is not None else None
        if code is None:
            return "no answer from the kernel"
        signals = {128 + 9: "killed (SIGKILL)", 128 + 24: "CPU time limit (SIGXCPU)",
                   # Python ignores SIGXFSZ (a file over the limit raises OSError), and
                   # any kernel can send itself either signal: the reason says both
                   128 + 25: "SIGXFSZ: its code stopped ignoring that signal, then went over "
                             "the file size limit or sent it itself",
                   128 + 11: "segmentation fault",
                   128 + 31: "a refused system call (SIGSYS: memory files, SysV IPC or a new "
                             "user namespace), or a SIGSYS it sent itself",
                   -9: "killed (SIGKILL)", -24: "CPU time limit (SIGXCPU)",
                   EXITED_HIGH: "it exited by itself with status 128 or over",
                   SIGXCPU_UNDER_LIMIT: "SIGXCPU before the kit's CPU time limit: not the "
                                        "limit, a signal or a lower limit of its own"}
        return signals.get(code, f"exit status {code}")

    def _restart(self, name: str) -> None:
        if self._restarts >= self.max_restarts:
            self._stopped = (f"the kernel failed {self._restarts + 1} times; cells after "
                             f"{name} were not run")
            self.incident("gave-up", self._stopped, name)
            return
        self._restarts += 1
        self._locked = False
        if getattr(self.km, "sandbox_overflow", ""):
            self._stopped = (f"the kernel {self.km.sandbox_overflow}; cells after {name} were "
                             "not run")
            self.incident("gave-up", self._stopped, name)
            return
        try:
            run_sync(self.km.restart_kernel)(now=True)
            run_sync(self.kc.wait_for_ready)(timeout=60)
        except Exception as error:  # noqa: BLE001
            self._stopped = (f"the kernel could not be restarted after {name}: {error}"
                             f"{self._start_failure()}")
            self.incident("gave-up", self._stopped, name)
            return
        self._lock_sockets()  # before the cells run again, as before their first run
        self._replay_cells(name)

    def _replay_cells(self, name: str) -> None:
        """Run the cells that ran before ``name`` again, in the restarted kernel, through a
        conversation of their own, their outputs dropped unread; one that runs over its time
        is interrupted and the next goes on. The next cell goes on with the conversation."""
        conversation: KernelConversation | None = None
        for source, ran, raised in self._replay:
            left = self._deadline - time.monotonic()
            if left <= 0:
                if conversation is not None:
                    conversation.close()
                self._stopped = (f"time limit: the notebook ran over {self.submission_seconds:g}"
                                 f" s while its cells before {name} were run again after a "
                                 "restart; the cells after it were not run")
                self.incident("gave-up", self._stopped, name)
                return
            if conversation is None:  # the restarted kernel's start is not the cell's time
                conversation = KernelConversation(self, time.monotonic() + min(60.0, left))
                left = self._deadline - time.monotonic()
            deadline = time.monotonic() + min(30.0, float(self.timeout or 30.0), max(left, 0.0))
            conversation.renew(deadline)
            try:
                conversation.run(source, lambda _msg: None, lambda: True, quiet=self._output_cut)
            except KernelLost as lost:
                timed_out = conversation.timed_out
                given_way = timed_out and conversation.interrupt()
                conversation.close()
                conversation = None
                if given_way:
                    self.incident("timeout", f"timeout: a cell before {name} ran over its time "
                                  "when run again after a restart (interrupted)", name)
                    continue
                if not run_sync(self.km.is_alive)():
                    self._stopped = (f"the kernel died again while replaying the cells before "
                                     f"{name}")
                elif timed_out:
                    self._stopped = (f"a cell before {name} ran over its time when run again "
                                     "after a restart and ignored the interrupt; the cells "
                                     f"after {name} were not run")
                else:  # the conversation broke, the kernel lives: the next cell tries anew
                    self.incident("protocol", f"{name}: a cell run again after a restart: "
                                  f"{lost}", name)
                    continue
                self.incident("gave-up", self._stopped, name)
                return
            self._note_replay(conversation, ran, raised, f"after the restart in {name}")
        self._conversation = conversation

    def _note_replay(self, conversation: KernelConversation, ran: str, raised: bool,
                     when: str) -> None:
        """Record, once a cell and for at most ``REPLAY_NOTES`` cells, a cell run again
        (``ran``) that raised where its first run did not (``raised``): what the later checks
        see then is not what the notebook's cells saw, and the instructor is told which cell
        and what it raised (the kernel's word)."""
        if conversation.raised and not raised and ran not in self._replay_noted \
                and len(self._replay_noted) < REPLAY_NOTES:
            self._replay_noted.add(ran)
            self.incident("replay", f"{ran}, run again {when}, raised {conversation.raised} "
                          "(not when it first ran): later checks may have missed what it "
                          "defines", ran)

    # ------------------------------------------------------------------ output limit

    def output(self, outs: list[NotebookNode], msg: dict[str, Any], display_id: str | None,
               cell_index: int) -> NotebookNode | None:
        content = msg.get("content", {})
        msg_type = msg.get("msg_type")
        if msg_type == "error":  # always kept (nbgrader scores a test by it), trimmed
            content["traceback"] = [line[:2000] for line in content.get("traceback", [])[-40:]]
            content["evalue"] = str(content.get("evalue", ""))[:2000]
            kept: NotebookNode | None = super().output(outs, msg, display_id, cell_index)
            return kept
        size = _size(content)
        used = self._cell_used.get(cell_index, 0)
        room = max(self.output_bytes - self._output_used, AFTER_CUT - used)
        if size <= room:
            self._output_used += size
            self._cell_used[cell_index] = used + size
            kept = super().output(outs, msg, display_id, cell_index)
            return kept
        stream = content.get("name") if msg_type == "stream" else "stdout"
        result: NotebookNode | None
        if msg_type == "stream" and room > 200:
            content["text"] = str(content.get("text", ""))[: room - 200]
            result = super().output(outs, msg, display_id, cell_index)
        elif msg_type == "execute_result":  # kept, shortened: nbgrader reads a number here
            content["data"] = {mime: str(value)[:200] for mime, value in
                               content.get("data", {}).items() if mime == "text/plain"}
            result = super().output(outs, msg, display_id, cell_index)
        else:
            result = None
        self._cut(outs, cell_index, stream)
        return result

    def _update_display_id(self, display_id: str, msg: dict[str, Any]) -> None:
        if _size(msg.get("content", {})) > self.output_bytes - self._output_used:
            self._cut([], -1)
            return
        super()._update_display_id(display_id, msg)

    def _cut(self, outs: list[NotebookNode], cell_index: int, stream: str = "stdout") -> None:
        """Note the cut in the cell, on the stream that was cut (nbgrader scores a test cell
        with any stderr output 0, so a cut stderr must stay stderr), and record it once."""
        self._output_used = self.output_bytes
        self._cell_used[cell_index] = AFTER_CUT
        if cell_index >= 0:
            note = f"[plaisante: output cut here, over the {self.output_bytes} bytes allowed]\n"
            if not any(o.get("text") == note and o.get("name") == stream for o in outs):
                outs.append(NotebookNode(output_type="stream", name=stream, text=note))
        if not self._output_cut:
            self._output_cut = True
            cell = self.nb.cells[cell_index] if 0 <= cell_index < len(self.nb.cells) else None
            name = cell_name(cell, cell_index) if cell is not None else "a display update"
            self.incident("output", f"output limit: over {self.output_bytes} bytes of output "
                          f"(cut from {name} on)", name)
