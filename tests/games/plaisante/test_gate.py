"""The last cell: the checklist while a step fails, the game once all pass (the gate)."""

import pytest
from display_support import WIDGET, shown

from plaisante.games.plaisante import ASSIGNMENT, setup
from plaisante.games.plaisante.setup import play
from plaisante.games.plaisante.view import RoundView
from plaisante.student_side import assignment


def check_all(**parts):
    return assignment.check_all(ASSIGNMENT, parts)


def not_started(*args, **kwargs):
    raise NotImplementedError()


def test_the_reference_passes_every_step(ref_parts):
    assert [(r.step, r.status) for r in check_all(**ref_parts)] == [
        (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass")]


def test_untouched_stubs_say_finish_step_n(ref_parts):
    parts = dict(ref_parts, Card=not_started, evaluate=not_started)
    results = check_all(**parts)
    assert [r.status for r in results] == ["todo", "pass", "pass", "todo", "pass"]
    assert results[0].detail == "finish step 1: Card still raises NotImplementedError"


def test_a_straight_that_ignores_duplicates_fails_step_3_naming_has_straight(ref, ref_parts):
    namespace = {"count_values": ref.count_values}
    exec("def has_straight(cards):\n"
         "    values = sorted(card.value for card in cards)\n"
         "    return len(values) == 5 and values[-1] - values[0] == 4\n", namespace)
    results = check_all(**dict(ref_parts, has_straight=namespace["has_straight"]))
    assert results[2].status == "fail"
    assert results[2].detail.startswith("has_straight(")
    html = assignment.checklist_html(results)
    assert "Step 3: the has-checks — fails" in html and "has_straight(" in html


def test_play_shows_the_checklist_not_the_game_while_a_step_fails(ref_parts):
    shown = play(**dict(ref_parts, Tableau=not_started))
    assert not isinstance(shown, RoundView)
    assert "Not yet: step 5 (Tableau)" in shown.value
    assert "finish step 5: Tableau still raises NotImplementedError" in shown.value


def test_play_shows_a_round_on_the_students_own_code(ref, ref_parts):
    view = play(**ref_parts, seed=3)
    assert isinstance(view, RoundView)
    assert all(type(card) is ref.Card for card in view.round.held_cards)
    assert view.round.evaluate is ref.evaluate and type(view.round.tableau) is ref.Tableau


def test_play_does_not_show_a_widget_under_nbgrader(ref_parts, monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert play(**ref_parts) is None
    assert "not shown while nbgrader runs" in capsys.readouterr().out


def test_play_names_a_missing_part(ref_parts):
    parts = dict(ref_parts)
    del parts["score"]
    with pytest.raises(TypeError, match="missing score"):
        play(**parts)


def test_a_part_whose_cell_failed_is_named_not_defined_yet(ref_parts):
    results = check_all(**dict(ref_parts, count_values=setup.count_values))
    assert results[1].status == "todo"
    assert results[1].detail.startswith("count_values (step 2) is not defined yet: run the cell")
    assert [r.status for r in results[2:]] == ["pass", "pass", "pass"]


def test_a_saved_checklist_keeps_its_html_and_a_line_to_run_the_cell(ref_parts):
    checklist = play(**dict(ref_parts, Tableau=not_started))
    stand_in, widget = shown(checklist)
    assert '<div class="plaisante-fallback-line">▶ Not yet: run this cell to see which step ' \
        "needs work.</div>" in stand_in["text/html"]
    assert "Not yet: step 5 (Tableau)" in widget["text/html"] == checklist.value
    assert widget["text/plain"] == "" and WIDGET in widget


PAYLOAD = "<img src=x onerror=alert(1)>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


def test_the_checklist_shows_what_a_students_part_raised_or_returned_escaped(ref_parts):
    def raising(*args, **kwargs):
        raise ValueError(PAYLOAD)

    def returning(*args, **kwargs):
        return PAYLOAD
    for part in (raising, returning):
        shown = play(**dict(ref_parts, evaluate=part))
        assert "Not yet: step 4" in shown.value and ESCAPED in shown.value
        assert "<img" not in shown.value


class Unreadable(AssertionError):
    """An assertion the student's code raises whose message cannot even be read."""

    def __str__(self) -> str:
        raise RuntimeError("not today")


def test_an_error_whose_message_lies_or_cannot_be_read_is_still_one_line(ref_parts):
    """The checklist and the lecture hall's checklist read a student's error message once, as
    a plain str: a message that raises is a line saying what it raised, a str whose methods lie
    to the escaper is escaped as any other, a long one is cut."""
    from live_html import Live, LyingText

    from plaisante.student_side.presenting import presenter_checklist_html

    for error, says in ((Unreadable(), "RuntimeError: not today"),
                        (ValueError(LyingText(PAYLOAD)), "ValueError: " + PAYLOAD),
                        (AssertionError("x" * 5000), "xxx…")):
        def evaluate(cards, error=error):
            raise error
        results = check_all(**dict(ref_parts, evaluate=evaluate))
        assert results[3].status == "fail" and results[3].detail.endswith(says)
        assert type(results[3].detail) is str and len(results[3].detail) <= 1000
        for page in (play(**dict(ref_parts, evaluate=evaluate)).value,
                     presenter_checklist_html(results, "Plaisante")):
            made = Live()
            made.feed(page)
            assert "img" not in made.tags and made.handlers == []
