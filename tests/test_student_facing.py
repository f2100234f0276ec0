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
