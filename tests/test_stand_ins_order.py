"""No hidden check stands in with a part that a later hidden check of the release checks.

A stand-in for an earlier part answers the kernel as often as it is asked, and the kernel can
keep its answers; hidden checks run in the release's order of test cells (``JudgedExecute``'s
``test_order``) so that a part's own hidden checks are over before any later cell stands in
with it (``tests/test_stand_ins_kept.py``, graded). That holds only while the assignments
keep to it: a hidden region that stood in with a part whose hidden checks come further down
would hand the kernel that part's answers first. (Visible checks run in place, before any
hidden one, with stand-ins that answer only the visible cases.) Checked here on every
assignment's reference, under the loopback judge: each stand-in other than a fixed answer
(``checking.Always``) that a hidden region gives is recorded, and no later hidden region
(students' own tests aside: they run last, each run in a kernel of its own) may read that
part."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from loopback_judge import judged, kernel_namespace, loopback

from plaisante.games import COURSE
from plaisante.grading import judge
from plaisante.grading.judge import judge_cell, names_read, split_hidden
from plaisante.student_side.checking import Always, visible_answers_only


@pytest.mark.parametrize("assignment", COURSE)
def test_a_part_stood_in_for_is_checked_by_no_later_test_cell(
        assignment: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source, tests, setup, names = judged(assignment)
    user_ns = kernel_namespace(source)
    given: set[str] = set()
    original = judge.Session.substituted

    @contextlib.contextmanager
    def recording(self: Any, function: Any, stand_ins: dict[str, Any]) -> Iterator[None]:
        given.update(name for name, value in stand_ins.items() if type(value) is not Always)
        with original(self, function, stand_ins):
            yield

    monkeypatch.setattr(judge.Session, "substituted", recording)
    stood_in: dict[str, str] = {}  # part -> the first test cell that stood in with it
    late = []
    for grade_id, code in tests.items():
        visible, hidden = split_hidden(code)
        with visible_answers_only():
            assert judge_cell(visible, setup, names, loopback(user_ns)).passed, grade_id
        if hidden is None or "grade_my_tests(" in hidden:
            continue
        late += [(part, stood_in[part], grade_id) for part in names_read(hidden)
                 if part in names and part in stood_in]
        given.clear()
        verdict = judge_cell(hidden, setup, names, loopback(user_ns))
        assert verdict.passed, (grade_id, verdict.error)
        for part in given:
            stood_in.setdefault(part, grade_id)
    assert stood_in, "no stand-in was recorded: the recording missed them"
    assert not late, [f"{cell} stands in with {part}, which {later} checks later"
                      for part, cell, later in late]
