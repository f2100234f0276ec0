"""A kernel that cannot start says why, and the grader's reason quotes it
(``plaisante.kernel.zygote.leave_start_failure``, ``SandboxKernelManager.start_failure``)."""

from __future__ import annotations

from pathlib import Path

from plaisante.grading.kernel_manager import SandboxKernelManager
from plaisante.kernel.zygote import START_FAILED, leave_start_failure


def manager(folder: Path) -> SandboxKernelManager:
    return SandboxKernelManager(sandbox_socket_dir=str(folder), sandbox_work_dir=str(folder))


def test_the_reason_a_kernel_leaves_is_the_grader_s_one_line(tmp_path):
    request = {"argv": ["-f", str(tmp_path / "kernel.json"), "--quiet"]}
    leave_start_failure(request, RuntimeError("can't start new thread\nsecond line"))
    assert (tmp_path / START_FAILED).is_file()
    assert manager(tmp_path).start_failure() == "RuntimeError: can't start new thread"


def test_no_note_no_reason_and_a_link_is_never_read(tmp_path):
    assert manager(tmp_path).start_failure() == ""
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("a file the grader may read", encoding="utf-8")
    (tmp_path / START_FAILED).symlink_to(secret)
    assert manager(tmp_path).start_failure() == ""


def test_a_request_without_a_connection_file_is_left_unsaid(tmp_path):
    leave_start_failure({"argv": ["--quiet"]}, RuntimeError("x"))
    leave_start_failure({}, RuntimeError("x"))
    assert list(tmp_path.iterdir()) == []
