"""``plaisante similarity`` on the kit's sample class says why every pair is listed: the
samples are all made from the reference solution, so each pair is alike through it. Pairs
alike to each other but not to the reference (a copy of a classmate) get no such note."""

from __future__ import annotations

from pathlib import Path

import pytest
import similarity_support as planted_class
from course_cli import KIT, cli, new_course

from plaisante.intake import submitted
from plaisante.similarity.compare import similarity

ASSIGNMENT = "plaisante"
SAMPLES = KIT / "assignments" / "samples" / ASSIGNMENT


@pytest.fixture(scope="module")
def samples_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course whose students handed in the kit's samples of Plaisante, one each."""
    root = new_course(tmp_path_factory.mktemp("samples") / "course", ("solutions", "starter"))
    for sample in sorted(SAMPLES.glob("*.ipynb")):
        submitted.submit(sample, sample.stem.replace("_", "-"), root, assignment=ASSIGNMENT)
    return root


def test_the_sample_class_is_said_to_be_alike_through_the_reference(
        samples_class: Path) -> None:
    result = similarity(samples_class, ASSIGNMENT)
    assert len(result.pairs) > 20
    assert result.through_reference() == result.pairs
    done = cli("similarity", ASSIGNMENT, cwd=samples_class)
    flat = " ".join(done.stdout.split())
    assert ("Every pair listed: both sides are each 50% alike or more to the reference "
            "solution (solutions/), so they are alike through it.") in flat, done.stdout
    page = (samples_class / "assignments" / "reports" / ASSIGNMENT
            / "similarity.html").read_text(encoding="utf-8")
    assert "<p class='plaisante-note plaisante-through-reference'>Every pair listed" in page
    # an option is typed as written: the page keeps it whole (<code>, white-space: nowrap)
    assert "leaked solution (<code>--include-reference</code> ranks it with them)" in page
    assert ".plaisante-similarity .plaisante-note code { white-space: nowrap; }" in page


def test_a_copy_of_a_classmate_is_not_said_to_come_from_the_reference(
        tmp_path: Path) -> None:
    root = new_course(tmp_path / "course", ("solutions", "starter"))
    for student, cells in planted_class.planted().items():
        if student in ("honest-a", "copy-a", "honest-b", "leaker"):
            notebook = planted_class.write(tmp_path / f"{student}.ipynb", cells, "")
            submitted.submit(notebook, student, root, assignment=ASSIGNMENT)
    submitted.submit(SAMPLES / "full_marks.ipynb", "sampled", root, assignment=ASSIGNMENT)
    result = similarity(root, ASSIGNMENT)
    listed = {frozenset((p.a.student, p.b.student)) for p in result.pairs}
    assert frozenset(("copy-a", "honest-a")) in listed
    through = {frozenset((p.a.student, p.b.student)) for p in result.through_reference()}
    assert through == {frozenset(("leaker", "sampled"))}
    assert result.like_reference == {"leaker", "sampled"}
    done = cli("similarity", ASSIGNMENT, cwd=root)
    assert (f"1 of the {len(result.pairs)} pairs listed: both sides"
            in " ".join(done.stdout.split())), done.stdout
    assert not similarity(root, ASSIGNMENT, include_reference=True).like_reference
