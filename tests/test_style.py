"""The stylesheet: the shared card table, checklist and pages in ``plaisante.style``; each game's
own CSS in its folder, put in front of that game's view only."""

from __future__ import annotations

import pytest

from plaisante.games import COURSE
from plaisante.style import CSS, STYLE, game_css, game_style

#: The class prefix of what only one game draws.
OWN = {"plaisante": ".plaisante-presenter", "deck": ".deck-table", "video_poker": ".vp-machine",
       "holdem": ".holdem-table", "tricks": ".tricks-table"}


def test_each_game_brings_its_own_css_and_only_its_view_carries_it() -> None:
    assert set(OWN) == set(COURSE)
    for game, prefix in OWN.items():
        assert prefix in game_css(game), game
        assert prefix not in STYLE, f"{game}'s CSS is in the shared stylesheet"
        style = game_style(game)
        assert style.startswith(f"<style>{CSS}") and style.endswith(f"{game_css(game)}</style>")
        others = [p for g, p in OWN.items() if g != game and p in style]
        assert others == [], f"{game}'s view carries {others}"


def test_a_name_that_is_no_game_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^game 'poker' has no stylesheet: "
                                         r"plaisante/games/poker/style.css is missing$"):
        game_css("poker")
    with pytest.raises(ValueError, match=r"^game '\.\./deck': a game's folder name is lowercase"):
        game_style("../deck")
