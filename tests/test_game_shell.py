"""The game shell every game shares (plaisante.games.shell): a student's error names the step
its assignment gives, calling a part turns its exception into that error, and a view's act()
says in one escaped line what happened."""

from __future__ import annotations

import importlib

import pytest

from plaisante.games import COURSE, load
from plaisante.games.shell import (
    IllegalAction,
    StudentCodeError,
    StudentParts,
    act,
    short,
    stopped_message,
)
from plaisante.student_side.markup import html

DECK = StudentParts(load("deck"))
PLAISANTE = StudentParts(load("plaisante"))


def test_an_error_names_the_step_its_assignment_gives() -> None:
    error = DECK.error("discard", "returned None")
    assert (error.step, error.function, error.error) == (4, "discard", None)
    assert str(error) == "step 4, discard: returned None"
    method = PLAISANTE.error("Tableau", "moved nothing", function="move_selected_to_play_area")
    assert (method.step, method.function) == (5, "move_selected_to_play_area")
    assert str(method) == "step 5, move_selected_to_play_area: moved nothing"


def test_a_name_that_is_no_part_is_refused_naming_the_parts() -> None:
    with pytest.raises(KeyError, match="'deal_from' is not a part of 'plaisante'; its parts: "
                                       "Card, count_values"):
        PLAISANTE.error("deal_from", "oops")
    with pytest.raises(KeyError, match="'Deal' is not a part of 'deck'"):
        with DECK.calling("Deal", "could not deal"):
            pass  # refused before the block runs


def test_calling_a_part_turns_its_exception_into_the_steps_error() -> None:
    with pytest.raises(StudentCodeError) as caught:
        with DECK.calling("deal", "could not deal"):
            raise ValueError("no <cards>")
    error = caught.value
    assert str(error) == "step 3, deal: could not deal: ValueError: no <cards>"
    assert type(error.error) is ValueError and error.__cause__ is error.error
    # a rule of the game or an error already naming its step goes through unchanged
    rule, named = IllegalAction("not now"), DECK.error("draw", "left 4 cards")
    for raised in (rule, named):
        with pytest.raises(type(raised)) as through:
            with DECK.calling("deal", "could not deal"):
                raise raised
        assert through.value is raised
    with pytest.raises(KeyboardInterrupt):
        with DECK.calling("deal", "could not deal"):
            raise KeyboardInterrupt


class Quit(BaseException):
    """A student's own class outside Exception."""


@pytest.mark.parametrize("raised", [SystemExit("bye"), Quit("stop <here>"), GeneratorExit()])
def test_a_part_that_exits_or_raises_past_exception_is_the_steps_error_too(raised) -> None:
    """An ``exit()`` left in a part (SystemExit) or a class of the student's own outside
    Exception once went through the game's click handler with no word on the screen."""
    with pytest.raises(StudentCodeError) as caught:
        with DECK.calling("deal", "could not deal"):
            raise raised
    assert caught.value.error is raised and caught.value.step == 3
    assert str(caught.value).startswith(f"step 3, deal: could not deal: {type(raised).__name__}")

    def clicked() -> None:
        with DECK.calling("deal", "could not deal"):
            raise raised

    assert act(clicked).startswith("⚠ Your code stopped the table (step 3, deal: could not "
                                   f"deal: {type(raised).__name__}")


def test_act_says_what_happened_in_one_line_of_text_the_view_escapes() -> None:
    done: list[int] = []
    assert act(lambda: done.append(1)) == "" and done == [1]

    def refused() -> None:
        raise IllegalAction("pick 1 to 8 <players>")

    assert act(refused) == "⚠ pick 1 to 8 <players>"
    assert html(act(refused)) == "⚠ pick 1 to 8 &lt;players&gt;"

    def broken() -> None:
        with DECK.calling("shuffle", "could not shuffle the deck"):
            raise RuntimeError("<img src=x onerror=alert(1)>")

    assert act(broken, "Your Machine stopped") == (
        "⚠ Your Machine stopped (step 2, shuffle: could not shuffle the deck: RuntimeError: "
        "<img src=x onerror=alert(1)>). Fix step 2 and run its cells again.")
    assert "<img" not in html(act(broken)) and "&lt;img src=x" in html(act(broken))
    assert stopped_message(DECK.error("deal", "a & b")) == (
        "⚠ Your code stopped the table (step 3, deal: a & b). Fix step 3 and run its cells "
        "again.")

    def kit_bug() -> None:
        raise ZeroDivisionError("the kit's own bug is not hidden")

    with pytest.raises(ZeroDivisionError):
        act(kit_bug)


def test_short_cuts_a_long_repr_and_survives_a_broken_one() -> None:
    assert short(list(range(100)), 20) == "[0, 1, 2, 3, 4, 5, …"
    assert len(short("x" * 500)) == 120

    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert short(Unprintable()) == "<unprintable: RuntimeError: no>"

    class Exits:
        def __repr__(self) -> str:
            raise SystemExit("gone")

    assert short(Exits()) == "<unprintable: SystemExit: gone>"


@pytest.mark.parametrize("game", COURSE)
def test_every_games_model_raises_the_shells_errors_and_keeps_no_step_table(game: str) -> None:
    """A model needs import no error class: STUDENT.error builds its StudentCodeError. What it
    does import of the two is the shell's, and it defines no exception class of its own."""
    model = importlib.import_module(f"plaisante.games.{game}.model")
    for name, shells in (("IllegalAction", IllegalAction),
                         ("StudentCodeError", StudentCodeError)):
        assert getattr(model, name, shells) is shells, f"{game}'s model has its own {name}"
    own = [name for name, value in vars(model).items() if isinstance(value, type)
           and issubclass(value, BaseException) and value.__module__ == model.__name__]
    assert own == [] and not hasattr(model, "STEP_OF")
    assert model.STUDENT.assignment is load(game)
