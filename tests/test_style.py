"""The stylesheet: the shared card table, checklist and pages in ``plaisante.student_side.style``;
each game's own CSS in its folder, put in front of that game's view only."""

from __future__ import annotations

import re

import pytest

from plaisante.games import COURSE
from plaisante.student_side.style import CSS, game_css, game_style


def classes(css: str) -> set[str]:
    """The class names a stylesheet's selectors use."""
    return set(re.findall(r"\.([A-Za-z_][\w-]*)\s*[{,:.\[ >+~]", css))


def test_each_game_brings_its_own_css_and_only_its_view_carries_it() -> None:
    """Every game of COURSE, a new one too: its view's style is the shared stylesheet then its
    own, and its own styles classes no other stylesheet styles."""
    shared = classes(CSS)
    for game in COURSE:
        style = game_style(game)
        assert style == f"<style>{CSS}{game_css(game)}</style>"
        others = set().union(*(classes(game_css(g)) for g in COURSE if g != game))
        own = classes(game_css(game)) - shared - others
        assert own, f"{game}'s style.css styles no class that is its own (the shared "\
            "stylesheet or another game's styles each of its classes)"


def test_a_name_that_is_no_game_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^game 'poker' has no stylesheet: "
                                         r"plaisante/games/poker/style.css is missing$"):
        game_css("poker")
    with pytest.raises(ValueError, match=r"^game '\.\./deck': a game's folder name is lowercase"):
        game_style("../deck")
