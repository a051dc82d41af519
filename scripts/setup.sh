#!/usr/bin/env bash
# Make .venv with camel-companion installed, on a fresh Debian-based machine (Raspberry Pi OS,
# Debian, Ubuntu). Usage: scripts/setup.sh [EXTRA], e.g. scripts/setup.sh test
# NumPy and OpenCV come from PyPI here (the "opencv" extra); a Pi uses its distribution's.
# With "test", Debian's Chromium is installed too: the browser tests drive it through
# Playwright, whose own browser download is never used. So is Debian's systemd where
# systemd-analyze is missing: the tests check the Pi's service units with it. And with "test",
# .venv-debian sees Debian's own python3-opencv and python3-numpy (installed with apt when
# missing), the versions a Raspberry Pi runs: scripts/test.sh runs the Pi's tests with them.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
# Install what is missing, and only that: nothing already installed upgraded for its own
# sake; apt's pages of output go to a log, shown only if it fails.
apt_install() {
    local log
    log=$(mktemp -t camel-companion-apt.XXXXXX)
    echo "setup.sh: installing $* with apt (log: $log)" >&2
    if ! { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-upgrade "$@"; } >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
}

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "camel-companion needs Python 3.11 or newer as python3" >&2
    exit 1
fi
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3-venv
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[opencv${1:+,$1}]"
if [ "${1:-}" = test ] && ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium
fi
if [ "${1:-}" = test ] && ! command -v systemd-analyze >/dev/null 2>&1; then
    apt_install systemd
fi
# (Only where the distribution's own Python is 3.11 or newer, as on Debian 12 and the Pi's OS.)
if [ "${1:-}" = test ] && /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        2>/dev/null; then
    if ! /usr/bin/python3 -c 'import cv2, numpy, ensurepip, venv' 2>/dev/null; then
        apt_install python3-opencv python3-numpy python3-venv
    fi
    if [ ! -x .venv-debian/bin/python ]; then
        /usr/bin/python3 -m venv --system-site-packages .venv-debian
    fi
    .venv-debian/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
fi
