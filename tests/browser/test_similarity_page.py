"""The similarity page (``plaisante similarity``) in Chromium: pairs ranked with the planted
copy first, each pair's code side by side with the matching regions marked, and a hostile
student's code shown as text: nothing of it runs, loads or links. The hostile student's id is
as long as an LMS name can make it, with no place to break: the page still fits the window
and no heading runs into the other side's code. On the kit's sample class, the note on pairs
alike through the reference keeps every option and folder it names on one line."""

from __future__ import annotations

from pathlib import Path

import a11y
import pytest
import similarity_support as planted_class
from course_cli import KIT, cli, new_course
from playwright.sync_api import Page, expect

from plaisante.intake import submitted

#: an id made from a long LMS name with no space or hyphen: one word of 150 characters
HOSTILE = "hostile_" + "x" * 142
STUDENTS = ("honest-a", "copy-a", "honest-b", HOSTILE)


@pytest.fixture(scope="module")
def similarity_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page the command writes for a small planted class (and a file that is no
    notebook), as the instructor gets it."""
    root = new_course(tmp_path_factory.mktemp("similarity-page") / "course",
                      ("solutions", "starter"))
    cells = planted_class.planted()
    made = tmp_path_factory.mktemp("planted")
    cells[HOSTILE] = cells.pop("hostile")
    for student in STUDENTS:
        extra = planted_class.HOSTILE if student == HOSTILE else ""
        path = planted_class.write(made / f"{student}.ipynb", cells[student], extra)
        submitted.submit(path, student, root, assignment="plaisante")
    (made / "broken.ipynb").write_text("not json", encoding="utf-8")
    submitted.submit(made / "broken.ipynb", "broken", root, assignment="plaisante")
    cli("similarity", "plaisante", cwd=root)
    return root / "assignments" / "reports" / "plaisante" / "similarity.html"


def test_the_page_ranks_the_copies_shows_them_side_by_side_and_runs_nothing_of_theirs(
        page: Page, similarity_page: Path, tmp_path: Path) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(similarity_page.as_uri())
    expect(page.locator("h1")).to_have_text("Plaisante (plaisante): similar submissions")
    rows = page.locator("tr[data-pair]")
    pairs = [rows.nth(i).get_attribute("data-pair") for i in range(rows.count())]
    assert set(pairs) == {"copy-a honest-a", f"copy-a {HOSTILE}", f"honest-a {HOSTILE}"}, pairs
    assert "honest-a honest-b" not in pairs
    expect(page.locator("[data-skipped='broken']")).to_contain_text("not valid JSON")
    a11y.assert_accessible(page, where="the similarity page")

    row = page.locator("tr[data-pair='copy-a honest-a']")
    row.get_by_role("link").click()
    section = page.locator("section[data-pair='copy-a honest-a']")
    expect(section).to_be_in_viewport()
    step = section.locator("pre[data-student='copy-a'][data-step='step3']")
    expect(step.locator("mark").first).to_be_visible()
    assert step.locator("mark").count() >= 1
    assert "has3" in step.inner_text()  # the copier's renamed variable, matched all the same
    # the starter's own lines are shown dimmed, never marked
    assert section.locator(".sim-provided mark").count() == 0
    expect(section.locator("pre[data-student='copy-a'][data-step='step1'] .sim-provided")
           .first).to_contain_text("class Card:")

    hostile = page.locator(f"pre[data-student='{HOSTILE}'][data-step='step5']").first
    expect(hostile).to_contain_text(f"# <script>{planted_class.PAYLOAD}</script>")
    expect(hostile).to_contain_text('<img src=x onerror=\\"document.title')
    expect(hostile).to_contain_text("\ufffdevil")
    assert page.locator("script, img, iframe, svg, a[href^='javascript']").count() == 0
    assert page.title() == "plaisante: similar submissions"
    assert page.evaluate("() => window.pwned") is None
    assert {url.split("#")[0] for url in asked} == {similarity_page.as_uri()}

    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(similarity_page.as_uri())
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        assert overflow <= width, (width, overflow)  # nothing wider than the window
        headings = page.locator(f"section[data-pair='copy-a {HOSTILE}'] h2, "
                                f"section[data-pair='copy-a {HOSTILE}'] h4")
        assert headings.count() > 2
        for heading in headings.all():  # none runs out of its box (into the other side's)
            assert heading.evaluate("h => h.scrollWidth <= h.clientWidth"), heading.inner_text()
        page.screenshot(path=str(tmp_path / f"similarity-{width}.png"), full_page=True)


@pytest.fixture(scope="module")
def samples_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page for a class that handed in the kit's samples: every pair is alike through the
    reference solution, so the page says so and names --include-reference."""
    root = new_course(tmp_path_factory.mktemp("similarity-samples") / "course",
                      ("solutions", "starter"))
    for sample in sorted((KIT / "assignments" / "samples" / "plaisante").glob("*.ipynb")):
        submitted.submit(sample, sample.stem.replace("_", "-"), root, assignment="plaisante")
    cli("similarity", "plaisante", cwd=root)
    return root / "assignments" / "reports" / "plaisante" / "similarity.html"


def test_an_option_the_note_names_is_never_broken_at_its_hyphens(
        page: Page, samples_page: Path, tmp_path: Path) -> None:
    """At 800 px the reference note once broke "--include-reference" after its "--"; each
    option and folder it names stays on one line, and the page does not scroll sideways."""
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(samples_page.as_uri())
        note = page.locator(".plaisante-through-reference")
        typed = note.locator("code")
        expect(typed).to_have_text(["solutions/", "assignments/samples/",
                                    "--include-reference"])
        for code in typed.all():  # one line box each: a break would make two
            assert code.evaluate("el => el.getClientRects().length") == 1, (width, code)
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        assert overflow <= width, (width, overflow)
        note.screenshot(path=str(tmp_path / f"note-{width}.png"))
