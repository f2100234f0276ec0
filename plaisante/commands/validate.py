"""A student's check: run a notebook and say which visible tests pass (hidden tests run when
graded).

Needs no course folder: a student runs it on the notebook they are about to hand in.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The notebook to check."""
    parser.add_argument("notebook", type=Path, help="the .ipynb file to check")


def run(args: argparse.Namespace) -> int:
    """Run the notebook and print which visible tests pass; return ``validate.validate``'s
    status."""
    from ..intake.validate import validate

    return validate(args.notebook)
