#!/usr/bin/env bash
# Set up and run every check: the linter, then the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
