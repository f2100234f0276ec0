"""A real PostgreSQL server for the tests, from Debian's package (``postgresql``, which
``make test`` installs: tools/system-packages.sh): a cluster made by ``initdb`` in a temporary
folder, served by ``pg_ctl`` on a free loopback port. PostgreSQL refuses to run as root, so as
root the cluster belongs to, and runs as, an ordinary user (``nobody``). When it cannot start,
``PostgresServer.start`` fails the test, saying why: never a skip.

    server = PostgresServer.start()          # a new cluster, running
    url = server.create_database("course")   # postgresql+psycopg://plaisante@127.0.0.1:PORT/course
    server.stop(immediate=True)              # as a crash would; server.restart() brings it back
    server.remove()                          # stopped, its folder gone
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Where Debian puts the server's programs (not on PATH): the newest version installed.
BIN_GLOB = "/usr/lib/postgresql/*/bin"
#: The user the cluster runs as when the tests run as root.
RUN_AS = "nobody"
#: The cluster's superuser (the tests connect as it, trusted on loopback only).
SUPERUSER = "plaisante"


def server_bin() -> Path:
    """Return Debian's PostgreSQL bin folder; fail the test when the package is missing."""
    found = sorted(glob.glob(BIN_GLOB), key=lambda p: [int(x) for x in Path(p).parent.name
                                                         .split(".") if x.isdigit()])
    if not found or not (Path(found[-1]) / "initdb").is_file():
        pytest.fail(f"PostgreSQL is not installed (no {BIN_GLOB}/initdb): run `apt-get install "
                    "-y postgresql` (`make test` does it as root)", pytrace=False)
    return Path(found[-1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running PostgreSQL cluster of the tests (see the module doc)."""

    folder: Path
    port: int
    bin: Path

    @classmethod
    def start(cls) -> PostgresServer:
        """Make a cluster in a new temporary folder and start it; fail the test when either
        cannot be done, with the server's own words."""
        bin_dir = server_bin()
        folder = Path(tempfile.mkdtemp(prefix="plaisante-pg-"))
        server = cls(folder, free_port(), bin_dir)
        if os.geteuid() == 0:
            entry = pwd.getpwnam(RUN_AS)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        server._run("initdb", "-D", str(server.data), "-U", SUPERUSER, "--auth=trust",
                    "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions")
        server.restart()
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def _run(self, program: str, *args: str) -> str:
        command = [str(self.bin / program), *args]
        options: dict = {}
        if os.geteuid() == 0:
            entry = pwd.getpwnam(RUN_AS)
            options = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        done = subprocess.run(command, cwd=self.folder, text=True, capture_output=True,
                              timeout=120, check=False, **options)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.is_file() else ""
            pytest.fail(f"PostgreSQL's {program} failed (exit {done.returncode}): "
                        f"{done.stderr.strip()[-2000:]}\n{log}", pytrace=False)
        return done.stdout

    def restart(self) -> None:
        """Start the server (again) on its port, loopback only, its socket in its folder."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} "
                        f"-c unix_socket_directories={self.folder} -c fsync=off",
                  "start")

    def stop(self, immediate: bool = False) -> None:
        """Stop the server: ``immediate`` as a crash or a pulled cable would (no goodbye to
        clients, recovery at the next start), else a clean shutdown."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m",
                  "immediate" if immediate else "fast", "stop")

    def running(self) -> bool:
        done = subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.data), "status"],
                              capture_output=True, check=False,
                              **({"user": RUN_AS} if os.geteuid() == 0 else {}))
        return done.returncode == 0

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` on this server (psycopg 3)."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name``; return its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, name)
        return self.url(name)

    def remove(self) -> None:
        """Stop the server if it runs and remove its folder."""
        if self.running():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
