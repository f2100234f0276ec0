"""Many submissions in one go: the notebooks of a folder or a zip file (an LMS download), each
mapped to a student id by a pattern on its file name, as nbgrader's ``zip_collect`` does.

    plaisante submit downloads.zip --pattern '(?P<student_id>[a-z0-9]+)_attempt_.*\\.ipynb'
    plaisante submit downloads.zip --pattern '(?P<student_id>[a-z]+)_\\d+_\\d+_deck'

The pattern must match a whole file name, either with its ``.ipynb`` or without it.

``collected(source, pattern, into)`` lists what would be submitted, refusing the whole batch
with a one-line reason when it cannot be told who is who (no notebook matches, one student
twice, a pattern without a ``student_id`` group); ``plaisante submit`` then submits each one as
``plaisante submit NOTEBOOK --student ID`` would.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

#: The default pattern: the file is named after the student, ``alice.ipynb``.
DEFAULT_PATTERN = r"(?P<student_id>[A-Za-z0-9][A-Za-z0-9_-]*)\.ipynb"
MAX_MEMBER_BYTES = 20 * 1024 * 1024  # as notebook_check.MAX_NOTEBOOK_BYTES
MAX_MEMBERS = 10_000


@dataclass
class Collected:
    """What a folder or zip holds: ``found`` (student id, notebook path) in file-name order,
    ``skipped`` (file names that are not notebooks or do not match the pattern), and ``names``
    (student id -> the file name found, as in the folder or zip)."""

    found: list[tuple[str, Path]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Return ``pattern`` compiled. Raises ValueError when it is not a regular expression or
    has no ``(?P<student_id>…)`` group."""
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise ValueError(f"--pattern {pattern!r} is not a regular expression: {error}") from None
    if "student_id" not in compiled.groupindex:
        raise ValueError(f"--pattern {pattern!r} has no (?P<student_id>...) group: it must say "
                         "which part of a file name is the student id")
    return compiled


def collected(source: Path, pattern: str = DEFAULT_PATTERN, into: Path | None = None
              ) -> Collected:
    """Return the notebooks of ``source`` (a folder, searched recursively, or a ``.zip``), each
    with the student id ``pattern`` finds in its name (matched against the whole file name,
    not its folders, with its ``.ipynb`` or, failing that, without it). Zip members are
    written to ``into`` under made-up names (a member's own path is never used as one).
    Raises FileNotFoundError for a missing source, ValueError for a bad pattern, an unreadable
    zip, a notebook over 20 MB in a zip, no notebook matching or a student id found twice."""
    regex = compile_pattern(pattern)
    source = Path(source)
    result = Collected()
    if source.is_dir():
        files = sorted((p for p in source.rglob("*") if p.is_file() and not p.is_symlink()),
                       key=lambda p: str(p.relative_to(source)))
        entries = [(p.name, p) for p in files]
    elif source.is_file() and zipfile.is_zipfile(source):
        if into is None:
            raise ValueError("a zip file needs a folder to unpack its notebooks into")
        entries = _unzip(source, into)
    elif source.exists():
        raise ValueError(f"{source} is neither a folder, a .zip file nor a notebook")
    else:
        raise FileNotFoundError(f"no folder or zip file at {source}")
    owners: dict[str, str] = {}
    for name, path in entries:
        match = (regex.fullmatch(name) or regex.fullmatch(name[:-len(".ipynb")])
                 if name.endswith(".ipynb") else None)
        if match is None or not match.group("student_id"):
            result.skipped.append(name)
            continue
        student = match.group("student_id")
        if student in owners:
            raise ValueError(f"student {student!r} has two notebooks ({owners[student]} and "
                             f"{name}): keep one, or make --pattern tell them apart")
        owners[student] = name
        result.names[student] = name
        result.found.append((student, path))
    if not result.found:
        raise ValueError(f"no notebook in {source} has a name --pattern {pattern!r} matches"
                         + (f" (found: {', '.join(result.skipped[:5])}"
                            f"{'…' if len(result.skipped) > 5 else ''})"
                            if result.skipped else " (it holds no files)"))
    return result


def _unzip(source: Path, into: Path) -> list[tuple[str, Path]]:
    """Write the ``.ipynb`` members of the zip ``source`` to ``into`` as 0.ipynb, 1.ipynb, …;
    return (member's file name, written path) of each, and (name, None-like path) of others."""
    into.mkdir(parents=True, exist_ok=True)
    entries: list[tuple[str, Path]] = []
    try:
        with zipfile.ZipFile(source) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) > MAX_MEMBERS:
                raise ValueError(f"{source} holds over {MAX_MEMBERS} files")
            for index, member in enumerate(members):
                name = PurePosixPath(member.filename.replace("\\", "/")).name
                if member.filename.startswith("__MACOSX/") or name.startswith("._"):
                    continue
                if not name.endswith(".ipynb"):
                    entries.append((name, into / "not-a-notebook"))
                    continue
                if member.file_size > MAX_MEMBER_BYTES:
                    raise ValueError(f"{member.filename} in {source} is over 20 MB: not a "
                                     "notebook a student saved")
                target = into / f"{index}.ipynb"
                with archive.open(member) as stream:
                    data = stream.read(MAX_MEMBER_BYTES + 1)
                if len(data) > MAX_MEMBER_BYTES:
                    raise ValueError(f"{member.filename} in {source} is over 20 MB")
                target.write_bytes(data)
                entries.append((name, target))
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{source} cannot be read as a zip file: {error}") from None
    entries.sort(key=lambda entry: entry[0])
    return entries
