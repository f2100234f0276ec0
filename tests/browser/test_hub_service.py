"""The class on a real JupyterHub as Kubernetes runs it (``tests/hub_service_class.py``): every
user's server runs as one Unix account with no folder shared between them, and the exchange is
the kit's hub service (``plaisante.exchange_service``), which knows a student by their hub token.

Alice works in JupyterLab through the hub, in Chromium: fetches from the Assignments panel,
writes a step, submits; Bob and Carol fetch and submit with nbgrader's own commands in their
servers' environment (the same plugin the panel calls). ``plaisante watch``, run with the TA's
token (a grader), grades each and releases the feedback; Alice fetches hers from the panel, Bob
with ``nbgrader fetch_feedback``. The board is the service's page behind the hub's login: the
TA sees it, a student gets 403, and no token is in its address.

Then what a student may not do, each with the answer the service gives: Bob cannot fetch
Alice's feedback, submit as her, read a submission of hers, list the class or read the service's
store; a made-up token and an expired one are refused; the TA's token cannot release.

Root only (it makes Unix accounts): as another user it is skipped, saying why.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import a11y
import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="LOUD SKIP: the hub test makes Unix "
                                "accounts (useradd) and must run as root, as `make test` in CI")

KIT = Path(__file__).resolve().parents[2]
SHOTS = KIT / "build" / "screenshots"


# The tests after the class test read what it left on the hub, so every test here takes
# pytest-playwright's browser_name: pytest groups tests by that session parameter, and a test
# without it would run apart from the class test, on a hub of its own made again.
@pytest.fixture(scope="module")
def hub() -> Iterator[Any]:
    import hub_service_class

    with hub_service_class.ServiceHubClass() as made:
        made.start_watch(wait=False)  # gets ready while the student logs in
        yield made


def student_code(grade_id: str) -> str:
    source = nbformat.read(KIT / "solutions" / "plaisante" / "plaisante.ipynb", as_version=4)
    cell = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade_id")
                == grade_id)
    return "\n".join(line for line in cell.source.split("\n")
                     if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)


def log_in(page: Any, hub: Any, user: str, then: str = "") -> None:
    page.goto(f"{hub.url}/hub/login" + (f"?next={then}" if then else ""))
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", hub.password)
    page.click("button[type=submit], input[type=submit]")


def write_cell(page: Any, index: int, code: str) -> None:
    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)
    cell.scroll_into_view_if_needed()
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    page.keyboard.press("Control+s")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="Saving completed")).to_be_visible()


def assignments_panel(page: Any) -> None:
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.get_by_role("menuitem", name="Assignment List").click()


def wait_released(hub: Any, student: str, count: int = 1) -> None:
    """Wait until the watcher said ``count`` feedback releases of ``student``'s (3 min)."""
    end = time.monotonic() + 180
    while len(re.findall(rf"{student}: .*feedback released", hub.watch_said())) < count:
        assert time.monotonic() < end, hub.watch_said()
        time.sleep(0.2)


def score_of(page_html: str) -> float:
    found = re.search(r"plaisante: ([\d.]+) / ([\d.]+) points", page_html)
    assert found, page_html[:2000]
    return float(found.group(1))


def test_a_class_on_a_hub_whose_servers_share_no_folder(hub: Any, context: Any) -> None:
    import hub_class
    import hub_service_class as made_by

    alice, bob, carol = hub_class.STUDENTS
    # every server runs as the one Unix account, and there is no exchange folder
    assert not hasattr(hub, "exchange")
    # Bob and Carol: nbgrader's own commands, the same plugin, their own tokens (meanwhile)
    texts = hub_class.versions(4)
    others = {bob: hub.hand_in(bob, texts[3]), carol: hub.hand_in(carol, texts[0])}
    page = context.new_page()
    log_in(page, hub, alice)
    page.wait_for_selector(".jp-LabShell", timeout=120_000)
    assignments_panel(page)
    page.get_by_role("button", name="Fetch", exact=True).click()
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_visible(timeout=60_000)
    notebook = hub.home(alice) / "plaisante" / "plaisante.ipynb"
    assert notebook.is_file() and notebook.stat().st_uid == \
        hub_service_class_uid(made_by.JOVYAN)

    page.goto(f"{hub.url}/user/{alice}/lab/tree/plaisante/plaisante.ipynb")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell",
                           timeout=60_000)
    cells = nbformat.read(notebook, as_version=4).cells
    index = {c.metadata.get("nbgrader", {}).get("grade_id"): n for n, c in enumerate(cells)}
    write_cell(page, index["step1_card_code"], student_code("step1_card_code"))
    assignments_panel(page)
    page.get_by_role("tab", name="Assignments").click()
    rows = page.locator("#submitted_assignments_list .nested_list_item")
    page.get_by_role("button", name="Submit", exact=True).click()
    expect(rows).to_have_count(1, timeout=60_000)

    for student, process in others.items():
        said = process.stdout.read() if process.stdout is not None else ""
        assert process.wait(timeout=300) == 0 and said.rstrip().endswith("submitted"), \
            f"{student}: {said[-3000:]}"

    hub.wait_watch()
    for student in (alice, bob, carol):
        wait_released(hub, student)
    board = hub.board()
    assert board["submitted"] == 3 and board["graded"] == 3, hub.watch_said()
    totals = {s["student"]: s["total"] for s in board["students"]}
    assert totals[carol] == 0 and 0 < totals[alice] < totals[bob], totals

    # feedback: Alice from the panel, Bob with nbgrader fetch_feedback
    page.get_by_role("button", name="Fetch Feedback").first.click()
    mine = hub.home(alice) / "plaisante" / "feedback"
    end = time.monotonic() + 60
    while not list(mine.glob("*/plaisante.html")):
        assert time.monotonic() < end, "Alice's feedback never arrived"
        time.sleep(0.2)
    alice_page = next(mine.glob("*/plaisante.html"))
    assert score_of(alice_page.read_text(encoding="utf-8")) == totals[alice]
    hub.nbgrader(bob, "fetch_feedback", "plaisante")
    bob_pages = list((hub.home(bob) / "plaisante" / "feedback").glob("*/plaisante.html"))
    assert len(bob_pages) == 1
    assert score_of(bob_pages[0].read_text(encoding="utf-8")) == totals[bob]

    # the board, behind the hub's login: the TA sees it, with no token in its address
    ta_context = context.browser.new_context()
    try:
        ta = ta_context.new_page()
        log_in(ta, hub, hub_class.TA, then=hub.board_url.removeprefix(hub.url))
        expect(ta.locator("#submitted")).to_have_text("3 / 3", timeout=60_000)
        assert ta.url == hub.board_url and "token" not in ta.url
        expect(ta.locator(f"#students tr[data-student='{bob}'] td").nth(1)).to_have_text(
            f"{totals[bob]:g} / 100")
        a11y.assert_accessible(ta, where="the lab board behind the hub's login")
        SHOTS.mkdir(parents=True, exist_ok=True)
        for width in (1280, 800):
            ta.set_viewport_size({"width": width, "height": 900})
            ta.screenshot(path=str(SHOTS / f"hub-service-board-{width}.png"), full_page=True)
    finally:
        ta_context.close()
    # a student logged in to the hub gets no board
    answer = page.goto(hub.board_url)
    assert answer is not None and answer.status == 403
    assert "instructors and graders" in page.content()


def hub_service_class_uid(user: str) -> int:
    import pwd

    return pwd.getpwnam(user).pw_uid


def test_a_student_cannot_reach_another_students_work(hub: Any, browser_name: str) -> None:
    import hub_class
    import hub_service_class as made_by

    alice, bob, _ = hub_class.STUDENTS
    course = hub_class.COURSE_ID
    if not hub.watch_said():
        pytest.fail("the class test above did not run first")
    status, theirs = hub.call(hub.tokens[alice], "GET", f"submissions/{course}")
    assert status == 200 and theirs, theirs
    alice_id, alice_time = theirs[-1]["id"], theirs[-1]["timestamp"]

    # Bob's feedback answer holds his submissions only, never Alice's
    status, feedback = hub.call(hub.tokens[bob], "GET", f"feedback/{course}/plaisante")
    assert status == 200 and feedback and alice_time not in {f["timestamp"] for f in feedback}
    status, mine = hub.call(hub.tokens[bob], "GET", f"submissions/{course}")
    assert status == 200 and alice_id not in {s["id"] for s in mine}
    # Bob cannot submit as Alice: the service records whom the hub says called
    text = hub_class.versions(1)[0]
    import base64

    status, made = hub.call(hub.tokens[bob], "POST", f"submissions/{course}/plaisante", {
        "student": alice, "files": {"plaisante.ipynb": base64.b64encode(text.encode()).decode()}})
    assert status == 200 and made["student"] == bob
    status, after = hub.call(hub.tokens[alice], "GET", f"submissions/{course}")
    assert [s["id"] for s in after] == [s["id"] for s in theirs]
    # nor read Alice's submission, list the class, release, or write the board
    for method, path, body in (
            ("GET", f"submissions/{course}/plaisante/{alice}/{alice_id}", None),
            ("GET", f"submissions/{course}/plaisante", None),
            ("PUT", f"assignments/{course}/plaisante", {"files": {}}),
            ("PUT", f"board/{course}/plaisante", {"x": 1})):
        status, said = hub.call(hub.tokens[bob], method, path, body)
        assert status == 403 and f"{bob} may not" in said["message"], (path, said)
    # what is not there says so, in one line
    for path, said_then in ((f"assignments/{course}/nothere", "'nothere' is not released"),
                            ("assignments/another-course", "holds 'plaisante-kit' only")):
        status, said = hub.call(hub.tokens[bob], "GET", path)
        assert status == 404 and said_then in said["message"], said
    # nor read the service's store: it is another account's, mode 0700
    peek = hub.as_server(bob, ["ls", str(hub.store)], check=False)
    assert peek.returncode != 0 and "Permission denied" in peek.stderr
    assert hub.store.stat().st_mode & 0o777 == 0o700
    assert hub.store.stat().st_uid == hub_service_class_uid(made_by.EXCHANGE_USER)

    # a made-up token and an expired one identify no one
    status, said = hub.call("0" * 32, "GET", f"feedback/{course}/plaisante")
    assert status == 403 and "does not know this token" in said["message"]
    short = hub.make_token(bob, [made_by.ACCESS], expires_in=1)
    time.sleep(2.5)  # past its expiry, which the hub keeps in whole seconds
    status, said = hub.call(short, "GET", f"feedback/{course}/plaisante")
    assert status == 403 and "does not know this token" in said["message"]
    # a server's plugin with a made-up token fails with the service's reason, in one line
    failed = hub.as_server(bob, [hub.python, "-m", "nbgrader", "fetch_feedback", "plaisante"],
                           token="1" * 32, check=False)
    assert failed.returncode != 0 and "does not know this token" in failed.stderr


def test_the_grader_grades_but_cannot_release(hub: Any, browser_name: str) -> None:
    import hub_class

    ta = hub_class.TA
    course = hub_class.COURSE_ID
    # watch ran with the TA's token: it graded and released feedback (the class test)
    assert hub.watch_said().count("feedback released") >= 3, hub.watch_said()
    status, newest = hub.call(hub.tokens[ta], "GET", f"submissions/{course}/plaisante")
    assert status == 200 and {s["student"] for s in newest} == set(hub_class.STUDENTS)
    status, said = hub.call(hub.tokens[ta], "PUT", f"assignments/{course}/plaisante",
                            {"files": {}})
    assert status == 403 and "may not release" in said["message"]
    status, said = hub.call(hub.tokens[ta], "DELETE", f"assignments/{course}/plaisante")
    assert status == 403 and "may not remove" in said["message"]
    # through nbgrader's own release, in the TA's server: refused, the release unchanged
    failed = hub.as_server(ta, [hub.python, "-m", "nbgrader", "list", "--remove",
                                "plaisante"], check=False)
    assert failed.returncode != 0 and "may not remove" in failed.stderr
    status, released = hub.call(hub.tokens[ta], "GET", f"assignments/{course}")
    assert status == 200 and [a["assignment_id"] for a in released] == ["plaisante"]
