"""The one policy of inert student content (``plaisante.inert``), the formgrader's Content
Security Policy (``plaisante.formgrader.policy``), roster names without markup and terminal
text without control sequences; each on the inputs a hostile student controls. The pages
themselves, in Chromium: ``tests/browser/test_instructor_pages.py``."""

from __future__ import annotations

import base64
import doctest
import json
from pathlib import Path

import nbformat
import pytest
from live_html import Live
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output, new_raw_cell

from plaisante import inert
from plaisante.formgrader import policy as formgrader_policy
from plaisante.results import tables
from plaisante.results.roster import read_roster

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
SCRIPT = "<script>document.title='PWNED'</script>"


def test_the_doctests_hold() -> None:
    for module in (inert, tables):
        assert doctest.testmod(module).failed == 0


def released_course(tmp_path: Path, markdown: str) -> Path:
    """A course root whose release of ``demo`` has one markdown cell (the instructor's)."""
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    release = tmp_path / "starter" / "demo" / "demo.ipynb"
    release.parent.mkdir(parents=True)
    nbformat.write(new_notebook(cells=[new_markdown_cell(markdown)]), release)
    return tmp_path


def inert_copy(nb, resources):
    out, _ = inert.InertContent().preprocess(nb, resources)
    return out


def test_outputs_keep_text_png_jpeg_and_sanitised_html_only(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    cell = new_code_cell("x", outputs=[
        new_output("display_data", data={
            "text/html": f"{SCRIPT}<img src=x onerror=\"alert(1)\"><a href=\"javascript:alert(2)\">"
                         "l</a><b>kept</b>",
            "application/javascript": "alert(3)", "image/svg+xml": f"<svg>{SCRIPT}</svg>",
            "text/markdown": "<img src=y onerror=alert(4)>", "text/latex": "$x$",
            "application/vnd.jupyter.widget-view+json": {"model_id": "m"},
            "text/plain": "shown as text"},
            metadata={"image/png": {"width": '"><img src=w onerror=alert(5)>'}}),
        new_output("display_data", data={"image/png": '"><img src=z onerror=alert(6)>',
                                         "image/jpeg": PNG}),
        new_output("execute_result", data={"image/png": PNG}, execution_count=3),
        new_output("stream", name="stdout", text="<b>printed</b>"),
        new_output("error", ename="ValueError", evalue="<b>no</b>", traceback=["tb"]),
    ])
    cell.execution_count = 3
    nb = new_notebook(cells=[cell], metadata={
        "widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}},
        "title": SCRIPT, "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
        "language_info": {"name": "\"><script>", "pygments_lexer": "ipython3"}})
    out = inert_copy(nb, {"assignment_id": "demo", "notebook_id": "demo"})
    outputs = out.cells[0].outputs
    first = outputs[0]
    assert set(first.data) == {"text/html", "text/plain"} and first.metadata == {}
    html = first.data["text/html"]
    assert "<script" not in html and "onerror" not in html and "javascript:" not in html
    assert "<b>kept</b>" in html and "<a>l</a>" in html
    assert set(outputs[1].data) == {"image/jpeg"}  # the "PNG" that breaks out is dropped
    assert outputs[2].data == {"image/png": PNG} and outputs[2].execution_count == 3
    assert outputs[3].text == "<b>printed</b>"  # text: nbconvert escapes it
    assert outputs[4].evalue == "<b>no</b>"
    assert "widgets" not in out.metadata and "title" not in out.metadata
    assert out.metadata.language_info.name == "python"
    nbformat.validate(out)


def test_markdown_the_release_does_not_have_renders_as_text(tmp_path, monkeypatch) -> None:
    mine = "Instructor's **own** <em>words</em> and [a link](https://example.org)."
    monkeypatch.chdir(released_course(tmp_path, mine))
    added = f"{SCRIPT} <img src=x onerror=alert(1)> [click](javascript:alert(2)) **bold**"
    edited = new_markdown_cell(mine + " <img src=y onerror=alert(3)>")
    edited.attachments = {"a.svg": {"image/svg+xml": f"<svg>{SCRIPT}</svg>"}}
    kept = new_markdown_cell(mine)
    kept.attachments = {"p.png": {"image/png": PNG, "image/svg+xml": "<svg/>"},
                        "bad.png": {"image/png": '"><script>'}}
    raw = new_raw_cell("<img src=z onerror=alert(4)>", metadata={"format": "text/html"})
    nb = new_notebook(cells=[new_markdown_cell(added), edited, kept, raw])
    for resources in ({"nbgrader": {"assignment": "demo", "notebook": "demo"}},
                      {"assignment_id": "demo", "notebook_id": "demo"}):
        out = inert_copy(nbformat.from_dict(json.loads(json.dumps(nb))), resources)
        assert out.cells[0].source == inert.as_text(added)
        assert out.cells[1].source == inert.as_text(edited.source)
        assert "attachments" not in out.cells[1]
        assert out.cells[2].source == mine  # the instructor's, as written
        assert out.cells[2].attachments == {"p.png": {"image/png": PNG}}
        assert "format" not in out.cells[3].metadata
    # without a readable release, every markdown cell is the student's
    out = inert_copy(nbformat.from_dict(json.loads(json.dumps(nb))),
                     {"assignment_id": "../../etc", "notebook_id": "demo"})
    assert out.cells[2].source == inert.as_text(mine)


def test_html_export_of_a_hostile_notebook_keeps_no_script(tmp_path, monkeypatch) -> None:
    """nbconvert's HTMLExporter as the course configures it (classic template, like nbgrader's
    formgrade and feedback templates): nothing executable reaches the page."""
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    monkeypatch.chdir(tmp_path)
    cell = new_code_cell("x", outputs=[new_output("display_data", data={
        "text/html": SCRIPT, "application/javascript": "alert(1)", "text/plain": "t",
        "application/vnd.jupyter.widget-view+json": {"model_id": "m", "version_major": 2,
                                                     "version_minor": 0}})])
    nb = new_notebook(cells=[new_markdown_cell(f"{SCRIPT} [x](javascript:alert(2))"), cell],
                      metadata={"widgets": {"application/vnd.jupyter.widget-state+json": {
                          "state": {}, "version_major": 2, "version_minor": 0}}})
    config = Config()
    config.HTMLExporter.preprocessors = ["plaisante.inert.InertContent"]
    config.HTMLExporter.template_name = "classic"
    page, _ = HTMLExporter(config=config).from_notebook_node(nb)
    live = Live()
    live.feed(page)
    assert not [s for s in live.scripts if "document.title" in s or "alert(" in s]
    assert not [h for h in live.hrefs if h.strip().lower().startswith("javascript")]
    assert "widget-state" not in page and "embed-amd" not in page
    assert "&lt;script&gt;document.title" in page  # the student's markdown, as text



@pytest.mark.parametrize("template", ["classic", "formgrade"])
def test_cell_metadata_cannot_hide_an_answer_or_break_the_page(
        tmp_path, monkeypatch, template) -> None:
    """nbconvert reads a cell's ``transient`` (leaves its input out; a string fails) and its
    ``magics_language`` (``.lower()`` on it): on the formgrader's own template and the classic
    one, every answer shows and the page renders."""
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    monkeypatch.chdir(tmp_path)
    answers = [new_code_cell(f"answer_{n} = {n}", metadata=metadata) for n, metadata in enumerate([
        {"transient": {"remove_source": True},
         "nbgrader": {"grade": False, "solution": True, "grade_id": "a0", "locked": False,
                      "schema_version": 3}},
        {"transient": "x"}, {"magics_language": 5}, {"jupyter": {"source_hidden": True}},
        {"magics_language": "python"}])]
    config = Config()
    config.HTMLExporter.preprocessors = ["plaisante.inert.InertContent"]
    config.HTMLExporter.template_name = template
    config.HTMLExporter.extra_template_basedirs = [str(formgrader_policy.template_folder())]
    resources = {"assignment_id": "demo", "notebook_id": "demo", "base_url": "", "index": 0,
                 "total": 1, "submission_id": "s", "student": "eve", "notebook_path": "x",
                 "last_name": "E", "first_name": "Eve"}
    page, _ = HTMLExporter(config=config).from_notebook_node(
        new_notebook(cells=answers), resources=resources)
    for n in range(len(answers)):
        assert f"answer_{n}" in page.replace('<span class="n">', "").replace("</span>", ""), n
    metadata = inert_copy(new_notebook(cells=answers), {}).cells
    assert metadata[0].metadata == {"nbgrader": answers[0].metadata.nbgrader}
    assert [cell.metadata for cell in metadata[1:]] == [{}, {}, {}, {"magics_language": "python"}]



# ------------------------------------------------------------------------ the formgrader's CSP

def rendered_nbgrader_script() -> str:
    """The formgrade page's first inline script, as nbgrader renders it for one submission."""
    folder = formgrader_policy.template_folder() / "formgrade"
    text = (folder / "formgrade_macros.html.j2").read_text(encoding="utf-8")
    body = next(body for attrs, body in formgrader_policy.SCRIPT.findall(text)
                if "submission_id" in body)
    for name, value in (("resources.submission_id", "0123abcd"), ("resources.notebook_id",
                        "plaisante"), ("resources.assignment_id", "plaisante"),
                        ("resources.base_url", "/formgrader")):
        body = body.replace("{{ " + name + " }}", value)
    return body


def test_only_nbgrader_s_own_inline_scripts_and_handlers_get_a_hash() -> None:
    ours = rendered_nbgrader_script()
    forged = ours.replace("plaisante", '";fetch("/api/contents/x",{method:"PUT"});"', 1)
    page = (f"<script>{ours}</script><span onclick=\"toggle_name(true);\"></span>"
            f"<div id='notebook-container'>{SCRIPT}<script>{forged}</script>"
            "<img src=x onerror=\"alert(1)\"><span onclick=\"alert(2)\"></span></div>")
    hashes = formgrader_policy.allowed_hashes(page)
    assert hashes == sorted({formgrader_policy._hash(ours),
                             formgrader_policy._hash("toggle_name(true);")})
    policy = formgrader_policy.policy("http://127.0.0.1:8888", "/", hashes)
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert "script-src http://127.0.0.1:8888/formgrader/static/ 'unsafe-hashes' " in policy
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy


@pytest.mark.parametrize(("path", "applies", "ids_only"), [
    ("/formgrader", True, True), ("/formgrader/submissions/0a1b/", True, True),
    ("/formgrader/manage_students/%22%3Balert(1)%2F%2F", True, False),
    ("/formgrader/gradebook/<img>/x", True, False), ("/lab/tree/x.ipynb", False, True),
    ("/formgraderx", False, True)])
def test_the_policy_covers_formgrader_pages_and_refuses_paths_not_made_of_ids(
        path: str, applies: bool, ids_only: bool) -> None:
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

    transform = formgrader_policy.FormgraderPolicy(HTTPServerRequest(
        start_line=RequestStartLine("GET", path, "HTTP/1.1"), headers=HTTPHeaders({"Host": "h:1"})))
    assert (transform.applies, transform.ids_only) == (applies, ids_only)
    headers = HTTPHeaders({"Content-Type": "text/html; charset=UTF-8", "Content-Length": "4"})
    status, headers, body = transform.transform_first_chunk(200, headers, b"page", True)
    assert ("Content-Security-Policy" in headers) == applies
    assert status == (200 if ids_only else 400)
    assert int(headers["Content-Length"]) == len(body)


def test_the_formgrader_command_loads_the_policy(tmp_path) -> None:
    from plaisante.formgrader.server import command

    assert f"--ServerApp.jpserver_extensions={formgrader_policy.__name__}=True" in command(tmp_path)


# --------------------------------------------------------------------- names and the terminal

@pytest.mark.parametrize("name", ['<img src=x onerror="alert(1)">', "Eve<script>", "a\x1b[2Jb",
                                  "\u202egnp.exe", "x\x07"])
def test_a_roster_name_holding_markup_is_refused_naming_its_line(tmp_path, name) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("id,first_name,last_name\nada,Ada,Lovelace\n"
                      f"eve,Eve,\"{name.replace(chr(34), chr(34) * 2)}\"\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"roster.csv line 3: last_name .* holds markup") as err:
        read_roster(roster)
    assert "\n" not in str(err.value) and "\x1b" not in str(err.value)


def test_ordinary_names_still_import(tmp_path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("id,first_name,last_name,email\nob,Seán,O'Brien & Sons,o.b@x.ie\n"
                      "zoe,Zoë,\"Lovelace, Countess\",z@x\n", encoding="utf-8")
    assert [s["last_name"] for s in read_roster(roster)] == ["O'Brien & Sons",
                                                             "Lovelace, Countess"]


def test_flag_reasons_under_the_scores_table_reach_the_terminal_as_text() -> None:
    from plaisante.results.scores import Row

    row = Row(assignment="demo", student="ada", first_name="", last_name="", email="",
              timestamp="", steps={"step1": 1.0}, step_max={"step1": 15.0}, cells={},
              cell_max={}, raw=1.0, late_penalty=0.0, total=1.0, max_total=15.0, flagged=True,
              reasons=["kernel died \x1b]8;;http://evil\x07here\x1b]8;;\x07 \u202eoops"])
    text = tables.scores_table([row], {"step1": "Card"}, "demo", width=40)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "kernel died" in text
