"""Planted submissions for the similarity report (``plaisante similarity``): two independent
correct solutions of the plaisante assignment written in different hands, and the ways a
copy is disguised (renamed names, functions reordered, comments changed), plus the leaked
reference. ``tests/test_similarity.py`` and ``bench/similarity.py`` build classes from them."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import nbformat

KIT = Path(__file__).resolve().parents[1]
STARTER = KIT / "starter" / "plaisante" / "plaisante.ipynb"
SOURCE = KIT / "solutions" / "plaisante" / "plaisante.ipynb"
PLACEHOLDER = re.compile(r"^([ \t]*)# YOUR CODE HERE\n[ \t]*raise NotImplementedError\(\)",
                         re.MULTILINE)

#: a student who writes explicit loops; each list fills a cell's placeholders in order
HONEST_A: dict[str, list[str]] = {
    "step1_trace_answer": ["trace_values = [14, 10, 11]"],
    "step1_card_code": ['''
        if rank in RANKS and suit in SUITS:
            self.rank = rank
            self.suit = suit
            self.value = 2 + RANKS.index(rank)
        elif rank not in RANKS:
            raise ValueError("bad rank " + repr(rank) + ", use one of " + " ".join(RANKS))
        else:
            raise ValueError("bad suit " + repr(suit) + ", use one of " + " ".join(SUITS))''',
        '''
        if isinstance(other, Card):
            return self.rank == other.rank and self.suit == other.suit
        return False''',
        "return hash(self.rank + self.suit)",
        'return "Card(" + repr(self.rank) + ", " + repr(self.suit) + ")"'],
    "step2_trace_answer": ["trace_counts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0]"],
    "step2_count_values_code": ['''
        result = []
        for v in range(15):
            result.append(0)
        for c in cards:
            result[c.value] = result[c.value] + 1
        return result'''],
    "step2_my_tests_code": ['''
        empty = count_values([])
        assert empty == [0 for _ in range(15)]
        kings = count_values(hand("K♠ K♣ 2♦"))
        assert kings[13] == 2 and kings[2] == 1
        assert sum(kings) == 3 and len(kings) == 15
        mixed = hand("A♥ A♦ A♣ 7♠ 7♥ 3♦")
        assert count_values(mixed)[14] == 3
        assert count_values(mixed)[7] == 2
        assert len(mixed) == 6'''],
    "step3_trace_answer": ["trace_pair_answers = [False, True]"],
    "step3_has_checks": ['''
        counts = count_values(cards)
        for n in counts:
            if n == 2:
                return True
        return False''', '''
        for n in count_values(cards):
            if n == 3:
                return True
        return False''', '''
        for n in count_values(cards):
            if n == 4:
                return True
        return False''', '''
        pairs = 0
        for n in count_values(cards):
            if n == 2:
                pairs += 1
        return pairs == 2''', '''
        found_three = False
        found_two = False
        for n in count_values(cards):
            if n == 3:
                found_three = True
            if n == 2:
                found_two = True
        return found_three and found_two''', '''
        if len(cards) != 5:
            return False
        first = cards[0].suit
        for c in cards:
            if c.suit != first:
                return False
        return True''', '''
        if len(cards) != 5:
            return False
        vals = sorted(c.value for c in cards)
        for i in range(4):
            if vals[i + 1] != vals[i] + 1:
                return False
        return True'''],
    "step3_my_tests_code": ['''
        quads = hand("9♠ 9♥ 9♦ 9♣ 2♠")
        trips = hand("5♠ 5♥ 5♦ K♣ 2♠")
        boat = hand("5♠ 5♥ 5♦ K♣ K♠")
        twopair = hand("5♠ 5♥ Q♦ Q♣ 2♠")
        assert has_pair(twopair) and has_pair(boat)
        assert not has_pair(quads) and not has_pair(trips)
        assert has_three_of_a_kind(trips) and not has_three_of_a_kind(quads)
        assert has_four_of_a_kind(quads) and not has_four_of_a_kind(boat)
        assert has_two_pair(twopair) and not has_two_pair(boat)
        assert has_full_house(boat) and not has_full_house(trips)'''],
    "step4_trace_answer": ["trace_wrong_order_name = THREE_OF_A_KIND\n"
                           "trace_full_house_score = (13 + 13 + 13 + 3 + 3) * 7"],
    "step4_scoring": ['''
        checks = [(has_four_of_a_kind, FOUR_OF_A_KIND), (has_full_house, FULL_HOUSE),
                  (has_flush, FLUSH), (has_straight, STRAIGHT),
                  (has_three_of_a_kind, THREE_OF_A_KIND), (has_two_pair, TWO_PAIR),
                  (has_pair, PAIR)]
        for check, name in checks:
            if check(cards):
                return name
        return HIGH_CARD''', '''
        total = 0
        for c in cards:
            total += c.value
        return total''', "return MULTIPLIERS[evaluate(cards)]",
        "return total_value(cards) * base_mult(cards)"],
    "step5_trace_answer": ["trace_selected = [4, 0]"],
    "step5_tableau": ['''
        if card in self.selected:
            self.selected = [c for c in self.selected if c != card]
        else:
            if len(self.selected) < MAX_SELECTED:
                self.selected = self.selected + [card]''', '''
        moving = list(self.selected)
        self.held_cards = [c for c in self.held_cards if c not in moving]
        self.play_area.extend(moving)
        self.selected = []'''],
}

#: another student, who writes comprehensions and built-ins, independently of the first
HONEST_B: dict[str, list[str]] = {
    "step1_trace_answer": ["trace_values = [14, 10, 11]"],
    "step1_card_code": ['''
        for what, given, allowed in (("rank", rank, RANKS), ("suit", suit, SUITS)):
            if given not in allowed:
                raise ValueError(f"{what} {given!r} is not allowed: {allowed}")
        self.rank, self.suit = rank, suit
        self.value = {r: i for i, r in enumerate(RANKS, start=2)}[rank]''',
        "return isinstance(other, Card) and (other.rank, other.suit) == (self.rank, self.suit)",
        "return hash((self.suit, self.rank))",
        'return "Card({!r}, {!r})".format(self.rank, self.suit)'],
    "step2_trace_answer": ["trace_counts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0]"],
    "step2_count_values_code": ['''
        values = [card.value for card in cards]
        return [values.count(v) for v in range(15)]'''],
    "step2_my_tests_code": ['''
        for cards, slot, expected in [([], 5, 0), (hand("3♣ 3♦"), 3, 2),
                                      (hand("A♠"), 14, 1), (hand("Q♠ Q♥ Q♦ J♣"), 12, 3)]:
            got = count_values(cards)
            assert got[slot] == expected, (cards, slot, got)
            assert len(got) == 15 and got[0] == got[1] == 0'''],
    "step3_trace_answer": ["trace_pair_answers = [False, True]"],
    "step3_has_checks": [
        "return count_values(cards).count(2) >= 1",
        "return any(n == 3 for n in count_values(cards))",
        "return max(count_values(cards)) == 4",
        "return len([n for n in count_values(cards) if n == 2]) == 2",
        "return {2, 3} <= set(count_values(cards))",
        "return len(cards) == 5 and all(c.suit == cards[0].suit for c in cards)", '''
        distinct = sorted({c.value for c in cards})
        return len(cards) == 5 and len(distinct) == 5 and distinct[-1] - distinct[0] == 4'''],
    "step3_my_tests_code": ['''
        cases = {
            "K♣ K♦ 4♠ 8♥ J♣": (True, False, False, False, False),
            "K♣ K♦ K♠ 8♥ J♣": (False, True, False, False, False),
            "K♣ K♦ K♠ K♥ J♣": (False, False, True, False, False),
            "K♣ K♦ 8♠ 8♥ J♣": (True, False, False, True, False),
            "K♣ K♦ K♠ 8♥ 8♣": (True, True, False, False, True),
        }
        checks = (has_pair, has_three_of_a_kind, has_four_of_a_kind, has_two_pair,
                  has_full_house)
        for text, answers in cases.items():
            assert tuple(check(hand(text)) for check in checks) == answers, text'''],
    "step4_trace_answer": ["trace_wrong_order_name = THREE_OF_A_KIND\n"
                           "trace_full_house_score = 42 * 7"],
    "step4_scoring": ['''
        counts = sorted(count_values(cards), reverse=True)
        if counts[0] == 4:
            return FOUR_OF_A_KIND
        elif counts[0] == 3 and counts[1] == 2:
            return FULL_HOUSE
        elif has_flush(cards):
            return FLUSH
        elif has_straight(cards):
            return STRAIGHT
        elif counts[0] == 3:
            return THREE_OF_A_KIND
        elif counts[:2] == [2, 2]:
            return TWO_PAIR
        return PAIR if counts[0] == 2 else HIGH_CARD''',
        "return sum(c.value for c in cards)",
        "name = evaluate(cards)\nreturn MULTIPLIERS[name]",
        "points = total_value(cards)\nreturn points * base_mult(cards)"],
    "step5_trace_answer": ["trace_selected = [4, 0]"],
    "step5_tableau": ['''
        try:
            self.selected.remove(card)
        except ValueError:
            if len(self.selected) < MAX_SELECTED:
                self.selected.append(card)''', '''
        while self.selected:
            card = self.selected.pop(0)
            self.held_cards.remove(card)
            self.play_area.append(card)'''],
}


def starter() -> nbformat.NotebookNode:
    return nbformat.read(STARTER, as_version=4)


def _gid(cell: nbformat.NotebookNode) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def fill(source: str, bodies: list[str]) -> str:
    """The starter cell ``source`` with its placeholders replaced, in order, by ``bodies``
    (each at the placeholder's indentation); a cell with no placeholder becomes the bodies."""
    queue = list(bodies)
    if not PLACEHOLDER.search(source):
        return "\n".join(textwrap.dedent(b).strip("\n") for b in bodies)

    def body(match: re.Match[str]) -> str:
        if not queue:
            return match.group(0)
        return textwrap.indent(textwrap.dedent(queue.pop(0)).strip("\n"), match.group(1))

    return PLACEHOLDER.sub(body, source)


def cells_of(answers: dict[str, list[str]]) -> dict[str, str]:
    """{grade id: the answer cell's whole source} for a student whose bodies are ``answers``."""
    return {gid: fill(cell.source, answers[gid]) for cell in starter().cells
            if (gid := _gid(cell)) in answers}


def leaked_reference() -> dict[str, str]:
    """The reference solution's answer cells as a student who got hold of it hands them in:
    the source notebook's, its ``### BEGIN/END SOLUTION`` lines removed."""
    source = nbformat.read(SOURCE, as_version=4)
    return {gid: "\n".join(line for line in cell.source.split("\n")
                           if "### BEGIN SOLUTION" not in line
                           and "### END SOLUTION" not in line)
            for cell in source.cells
            if (gid := _gid(cell)) and cell.metadata["nbgrader"].get("solution")}


def rename(cells: dict[str, str], names: dict[str, str]) -> dict[str, str]:
    """``cells`` with every whole-word name of ``names`` renamed."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return {gid: pattern.sub(lambda m: names[m.group(1)], text) for gid, text in cells.items()}


def reorder(cells: dict[str, str], seed: int = 0) -> dict[str, str]:
    """``cells`` with the top-level functions of each cell in another order (reversed, or
    shuffled with ``seed``)."""
    out = {}
    for gid, text in cells.items():
        parts = re.split(r"\n\n+(?=def )", text)
        if len(parts) > 1:
            parts = parts[::-1] if seed == 0 else random.Random(seed).sample(parts, len(parts))
        out[gid] = "\n\n\n".join(part.strip("\n") for part in parts)
    return out


def recomment(cells: dict[str, str]) -> dict[str, str]:
    """``cells`` with every comment removed, a comment of the copier's own over each ``return``
    and blank lines and spacing changed."""
    out = {}
    for gid, text in cells.items():
        lines = []
        for line in text.split("\n"):
            code = re.sub(r"\s+#.*$", "", line) if '"' not in line and "'" not in line else line
            if code.strip().startswith("#"):
                continue
            if code.strip().startswith("return"):
                indent = code[:len(code) - len(code.lstrip())]
                lines.append(f"{indent}# here we give back the answer we worked out")
            lines.append(code.replace(" == ", "==").replace(", ", ","))
        out[gid] = "\n".join(lines)
    return out


#: a copier's renames of the first student's names
RENAMES = {"result": "tally", "counts": "freq", "pairs": "npairs", "found_three": "has3",
           "found_two": "has2", "first": "suit0", "vals": "ordered", "total": "acc",
           "checks": "table", "check": "test", "moving": "chosen", "n": "k", "c": "x",
           "v": "slot", "empty": "none_counted", "kings": "two_kings", "mixed": "aces"}


def notebook(cells: dict[str, str], extra: str = "") -> nbformat.NotebookNode:
    """The starter with its answer cells' sources replaced by ``cells`` ({grade id: source});
    ``extra`` is appended to the last of them."""
    nb = starter()
    last = None
    for cell in nb.cells:
        if (gid := _gid(cell)) in cells:
            cell.source = cells[gid]
            last = cell
    if extra and last is not None:
        last.source += "\n" + extra
    return nb


def write(path: Path, cells: dict[str, str], extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook(cells, extra), path)
    return path


#: what a hostile student's code would run in the instructor's browser if the page let it:
#: the page's title becomes PWNED and ``window.pwned`` lists it
PAYLOAD = "document.title='PWNED';window.pwned=(window.pwned||[]).concat(['similarity'])"
HOSTILE = "\n".join([
    f"# <script>{PAYLOAD}</script> and a text-direction override: \u202eevil",
    f'shown = "<img src=x onerror=\\"{PAYLOAD}\\">"',
    f'link = "<a href=\\"javascript:{PAYLOAD}\\">a link</a>"',
])


def planted() -> dict[str, dict[str, str]]:
    """The planted class: {student id: answer cells}. ``copy-a`` is ``honest-a`` renamed and
    reordered, ``copy-b`` is ``honest-b`` with its comments and spacing changed, ``leaker``
    hands in the reference solution, ``hostile`` is ``honest-a`` plus ``HOSTILE`` (added by
    ``write`` through ``extra``)."""
    a, b = cells_of(HONEST_A), cells_of(HONEST_B)
    return {"honest-a": a, "honest-b": b, "copy-a": reorder(rename(a, RENAMES)),
            "copy-b": recomment(b), "leaker": leaked_reference(), "hostile": a}
