"""A sockets folder as deep as a kernel can make it is still counted and emptied: the
watch's count (``folder_usage``) and the reset before each kernel (``empty_folder``)
recursed, and a tree 3,000 folders deep stopped both with a RecursionError."""

from __future__ import annotations

import os
from pathlib import Path

from plaisante.grading.sandbox import empty_folder, folder_usage


def deep_tree(top: Path, depth: int, shut: bool = False) -> None:
    """Make ``depth`` nested folders ``a`` in ``top``, the deepest holding a file (and, if
    ``shut``, a folder of mode 0); each made from its parent, as a path past PATH_MAX cannot
    be named."""
    here = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("a", dir_fd=here)
            deeper = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here = deeper
        os.close(os.open("note", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=here))
        if shut:
            os.mkdir("shut", mode=0, dir_fd=here)
    finally:
        os.close(here)


def test_a_folder_1500_deep_is_counted_whole(tmp_path: Path) -> None:
    deep_tree(tmp_path, 1500)  # deeper than Python's recursion limit, within PATH_MAX
    used, entries, hidden = folder_usage(tmp_path)
    assert (entries, hidden) == (1500 + 1, False)
    assert used >= 1500 * 512
    assert folder_usage(tmp_path, max_entries=100)[1] == 101
    empty_folder(tmp_path)  # pytest's own clean-up of tmp_path recurses too


def test_what_lies_past_path_max_counts_as_hidden(tmp_path: Path) -> None:
    deep_tree(tmp_path, 3000)  # 'a/' 3,000 times: past 4,096 characters
    used, entries, hidden = folder_usage(tmp_path)
    assert hidden and 1000 < entries < 3000
    empty_folder(tmp_path)


def test_a_folder_3000_deep_is_emptied_but_the_kept_file(tmp_path: Path) -> None:
    folder = tmp_path / "sockets"
    folder.mkdir()
    (folder / "kernel.json").write_text("{}", encoding="utf-8")
    deep_tree(folder, 3000, shut=True)
    empty_folder(folder, keep=("kernel.json",))
    assert [p.name for p in folder.iterdir()] == ["kernel.json"]
