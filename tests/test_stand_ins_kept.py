"""What a known-good stand-in answers, a kernel can keep; it never answers a graded check.

While a later part is checked on known-good earlier ones, the kernel asks the grader's
stand-ins as often as it likes (within ``MAX_STAND_IN_CALLS`` a call) and can keep every answer.
A part whose inputs are few (a sort key of 52 cards, a card's strength) could then answer its
own hidden checks, which run after every cell, from that table. So while the notebook's cells
run a stand-in answers only the visible cases, as in the student's own notebook
(``checking.visible_answers_only``), and the hidden checks run in the release's order, each
part's before any later step's hidden checks stand in with it, wherever the submission moved
its test cells. Graded for real: a notebook that keeps the stand-in's answers, its test cells
in place or the later step's hidden cell moved above the earlier one's, scores what the same
notebook without the keeping scores."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from course_cli import cli, new_course

from plaisante.course import CourseLayout

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]

#: deck: sort_key answers from a table the stand-in filled while order_hand was checked (the
#: whole deck), else from the visible case's order, else by value alone (no idea of suits)
DECK_KEY = '''_KEYS = {}
_VISIBLE = ["2♣", "10♣", "A♣", "2♦", "K♦", "3♥", "9♠", "A♠"]


def sort_key(card):
    """Return the key that orders cards by suit, then by value."""
    if (card.rank, card.suit) in _KEYS:
        return _KEYS[(card.rank, card.suit)]
    if labels([card]) in _VISIBLE:
        return (_VISIBLE.index(labels([card])), 0)
    return (card.value, 0)


def order_hand(hand):
    """Return a new list of hand's cards ordered by sort_key; hand is unchanged."""
KEEP
    return sorted(hand, key=sort_key)
'''
DECK_KEEP = '''    for _card in [KitCard(rank, suit) for suit in SUITS for rank in RANKS]:
        try:
            _KEYS[(_card.rank, _card.suit)] = sort_key(_card)
        except Exception:
            pass'''

#: tricks: trick_strength from a table the stand-in filled while sort_hand was checked, else
#: the visible hearts' order, else the face value (the 10 below the jack)
TRICKS_STRENGTH = '''_STRENGTH = {}
_HEARTS = ["7♥", "8♥", "9♥", "J♥", "Q♥", "K♥", "10♥", "A♥"]


def trick_strength(card):
    """Return an int: the stronger the card inside its suit, the bigger."""
    if card.rank not in "7 8 9 10 J Q K A".split():
        raise ValueError(f"no {card.rank} in the 32-card deck; allowed ranks: 7 8 9 10 J Q K A")
    if (card.rank, card.suit) in _STRENGTH:
        return _STRENGTH[(card.rank, card.suit)]
    if labels([card]) in _HEARTS:
        return _HEARTS.index(labels([card]))
    return card.value
'''
TRICKS_SORT = '''def sort_hand(hand):
    """Return a new list of hand's cards: by suit, then by trick_strength, weakest first."""
KEEP
    return sorted(hand, key=lambda card: (SUITS.index(card.suit), trick_strength(card)))
'''
TRICKS_KEEP = '''    for _suit in SUITS:
        for _rank in "7 8 9 10 J Q K A".split():
            try:
                _STRENGTH[(_rank, _suit)] = trick_strength(KitCard(_rank, _suit))
            except Exception:
                pass'''

#: game: ({answer cell's grade_id: source with KEEP where the keeping goes}, the keeping)
KEEPING = {
    "deck": ({"step5_order_code": DECK_KEY}, DECK_KEEP),
    "tricks": ({"step1_trick_strength_code": TRICKS_STRENGTH,
                "step2_sort_hand_code": TRICKS_SORT}, TRICKS_KEEP),
}

#: game: (the hidden cell of the part the table answers, that of the part the stand-in
#: answers while it is checked): moving the second above the first once ran its hidden checks
#: first, so the table was full when the first part's were asked (deck: 97 → 100)
MOVED = {"deck": ("step5_sort_key_hidden", "step5_order_hand_hidden"),
         "tricks": ("step1_trick_strength_hidden", "step2_sort_hand_hidden")}


def notebook(game: str, keeping: bool, moved: bool = False) -> nbformat.NotebookNode:
    """Full marks with the answer cells of ``KEEPING[game]``, keeping the stand-in's answers
    or not (``pass`` in their place); with ``moved``, the later part's hidden cell moved just
    above the earlier part's (``MOVED``)."""
    cells, keep = KEEPING[game]
    found = nbformat.read(CourseLayout(ROOT).samples(game) / "full_marks.ipynb", as_version=4)
    for cell in found.cells:
        source = cells.get(cell.metadata.get("nbgrader", {}).get("grade_id"))
        if source is not None:
            cell.source = source.replace("KEEP", keep if keeping else "    pass")
    if moved:
        ids = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in found.cells]
        earlier, later = MOVED[game]
        cell = found.cells.pop(ids.index(later))
        found.cells.insert(ids.index(earlier), cell)
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with both games of ``KEEPING`` released, each with 'keeps', 'asks' and
    'moves' submitted (``notebook``), graded by one ``plaisante grade`` of both."""
    root = new_course(tmp_path_factory.mktemp("stand-ins") / "course", ("solutions",))
    cli("release", *sorted(KEEPING), cwd=root, course=root)
    for game in sorted(KEEPING):
        folder = tmp_path_factory.mktemp(f"{game}-class")  # one submit of <student>.ipynb
        for student, keeping, moved in (("keeps", True, False), ("asks", False, False),
                                        ("moves", True, True)):
            nbformat.write(notebook(game, keeping, moved), folder / f"{student}.ipynb")
        cli("submit", str(folder), "--assignment", game, cwd=root, course=root)
    cli("grade", *sorted(KEEPING), cwd=root, course=root)
    return root


@pytest.mark.parametrize("game", sorted(KEEPING))
def test_answers_kept_from_a_stand_in_earn_nothing(graded: Path, game: str) -> None:
    root = graded
    layout = CourseLayout(root)
    totals = {}
    for student in ("keeps", "asks", "moves"):
        graded = nbformat.read(layout.autograded(student, game), as_version=4)
        totals[student] = {cell.metadata["nbgrader"]["grade_id"]: cell.outputs
                           for cell in graded.cells
                           if cell.metadata.get("nbgrader", {}).get("grade")}
    failing = {student: sorted(grade_id for grade_id, outputs in cells.items()
                               if any(o.output_type == "error" for o in outputs))
               for student, cells in totals.items()}
    hidden = {"deck": "step5_sort_key_hidden", "tricks": "step1_trick_strength_hidden"}[game]
    assert failing["asks"] == [hidden], failing
    assert failing["keeps"] == failing["asks"], failing
    assert failing["moves"] == failing["asks"], failing
