"""The exchange service's store (``plaisante.exchange_service.store``) without a hub: what it
takes from a caller, what it keeps, and who a submission is recorded as. The service on a real
hub, with its tokens and roles: ``tests/browser/test_hub_service.py``."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from plaisante.exchange_service import client, store
from plaisante.exchange_service.store import Store, StoreError

COURSE = "c101"
NB = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


@pytest.fixture
def made(tmp_path: Path) -> Store:
    made = Store(tmp_path / "store", COURSE)
    made.release(COURSE, "hw1", {"hw1.ipynb": NB, "data/cards.csv": b"a,b\n"})
    return made


def test_the_store_is_its_accounts_alone(made: Store) -> None:
    assert made.root.stat().st_mode & 0o777 == 0o700
    assert made.released(COURSE) == [{"assignment_id": "hw1", "notebooks": ["hw1"]}]
    assert sorted(p.relative_to(made.release_files(COURSE, "hw1")).as_posix() for p in
                  made.release_files(COURSE, "hw1").rglob("*") if p.is_file()) == \
        ["data/cards.csv", "hw1.ipynb"]


@pytest.mark.parametrize("name", ["../x.ipynb", "/etc/passwd", "a//b", "a/./b", "a/../../b",
                                  "", "a\x1b[2J.ipynb", "a\nb"])
def test_a_file_name_that_could_leave_its_folder_is_refused(name: str) -> None:
    with pytest.raises(StoreError) as error:
        store.relative_path(name)
    assert error.value.status == 400 and "relative path" in str(error.value)


def test_files_are_base64_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    assert store.decode_files({"a.ipynb": base64.b64encode(NB).decode()}) == {"a.ipynb": NB}
    for bad, said in ((["a"], "object"), ({"a": "***"}, "not base64"), ({"a": 3}, "object")):
        with pytest.raises(StoreError, match=said):
            store.decode_files(bad)
    monkeypatch.setattr(store, "MOST_FILES", 2)
    with pytest.raises(StoreError) as error:
        store.decode_files({f"{n}.txt": "" for n in range(3)})
    assert error.value.status == 413 and "at most 2" in str(error.value)
    monkeypatch.setattr(store, "MOST_BYTES", 10)
    with pytest.raises(StoreError, match="more than 0 MiB"):
        store.decode_files({"a": base64.b64encode(b"x" * 11).decode()})


def test_a_submission_is_the_callers_with_the_services_time(made: Store) -> None:
    first = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    second = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB + b" "})
    bob = made.submit(COURSE, "hw1", "bob", {"hw1.ipynb": NB})
    assert first.student == "alice" and first.id < second.id and first.ns < second.ns
    assert first.timestamp.endswith(" UTC")
    assert [(s.student, s.id) for s in made.newest(COURSE, "hw1")] == \
        [("alice", second.id), ("bob", bob.id)]
    again = made.submit(COURSE, "hw1", "bob", {"hw1.ipynb": NB})  # after the index is made
    assert [s.id for s in made.newest(COURSE, "hw1")] == [second.id, again.id]
    restarted = Store(made.root, COURSE)  # the service started again: read from its folder
    assert restarted.newest(COURSE, "hw1") == made.newest(COURSE, "hw1")
    sub, files, secret = made.submission_files(COURSE, "hw1", "alice", second.id)
    assert (files / "hw1.ipynb").read_bytes() == NB + b" " and len(secret) == 64
    assert sub == second
    # another student's id does not find it
    with pytest.raises(StoreError) as error:
        made.submission_files(COURSE, "hw1", "bob", second.id)
    assert error.value.status == 404


def test_two_submissions_in_one_tick_of_the_clock_get_two_times(
        made: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store.time, "time_ns", lambda: 1_796_000_000_000_000_000)
    one = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    two = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    assert one.ns < two.ns and one.timestamp != two.timestamp
    assert made.newest(COURSE, "hw1")[0].id == two.id


def test_what_cannot_be_submitted(made: Store) -> None:
    for args, status, said in (
            (("hw2", "alice", {"hw2.ipynb": NB}), 404, "not released"),
            (("hw1", "alice", {"notes.txt": b"x"}), 400, "no notebook"),
            (("hw1", "al/ice", {"hw1.ipynb": NB}), 404, "not an id"),
            (("hw1", "..", {"hw1.ipynb": NB}), 404, "not an id")):
        with pytest.raises(StoreError) as error:
            made.submit(COURSE, *args)
        assert error.value.status == status and said in str(error.value), args
    with pytest.raises(StoreError, match="holds 'c101' only"):
        made.submit("other", "hw1", "alice", {"hw1.ipynb": NB})


def test_a_student_submitting_in_a_loop_keeps_the_newest_only(
        made: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "KEPT_SUBMISSIONS", 3)
    made_ids = [made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB}) for _ in range(5)]
    made.add_feedback(COURSE, "hw1", "alice", made_ids[2].timestamp, {"hw1.html": b"<p>"})
    made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    kept = [s.id for _, s in made.submissions(COURSE, "hw1", "alice")]
    assert len(kept) == 3 and made_ids[2].id not in kept
    assert not (made.base / "feedback" / "hw1" / "alice" / made_ids[2].id).exists()


def test_feedback_goes_to_the_submission_graded(made: Store) -> None:
    one = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    two = made.submit(COURSE, "hw1", "alice", {"hw1.ipynb": NB})
    made.add_feedback(COURSE, "hw1", "alice", one.timestamp, {"hw1.html": b"<p>1</p>"})
    assert made.feedback(COURSE, "hw1", "alice", two.id) is None
    folder = made.feedback(COURSE, "hw1", "alice", one.id)
    assert folder is not None and (folder / "hw1.html").read_bytes() == b"<p>1</p>"
    with pytest.raises(StoreError) as error:  # bob has no submission at alice's time
        made.add_feedback(COURSE, "hw1", "bob", one.timestamp, {"hw1.html": b"x"})
    assert error.value.status == 404
    for name in ("../hw1.html", "hw1.ipynb", "sub/hw1.html"):
        with pytest.raises(StoreError, match="NOTEBOOK.html only"):
            made.add_feedback(COURSE, "hw1", "alice", one.timestamp, {name: b"x"})


def test_the_board_is_a_json_object(made: Store) -> None:
    with pytest.raises(StoreError) as error:
        made.board(COURSE, "hw1")
    assert error.value.status == 404 and "plaisante watch hw1" in str(error.value)
    for bad in (b"[1]", b"<script>", b"{" * 10):
        with pytest.raises(StoreError, match="JSON object"):
            made.put_board(COURSE, "hw1", bad)
    made.put_board(COURSE, "hw1", json.dumps({"submitted": 2}).encode())
    assert json.loads(made.board(COURSE, "hw1")) == {"submitted": 2}


def test_the_client_writes_nothing_outside_its_folder(tmp_path: Path) -> None:
    text = base64.b64encode(b"x").decode()
    with pytest.raises(StoreError):
        client.write_files(tmp_path / "a", {"../escaped": text})
    assert not (tmp_path / "escaped").exists()
    assert client.write_files(tmp_path / "a", {"d/e.txt": text}) == ["d/e.txt"]
    (tmp_path / "a" / "d" / "e.txt").write_text("mine")
    assert client.write_files(tmp_path / "a", {"d/e.txt": text}, only_missing=True) == []
    assert (tmp_path / "a" / "d" / "e.txt").read_text() == "mine"


def test_the_client_says_what_is_missing_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with pytest.raises(client.ServiceError, match="service_url"):
        client.ServiceClient("")
    with pytest.raises(client.ServiceError, match=r"JUPYTERHUB_API_TOKEN is not set"):
        client.ServiceClient("http://127.0.0.1:9/services/x/")
    unreachable = client.ServiceClient("http://127.0.0.1:9/services/x/", token="t")
    with pytest.raises(client.ServiceError, match="could not be reached") as error:
        unreachable.call("GET", "assignments", COURSE)
    assert error.value.status == 0 and "\n" not in str(error.value)


@pytest.mark.parametrize("files", [{"a": b"", "a/b.ipynb": NB}, {"a/b.ipynb": NB, "a": b""},
                                   {"x" * 300 + ".ipynb": NB}])
def test_files_that_cannot_all_be_written_are_refused_and_leave_nothing(
        made: Store, files: dict[str, bytes]) -> None:
    encoded = {n: base64.b64encode(d).decode() for n, d in files.items()}
    with pytest.raises(StoreError) as error:
        made.submit(COURSE, "hw1", "alice", store.decode_files(encoded))
    assert error.value.status == 400 and "\n" not in str(error.value)
    assert made.submissions(COURSE, "hw1", "alice") == []
    assert not (made.base / "submissions" / "hw1" / "alice").exists() or \
        list((made.base / "submissions" / "hw1" / "alice").iterdir()) == []

