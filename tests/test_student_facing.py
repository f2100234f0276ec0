"""What a student or a class sees from the command line and the projector."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

from plaisante.cli import build_parser
from plaisante.student_side.assignment import ALL_VISIBLE_PASS

ROOT = Path(__file__).resolve().parents[1]


def test_help_lists_validate_in_its_command_summary() -> None:
    summary = build_parser().format_help().split("positional arguments")[0]
    assert "plaisante validate NOTEBOOK" in summary


def test_the_demo_notebook_shows_the_game_without_the_students_line(monkeypatch) -> None:
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    notebook = nbformat.read(ROOT / "notebooks" / "demo.ipynb", as_version=4)
    NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.outputs]
    printed = "".join(str(output.get("text", "")) for output in outputs)
    assert ALL_VISIBLE_PASS not in printed and "visible checks" not in printed
    widgets = [output for output in outputs
               if "application/vnd.jupyter.widget-view+json" in output.get("data", {})]
    assert len(widgets) == 2  # the presenter view, then the round


def test_the_line_above_the_game_is_markdown_in_the_notebook(monkeypatch) -> None:
    """What the last cell says above a student's game renders as Markdown (its backticks as
    code, wrapped at words in an 800 px column), not as a monospace stream; the same words
    are its plain text."""
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    notebook = nbformat.read(ROOT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb",
                             as_version=4)
    NotebookClient(notebook, timeout=120, allow_errors=True,
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = notebook.cells[-1].outputs
    assert not any(ALL_VISIBLE_PASS in str(output.get("text", "")) for output in outputs)
    said = [output["data"] for output in outputs if "text/markdown" in output.get("data", {})]
    assert said == [{"text/markdown": ALL_VISIBLE_PASS, "text/plain": ALL_VISIBLE_PASS}]
    assert "`plaisante validate`" in ALL_VISIBLE_PASS
    assert any("application/vnd.jupyter.widget-view+json" in output.get("data", {})
               for output in outputs)
