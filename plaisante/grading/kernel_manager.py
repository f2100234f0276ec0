"""The kernel manager that starts a submission's kernel in the sandbox (``sandbox``: the
bubblewrap command, throw-away user ids, the folder limits), or forks it from the worker's
zygote (``zygote``); and the kernel client it hands out, whose channels take bounded messages
only (``conversation.bound_client``) and which is ready as soon as the kernel answers.

``submission`` names ``SandboxKernelManager`` as nbgrader's ``kernel_manager_class`` and fills
in its ``sandbox_*`` settings through the converter's config.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty
from typing import Any

from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from traitlets import Dict, Integer, List, Type, Unicode

from ..kernel.zygote import START_FAILED
from .conversation import bound_client
from .cpu_cgroup import CpuCgroup, in_cpu_cgroup
from .kernel_lifecycle import NoInterruptOnShutdown, NoPauseAroundStart
from .memory_cgroup import MemoryCgroup, MemoryWatch
from .result import Limits
from .sandbox import (
    bwrap_command,
    empty_folder,
    folder_usage,
    is_throwaway,
    kernel_env,
    restore_folder,
)
from .sandbox_clock import tree_cpu_seconds
from .zygote import Zygote, zygote_for

#: the folder of a kernel's sockets folder its data files wait in
DATA_FOLDER = "plaisante-data"


class FolderWatch(threading.Thread):
    """Watches the sockets folder, the one host folder a kernel can write: past ``limit``
    bytes (or 10,000 entries), or once part of it is unreadable (what it holds could not be
    counted), it kills the kernel, empties the folder and says why in
    ``manager.sandbox_overflow``. Checks every 0.2 s while the kernel's process lives."""

    def __init__(self, manager: SandboxKernelManager, process: Any, limit: int) -> None:
        super().__init__(name="plaisante-folder-watch", daemon=True)
        self.manager, self.process, self.limit = manager, process, limit

    def run(self) -> None:
        folder = Path(self.manager.sandbox_socket_dir)
        while self.process.poll() is None:
            used, entries, hidden = folder_usage(folder)
            if used > self.limit or entries > 10_000 or hidden:
                self.manager.sandbox_overflow = (
                    "made part of its sockets folder on the host unreadable to the grader, "
                    "which would hide what it writes there; killed" if hidden else
                    f"wrote over {self.limit // (1024 * 1024)} MiB ({used // (1024 * 1024)} MiB, "
                    f"{entries} files) into its sockets folder on the host; killed")
                self.process.kill()
                self.process.wait()
                restore_folder(folder)
                empty_folder(folder, keep=(Path(self.manager.connection_file).name,))
                return
            time.sleep(0.2)


class SandboxKernelClient(AsyncKernelClient):
    """jupyter_client's client without an iopub channel, ready as soon as the kernel answers
    ``kernel_info``.

    jupyter_client's own ``wait_for_ready`` then also waits until its iopub channel has
    received something and stayed quiet for 0.2 s, at least 0.2 s of every kernel start (a
    third of a graded submission's wall time). The grader never reads outputs on this
    client's iopub channel: it runs the cells through the judge's conversation, whose own
    iopub socket waits for the kernel's welcome (``KernelConversation``)."""

    def start_channels(self, shell: bool = True, iopub: bool = False, stdin: bool = True,
                       hb: bool = True, control: bool = True) -> None:
        """Start the channels but iopub: a subscriber nobody reads would make the kernel
        queue every output for it (up to a thousand messages, a GiB for a flood)."""
        super().start_channels(shell=shell, iopub=iopub, stdin=stdin, hb=hb, control=control)

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Ask the kernel ``kernel_info`` (again each second) until it answers one of these
        requests. A reply to an earlier request (a kernel slower than a second answers both;
        this client outlives restarts) is no answer: taken for one, it had the grader lock
        the sockets folder before the next kernel made its sockets, and that kernel died
        (exit status 72) with the run of the student's tests it was for. Each request's id is
        random (``_ask_kernel_info``), so no kernel can answer one before it is asked."""
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        asked: set[str] = set()
        while True:
            asked.add(self._ask_kernel_info())
            second = time.monotonic() + 1
            while (left := second - time.monotonic()) > 0:
                try:
                    msg = await self.shell_channel.get_msg(timeout=left)
                except Empty:
                    break
                if msg["msg_type"] == "kernel_info_reply" and \
                        msg.get("parent_header", {}).get("msg_id") in asked:
                    self._handle_kernel_info_reply(msg)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")

    def _ask_kernel_info(self) -> str:
        """Send a ``kernel_info_request`` whose id is random; return the id. jupyter_client
        numbers its messages (session, pid, a count), which a kernel reads in the requests it
        gets: a student's cell forged replies to the next numbers, and the next kernel (a run
        of their own tests) passed for ready before it had its sockets."""
        msg = self.session.msg("kernel_info_request")
        msg["header"]["msg_id"] = msg["msg_id"] = secrets.token_hex(16)
        self.shell_channel.send(msg)
        return str(msg["msg_id"])


class SandboxKernelManager(NoInterruptOnShutdown, NoPauseAroundStart, AsyncKernelManager):
    """An ipykernel launched inside the sandbox; its settings come from the traitlets below
    (``grade_one`` fills them in through the converter's config).

    Whatever kernel the submitted notebook names, this starts the venv's Python kernel.
    """

    client_factory = Type(SandboxKernelClient, klass=AsyncKernelClient)
    sandbox_work_dir = Unicode(help="the kernel's working folder (a tmpfs)").tag(config=True)
    sandbox_socket_dir = Unicode(help="folder of the connection file and sockets").tag(config=True)
    sandbox_uid = Integer(0, help="throw-away user id the kernel runs as").tag(config=True)
    sandbox_limits = Dict(help="Limits as a dict").tag(config=True)
    sandbox_enabled = Integer(1, help="0: unsandboxed (trusted notebooks)").tag(config=True)
    sandbox_extra_env = Dict(help="extra environment of an unsandboxed kernel").tag(config=True)
    sandbox_preload = List(Unicode(), help="modules a zygote imports once; with "
                           "sandbox_zygote").tag(config=True)
    sandbox_zygote = Integer(0, help="1: fork the kernel from this worker's zygote "
                             "(plaisante.grading.zygote) instead of starting a new "
                             "sandbox").tag(config=True)
    sandbox_data_files = Dict(help="{name: host path} of the submission's data files, put "
                              "anew in the sockets folder's DATA_FOLDER at every start"
                              ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.sandbox_enabled:
            self.transport = "ipc"
            self.ip = str(Path(self.sandbox_socket_dir) / "kernel")
            self.connection_file = str(Path(self.sandbox_socket_dir) / "kernel.json")

    sandbox_overflow = ""  # set by FolderWatch: why the kernel was killed
    _own_cgroup: MemoryCgroup | None = None  # a kernel started without the zygote: its own
    _own_cpu_cgroup: CpuCgroup | None = None  # and its own CPU cgroup
    _watched_cgroup: MemoryCgroup | None = None  # the one the running kernel is in
    _oom_seen = 0  # the cgroup's OOM kills already accounted for

    async def _async_post_start_kernel(self, **kw: Any) -> None:
        await super()._async_post_start_kernel(**kw)
        process = getattr(self.provisioner, "process", None)
        if self.sandbox_enabled and process is not None:
            limit = int(Limits(**self.sandbox_limits).file_bytes)
            FolderWatch(self, process, limit).start()
            self._watched_cgroup = group = self.memory_cgroup()
            if group is not None:
                self._oom_seen = group.oom_kills()
                MemoryWatch(group, process, self._oom_seen).start()

    def _close_control_socket(self) -> None:
        """Close the control socket dropping what it still holds: a message for this kernel
        must never reach the next one, which binds the same path."""
        if self._control_socket is not None:
            self._control_socket.close(linger=0)
            self._control_socket = None

    def memory_cgroup(self) -> MemoryCgroup | None:
        """The memory cgroup the kernel runs in (its zygote's, or its own), or None."""
        if not self.sandbox_enabled:
            return None
        if self.sandbox_zygote:
            return self._zygote().cgroup
        return self._own_cgroup

    def start_failure(self) -> str:
        """Why the kernel's last start failed, as the kernel wrote it before running anything
        of the student's (``plaisante.kernel.zygote.START_FAILED``: its sockets folder is
        emptied at every start), or "" when it said nothing. Read only when a start failed."""
        if not (self.sandbox_enabled and self.sandbox_socket_dir):
            return ""
        note = Path(self.sandbox_socket_dir) / START_FAILED
        try:
            if note.is_symlink() or not note.is_file():
                return ""
            with open(note, encoding="utf-8", errors="replace") as text:
                line = text.read(300).splitlines()
        except OSError:
            return ""
        return line[0].strip() if line else ""

    def sandbox_cpu_seconds(self) -> float | None:
        """The CPU time, in seconds, the kernel's sandbox has used so far (every process in
        it; with the zygote, the zygote's too), read from the host's /proc; None when it
        cannot be read."""
        process = getattr(self.provisioner, "process", None)
        zygote = getattr(process, "zygote", None)
        root = zygote.process.pid if zygote is not None else getattr(process, "pid", None)
        return tree_cpu_seconds(root) if isinstance(root, int) else None

    def memory_overrun(self) -> str:
        """Return why the kernel was killed when the sandbox's memory bound ended one of its
        processes since the last call (or since it started), else ""."""
        group = self._watched_cgroup
        if group is None:
            return ""
        kills = group.oom_kills()
        if kills <= self._oom_seen:
            return ""
        self._oom_seen = kills
        return group.describe()

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if self._own_cgroup is not None and not restart:
            self._own_cgroup.remove()
            self._own_cgroup = None
        if self._own_cpu_cgroup is not None and not restart:
            self._own_cpu_cgroup.remove()
            self._own_cpu_cgroup = None

    def lock_socket_folder(self) -> None:
        """Once the kernel has made its sockets: a throw-away uid may no longer add, remove or
        replace anything in its sockets folder (so it cannot swap a socket for a link to a
        host socket the root grader would then connect to). A restart unlocks it."""
        if self.sandbox_enabled and is_throwaway(self.sandbox_uid):
            os.chown(self.sandbox_socket_dir, 0, 0, follow_symlinks=False)
            os.chmod(self.sandbox_socket_dir, 0o755)

    def write_connection_file(self, **kwargs: Any) -> None:
        path = Path(self.connection_file)  # "" until jupyter_client names one (no sandbox)
        if self.connection_file and (path.is_symlink() or (path.exists() and not path.is_file())):
            path.unlink()  # the kernel left a link (or worse): never write through it
            self._connection_file_written = False
        super().write_connection_file(**kwargs)
        if self.sandbox_enabled and is_throwaway(self.sandbox_uid):
            # the kernel, a throw-away user, must read its own file; never follow a link
            os.chown(self.connection_file, self.sandbox_uid, self.sandbox_uid,
                     follow_symlinks=False)

    def client(self, **kwargs: Any) -> Any:
        """A client whose channels accept bounded messages only (``bound_client``)."""
        return bound_client(super().client(**kwargs))

    def _zygote(self) -> Zygote:
        return zygote_for(Limits(**self.sandbox_limits), tuple(self.sandbox_preload))

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        if not (self.sandbox_enabled and self.sandbox_zygote):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        provisioner: Any = self.provisioner
        # kernel_cmd is the kernel's own arguments (format_kernel_cmd): the zygote forks it
        provisioner.process = self._zygote().spawn(kernel_cmd)
        provisioner.pid, provisioner.pgid = None, None  # no host pid, no process group
        self._reconcile_connection_info(provisioner.connection_info)

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", self.connection_file,
                *(extra_arguments or [])]
        if not self.sandbox_enabled:
            return argv
        argv[2] = "plaisante.kernel.syscall_filter"  # the filter first, then ipykernel_launcher
        # Interrupt through the control channel: a SIGINT sent to bwrap's process group
        # would also stop bwrap's own monitor (and so kill the sandbox).
        if self.kernel_spec is not None:
            self.kernel_spec.interrupt_mode = "message"
        if self.sandbox_zygote:
            return argv[3:]  # what the zygote's IPKernelApp is started with
        limits = Limits(**self.sandbox_limits)
        if self._own_cgroup is None:
            self._own_cgroup = MemoryCgroup.create(int(limits.sandbox_memory_bytes))
        if self._own_cpu_cgroup is None:
            self._own_cpu_cgroup = CpuCgroup.create()
        group = self._own_cgroup
        return [*(group.prefix() if group else []), *in_cpu_cgroup(self._own_cpu_cgroup),
                *bwrap_command(Path(self.sandbox_work_dir), Path(self.sandbox_socket_dir),
                               self.sandbox_uid, limits, kernel_env(),
                               tuple(self.sandbox_preload)), *argv]

    def fresh_socket_folder(self) -> None:
        """Empty the sockets folder (links never followed) and put the submission's data
        files in it anew: a kernel starts (or starts again) with nothing an earlier kernel of
        the submission wrote there, and the folder's own mode, times and extended attributes
        are reset (``restore_folder``). The connection file is then written afresh from what
        this manager holds. An earlier kernel could otherwise leave a note for the next (a key
        in its connection file, a file of its own, an edited data file, the folder's atime or
        an attribute of it): one run of a student's own tests would read what another was
        answered, or what the notebook's kernel heard of the hidden checks."""
        folder = Path(self.sandbox_socket_dir)
        restore_folder(folder)
        empty_folder(folder)
        if self.sandbox_data_files:
            staged = folder / DATA_FOLDER
            staged.mkdir(mode=0o755)
            for name, path in self.sandbox_data_files.items():
                shutil.copyfile(path, staged / name)
                (staged / name).chmod(0o644)

    async def _async_pre_start_kernel(self, **kw: Any) -> Any:
        kw["stdout"] = kw["stderr"] = subprocess.DEVNULL  # the kernel's own chatter
        if self.sandbox_enabled:
            self.fresh_socket_folder()
            kw["cwd"] = "/"  # bwrap's own; the kernel's is --chdir'd inside the sandbox
            kw["env"] = {}  # bwrap --clearenv sets the kernel's environment itself
            if is_throwaway(self.sandbox_uid):
                os.chown(self.sandbox_socket_dir, self.sandbox_uid, self.sandbox_uid,
                         follow_symlinks=False)
        else:
            env = dict(os.environ)
            env.update(self.sandbox_extra_env)
            kw["env"] = env
        return await super()._async_pre_start_kernel(**kw)
