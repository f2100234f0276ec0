"""Inside a grading kernel, as it starts: copy the submission's data files (``data.txt`` its
code opens) from where the grader left them into the kernel's working folder, as nbgrader
runs a notebook beside the files handed in with it. Nothing is left in the kernel's names."""

from __future__ import annotations

import os
import shutil


def copy_in(folder: str) -> None:
    """Copy every regular file of ``folder`` into the working folder (links not followed;
    a file the working folder cannot take is left out, as a missing file would be)."""
    for entry in os.scandir(folder):
        if entry.is_file(follow_symlinks=False) and "/" not in entry.name:
            try:
                shutil.copyfile(entry.path, entry.name)
            except OSError:
                pass
