#!/usr/bin/env bash
# Set up and run every check: the linter, the whole test suite, then (with no arguments) the
# tests of what the Pi runs again on Debian's own OpenCV and NumPy (4.6 and 1.24, as Raspberry
# Pi OS Bookworm ships), so an OpenCV or NumPy API newer than the Pi's fails here first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
if [ $# -eq 0 ] && [ ! -x .venv-debian/bin/python ]; then
    echo "test.sh: no .venv-debian (this distribution's Python is older than 3.11): the tests \
on its OpenCV and NumPy are skipped" >&2
elif [ $# -eq 0 ]; then
    .venv-debian/bin/python -m pytest -p no:cacheprovider tests/vision \
        --ignore=tests/vision/test_reader_photos.py --ignore=tests/vision/test_reader_rendered.py \
        tests/test_camera.py tests/test_camera_games.py tests/test_run.py tests/test_run_cards.py \
        tests/web/test_setup.py tests/web/test_camera.py
fi
