#!/usr/bin/env bash
# Set up and run every check: the linter, the type checker (mypy, as pyproject.toml's
# [tool.mypy] says), the whole test suite, then (with no arguments) the tests of what the Pi
# runs again on Debian's own OpenCV and NumPy (4.6 and 1.24, as Raspberry Pi OS Bookworm
# ships), so an OpenCV or NumPy API newer than the Pi's fails here first.
#
# With no arguments both runs are spread over the machine's cores by pytest-xdist (-n auto: one
# worker per core; PYTEST_XDIST_AUTO_NUM_WORKERS=N sets another number). --dist worksteal: an
# idle worker takes tests queued for a busy one, so the few long tests (the demo's, the crash
# tests) do not leave one worker finishing alone.
# With arguments (`scripts/test.sh tests/test_cli.py`, `-k undo`, `-x --pdb`) they go to pytest
# as given, in one process: a file or a test takes seconds, less than starting the workers,
# and -s, --pdb and the output's order work as usual. Add `-n auto` to spread them too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/mypy
if [ $# -gt 0 ]; then
    .venv/bin/python -m pytest "$@"
    exit
fi
.venv/bin/python -m pytest -n auto --dist worksteal
if [ ! -x .venv-debian/bin/python ]; then
    echo "test.sh: no .venv-debian (this distribution's Python is older than 3.11): the tests \
on its OpenCV and NumPy are skipped" >&2
else
    .venv-debian/bin/python -m pytest -p no:cacheprovider -n auto --dist worksteal tests/vision \
        --ignore=tests/vision/test_reader_photos.py --ignore=tests/vision/test_reader_rendered.py \
        tests/test_camera.py tests/test_camera_games.py tests/test_run.py tests/test_run_cards.py \
        tests/web/test_setup.py tests/web/test_camera.py
fi
