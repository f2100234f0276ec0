#!/usr/bin/env bash
# What `make demo` and `make test` need from the system (Debian packages): found, or installed.
#
#   tools/system-packages.sh missing demo|test   print the missing packages' names (nothing: all there)
#   tools/system-packages.sh install demo|test   as root: apt-get update + install the missing ones;
#                                                as another user: say the one command to run, exit 1
#
# demo: a Python that can make .venv (Debian: python3-venv). JupyterLab opens in your own browser
#       and nothing is graded, so neither Chromium nor bubblewrap is needed.
# test: the same, plus chromium (the browser tests), bubblewrap (the grading sandbox), nodejs and
#       npm (JupyterHub's proxy, for the hub test), postgresql (the gradebook on a real
#       PostgreSQL server: tests/postgres_server.py) and, as
#       root, Debian's /usr/bin/python3 with venv (the grading user's venv: tools/grader-user.sh).
#
# Run from the kit's root (the Makefile does). PYTHON is the interpreter that makes .venv.
set -euo pipefail
mode=${1:?usage: $0 missing|install demo|test}
goal=${2:?usage: $0 missing|install demo|test}
PYTHON=${PYTHON:-python3}

can_make_venv() { "$1" -c 'import ensurepip, venv' >/dev/null 2>&1; }

missing() {
    local need=()
    if [ ! -x .venv/bin/python ] && ! can_make_venv "$PYTHON"; then need+=(python3-venv); fi
    if [ "$goal" = test ]; then
        # the paths tests/browser/harness.py looks for
        [ -x /usr/lib/chromium/chromium ] || [ -x /usr/bin/chromium ] || need+=(chromium)
        command -v bwrap >/dev/null || need+=(bubblewrap)
        # JupyterHub's proxy (configurable-http-proxy) and Pyodide for the students' JupyterLite
        # site (make lite-assets) come from npm
        command -v node >/dev/null || need+=(nodejs)
        command -v npm >/dev/null || need+=(npm)
        compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
        if [ "$(id -u)" = 0 ]; then
            [ -x /usr/bin/python3 ] || need+=(python3)
            can_make_venv /usr/bin/python3 || need+=(python3-venv)
        fi
    fi
    if [ ${#need[@]} -gt 0 ]; then printf '%s\n' "${need[@]}" | awk '!seen[$0]++' | xargs; fi
}

case $mode in
    missing) missing ;;
    install)
        need=$(missing)
        [ -z "$need" ] && exit 0
        if [ "$(id -u)" != 0 ]; then
            echo "make $goal: first run \`sudo apt-get install -y $need\` (then \`make $goal\` again)" >&2
            exit 1
        fi
        if ! command -v apt-get >/dev/null; then
            echo "make $goal: install these packages first (not Debian: no apt-get): $need" >&2
            exit 1
        fi
        echo "make $goal: installing $need (apt-get, once)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get -o DPkg::Lock::Timeout=300 update -qq
        # shellcheck disable=SC2086  # one word per package
        apt-get -o DPkg::Lock::Timeout=300 install -y -qq $need >/dev/null
        still=$(missing)
        if [ -n "$still" ]; then
            echo "make $goal: still missing after apt-get install: $still" >&2
            exit 1
        fi
        ;;
    *) echo "usage: $0 missing|install demo|test" >&2; exit 2 ;;
esac
