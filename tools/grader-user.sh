#!/usr/bin/env bash
# The ordinary user the tests grade as when `make test` runs as root (SPEC §5: the grader runs
# as an ordinary user), and the venv it grades with. Root only; idempotent; fast when up to date.
#
#   /var/lib/plaisante-grader/         root's, 755
#       venv/                          root's, world-readable: Debian's /usr/bin/python3 (anyone can
#                                      run it; root's default python3 lives in root's home, which
#                                      other users cannot enter) + requirements.txt's pins without
#                                      `-e .` (tests put a readable copy of plaisante/ on PYTHONPATH)
#       venv/.installed                hash of those pins and of the Python: rebuilt when they change
#       home/                          the user's home, theirs
#   /sys/fs/cgroup/memory/plaisante-plaisante-grader/   the user's memory cgroup (cgroup v1), 8 GiB
#   /sys/fs/cgroup/cpu/plaisante-plaisante-grader/      the user's CPU cgroup (cgroup v1)
#
# The user is plaisante-grader (system account, no login shell). Remove both with
# `userdel plaisante-grader && rm -rf /var/lib/plaisante-grader`
# (and `rmdir /sys/fs/cgroup/{memory,cpu}/plaisante-plaisante-grader`).
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=plaisante-grader
BASE=/var/lib/plaisante-grader
VENV=$BASE/venv
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
    echo "grader-user: nothing to do as $(id -un): the tests grade as you" >&2
    exit 0
fi

mkdir -p "$BASE"
chmod 755 "$BASE"
exec 9>"$BASE/.lock"   # two `make test` at once: one builds, the other waits
flock 9

if ! id -u "$NAME" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$BASE/home" --create-home \
            --shell /usr/sbin/nologin --comment "Plaisante Kit grader (tests)" "$NAME"
fi
mkdir -p "$BASE/home"
chown "$NAME:$NAME" "$BASE/home"
chmod 700 "$BASE/home"

# The one-time root step of a shared server (docs/threat-model.md, "Memory"): a memory cgroup
# the user may make its sandboxes' cgroups in (plaisante.grading.memory_cgroup), capped as a
# whole at MEMORY_CAP (the workers' sandboxes together).
CGROUP=/sys/fs/cgroup/memory/plaisante-$NAME
MEMORY_CAP=${PLAISANTE_GRADER_MEMORY_CAP:-$((8 * 1024 * 1024 * 1024))}
if [ -w /sys/fs/cgroup/memory ] && [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    mkdir -p "$CGROUP"
    echo "$MEMORY_CAP" >"$CGROUP/memory.limit_in_bytes"
    chown "$NAME:$NAME" "$CGROUP" "$CGROUP/cgroup.procs" "$CGROUP/tasks"
else
    echo "grader-user: no cgroup v1 memory controller here: sandboxes get no memory cgroup" >&2
fi
# And a CPU cgroup (docs/threat-model.md, "CPU"): each sandbox one share of the processor,
# however many processes or sessions it starts (plaisante.grading.cpu_cgroup).
CPU_CGROUP=/sys/fs/cgroup/cpu/plaisante-$NAME
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ]; then
    mkdir -p "$CPU_CGROUP"
    chown "$NAME:$NAME" "$CPU_CGROUP" "$CPU_CGROUP/cgroup.procs" "$CPU_CGROUP/tasks"
else
    echo "grader-user: no cgroup v1 cpu controller here: sandboxes get no CPU cgroup" >&2
fi

pins=$(grep -Ev '^[[:space:]]*-e[[:space:]]' requirements.txt)
want=$( { printf '%s\n' "$pins"; "$PY" --version; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$VENV/.installed" 2>/dev/null)" = "$want" ]; then
    exit 0
fi

echo "grader-user: building $VENV from $PY and requirements.txt (without -e .)" >&2
rm -rf "$VENV"
(umask 022
 "$PY" -m venv "$VENV"
 printf '%s\n' "$pins" >"$VENV/requirements.txt"
 export PIP_DISABLE_PIP_VERSION_CHECK=1
 "$VENV/bin/python" -m pip install --quiet --root-user-action=ignore --upgrade pip
 "$VENV/bin/python" -m pip install --quiet --root-user-action=ignore -r "$VENV/requirements.txt")
chmod -R a+rX "$VENV"
echo "$want" >"$VENV/.installed"
