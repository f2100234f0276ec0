"""The hub test's spawner for a class run as Kubernetes runs it: every user's server runs as
ONE Unix account (as every Zero to JupyterHub pod runs ``jovyan``), each in its own home, with
no folder shared between them. Loaded by the hub (``c.JupyterHub.spawner_class =
"hub_spawner.OneUidSpawner"``, this folder on its PYTHONPATH)."""

from __future__ import annotations

import os
import pwd
from typing import Any

from jupyterhub.spawner import SimpleLocalProcessSpawner
from traitlets import Unicode


class OneUidSpawner(SimpleLocalProcessSpawner):
    """SimpleLocalProcessSpawner (each user's home from ``home_dir_template``) whose servers
    run as the account ``run_as``, not as the hub's own (root)."""

    run_as = Unicode(config=True, help="the Unix account every user's server runs as")

    def make_preexec_fn(self, name: str) -> Any:
        entry = pwd.getpwnam(self.run_as)
        home = self.home_dir

        def preexec() -> None:
            os.initgroups(entry.pw_name, entry.pw_gid)
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)
            os.chdir(home)

        return preexec
