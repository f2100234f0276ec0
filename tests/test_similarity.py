"""The similarity report, ``plaisante similarity`` (docs/similarity.md): on the samples and a
planted class, the planted copies (renamed and reordered, comments changed, the leaked
reference) rank above every pair of independent work, the starter never counts, and what a
student wrote reaches the page inert."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
import similarity_support as planted_class
from course_cli import KIT, cli, new_course

from plaisante import course
from plaisante.intake import submitted
from plaisante.similarity.compare import (
    DEFAULT_THRESHOLD,
    REFERENCE,
    Fingerprints,
    Result,
    Work,
    answer_code,
    check_options,
    compare_class,
    read_class,
)

ASSIGNMENT = "plaisante"
NAMES = {"honest-a": "Ada Lovelace", "copy-a": "Carl Copy"}
#: pairs that are copies, and the groups of work written independently of each other
COPIES = {frozenset(p) for p in (("copy-a", "honest-a"), ("copy-b", "honest-b"),
                                 ("leaker", REFERENCE), ("hostile", "honest-a"),
                                 ("hostile", "copy-a"))}
FIRST = {"honest-a", "copy-a", "hostile"}
SECOND = {"honest-b", "copy-b"}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course with the samples of plaisante, the planted class, a file that is not a
    notebook, and roster names for two students."""
    root = new_course(tmp_path_factory.mktemp("similarity") / "course",
                      ("solutions", "starter"))
    made = tmp_path_factory.mktemp("planted")
    for student, cells in planted_class.planted().items():
        extra = planted_class.HOSTILE if student == "hostile" else ""
        notebook = planted_class.write(made / f"{student}.ipynb", cells, extra)
        submitted.submit(notebook, student, root, assignment=ASSIGNMENT)
    for sample in sorted((KIT / "assignments" / "samples" / ASSIGNMENT).glob("*.ipynb")):
        submitted.submit(sample, "sample-" + sample.stem.replace("_", "-"), root,
                         assignment=ASSIGNMENT)
    broken = made / "broken.ipynb"
    broken.write_text("{ not a notebook", encoding="utf-8")
    submitted.submit(broken, "broken", root, assignment=ASSIGNMENT)
    submitted.name_students(NAMES, root)
    return root


@pytest.fixture(scope="module")
def read(root: Path) -> tuple[list, list, Any]:
    """``read_class`` of the course, the reference included: (works, skipped, release)."""
    return read_class(root, ASSIGNMENT, include_reference=True)


def independent(a: str, b: str) -> bool:
    """True for two works written independently: the two honest students' groups, or either
    of them and the reference's family (the samples are built from it, the leaker is it)."""
    groups = [FIRST, SECOND]
    if any(a in g and b in g for g in groups):
        return False
    return (a in FIRST | SECOND) or (b in FIRST | SECOND)


def test_planted_copies_rank_above_every_independent_pair(read: tuple) -> None:
    works, skipped, release = read
    result = compare_class(works, release, ASSIGNMENT, threshold=0.001, skipped=skipped)
    scores = {frozenset((p.a.student, p.b.student)): p.likeness for p in result.pairs}
    assert result.pair_count == len(result.compared) * (len(result.compared) - 1) // 2
    copies = {pair: scores[pair] for pair in COPIES}
    others = {pair: scores.get(pair, 0.0)
              for pair in map(frozenset, itertools.combinations(
                  [w.student for w in result.compared], 2))
              if independent(*pair)}
    assert len(others) > 60
    assert min(copies.values()) > max(others.values()), (copies, max(others.values()))
    # each copy is found at the default threshold; no independent pair is
    assert min(copies.values()) >= DEFAULT_THRESHOLD > max(others.values())
    assert scores[frozenset(("copy-a", "honest-a"))] > 0.85  # renamed, reordered
    assert scores[frozenset(("copy-b", "honest-b"))] > 0.9  # comments and spaces changed
    assert scores[frozenset(("leaker", REFERENCE))] > 0.99
    assert scores.get(frozenset(("honest-a", "honest-b")), 0.0) < 0.15
    ranked = [frozenset((p.a.student, p.b.student)) for p in result.pairs]
    assert all(ranked.index(pair) < ranked.index(other) for pair in COPIES
               for other in others if other in ranked)


def test_the_fast_scores_are_copydetect_s_own(read: tuple) -> None:
    works, _, release = read
    prints = Fingerprints(works, release, 25)
    shares = prints.matrix(works, rows=5)  # several blocks of rows
    for i, j in list(itertools.combinations(range(len(works)), 2))[::11]:
        pair = prints.compare(works[i], works[j])
        assert (shares[i, j], shares[j, i]) == pytest.approx(
            (pair.similarity_a, pair.similarity_b), abs=1e-12)


def test_the_starter_s_own_lines_and_code_never_count(read: tuple) -> None:
    works, skipped, release = read
    assert answer_code(release, release) == {}  # the starter itself: nothing of its own
    assert {s.student: s.reason for s in skipped}["sample-untouched"] == \
        "no code of their own in the answer cells"
    honest = next(w for w in works if w.student == "honest-a").steps["step5"]
    assert "def deal_from" in honest.text and "deal_from" not in honest.masked()
    assert "self.selected = [c for c in self.selected if c != card]" in honest.masked()
    assert len(honest.masked()) == len(honest.text)
    copied = next(w for w in works if w.student == "copy-a").steps["step5"]
    # the copier renamed a word inside a provided docstring: that line counts as theirs, and
    # the code after it still reads as code
    assert "none_counted" in copied.masked()
    assert "self.held_cards = [x for x in self.held_cards if x not in chosen]" in \
        copied.masked()


def test_two_cells_broken_alike_by_a_string_left_open_are_not_alike(read: tuple) -> None:
    """A triple-quoted string left open makes the rest of its cell one string token a line,
    the same for every student: two unrelated answers broken so read as one long copy. What
    Python never reads as code is not compared; the code before it and in the step's other
    cells still is."""
    _, _, release = read
    tails = ["\n".join(f"    total_{i} = compute(cards, {i})" for i in range(30)),
             "\n".join(f"    for x in range({i}):\n        print(x * {i} - 1)" for i in range(15))]
    works = []
    for student, tail in zip(("open-a", "open-b"), tails):
        cells = {"step2_count_values_code": ('def count_values(cards):\n    seen = list(cards)\n'
                                             '    label = """Count them\n' + tail),
                 "step3_has_checks": f"def has_pair(cards):\n    return {student!r} in cards\n"}
        steps = answer_code(planted_class.notebook(cells), release)
        assert steps["step2"].unread
        assert steps["step2"].masked().split() == ["seen", "=", "list(cards)", "label", "="]
        assert "return" in steps["step3"].masked()
        works.append(Work(student, "", steps))
    pair = Fingerprints(works, release, 25).compare(*works)
    assert max(pair.similarity_a, pair.similarity_b) < DEFAULT_THRESHOLD, pair


def test_a_shell_escape_or_magic_quoting_three_quotes_hides_nothing(read: tuple) -> None:
    """``!echo '''`` or ``%env X='''`` opens no string in the kernel (IPython makes each
    line a call) and the code below it runs: it is compared, not taken for a string left
    open, or one line would hide a copied answer from the report."""
    _, _, release = read
    for line in ("!echo '''", "%env X='''"):
        cells = {"step2_count_values_code": f"{line}\ndef count_values(cards):\n"
                                            "    return sorted_by_rank_then_kept(cards)\n"}
        step = answer_code(planted_class.notebook(cells), release)["step2"]
        assert step.unread == (), line
        assert "sorted_by_rank_then_kept(cards)" in step.masked(), line


def test_the_command_prints_the_ranking_skips_what_it_cannot_read_and_writes_the_page(
        root: Path) -> None:
    reports = root / "assignments" / "reports" / ASSIGNMENT
    reports.mkdir(parents=True, exist_ok=True)  # the grader flagged copy-a (a timeout)
    (reports / "copy-a.json").write_text(json.dumps(
        {"status": "flagged", "reasons": ["cell step2_count_values timed out"], "notes": []}))
    done = cli("similarity", ASSIGNMENT, "--include-reference", cwd=root)
    out = done.stdout
    assert re.search(r"copy-a \(Carl Copy\) \[flagged\]\s+honest-a \(Ada Lovelace\)\s+9\d%",
                     out), out
    assert "skipped broken: invalid notebook: not valid JSON" in out
    assert "skipped sample-untouched: no code of their own in the answer cells" in out
    assert not re.search(r"honest-a.*honest-b|honest-b.*honest-a", out)
    page = root / "assignments" / "reports" / ASSIGNMENT / "similarity.html"
    assert f"plaisante similarity: wrote {page}" in out
    text = page.read_text(encoding="utf-8")
    assert "data-pair='copy-a honest-a'" in text and "data-pair='copy-b honest-b'" in text
    assert "data-pair='honest-a honest-b'" not in text
    # each ranking link is named for its pair, not only its first side: in a screen reader's
    # list of links "reference solution" would stand for every pair it is in
    assert "<a href='#pair-1' aria-label='reference solution and leaker, side by side'>" in text
    assert re.search(r"<a href='#pair-\d+' aria-label='copy-a and honest-a, side by side'>", text)
    # what the hostile student wrote is text on the page, never markup
    assert "<script" not in text and "<img" not in text and "<a href=\"javascript" not in text
    assert "&lt;script&gt;document.title=&#x27;PWNED&#x27;" in text
    assert "onerror=\\&quot;document.title" in text
    assert "\u202e" not in text and "\ufffdevil" in text
    # a comment after a match is not part of it (fingerprints hold no comments)
    assert "&lt;script&gt;" in text and not re.search(r"<mark>[^<]*&lt;script", text)
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    # a page opened from disk has only its <meta> policy, where CSP ignores these three
    # directives and Chromium logs an error on every load
    policy = re.search(r"http-equiv='Content-Security-Policy' content=\"([^\"]*)\"", text)
    assert policy is not None
    assert [d for d in ("frame-ancestors", "report-uri", "sandbox") if d in policy[1]] == []
    assert "<td>flagged: copy-a</td>" in text  # compared all the same, and marked


def test_bad_options_are_refused_in_one_line(root: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from plaisante.cli import main

    with pytest.raises(ValueError, match=r"threshold 0: give a share of the code between 0 "
                                         r"and 1"):
        check_options(0, 25)
    assert main(["--course", str(root), "similarity", ASSIGNMENT, "--min-match", "2"]) == 2
    assert capsys.readouterr().err == ("plaisante: min-match 2: give a number of characters "
                                       "of normalised code from 5 to 500 (default 25)\n")
    assert main(["--course", str(root), "similarity", ASSIGNMENT, "--threshold", "1.5"]) == 2
    assert capsys.readouterr().err.startswith("plaisante: threshold 1.5: give a share")
    assert main(["--course", str(root), "similarity", "nope"]) == 2
    assert "unknown assignment 'nope'" in capsys.readouterr().err


def test_the_class_report_links_to_the_similarity_page(root: Path) -> None:
    from nbgrader.api import Gradebook

    from plaisante.results import class_report as report
    from plaisante.similarity.page import write

    with Gradebook(course.CourseLayout(root).gradebook_url) as gradebook:
        gradebook.update_or_create_assignment(ASSIGNMENT)
    here = root / "assignments" / "reports" / ASSIGNMENT
    similar = here / "similarity.html"
    similar.unlink(missing_ok=True)
    assert "Not compared yet: <code>plaisante similarity plaisante</code> writes the page." in \
        report.page(root, ASSIGNMENT, ["h.png", "s.png", "f.png"], here)
    write(root, Result(ASSIGNMENT, 0.5, 25, [], []), "Plaisante")
    assert "<a href='similarity.html'>Pairs of students whose code is alike</a>" in \
        report.page(root, ASSIGNMENT, ["h.png", "s.png", "f.png"], here)


def test_a_long_ranking_shows_the_first_pairs_side_by_side(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from plaisante.similarity import page as similarity_page
    from plaisante.similarity.compare import Pair, StepCode, StepMatch, Work

    works = [Work(f"s{i}", "", {"step2": StepCode("def f(x):\n    return x <b>\n",
                                                   ((0, 9),))}) for i in range(4)]
    match = StepMatch("step2", 0.8, 0.7, ((14, 26),), ((14, 26),))
    pairs = [Pair(a, b, 0.8, 0.7, (match,)) for a, b in itertools.combinations(works, 2)]
    monkeypatch.setattr(similarity_page, "SHOWN", 2)
    text = similarity_page.page(Result(ASSIGNMENT, 0.5, 25, pairs, works), "Plaisante")
    assert text.count("<section") == 2 and text.count("<tr data-pair") == 6
    assert "The first 2 of the 6 pairs are shown side by side below" in text
    assert ("<span class='sim-provided'>def f(x):</span>\n    "
            "<mark>return x &lt;b&gt;</mark>\n") in text
    assert "<h3>step 2 · count_values</h3>" in text
