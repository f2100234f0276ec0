"""``plaisante watch``'s parts that need no hub: reading nbgrader's inbound as an attacker
would fill it, collecting a submission folder, and the lab board's numbers."""

from __future__ import annotations

import json
import os
import pwd
import stat
import time
from pathlib import Path

import pytest

from plaisante.course import CourseLayout
from plaisante.grading.result import SubmissionResult
from plaisante.live import board
from plaisante.live.watch import SETTLE_SECONDS, collect, scan_inbound
from plaisante.results.scores import TestCell

ME = pwd.getpwuid(os.geteuid()).pw_name
TS = "2026-12-01 10:00:00.000000 UTC"


def handed(inbound: Path, name: str, files: dict[str, str], done: bool = True) -> Path:
    folder = inbound / name
    folder.mkdir(parents=True)
    for file, text in files.items():
        (folder / file).write_text(text)
    if done:
        folder.chmod(0o777)  # nbgrader's submit's last step
    return folder


def test_inbound_newest_per_owner_and_forgeries_refused(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    handed(inbound, f"{ME}+plaisante+{TS}+aaa", {"plaisante.ipynb": "{}"})
    time.sleep(0.02)
    handed(inbound, f"{ME}+plaisante+2020-01-01 00:00:00.000000 UTC+bbb",
           {"plaisante.ipynb": "{}"})  # an older name, made later: it is the newer one
    handed(inbound, f"{ME}+deck+{TS}+ccc", {"deck.ipynb": "{}"})  # another assignment
    other = "nobody" if ME != "nobody" else "root"
    handed(inbound, f"{other}+plaisante+{TS}+ddd", {"plaisante.ipynb": "{}"})  # not theirs
    handed(inbound, f"bad.name+plaisante+{TS}+eee", {"plaisante.ipynb": "{}"})
    handed(inbound, f"{ME}+plaisante+{TS}+fff", {"plaisante.ipynb": "{}"}, done=False)
    latest, refused = scan_inbound(inbound, "plaisante")
    assert list(latest) == [ME]
    assert latest[ME].name.endswith("+bbb")  # fff is still being copied: not yet
    assert any(line.startswith(f"{other}+plaisante") and f"claims to be {other}'s but {ME} "
               "made it" in line for line in refused), refused
    assert any("is not a student id" in line for line in refused), refused
    assert scan_inbound(tmp_path / "missing", "plaisante") == ({}, [])


def test_unfinished_folder_taken_after_settling(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    folder = handed(inbound, f"{ME}+plaisante+{TS}+aaa", {"plaisante.ipynb": "{}"}, done=False)
    assert scan_inbound(inbound, "plaisante")[0] == {}
    old = time.time() - SETTLE_SECONDS - 5
    os.utime(folder, (old, old))  # ctime cannot be set back: pretend the clock moved on
    import plaisante.live.watch as watch

    real = watch.time.time_ns
    try:
        watch.time.time_ns = lambda: real() + int((SETTLE_SECONDS + 1) * 1e9)  # type: ignore
        assert list(scan_inbound(inbound, "plaisante")[0]) == [ME]
    finally:
        watch.time.time_ns = real  # type: ignore[method-assign]


def test_collect_copies_regular_files_only_and_sets_the_time(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    folder = handed(inbound, f"{ME}+plaisante+{TS}+aaa",
                    {"plaisante.ipynb": '{"cells": []}', "data.txt": "x",
                     "timestamp.txt": "1999-01-01 00:00:00.000000 UTC",
                     "submission_secret.txt": "s3"})
    (folder / "link.txt").symlink_to("/etc/passwd")
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.txt").write_text("y")
    layout = CourseLayout(tmp_path / "course")
    previous = layout.submitted_root / ME / "plaisante"
    previous.mkdir(parents=True)
    (previous / "old.ipynb").write_text("{}")
    handin = scan_inbound(inbound, "plaisante")[0][ME]
    made = collect(layout, handin, "plaisante")
    assert made is not None and made.folder == previous
    target = made.folder
    assert sorted(p.name for p in target.iterdir()) == [
        "data.txt", "plaisante.ipynb", "submission_secret.txt", "timestamp.txt"]
    stamp = (target / "timestamp.txt").read_text()
    assert stamp.endswith(" UTC") and not stamp.startswith("1999")
    from nbgrader.utils import parse_utc

    assert abs(parse_utc(stamp).timestamp() - made.time / 1e9) < 1e-3
    assert made.time >= handin.arrived


def test_collect_follows_no_folder_swapped_in_after_the_scan(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    name = f"{ME}+plaisante+{TS}+aaa"
    handed(inbound, name, {"plaisante.ipynb": "mine"})
    secret = tmp_path / "grader-only"
    secret.mkdir()
    (secret / "plaisante.ipynb").write_text("SOLUTION")
    handin = scan_inbound(inbound, "plaisante")[0][ME]
    layout = CourseLayout(tmp_path / "course")
    # what renameat2(RENAME_EXCHANGE) does between watch's look and its copy
    (inbound / name).rename(tmp_path / "away")
    (inbound / name).symlink_to(secret)
    with pytest.raises(OSError):
        collect(layout, handin, "plaisante")
    assert not (layout.submitted_root / ME).exists()
    # another folder (a real one) in its place: refused, nothing copied either
    (inbound / name).unlink()
    handed(inbound, name, {"plaisante.ipynb": "SOLUTION"})
    with pytest.raises(ValueError, match="another folder was put in its place"):
        collect(layout, handin, "plaisante")
    assert not (layout.submitted_root / ME).exists()


def test_collect_copies_a_growing_file_up_to_its_size_and_refuses_a_huge_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import plaisante.live.watch as watch

    inbound = tmp_path / "inbound"
    folder = handed(inbound, f"{ME}+plaisante+{TS}+aaa", {"plaisante.ipynb": "0123456789"})
    layout = CourseLayout(tmp_path / "course")
    real_fstat = os.fstat

    def growing(fd: int) -> os.stat_result:  # the student's ftruncate, right after the look
        info = real_fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_size == 10:
            os.truncate(folder / "plaisante.ipynb", 50 * 2**20)
        return info

    monkeypatch.setattr(watch.os, "fstat", growing)
    collect(layout, scan_inbound(inbound, "plaisante")[0][ME], "plaisante")
    monkeypatch.undo()
    target = layout.submitted_root / ME / "plaisante"
    assert (target / "plaisante.ipynb").read_bytes() == b"0123456789"
    # sparse files cost the student nothing on disk: they count by their size
    big = handed(inbound, f"{ME}+plaisante+{TS}+bbb", {})
    for i in range(3):
        with open(big / f"part{i}.bin", "wb") as part:
            part.truncate(watch.MOST_FILE_BYTES - 1)
    handin = scan_inbound(inbound, "plaisante")[0][ME]
    assert handin.name.endswith("+bbb")
    with pytest.raises(ValueError, match=r"\+bbb: its files hold 360 MiB, more than the "
                       r"256 MiB a submission may; refused$"):
        collect(layout, handin, "plaisante")
    assert sorted(p.name for p in target.iterdir()) == ["plaisante.ipynb", "timestamp.txt"]


def test_a_notebook_rewritten_in_place_is_as_late_as_its_rewrite(tmp_path: Path) -> None:
    from nbgrader.utils import parse_utc

    inbound = tmp_path / "inbound"
    folder = handed(inbound, f"{ME}+plaisante+{TS}+aaa", {"plaisante.ipynb": "DRAFT"})
    layout = CourseLayout(tmp_path / "course")
    stamp = layout.submitted_root / ME / "plaisante" / "timestamp.txt"
    handin = scan_inbound(inbound, "plaisante")[0][ME]
    collect(layout, handin, "plaisante")
    first = parse_utc(stamp.read_text()).timestamp()
    time.sleep(0.05)
    (folder / "plaisante.ipynb").write_text("LATE")  # the folder's ctime does not move
    old = time.time() - 3600
    os.utime(folder / "plaisante.ipynb", (old, old))  # its mtime can be set back, not its ctime
    again = scan_inbound(inbound, "plaisante")[0][ME]
    assert again.arrived == handin.arrived
    collect(layout, again, "plaisante")
    assert (stamp.parent / "plaisante.ipynb").read_text() == "LATE"
    assert parse_utc(stamp.read_text()).timestamp() > first + 0.04
    # watch takes a folder it collected again only if it is newer than it was then
    made = collect(layout, again, "plaisante")
    assert made is not None and abs(parse_utc(stamp.read_text()).timestamp()
                                    - made.time / 1e9) < 1e-3
    assert collect(layout, again, "plaisante", newer_than=made.time) is None
    (folder / "plaisante.ipynb").write_text("LATER")
    later = collect(layout, again, "plaisante", newer_than=made.time)
    assert later is not None and later.time > made.time
    assert (stamp.parent / "plaisante.ipynb").read_text() == "LATER"


def test_names_are_said_with_control_characters_escaped(tmp_path: Path) -> None:
    inbound = tmp_path / "inbound"
    forged = ("\x1b[2J\x1b[Hx\nplaisante watch: amy: graded 100 of 100\x1b]0;pwned\x07"
              "\u202e+plaisante+t+r")
    handed(inbound, forged, {})
    os.mkdir(inbound / os.fsdecode(b"bad\xff\x9b+plaisante+t+r"))
    refused = scan_inbound(inbound, "plaisante")[1]
    assert sorted(refused) == [
        "\\x1b[2J\\x1b[Hx\\nplaisante watch: amy: graded 100 of 100\\x1b]0;pwned\\x07\\u202e"
        "+plaisante+t+r: '\\x1b[2J\\x1b[Hx\\nplaisante watch: amy: graded 100 of 100"
        "\\x1b]0;pwned\\x07\\u202e' is not a student id",
        "bad\\udcff\\udc9b+plaisante+t+r: 'bad\\udcff\\udc9b' is not a student id"]
    from plaisante.live.watch import shown

    assert shown("ok name+2026-12-01 é") == "ok name+2026-12-01 é"


def result(student: str, scores: dict[str, float], status: str = "graded",
           reasons: list[str] | None = None) -> SubmissionResult:
    r = SubmissionResult(student, "graded", cell_scores=scores, total=sum(scores.values()),
                         max_total=10.0)
    for reason in reasons or []:
        r.flag(reason)
    assert r.status == status
    return r


CELLS = [TestCell("step1_a", "step1", "# Step 1: a rank", False, 2.0),
         TestCell("step1_b", "step1", "hidden tests of step1", True, 3.0),
         TestCell("step2_a", "step2", "# Step 2: counts", False, 5.0)]


def test_board_numbers() -> None:
    results = {"amy": result("amy", {"step1_a": 2, "step1_b": 3, "step2_a": 0}),
               "ben": result("ben", {"step1_a": 2, "step1_b": 1, "step2_a": 0}),
               "cal": result("cal", {"step1_a": 0}, "flagged", ["timeout: cell step1_a"]),
               "zed": result("zed", {"step1_a": 2, "step1_b": 3, "step2_a": 5})}
    got = board.state("plaisante", results, ["amy", "ben", "cal", "dan", "eve"], CELLS,
                      {"step1": "Card", "step2": "Counting"}, now=5.0)
    assert (got["roster"], got["submitted"], got["graded"], got["flagged"]) == (6, 4, 3, 1)
    assert got["steps"] == [
        {"step": "step1", "title": "Card", "passing": 2, "of": 3, "points": 13 / 15},
        {"step": "step2", "title": "Counting", "passing": 1, "of": 3, "points": 1 / 3}]
    assert [(f["grade_id"], f["failing"]) for f in got["failing"]] == [("step2_a", 2),
                                                                      ("step1_b", 1)]
    assert got["failing"][1]["hidden"] is True
    assert got["not_started"] == ["dan", "eve"] and got["not_started_count"] == 2
    assert [s["student"] for s in got["students"]] == ["amy", "ben", "cal", "zed"]
    anonymous = board.state("plaisante", results, ["amy", "dan"], CELLS, {}, anonymous=True)
    text = board.to_json(anonymous)
    assert all(name not in text for name in ("amy", "ben", "cal", "dan", "zed"))
    assert anonymous["not_started_count"] == 1 and anonymous["steps"][0]["title"] == "step1"
    assert json.loads(text)["submitted"] == 4


def test_board_page_writes_values_as_text_only() -> None:
    html = board.page("plaisante", "<Plaisante>", anonymous=False)
    assert "&lt;Plaisante&gt;" in html and "<Plaisante>" not in html
    script = board.SCRIPT
    assert "textContent" in script
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_watch_refuses_a_bad_port(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from plaisante.cli import main

    assert main(["watch", "plaisante", "--board-port", port]) == 2
    assert "--board-port must be 0-65535" in capsys.readouterr().err


def test_board_server_answers_only_under_its_token(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    from course_cli import new_course

    from plaisante.live.watch import Board

    root = new_course(tmp_path / "course", ("solutions", "starter"))
    made = Board(CourseLayout(root), "plaisante", anonymous=True, port=0)
    try:
        made.update({"amy": result("amy", {"step1_card_values": 4.0})}, graded_count=1)
        url = made.url
        assert url.startswith("http://127.0.0.1:") and len(url.rstrip("/").rsplit("/", 1)[1]) > 20
        with urllib.request.urlopen(url + "board.json") as answer:
            data = json.loads(answer.read())
        assert data["submitted"] == 1 and data["graded_count"] == 1 and "amy" not in str(data)
        with urllib.request.urlopen(url) as answer:
            assert b"lab board" in answer.read()
        base = url.rsplit("/", 2)[0] + "/"
        for wrong in (base, base + "board.json", url + "../board.json", url + ".board.json.part",
                      url + "index.html/", base + "x" + url.rsplit("/", 2)[1] + "/"):
            with pytest.raises(urllib.error.HTTPError) as error:
                urllib.request.urlopen(wrong)
            assert error.value.code == 404, wrong
    finally:
        made.close()

