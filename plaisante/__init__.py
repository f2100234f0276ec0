"""Plaisante Kit: a Jupyter teaching kit of card-game assignments, graded with nbgrader.

Shared by every game: ``plaisante.cards`` (ranks, suits, notation, seeded decks),
``plaisante.hand_names``, ``plaisante.checking`` (what checks are made of),
``plaisante.card_widgets`` and ``plaisante.style``; ``plaisante.assignment`` (steps, the gate,
stand-ins). Each assignment lives in ``plaisante.games.<id>``; ``plaisante.course`` is the
course's folders and ``plaisante.grading`` the grader.
"""
