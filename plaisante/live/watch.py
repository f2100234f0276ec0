"""The class, live: ``plaisante watch ID`` watches nbgrader's exchange of a course on a shared
server (a JupyterHub), grades each new submission in the sandbox as it arrives, releases its
feedback to the exchange within seconds (students fetch it with nbgrader's own
fetch_feedback, from JupyterLab's Assignments panel) and keeps the lab board up to date.

The exchange is nbgrader's (``nbgrader.exchange.default``): ``{root}/{course}/inbound/`` holds
one folder per submission, named ``student+assignment+timestamp+random``, made by the student's
own account (inbound is mode 0733: anyone may add, only the instructor may list). What this
module trusts of it, thinking of a student who wants another's grade or a better one:

* the student is the folder's **owner** (its Unix account), and must be the name the folder
  gives; a folder claiming another student's name is refused, said on stdout, never graded;
* a submission's time is when the folder appeared (its ``ctime``, which no user can set),
  not the name's or ``timestamp.txt``'s (the student wrote those); of a student's folders the
  newest by that time is the one graded, and "collecting keeps the latest";
* only its regular top-level files are copied (no link is followed, no subfolder read), into
  ``assignments/submitted/<student>/<ID>/`` as ``plaisante submit`` would place them. The
  folder is opened once (``O_NOFOLLOW``, relative to inbound) and everything after is read
  through that descriptor: a folder swapped for a link between the look and the copy is not
  followed, one swapped for another folder is refused; each file is read up to its size when
  opened (a file grown meanwhile is cut there), and a submission whose files add up to more
  than ``MOST_SUBMISSION_BYTES`` is refused whole;
* the time it is collected with is the newest of the folder's ``ctime`` and its copied files'
  ``ctime`` and ``mtime``: a notebook rewritten in place after the deadline is late. A folder
  already collected is collected again only when that time is newer;
* names (anything but ``/``) are said with their control characters escaped: a name cannot
  forge a log line or drive the instructor's terminal.

Grading is the kit's own path (``plaisante.grading.pool``: sandboxed workers kept warm, the
gradebook written by one recording thread); feedback is nbgrader's ``generate_feedback`` with
the course's preprocessors (hidden tests' code left out: ``plaisante.grading.feedback``), and
nbgrader's ``release_feedback``. Submissions that arrive while a batch is graded wait for the
next batch; a student who submits again meanwhile is graded once, on the newest.
"""

from __future__ import annotations

import errno
import json
import os
import pwd
import secrets
import shutil
import socket
import stat
import sys
import threading
import time
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..course import STUDENT_ID, CourseLayout, check_ids, course_config
from ..grading.result import SubmissionResult

#: Seconds between two looks at the exchange's inbound folder.
POLL_SECONDS = 0.2
#: Connections the lab board's web server serves at once (a browser or a projector needs
#: one or two each); more are closed as soon as they are accepted.
BOARD_CONNECTIONS = 16
#: Seconds the board's server waits for a connection's request line or headers before
#: closing it, and the most one connection is served in all (one that sends a byte now and
#: then is closed too).
BOARD_READ_SECONDS = 5.0
BOARD_REQUEST_SECONDS = 15.0
#: Seconds the loop waits after a transient error (no descriptor left, a full disk, a folder
#: gone) before it looks again.
RETRY_SECONDS = 2.0
#: A submission folder's files copied at most (regular top-level files), and bytes of each.
MOST_FILES = 60
MOST_FILE_BYTES = 120 * 1024 * 1024
#: Bytes of all of one submission's copied files (each counted by its size, sparse or not):
#: beyond it the submission is refused.
MOST_SUBMISSION_BYTES = 256 * 1024 * 1024
#: Seconds after which a submission folder nbgrader's submit has not finished (its last step
#: makes it mode 0777) is taken as it is.
SETTLE_SECONDS = 30.0
#: nbgrader's timestamp format (timestamp.txt), in UTC.
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f %Z"


@dataclass(frozen=True)
class Handin:
    """One submission folder of the exchange's inbound: ``student`` (its owner), ``name`` (the
    folder's name), ``path``, ``arrived`` (its ctime, nanoseconds since the epoch) and
    ``identity`` (its ``(st_dev, st_ino)``) as seen when inbound was listed."""

    student: str
    name: str
    path: Path
    arrived: int
    identity: tuple[int, int]


@dataclass(frozen=True)
class Collected:
    """A collected submission: ``folder`` (``assignments/submitted/<student>/<ID>/``) and
    ``time`` (nanoseconds since the epoch: the newest of the submission folder's ctime and
    its copied files' ctime and mtime, as written in its ``timestamp.txt``)."""

    folder: Path
    time: int


def shown(text: str) -> str:
    """Return ``text`` with each character a terminal would not show as itself (control
    characters, newlines, escape sequences' ESC, text-direction overrides, undecodable bytes)
    written as its Python escape, e.g. ``"a\\x1b[2Jb\\n"``: safe for one log line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def course_ids(root: Path) -> tuple[Path, str]:
    """Return the course's exchange root and course id (``c.Exchange.root``,
    ``c.CourseDirectory.course_id`` of its nbgrader_config.py). Raises ValueError naming
    the setting that is missing."""
    config = course_config(root)
    exchange = config.get("Exchange", {}).get("root")
    course = config.get("CourseDirectory", {}).get("course_id")
    if not isinstance(exchange, str) or not exchange:
        raise ValueError(f"{root / 'nbgrader_config.py'} sets no c.Exchange.root: set it to "
                         "the shared exchange folder (e.g. /srv/nbgrader/exchange)")
    if not isinstance(course, str) or not course:
        raise ValueError(f"{root / 'nbgrader_config.py'} sets no c.CourseDirectory.course_id")
    return Path(exchange), course


def scan_inbound(inbound: Path, assignment: str) -> tuple[dict[str, Handin], list[str]]:
    """Return each student's newest submission of ``assignment`` in ``inbound`` (by the time
    its folder was finished: nbgrader's submit opens it to all last; one still being copied
    is left for a later look, for at most ``SETTLE_SECONDS``) and one line per folder
    refused (a name that is not ``student+assignment+timestamp[+random]`` with a well-formed
    id, or whose owner is not that student). A missing ``inbound`` holds nothing."""
    latest: dict[str, Handin] = {}
    refused: list[str] = []
    try:
        entries = list(os.scandir(inbound))
    except FileNotFoundError:
        return latest, refused
    for entry in entries:
        parts = entry.name.rsplit("+", 3) if entry.name.count("+") >= 2 else []
        if len(parts) < 3 or parts[1] != assignment:
            continue  # another assignment's (or not nbgrader's)
        claimed = parts[0]
        try:
            info = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(info.st_mode):
            refused.append(f"{shown(entry.name)}: not a folder")
            continue
        owner = _owner(info.st_uid)
        if not STUDENT_ID.fullmatch(claimed):
            refused.append(f"{shown(entry.name)}: {claimed!r} is not a student id")
            continue
        if owner != claimed:
            refused.append(f"{shown(entry.name)}: claims to be {claimed}'s but {owner} made it")
            continue
        if stat.S_IMODE(info.st_mode) & 0o777 != 0o777 and \
                time.time_ns() - info.st_ctime_ns < SETTLE_SECONDS * 1e9:
            continue  # nbgrader's submit is still copying (its last step opens it to all)
        handin = Handin(claimed, entry.name, Path(entry.path), info.st_ctime_ns,
                        (info.st_dev, info.st_ino))
        if claimed not in latest or (handin.arrived, handin.name) > \
                (latest[claimed].arrived, latest[claimed].name):
            latest[claimed] = handin
    return latest, refused


class FolderSource:
    """Submissions from nbgrader's file-system exchange: its ``inbound`` folder
    (``scan_inbound``, ``collect``). ``plaisante.exchange_service.source`` is the other
    source, the exchange service on a hub."""

    def __init__(self, inbound: Path) -> None:
        self.inbound = inbound
        self.where = str(inbound)

    def scan(self, assignment: str) -> tuple[dict[str, Handin], list[str]]:
        return scan_inbound(self.inbound, assignment)

    def collect(self, layout: CourseLayout, handin: Handin, assignment: str, *,
                newer_than: int | None = None) -> Collected | None:
        return collect(layout, handin, assignment, newer_than=newer_than)


def collect(layout: CourseLayout, handin: Handin, assignment: str, *,
            newer_than: int | None = None) -> Collected | None:
    """Copy ``handin``'s regular top-level files (no link followed, at most ``MOST_FILES``
    of at most ``MOST_FILE_BYTES`` each, each up to its size when opened; the rest left out)
    into ``assignments/submitted/<student>/<assignment>/``, replacing what was there, with
    ``timestamp.txt`` its time (UTC: the newest of the folder's ctime and the copied files'
    ctime and mtime); return that folder and time. With ``newer_than`` (nanoseconds since the
    epoch, the time it was last collected with), return None and copy nothing unless it is
    newer now.

    The folder is opened once, relative to inbound, without following a link; its files are
    listed and opened through that descriptor. Raises OSError when it cannot be opened (a
    link, gone, unreadable) and ValueError (one line, its name escaped) when it is no longer
    the folder seen (another owner or another folder in its place) or its files hold more
    than ``MOST_SUBMISSION_BYTES``."""
    check_ids(handin.student, assignment)
    name = shown(handin.name)
    inbound = os.open(handin.path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        folder = os.open(handin.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                         dir_fd=inbound)
    finally:
        os.close(inbound)
    opened: list[tuple[str, int, int]] = []  # (name, fd, bytes to copy)
    try:
        info = os.fstat(folder)
        if (info.st_dev, info.st_ino) != handin.identity or not stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{name}: another folder was put in its place since inbound was "
                             "read; only the folder seen is collected")
        if _owner(info.st_uid) != handin.student:
            raise ValueError(f"{name}: now made by {_owner(info.st_uid)}, not "
                             f"{handin.student}; refused")
        newest = info.st_ctime_ns
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            if len(opened) >= MOST_FILES or entry.name == "timestamp.txt":
                continue
            try:
                fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK,
                             dir_fd=folder)
            except OSError:
                continue  # a link, or gone
            file = os.fstat(fd)
            if not stat.S_ISREG(file.st_mode) or file.st_size > MOST_FILE_BYTES or \
                    file.st_uid != info.st_uid:
                os.close(fd)
                continue  # a folder, a pipe, a device or another's file: never read
            opened.append((entry.name, fd, file.st_size))
            newest = max(newest, file.st_ctime_ns, file.st_mtime_ns)
        total = sum(size for _, _, size in opened)
        if total > MOST_SUBMISSION_BYTES:
            raise ValueError(f"{name}: its files hold {total / 2**20:.0f} MiB, more than the "
                             f"{MOST_SUBMISSION_BYTES / 2**20:.0f} MiB a submission may; "
                             "refused")
        if newer_than is not None and newest <= newer_than:
            return None
        target = layout.submitted_root / handin.student / assignment
        fresh = target.with_name(f".{assignment}.collecting")
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        for file_name, fd, size in opened:
            with open(fresh / file_name, "wb") as copy:
                _copy(fd, copy, size)
            after = os.fstat(fd)  # written to while copied: the copy is that late
            newest = max(newest, after.st_ctime_ns, after.st_mtime_ns)
    finally:
        for _, fd, _ in opened:
            os.close(fd)
        os.close(folder)
    when = datetime.fromtimestamp(newest / 1e9, timezone.utc)
    (fresh / "timestamp.txt").write_text(when.strftime(TIMESTAMP_FORMAT), encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    fresh.rename(target)
    return Collected(target, newest)


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _copy(fd: int, copy: Any, size: int) -> None:
    """Write the first ``size`` bytes of ``fd`` (fewer if it is shorter now) to ``copy``."""
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, 1024 * 1024))
        if not chunk:
            break
        copy.write(chunk)
        left -= len(chunk)


def saved_results(layout: CourseLayout, assignment: str) -> dict[str, SubmissionResult]:
    """Return the results ``record`` wrote to ``assignments/reports/<assignment>/`` (each
    student's latest), by student; unreadable ones are skipped."""
    folder = layout.report(assignment, "-").parent
    names = {f.name for f in fields(SubmissionResult)}
    results = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            result = SubmissionResult(**{k: v for k, v in data.items() if k in names})
        except (ValueError, TypeError):
            continue
        results[result.student] = result
    return results


def roster(layout: CourseLayout) -> list[str]:
    """Return the student ids of the course's gradebook (``plaisante roster import``), sorted;
    [] without a gradebook."""
    if layout.gradebook_missing():
        return []
    with layout.open_gradebook() as gradebook:
        return sorted(student.id for student in gradebook.students)


class BoundedServer(ThreadingHTTPServer):
    """The board's web server: at most ``BOARD_CONNECTIONS`` connections served at once, each
    by its own thread; a connection over that is closed as soon as it is accepted, so that a
    flood of idle connections (any local user can open them) holds at most that many of this
    process's file descriptors, and the board answers again once the flood ends. A failed
    ``accept`` (the process out of descriptors) waits a moment instead of spinning."""

    #: connections the kernel keeps waiting to be accepted (they hold none of this process's
    #: descriptors); a small backlog makes a flood's connections retry, slowly
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], handler: Any) -> None:
        super().__init__(address, handler)
        self.slots = threading.BoundedSemaphore(BOARD_CONNECTIONS)
        self.turned_away = 0

    def get_request(self) -> Any:
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                time.sleep(0.05)
            raise

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.turned_away += 1
            self.shutdown_request(request)
            return
        try:
            threading.Thread(target=self._serve_one, args=(request, client_address),
                             daemon=True).start()
        except RuntimeError:  # no thread could be started: turned away like the rest
            self.slots.release()
            self.shutdown_request(request)

    def _serve_one(self, request: Any, client_address: Any) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            self.slots.release()


class Board:
    """The lab board's folder (``assignments/reports/<ID>/board/``: ``index.html`` and
    ``board.json``, written whole each time) and, with ``port``, its web server on
    127.0.0.1 serving only those two files, under a random token (``url``)."""

    def __init__(self, layout: CourseLayout, assignment: str, *, anonymous: bool,
                 port: int | None, publish: Any = None) -> None:
        from ..results.scores import step_titles, test_cells
        from . import board

        self.layout, self.assignment, self.anonymous = layout, assignment, anonymous
        self.publish = publish  # called with (title, board.json's text) after each write
        self.folder = layout.report(assignment, "-").parent / "board"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.cells = test_cells(layout.root, assignment)
        self.titles = step_titles(assignment)
        from ..games import COURSE, load

        title = load(assignment).title if assignment in COURSE else assignment
        self.title = title
        self._write("index.html", board.page(assignment, title, anonymous=anonymous))
        self.server: BoundedServer | None = None
        self.token = secrets.token_urlsafe(18)
        if port is not None:
            folder, prefix = str(self.folder), f"/{self.token}/"

            class Quiet(SimpleHTTPRequestHandler):
                """Only ``/<token>/index.html`` and ``/<token>/board.json``: every local
                user can reach a loopback port, only the instructor knows the token. A
                connection that sends nothing for ``BOARD_READ_SECONDS`` is closed."""

                timeout = BOARD_READ_SECONDS

                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    super().__init__(*args, directory=folder, **kwargs)

                def handle(self) -> None:
                    timer = threading.Timer(BOARD_REQUEST_SECONDS, self._cut)
                    timer.daemon = True
                    timer.start()
                    try:
                        super().handle()
                    finally:
                        timer.cancel()

                def _cut(self) -> None:
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass  # closed meanwhile

                def send_head(self) -> Any:
                    path = self.path.split("?", 1)[0]
                    name = path[len(prefix):] if path.startswith(prefix) else None
                    if name not in ("", "index.html", "board.json"):
                        self.send_error(404, "not found")
                        return None
                    self.path = "/" + (name or "index.html")
                    return super().send_head()

                def list_directory(self, path: Any) -> Any:
                    self.send_error(404, "not found")
                    return None

                def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                    pass

            try:
                self.server = BoundedServer(("127.0.0.1", port), Quiet)
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    raise
                raise RuntimeError(f"the board's port {port} is in use (another watch, or "
                                   "another server): give --board-port another one") from None
            threading.Thread(target=self.server.serve_forever, name="plaisante-board",
                             daemon=True).start()

    @property
    def url(self) -> str:
        """The board's address (its web server's, else its file's)."""
        if self.server is None:
            return (self.folder / "index.html").as_uri()
        return f"http://127.0.0.1:{self.server.server_address[1]}/{self.token}/"

    def _write(self, name: str, text: str) -> None:
        part = self.folder / f".{name}.part"
        part.write_text(text, encoding="utf-8")
        part.replace(self.folder / name)

    def update(self, results: dict[str, SubmissionResult], queued: int = 0,
               graded_count: int = 0) -> None:
        """Write ``board.json`` from ``results`` (by student) and the gradebook's roster."""
        from . import board

        text = board.to_json(board.state(
            self.assignment, results, roster(self.layout), self.cells, self.titles,
            anonymous=self.anonymous, queued=queued, graded_count=graded_count))
        self._write("board.json", text)
        if self.publish is not None:
            self.publish(self.title, text)

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


class Feedback:
    """nbgrader's generate_feedback and release_feedback, in this process, with the course's
    configuration (its preprocessors: inert content, hidden tests' code left out)."""

    def __init__(self, root: Path) -> None:
        import logging

        from nbgrader.apps.api import NbGraderAPI
        from nbgrader.coursedir import CourseDirectory

        config = course_config(root)
        self.api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
        self.api.log.setLevel(logging.ERROR)
        self.layout = CourseLayout(root)

    def release(self, student: str, assignment: str) -> str | None:
        """Make ``student``'s feedback page of ``assignment`` and release it to the exchange;
        return None, or what went wrong (one line)."""
        from ..grading.feedback import write_missing_pages
        from ..grading.handed_in import feedback_as_handed_in

        page = self.layout.feedback(student, assignment)
        shutil.rmtree(page.parent, ignore_errors=True)
        said = self.api.generate_feedback(assignment, student, force=True)
        write_missing_pages(self.layout.root, assignment, [student], after_nbgrader=True)
        if not page.is_file():
            return f"no feedback page made: {str(said.get('error') or said.get('log'))[-300:]}"
        feedback_as_handed_in(self.layout.root, assignment, [student])
        if not (page.parent / "submission_secret.txt").is_file():
            return "not released: the submission has no submission_secret.txt (not nbgrader's)"
        said = self.api.release_feedback(assignment, student)
        if not said.get("success"):
            return f"release_feedback failed: {str(said.get('error'))[-300:]}"
        return None


def watch(root: Path, assignment: str, *, port: int | None = None, anonymous: bool = False,
          workers: int = 1, sandbox: bool = True, out: Any = None,
          stop: threading.Event | None = None) -> int:
    """Watch the exchange of the course at ``root`` for submissions of ``assignment`` until
    Ctrl-C, SIGTERM or ``stop`` is set; return 0. Each batch of new submissions (each
    student's newest) is collected, graded (``workers`` sandboxed processes), recorded, its
    feedback released; the board is rewritten after each batch. Says one line per event on
    ``out`` (default stdout). Raises ValueError for an unknown assignment or a course whose
    config names no exchange, FileNotFoundError before ``plaisante release ID``."""
    from ..grading.pool import LocalPool
    from ..grading.result import Limits

    out = out or sys.stdout
    root = Path(root).resolve()
    layout = CourseLayout(root)
    source = _source(layout, assignment)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if sandbox:
        from ..grading.sandbox import require_sandbox

        require_sandbox()
    os.chdir(root)  # nbgrader's converters and the inert preprocessor read starter/ from here

    def say(line: str) -> None:
        print(f"plaisante watch: {shown(line)}", file=out, flush=True)

    limits = Limits.for_course(root)
    pool = LocalPool(root, workers)  # forked now, before this process starts any thread
    board = None
    try:
        problems = pool.warm(assignment, limits, sandbox)
        if problems:
            say(f"could not get ready ({problems[0]}); the first submission is slower")
        feedback = Feedback(root)
        results = saved_results(layout, assignment)
        publish = None if isinstance(source, FolderSource) else \
            (lambda title, text: source.publish_board(assignment, title, text))
        board = Board(layout, assignment, anonymous=anonymous, port=port, publish=publish)
        board.update(results)
        url = board.url if isinstance(source, FolderSource) or port is not None else \
            f"{source.board_url(assignment)} (the hub's login: instructors and graders)"
        say(f"watching {source.where} for {assignment!r}; the board: {url}")
        _scan_until_stopped(layout, source, assignment, pool, feedback, board, limits, sandbox,
                            results, say, stop or threading.Event())
    except KeyboardInterrupt:
        say("stopped")
    finally:
        if board is not None:
            board.close()
        pool.close()
    return 0


def _source(layout: CourseLayout, assignment: str) -> Any:
    """Return where submissions of ``assignment`` come from: the exchange service's, when the
    course's config names one, else the exchange folder's ``inbound`` (``FolderSource``).
    Raises as ``watch`` says."""
    from ..exchange_service.source import service_source

    root = layout.root
    if assignment not in layout.assignments():
        raise ValueError(f"no assignment {assignment!r} in {root / 'solutions'}; the course's: "
                         f"{', '.join(layout.assignments()) or 'none'}")
    source: Any = service_source(root)
    if source is None:
        exchange, course = course_ids(root)
        outbound = exchange / course / "outbound" / assignment
        if layout.gradebook_missing() or not outbound.is_dir():
            raise FileNotFoundError(f"{assignment!r} is not released to the exchange "
                                    f"{outbound}: run `plaisante release {assignment}` first")
        return FolderSource(exchange / course / "inbound")
    source.check(assignment)
    if layout.gradebook_missing():
        raise FileNotFoundError(f"{root} has no gradebook: run `plaisante release "
                                f"{assignment}` first")
    return source


def _scan_until_stopped(layout: CourseLayout, source: Any, assignment: str, pool: Any,
                        feedback: Feedback, board: Board, limits: Any, sandbox: bool,
                        results: dict[str, SubmissionResult], say: Any,
                        stop: threading.Event) -> None:
    """Scan ``source`` every ``POLL_SECONDS`` (``_one_scan``) until ``stop`` is set; an
    ``OSError`` of the loop's own files is said once and retried after ``RETRY_SECONDS``."""
    graded: dict[str, str] = {}  # student: the folder last graded or refused
    collected: dict[str, int] = {}  # folder name: the time it was last graded with
    count = 0
    said_once: set[str] = set()

    def say_once(line: str) -> None:
        if line not in said_once:
            said_once.add(line)
            say(line)

    while not stop.is_set():
        try:
            count = _one_scan(layout, source, assignment, pool, feedback, board, limits,
                              sandbox, results, graded, collected, count, say, say_once)
        except OSError as error:  # the loop's own files: no descriptor left, disk full
            say_once(f"could not look at or grade the exchange ({_why(error)}); retried "
                     f"every {RETRY_SECONDS:g} s, nothing is skipped")
            stop.wait(RETRY_SECONDS)
            continue
        stop.wait(POLL_SECONDS)


def _why(error: OSError) -> str:
    """Return ``error`` in a few words: its errno's name and text, without the paths."""
    name = errno.errorcode.get(error.errno or 0, "")
    return f"{name}: {error.strerror}" if name and error.strerror else str(error)


def _one_scan(layout: CourseLayout, source: Any, assignment: str, pool: Any, feedback: Any,
              board: Board, limits: Any, sandbox: bool, results: dict[str, SubmissionResult],
              graded: dict[str, str], collected: dict[str, int], count: int, say: Any,
              say_once: Any) -> int:
    """Look at ``source`` (``FolderSource`` or the exchange service's) once: collect, grade,
    record and release the feedback of each student's newest submission not graded yet;
    return ``count`` plus the submissions graded.

    A submission is marked done in ``graded`` only once it is graded (or refused for good:
    another folder swapped in, too big, or unchanged since it was graded): one that could not
    be collected or graded (an OSError: no descriptor left, a full disk, its folder gone or
    unreadable) is said in one line and looked at again on the next scan. An OSError of the
    scan itself, the board or the grading is raised for the caller to retry."""
    from ..grading.run_results import RunResults

    latest, refused = source.scan(assignment)
    for line in refused:
        say_once(f"refused {line}")
    todo = sorted((h for s, h in latest.items() if graded.get(s) != h.name),
                  key=lambda h: h.arrived)
    if not todo:
        return count
    board.update(results, queued=len(todo), graded_count=count)
    ready: list[Handin] = []
    times: dict[str, int] = {}
    for handin in todo:
        try:
            made = source.collect(layout, handin, assignment,
                                  newer_than=collected.get(handin.name))
        except ValueError as error:  # another folder swapped in, or too big: for good
            graded[handin.student] = handin.name
            say(f"refused {error}; left until {handin.student} submits again")
            continue
        except OSError as error:
            say_once(f"{shown(handin.name)}: could not be collected yet ({_why(error)}); "
                     f"{handin.student}'s submission is tried again on each scan")
            continue
        if made is None:
            graded[handin.student] = handin.name  # graded before, unchanged since
            continue
        ready.append(handin)
        times[handin.name] = made.time
    if not ready:
        return count
    students = [handin.student for handin in ready]
    run_results = RunResults(layout.root, assignment, len(students), progress=False)
    try:
        pool.grade(assignment, students, run_results, limits=limits, sandbox=sandbox,
                   reread=True)
    finally:
        run_results.close()
    for handin in ready:
        if handin.student in run_results.results:
            results[handin.student] = run_results.results[handin.student]
            graded[handin.student] = handin.name
            collected[handin.name] = times[handin.name]
        else:
            say_once(f"{handin.student}: not graded this time (no result recorded); "
                     "tried again on the next scan")
    done = [h.student for h in ready if graded.get(h.student) == h.name]
    count += len(done)
    board.update(results, graded_count=count)  # the board first: feedback takes longer
    for student in done:
        result = results[student]
        try:
            problem = feedback.release(student, assignment)
        except OSError as error:
            problem = f"not released ({_why(error)}): run `plaisante feedback` for them later"
        reasons = f" ({'; '.join(result.reasons)})" if result.reasons else ""
        say(f"{student}: {result.status} {result.total:g}/{result.max_total:g} in "
            f"{result.seconds:.2f} s{reasons}; feedback {problem or 'released'}")
    from ..lti import after_grading  # the scores to the course's LMS, when it has LTI

    sent = after_grading(layout.root, [assignment], done)
    if sent:
        say(sent.removeprefix("plaisante "))
    return count
