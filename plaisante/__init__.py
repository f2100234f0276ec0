"""Plaisante Kit: a Jupyter teaching kit around a card game, graded with nbgrader.

``plaisante.cards`` and ``plaisante.rules`` state the game (SPEC §2); ``plaisante.checks`` holds
the visible checks of every step; ``plaisante.game`` is the round (no widgets);
``plaisante.view`` draws it with ipywidgets; ``play`` is the notebook's last cell.
"""

from .gate import play

__all__ = ["play"]
