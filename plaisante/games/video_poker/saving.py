"""The machine's saved credits: a small JSON file, written so that a crash never loses it.

``save_credits(path, credits, games)`` writes ``{"credits": …, "games": …}`` to a temporary
file beside ``path``, flushes it to the disk, then renames it over ``path``: a rename within one
folder is atomic, so whoever reads ``path`` finds the old state or the new one, never half of
one, even if the process is killed mid-save. ``load_credits(path)`` reads it back; a file that
is not a saved machine (cut short, edited, not JSON) is renamed aside, never deleted, and the
notice it returns says so in one line. No widgets, no grading: the student's ``Machine`` calls
these two, and the kit's tests kill a process mid-save to prove the first promise.
"""

from __future__ import annotations

import json
import os
from typing import Any

SAVED_KEYS = ("credits", "games")
ALLOWED = '{"credits": a whole number ≥ 0, "games": a whole number ≥ 0}'


def save_credits(path: str | os.PathLike[str], credits: int, games: int) -> None:
    """Save ``credits`` and ``games`` (ints ≥ 0) to the JSON file ``path``, atomically.

    Raises ValueError naming the value that is not an int ≥ 0 (nothing is written), and
    OSError when the folder of ``path`` cannot be written.
    """
    for key, value in (("credits", credits), ("games", games)):
        if type(value) is not int or value < 0:
            raise ValueError(f"cannot save {key}={value!r}: {key} must be a whole number ≥ 0")
    target = os.fspath(path)
    temporary = f"{target}.saving-{os.getpid()}"
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump({"credits": credits, "games": games}, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)  # atomic: readers see the old file or the new one
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def parse_credits(text: str) -> tuple[int, int]:
    """Return (credits, games) from a saved file's text. Raises ValueError saying what is
    wrong with it (and what is allowed) when it is not a saved machine."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"it is not JSON ({error.msg} at character {error.pos})") from None
    except RecursionError:
        raise ValueError("it is nested too deeply to be a saved machine") from None
    if type(data) is not dict or sorted(data) != sorted(SAVED_KEYS):
        raise ValueError(f"it holds {text.strip()[:60]!r}, not {ALLOWED}")
    for key in SAVED_KEYS:
        if type(data[key]) is not int or data[key] < 0:
            raise ValueError(f"its {key} is {data[key]!r}, not a whole number ≥ 0")
    return data["credits"], data["games"]


def aside_name(path: str) -> str:
    """Return the first free name ``<path>.corrupt-1``, ``-2``, … for a bad file."""
    number = 1
    while os.path.lexists(f"{path}.corrupt-{number}"):
        number += 1
    return f"{path}.corrupt-{number}"


def load_credits(path: str | os.PathLike[str]) -> tuple[tuple[int, int] | None, str | None]:
    """Return ``((credits, games), None)`` saved in ``path``; ``(None, None)`` when there is no
    such file (a new machine); ``(None, notice)`` when the file is not a saved machine: it is
    renamed aside (``<path>.corrupt-N``, kept for the player to look at) and ``notice`` says
    what was wrong, what is allowed and where the file went, in one line."""
    target = os.fspath(path)
    try:
        with open(target, encoding="utf-8") as file:
            text = file.read()
    except FileNotFoundError:
        return None, None
    except (UnicodeDecodeError, IsADirectoryError) as error:
        problem = f"it cannot be read as text ({type(error).__name__})"
    else:
        try:
            return parse_credits(text), None
        except ValueError as error:
            problem = str(error)
    aside = aside_name(target)
    os.replace(target, aside)
    return None, bad_file_notice(target, aside, problem)


def bad_file_notice(target: str, aside: str, problem: str) -> str:
    """Return the one line ``load_credits`` gives about the bad file ``target`` (``problem``
    says what is wrong with it), renamed to ``aside``."""
    return (f"{os.path.basename(target)} was not a saved machine: {problem}; kept it as "
            f"{os.path.basename(aside)} and started fresh")


__all__ = ["save_credits", "load_credits"]
