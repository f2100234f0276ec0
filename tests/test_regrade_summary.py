"""What regrade says after grading again: score changes and flag changes apart, each named."""

from __future__ import annotations

from plaisante.commands.regrade import regrade_summary


def test_unchanged_scores_are_not_counted_as_score_changes():
    before = {"alice": (100.0, True), "bob": (98.0, False), "carol": (50.0, False),
              "erin": (40.0, False)}
    after = {"alice": (100.0, False), "bob": (100.0, False), "carol": (50.0, False),
             "dan": (70.0, False), "erin": (43.0, True)}
    assert regrade_summary("plaisante", before, after) == [
        "plaisante regrade: 3 score(s) of 'plaisante' changed:",
        "  bob: 98 -> 100  (+2)",
        "  dan: not graded -> 70",
        "  erin: 40 -> 43  (+3)",
        "plaisante regrade: 2 flag(s) of 'plaisante' changed:",
        "  alice: flagged -> not flagged (score 100, unchanged)",
        "  erin: not flagged -> flagged (score 40 -> 43)",
        "Return the new feedback with `plaisante feedback plaisante`.",
    ]


def test_only_flags_changed_says_no_score_changed():
    before = {f"s{i}": (100.0, True) for i in range(9)}
    after = {f"s{i}": (100.0, False) for i in range(9)}
    lines = regrade_summary("plaisante", before, after)
    assert lines[0] == "plaisante regrade: no score of 'plaisante' changed"
    assert lines[1] == "plaisante regrade: 9 flag(s) of 'plaisante' changed:"
    assert lines[2] == "  s0: flagged -> not flagged (score 100, unchanged)"
    assert len(lines) == 12


def test_nothing_changed_says_so_in_one_line():
    same = {"alice": (100.0, False)}
    assert regrade_summary("plaisante", same, dict(same)) == [
        "plaisante regrade: no score of 'plaisante' changed"]
