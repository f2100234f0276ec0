"""nbgrader's exchange, through the exchange service: the classes ``c.ExchangeFactory.*``
names, for every server of the hub (students' and instructors')::

    c.ExchangeFactory.exchange = "plaisante.exchange_service.plugin.HubExchange"
    c.ExchangeFactory.release_assignment = "plaisante.exchange_service.plugin.ReleaseAssignment"
    c.ExchangeFactory.fetch_assignment = "plaisante.exchange_service.plugin.FetchAssignment"
    c.ExchangeFactory.submit = "plaisante.exchange_service.plugin.Submit"
    c.ExchangeFactory.list = "plaisante.exchange_service.plugin.List"
    c.ExchangeFactory.collect = "plaisante.exchange_service.plugin.Collect"
    c.ExchangeFactory.release_feedback = "plaisante.exchange_service.plugin.ReleaseFeedback"
    c.ExchangeFactory.fetch_feedback = "plaisante.exchange_service.plugin.FetchFeedback"
    c.HubExchange.service_url = "http://proxy-public/services/plaisante-exchange/"

(``EXCHANGE_CONFIG`` holds the factory lines.) Each call goes with the caller's hub token
(``$JUPYTERHUB_API_TOKEN``); who the caller is, and what they may do, is the service's and the
hub's to say: a student's ``--student`` is not read, and a student's release is refused.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import Any

from nbgrader.exchange import abc
from traitlets import Unicode, default

from .client import ServiceClient, ServiceError, encode_files, write_files
from .store import MOST_FILES, checksum

#: The ``c.ExchangeFactory`` settings that make nbgrader use this exchange.
EXCHANGE_CONFIG = {name: f"{__name__}.{cls}" for name, cls in (
    ("exchange", "HubExchange"), ("release_assignment", "ReleaseAssignment"),
    ("fetch_assignment", "FetchAssignment"), ("submit", "Submit"), ("list", "List"),
    ("collect", "Collect"), ("release_feedback", "ReleaseFeedback"),
    ("fetch_feedback", "FetchFeedback"))}


class HubExchange(abc.Exchange):
    """What every class of this exchange shares: the service's URL and the calls."""

    service_url = Unicode(
        help="The exchange service's URL, its prefix included "
             "(http://proxy-public/services/plaisante-exchange/ on Zero to JupyterHub)",
    ).tag(config=True)

    @default("service_url")
    def _service_url_default(self) -> str:
        return os.environ.get("PLAISANTE_EXCHANGE_URL", "")

    path_includes_course = False

    def client(self) -> ServiceClient:
        try:
            return ServiceClient(self.service_url)
        except ServiceError as error:
            self.fail(str(error))
            raise  # fail raises; this line is for the type checker

    def course(self) -> str:
        if not self.coursedir.course_id:
            self.fail("No course id specified: set c.CourseDirectory.course_id")
        return str(self.coursedir.course_id)

    def call(self, method: str, *parts: str, **kwargs: Any) -> Any:
        try:
            return self.client().call(method, *parts, **kwargs)
        except ServiceError as error:
            self.fail(str(error))

    def init_src(self) -> None:
        pass

    def init_dest(self) -> None:
        pass

    def copy_files(self) -> None:
        pass

    def local_files(self, folder: Path) -> dict[str, Path]:
        """The files of ``folder`` to send: regular files, neither hidden nor matching
        ``CourseDirectory.ignore``, at most ``CourseDirectory.max_file_size`` KB each (the
        others left out, said in the log), at most ``MOST_FILES``."""
        found: dict[str, Path] = {}
        ignore = list(self.coursedir.ignore)
        for path in sorted(folder.rglob("*")):
            parts = path.relative_to(folder).parts
            if any(p.startswith(".") or any(fnmatch.fnmatch(p, g) for g in ignore)
                   for p in parts) or path.is_symlink() or not path.is_file():
                continue
            if path.stat().st_size > self.coursedir.max_file_size * 1000:
                self.log.warning("%s is over %s KB: left out", path,
                                 self.coursedir.max_file_size)
                continue
            found["/".join(parts)] = path
        if len(found) > MOST_FILES:
            self.fail(f"{folder} holds {len(found)} files: at most {MOST_FILES} can be sent")
        return found


class ReleaseAssignment(HubExchange, abc.ExchangeReleaseAssignment):
    """Send ``release/<assignment>/`` to the service (instructors: ``SCOPE_RELEASE``)."""

    def copy_files(self) -> None:
        source = Path(self.coursedir.format_path(self.coursedir.release_directory, ".",
                                                 self.coursedir.assignment_id))
        if not source.is_dir():
            self.fail(f"Assignment not found: {source} (run generate_assignment first)")
        self.call("PUT", "assignments", self.course(), self.coursedir.assignment_id,
                  body={"files": encode_files(self.local_files(source))})
        self.log.info("Released %s to the exchange service", self.coursedir.assignment_id)


class FetchAssignment(HubExchange, abc.ExchangeFetchAssignment):
    """Copy a release into ``<assignment_dir>/<assignment>/``."""

    def copy_files(self) -> None:
        target = Path(self.assignment_dir) / self.coursedir.assignment_id
        if target.exists() and not self.replace_missing_files:
            self.fail(f"You already have a copy of the assignment in {target}; to get the "
                      "files you deleted, use --replace")
        answer = self.call("GET", "assignments", self.course(), self.coursedir.assignment_id)
        try:
            written = write_files(target, answer["files"],
                                  only_missing=self.replace_missing_files)
        except ValueError as error:
            self.fail(str(error))
        self.log.info("Fetched %s (%d files) into %s", self.coursedir.assignment_id,
                      len(written), target)


class Submit(HubExchange, abc.ExchangeSubmit):
    """Send ``<assignment_dir>/<assignment>/`` as the caller's submission (the hub says who
    the caller is)."""

    def copy_files(self) -> None:
        assignment = self.coursedir.assignment_id
        source = Path(self.assignment_dir) / assignment
        if not source.is_dir():
            self.fail(f"Assignment not found at: {source}")
        files = {n: p for n, p in self.local_files(source).items()
                 if not n.startswith("feedback/")}
        released = {a["assignment_id"]: a["notebooks"]
                    for a in self.call("GET", "assignments", self.course())}
        if assignment not in released:
            self.fail(f"{assignment} is not released in {self.course()}")
        missing = sorted(set(released[assignment]) - {Path(n).stem for n in files
                                                      if n.endswith(".ipynb")})
        if missing:
            said = f"these released notebooks are missing: {', '.join(missing)}"
            if self.strict:
                self.fail(f"Assignment {assignment} not submitted: {said}")
            self.log.warning(said)
        made = self.call("POST", "submissions", self.course(), assignment,
                         body={"files": encode_files(files)})
        self.log.info("Submitted as: %s %s %s", self.course(), assignment, made["timestamp"])


class List(HubExchange, abc.ExchangeList):
    """Released assignments (``fetched`` when the folder is here), the caller's submissions
    (``--cached``: what the Assignments tab lists) or, with ``--inbound``, each student's
    newest (instructors and graders)."""

    def _released(self) -> list[dict[str, Any]]:
        found = []
        wanted = self.coursedir.assignment_id
        for item in self.call("GET", "assignments", self.course()):
            if wanted and item["assignment_id"] != wanted:
                continue
            local = Path(self.assignment_dir) / item["assignment_id"]
            info: dict[str, Any] = {"course_id": self.course(),
                                    "assignment_id": item["assignment_id"]}
            if local.is_dir():
                info.update(status="fetched", path=str(local.resolve()), notebooks=[
                    {"notebook_id": p.stem, "path": str(p.resolve())}
                    for p in sorted(local.glob("*.ipynb"))])
            else:
                info.update(status="released", path=item["assignment_id"], notebooks=[
                    {"notebook_id": n, "path": f"{item['assignment_id']}/{n}.ipynb"}
                    for n in item["notebooks"]])
            found.append(info)
        return found

    def _mine(self) -> list[dict[str, Any]]:
        query = f"assignment={self.coursedir.assignment_id}" \
            if self.coursedir.assignment_id else ""
        groups: dict[str, dict[str, Any]] = {}
        me = os.environ.get("JUPYTERHUB_USER", "")
        for item in self.call("GET", "submissions", self.course(), query=query):
            assignment = item["assignment_id"]
            local = Path(self.assignment_dir) / assignment / "feedback" / item["timestamp"]
            notebooks = []
            for notebook in item["notebooks"]:
                page = local / f"{notebook}.html"
                exchange = item["feedback"].get(notebook)
                here = page.is_file()
                notebooks.append({
                    "notebook_id": notebook, "path": f"{assignment}/{notebook}.ipynb",
                    "has_local_feedback": here, "has_exchange_feedback": exchange is not None,
                    "local_feedback_path": str(page) if here else None,
                    "feedback_updated": bool(here and exchange is not None
                                             and checksum(page.read_bytes()) != exchange)})
            has_local = bool(notebooks) and all(n["has_local_feedback"] for n in notebooks)
            info = {"course_id": self.course(), "student_id": me,
                    "assignment_id": assignment, "timestamp": item["timestamp"],
                    "status": "submitted", "path": item["id"], "notebooks": notebooks,
                    "has_local_feedback": has_local,
                    "has_exchange_feedback": bool(notebooks) and all(
                        n["has_exchange_feedback"] for n in notebooks),
                    "feedback_updated": any(n["feedback_updated"] for n in notebooks),
                    "local_feedback_path": str(local) if has_local else None}
            groups.setdefault(assignment, {
                "course_id": self.course(), "student_id": me, "assignment_id": assignment,
                "status": "submitted", "submissions": []})["submissions"].append(info)
        return [groups[a] for a in sorted(groups)]

    def _inbound(self) -> list[dict[str, Any]]:
        found = []
        assignments = [self.coursedir.assignment_id] if self.coursedir.assignment_id else [
            a["assignment_id"] for a in self.call("GET", "assignments", self.course())]
        for assignment in assignments:
            for item in self.call("GET", "submissions", self.course(), assignment):
                submission = {"course_id": self.course(), "student_id": item["student"],
                              "assignment_id": assignment, "timestamp": item["timestamp"],
                              "status": "submitted", "path": item["id"], "notebooks": []}
                found.append({"course_id": self.course(), "student_id": item["student"],
                              "assignment_id": assignment, "status": "submitted",
                              "submissions": [submission]})
        return found

    def list_files(self) -> list[dict[str, Any]]:
        """Return the listing (nbgrader's shapes) and log it, a line an assignment or
        submission, as nbgrader's own list does."""
        if self.inbound or self.cached:
            found = self._inbound() if self.inbound else self._mine()
            self.log.info("Submitted assignments:")
            for group in found:
                for item in group["submissions"]:
                    feedback = " (feedback ready to be fetched)" if item.get(
                        "has_exchange_feedback") and not item.get("has_local_feedback") else ""
                    self.log.info("%s %s %s %s%s", item["course_id"], item["student_id"],
                                  item["assignment_id"], item["timestamp"], feedback)
            return found
        found = self._released()
        self.log.info("Released assignments:")
        for item in found:
            self.log.info("%s %s%s", item["course_id"], item["assignment_id"],
                          " (already downloaded)" if item["status"] == "fetched" else "")
        return found

    def remove_files(self) -> list[dict[str, Any]]:
        if self.inbound or self.cached:
            self.fail("Submissions are kept by the exchange service; only a release can be "
                      "removed")
        found = self._released()
        for item in found:
            self.call("DELETE", "assignments", self.course(), item["assignment_id"])
            item["status"] = "removed"
        return found


class Collect(HubExchange, abc.ExchangeCollect):
    """Copy each student's newest submission into ``submitted/<student>/<assignment>/``
    (instructors and graders); with ``--update``, replace an older one collected before."""

    def copy_files(self) -> None:
        assignment = self.coursedir.assignment_id
        wanted = self.coursedir.student_id if self.coursedir.student_id not in ("", "*") \
            else None
        if self.before_duedate:
            self.log.warning("--before-duedate is not kept by this exchange: each student's "
                             "newest submission is collected")
        newest = self.call("GET", "submissions", self.course(), assignment)
        for item in newest:
            student = item["student"]
            if wanted is not None and student != wanted:
                continue
            target = Path(self.coursedir.format_path(self.coursedir.submitted_directory,
                                                     student, assignment))
            if target.is_dir():
                stamp = target / "timestamp.txt"
                if not self.update:
                    self.log.info("Submission already exists, use --update to update: %s %s",
                                  student, assignment)
                    continue
                if stamp.is_file() and stamp.read_text(encoding="utf-8") == item["timestamp"]:
                    self.log.info("No newer submission to collect: %s %s", student,
                                  assignment)
                    continue
            collect_into(self.call("GET", "submissions", self.course(), assignment, student,
                                   item["id"]), target)
            self.log.info("Collected submission: %s %s", student, assignment)


def collect_into(answer: dict[str, Any], target: Path, *, top_level_only: bool = False
                 ) -> None:
    """Write a submission as the service sent it (``files``, ``timestamp``, ``secret``) as
    ``target``, replacing it whole; ``top_level_only`` leaves files in subfolders out."""
    import shutil

    files = {n: t for n, t in answer["files"].items()
             if not top_level_only or "/" not in n}
    files.pop("timestamp.txt", None)
    files.pop("submission_secret.txt", None)
    fresh = target.with_name(f".{target.name}.collecting")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(parents=True)
    write_files(fresh, files)
    (fresh / "timestamp.txt").write_text(answer["timestamp"], encoding="utf-8")
    (fresh / "submission_secret.txt").write_text(answer["secret"], encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    fresh.rename(target)


class ReleaseFeedback(HubExchange, abc.ExchangeReleaseFeedback):
    """Send ``feedback/<student>/<assignment>/*.html`` to the service, as the feedback of the
    submission graded (found by its ``timestamp.txt``; instructors and graders)."""

    def copy_files(self) -> None:
        student = self.coursedir.student_id or "*"
        pattern = self.coursedir.format_path(self.coursedir.feedback_directory, student,
                                             self.coursedir.assignment_id)
        root = Path(self.coursedir.root)
        relative = Path(pattern).relative_to(root) if Path(pattern).is_absolute() else \
            Path(pattern)
        excluded = set(filter(None, self.coursedir.student_id_exclude.split(",")))
        for folder in sorted(root.glob(str(relative))):
            who = folder.parent.name
            stamp = folder / "timestamp.txt"
            pages = {p.name: p for p in sorted(folder.glob("*.html"))}
            if who in excluded or not pages or not stamp.is_file():
                continue
            self.call("POST", "feedback", self.course(), self.coursedir.assignment_id, who,
                      body={"timestamp": stamp.read_text(encoding="utf-8"),
                            "files": encode_files(pages)})
            self.log.info("Released feedback for student '%s' on assignment '%s'", who,
                          self.coursedir.assignment_id)


class FetchFeedback(HubExchange, abc.ExchangeFetchFeedback):
    """Copy the caller's feedback into ``<assignment>/feedback/<timestamp>/``."""

    def copy_files(self) -> None:
        assignment = self.coursedir.assignment_id
        target = Path(self.assignment_dir) / assignment / "feedback"
        for item in self.call("GET", "feedback", self.course(), assignment):
            folder = target / item["timestamp"]
            folder.mkdir(parents=True, exist_ok=True)
            for name in write_files(folder, item["files"]):
                self.log.info("Fetched feedback: %s", folder / name)
