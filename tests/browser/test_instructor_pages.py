"""What an instructor opens, in Chromium: ``plaisante formgrader`` on a course graded by the
judge, the class reports and every feedback page.

One course: the five assignments released (a due date set for one); ``ada`` hands in each
assignment's full-marks sample with cells that try script in every form (``hostile_pages``:
outputs her kernel publishes while graded, and markdown); ``grace`` hands in Plaisante's
full-marks sample as it is; ``eve`` hands in ada's Plaisante with a cell that kills the kernel
(flagged). A roster whose names hold markup is refused; eve's name holds markup anyway, written
with nbgrader's own ``db student add`` (the formgrader's pages then meet it, as they would a
name typed into its Manage Students form).

The formgrader lists every assignment as released, with its due date; every submission page
of every assignment answers 200 with its grading form; no student's
script runs anywhere (the page's title stays, ``window.pwned`` is never set, no request carries
the payloads' mark, no ``pwned-*`` file is written through the contents API); then a manual
grade given through the formgrader's form reaches ``plaisante export`` and ``scores`` and
survives ``plaisante regrade``.

As root, the course is graded and the formgrader served as the ordinary grading user
(``grader_user``), as on a grading machine; the same run as root is ``slow``. As an ordinary
user, that user does everything.
"""

from __future__ import annotations

import csv
import os
import re
import secrets
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import a11y
import harness
import hostile_pages
import pytest
from grader_user import as_root, grader_command, grader_env, prepare_course, run_as_grader
from playwright.sync_api import Page, expect

from plaisante.games import COURSE

pytestmark = [pytest.mark.browser, pytest.mark.sandbox]

HOSTILE_LAST = '<img src="x" onerror="' + hostile_pages.action("name-onerror") + '">'
HOSTILE_FIRST = "<script>" + hostile_pages.action("name-script") + "</script>"
NAMES = {"ada": ("Ada", "Lovelace"), "grace": ("Grace", "Hopper")}
DUE = "2026-12-24 17:00:00 UTC"


@dataclass
class Course:
    """The graded course and its formgrader, run as ``who`` ("user" or "root")."""

    root: Path
    who: str
    server: harness.Server | None = None
    submissions: dict[str, list[dict]] = field(default_factory=dict)

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """``plaisante ARGS…`` in the course, as this course's user."""
        if self.who == "user" and as_root():
            done = run_as_grader(list(args), cwd=self.root, timeout=900)
        else:
            done = subprocess.run([str(harness.VENV_BIN / "plaisante"), *args], cwd=self.root,
                                  env=_env(), text=True, capture_output=True, timeout=900)
        if check and done.returncode != 0:
            pytest.fail(f"plaisante {' '.join(args)} as {self.who} exited {done.returncode}:\n"
                        f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}", pytrace=False)
        return done


def _env() -> dict[str, str]:
    env = dict(os.environ, PATH=str(harness.VENV_BIN) + os.pathsep + os.environ["PATH"])
    env.pop("NBGRADER_EXECUTION", None)
    env.pop("PLAISANTE_COURSE", None)
    return env


def _variants() -> list:
    if not as_root():
        return ["user"]
    return ["user", pytest.param("root", marks=pytest.mark.slow)]


def _start_formgrader(course: Course) -> harness.Server:
    """``plaisante formgrader --no-browser`` on the course, as its user, on a free port."""
    home = course.root / ".instructor"  # the server's private Jupyter folders, the user's
    settings = harness._lab_settings(home)
    env = harness.jupyter_env(home)
    port, token = harness.free_port(), secrets.token_hex(16)
    log = course.root.parent / f"formgrader-{course.who}.log"
    argv = ["-m", "plaisante.cli", "formgrader", "--no-browser", f"--port={port}", "--",
            "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            f"--LabApp.workspaces_dir={home / 'workspaces'}",
            f"--LabApp.user_settings_dir={settings}"]
    cmd = [str(harness.VENV_BIN / "python"), *argv]
    if course.who == "user" and as_root():
        from grader_user import grader_python

        prepare_course(course.root)  # the Jupyter folders made above are the user's too
        cmd = grader_command([grader_python(), *argv])
        env = {**grader_env(), **{name: env[name] for name in (
            "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR", "JUPYTER_PLATFORM_DIRS")}}
    process = subprocess.Popen(cmd, cwd=course.root, env=env, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    return harness.Server("plaisante formgrader", port, token, process, log, "/api/status")


@pytest.fixture(scope="module", params=_variants())
def instructor(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Course]:
    """The course, graded, fed back, reported; its formgrader running."""
    tmp = tmp_path_factory.mktemp(f"instructor-{request.param}")
    course = Course(harness.course_copy(tmp / "course"), request.param)
    if course.who == "user" and as_root():
        prepare_course(course.root)
    course.run("release")
    course.run("nbgrader", "db", "assignment", "add", "plaisante", f"--duedate={DUE}")
    samples = course.root / "assignments" / "samples"
    handed = tmp / "handed"
    for assignment in COURSE:
        mine = hostile_pages.hostile_copy(samples / assignment / "full_marks.ipynb",
                                          handed / assignment / f"{assignment}.ipynb")
        course.run("submit", str(mine), "--student", "ada", "--assignment", assignment)
    course.run("submit", str(samples / "plaisante" / "full_marks.ipynb"), "--student", "grace")
    dying = hostile_pages.hostile_copy(samples / "plaisante" / "full_marks.ipynb",
                                       handed / "eve" / "plaisante.ipynb", die=True)
    course.run("submit", str(dying), "--student", "eve")

    marked = tmp / "marked.csv"
    marked.write_text("id,first_name,last_name,email\n"
                      f'eve,Eve,"{HOSTILE_LAST.replace(chr(34), chr(34) * 2)}",eve@example.edu\n',
                      encoding="utf-8")
    if course.who == "user" and as_root():
        prepare_course(tmp)
    refused = course.run("roster", "import", str(marked), check=False)
    assert refused.returncode == 2, refused
    assert "marked.csv line 2: last_name" in refused.stderr and "holds markup" in refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr
    roster = tmp / "roster.csv"
    roster.write_text("id,first_name,last_name,email\n" + "".join(
        f"{s},{first},{last},{s}@example.edu\n" for s, (first, last) in NAMES.items()),
        encoding="utf-8")
    if course.who == "user" and as_root():
        prepare_course(tmp)
    course.run("roster", "import", str(roster))
    course.run("nbgrader", "db", "student", "add", "eve", f"--last-name={HOSTILE_LAST}",
               f"--first-name={HOSTILE_FIRST}", "--email=eve@example.edu")

    course.run("grade")
    course.run("feedback")
    course.run("report")
    course.server = _start_formgrader(course)
    try:
        course.server.wait_ready(timeout=120)
        yield course
    finally:
        course.server.stop()


@pytest.fixture
def seen(page: Page) -> list[str]:
    """Every URL the page asks for, for the payloads' mark."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def nothing_ran(page: Page, seen: list[str], root: Path) -> None:
    """Assert no payload ran: title, ``window.pwned``, requests, files."""
    assert page.title() != hostile_pages.TITLE
    assert page.evaluate(f"() => window.{hostile_pages.MARK}") is None
    assert not [url for url in seen if hostile_pages.MARK in url]
    assert not list(root.rglob(f"{hostile_pages.MARK}-*"))


def log_in(page: Page, server: harness.Server) -> None:
    page.goto(server.url("/formgrader"))  # the token becomes the session's cookie
    expect(page.locator("#main-table")).to_be_visible(timeout=60_000)


def submissions_of(page: Page, server: harness.Server, assignment: str) -> list[dict]:
    """The formgrader API's submitted notebooks of ``assignment`` (as its own pages ask)."""
    answer = page.request.get(server.url(f"/formgrader/api/submitted_notebooks/{assignment}/"
                                         f"{assignment}"))
    assert answer.status == 200, answer.text()
    return answer.json()


def test_every_submission_page_renders_its_grading_form_and_no_student_script_runs(
        page: Page, instructor: Course, seen: list[str]) -> None:
    server = instructor.server
    assert server is not None
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text))
    log_in(page, server)
    names = page.locator("#main-table td.name")
    expect(names).to_have_text(sorted(COURSE))
    # released by `plaisante release` (into the course's exchange), plaisante's due date shown
    expect(page.locator("#main-table td.status")).to_have_text(["released"] * len(COURSE))
    due = page.locator("#main-table tr", has=page.locator("td.name", has_text=re.compile(
        "^plaisante$"))).locator("td.duedate")
    expect(due).to_have_text(DUE)
    for assignment in COURSE:
        found = submissions_of(page, server, assignment)
        students = sorted(s["student"] for s in found)
        assert students == (["ada", "eve", "grace"] if assignment == "plaisante" else ["ada"])
        for submission in found:
            answer = page.goto(server.url(f"/formgrader/submissions/{submission['id']}/"))
            assert answer is not None and answer.status == 200, (assignment, submission)
            csp = answer.headers.get("content-security-policy", "")
            script_src = next(d for d in csp.split("; ") if d.startswith("script-src "))
            assert "'unsafe-inline'" not in script_src and "/formgrader/static/" in script_src
            expect(page.locator("input.score").first).to_be_visible()
            assert page.locator("input.score").count() >= 5  # a score box per test cell
            expect(page.locator("textarea.comment").first).to_be_attached()
            if submission["student"] != "grace":
                # the student's words are there, as text; their markup and script are not
                expect(page.get_by_text("My notes on this step.")).to_be_visible()
                expect(page.locator("b", has_text="kept bold")).to_have_count(1)
                expect(page.locator("strong", has_text="bold words")).to_have_count(1)
                assert page.locator(".cell script, .cell svg, .cell iframe").count() == 0
                assert not page.locator(".cell [onerror], .cell [onload]").count()
                hrefs = page.locator(".cell a[href]").evaluate_all(
                    "links => links.map(a => a.getAttribute('href'))")
                assert not [h for h in hrefs if h.strip().lower().startswith("javascript")]
            stopped = [m for m in blocked if "Executing inline script violates" in m]
            if submission["student"] == "eve":  # a flagged submission opens too
                assert submission["flagged"]
                # nbgrader writes the name into its page as HTML: the policy stops its script
                assert stopped, blocked
            else:  # no script of a student's is left in the page for the policy to stop
                assert not stopped, stopped
            nothing_ran(page, seen, instructor.root)
            blocked.clear()

    page.goto(server.url("/formgrader/manage_students"))
    rows = page.locator("#main-table tr", has=page.locator("td.id"))
    expect(rows).to_have_count(3)
    eve = rows.filter(has=page.locator("td.id", has_text=re.compile("^eve$")))
    expect(eve.locator("td.name")).to_have_text(f"{HOSTILE_LAST}, {HOSTILE_FIRST}")
    page.goto(server.url("/formgrader/manage_students/eve"))
    expect(page.locator("#main-table td", has_text="plaisante").first).to_be_visible()
    nothing_ran(page, seen, instructor.root)

    # a path that is not ids is refused, not written into the page's script
    refused = page.goto(server.url("/formgrader/manage_students/%22%3Balert(1)%2F%2F"))
    assert refused is not None and refused.status == 400


def test_the_reports_and_every_feedback_page_show_the_students_text_inert(
        page: Page, instructor: Course, seen: list[str]) -> None:
    reports = sorted((instructor.root / "assignments" / "reports").glob("*/index.html"))
    assert [p.parent.name for p in reports] == sorted(COURSE)
    for report in reports:
        page.goto(report.as_uri())
        expect(page.locator("h1")).to_contain_text("class report")
        if report.parent.name == "plaisante":
            expect(page.locator("[data-flagged='eve']")).to_contain_text(HOSTILE_LAST)
            expect(page.locator("[data-student='eve']")).to_contain_text(HOSTILE_FIRST)
        assert page.locator("img").evaluate_all("images => images.every(i => i.naturalWidth)")
        # each figure's alt text states its numbers (the step table's own, for the steps)
        alts = page.locator("img").evaluate_all("images => images.map(i => i.alt)")
        assert re.search(r"graded submissions: lowest [\d.]+, median [\d.]+", alts[0]), alts
        assert "step 1 mean " in alts[1] and "pass rate " in alts[1], alts
        a11y.assert_accessible(page, where=f"the class report of {report.parent.name}")
        nothing_ran(page, seen, instructor.root)
    pages = sorted((instructor.root / "assignments" / "feedback").glob("*/*/*.html"))
    assert len(pages) == len(COURSE) + 2, pages
    for feedback in pages:
        page.goto(feedback.as_uri())
        expect(page.locator("#toc")).to_be_visible()
        if feedback.parts[-3] != "grace":
            expect(page.get_by_text("My notes on this step.")).to_be_visible()
            assert page.locator("#notebook script, #notebook svg, #notebook iframe").count() == 0
        a11y.assert_accessible(page, where=str(feedback))
        nothing_ran(page, seen, instructor.root)


def export_totals(course: Course, target: Path) -> dict[str, float]:
    course.run("export", "plaisante", f"--to={target}")
    with target.open(encoding="utf-8") as handle:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(handle)}


def test_a_manual_grade_given_in_the_formgrader_reaches_export_and_survives_regrade(
        page: Page, instructor: Course, seen: list[str]) -> None:
    server = instructor.server
    assert server is not None
    log_in(page, server)
    grace = next(s for s in submissions_of(page, server, "plaisante") if s["student"] == "grace")
    assert grace["score"] == 100
    page.goto(server.url(f"/formgrader/submissions/{grace['id']}/"))
    box = page.locator("input.score").first
    grade_id = box.get_attribute("id")
    grades = page.request.get(server.url(f"/formgrader/api/grades?submission_id={grace['id']}"))
    points = next(g["max_score"] for g in grades.json() if g["name"] == grade_id)
    given = points - 1
    with page.expect_response(lambda r: "/formgrader/api/grade/" in r.url
                              and r.request.method == "PUT") as saved:
        box.fill(f"{given:g}")
        box.press("Tab")
    assert saved.value.ok, saved.value.text()
    comment = page.locator("textarea.comment").first  # beside a student's answer cell
    comment_id = comment.get_attribute("id")
    with page.expect_response(lambda r: "/formgrader/api/comment/" in r.url
                              and r.request.method == "PUT") as said:
        comment.fill("One case of the rule is missing: see the hand in the message.")
        comment.press("Tab")
    assert said.value.ok, said.value.text()
    nothing_ran(page, seen, instructor.root)

    target = instructor.root / "grades.csv"
    assert export_totals(instructor, target)["grace"] == 100 - points + given
    scores = instructor.run("scores", "plaisante", "--student", "grace").stdout
    assert re.search(rf"grace\b.*\b{100 - points + given:g}\b", scores), scores

    instructor.run("regrade", "plaisante")
    assert export_totals(instructor, target)["grace"] == 100 - points + given
    instructor.run("grade", "plaisante", "--student", "grace")
    assert export_totals(instructor, target)["grace"] == 100 - points + given
    page.reload()
    expect(page.locator(f"#{grade_id}")).to_have_value(f"{given:g}")
    expect(page.locator(f"#{comment_id}")).to_have_value(re.compile("One case"))
