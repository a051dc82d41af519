#!/usr/bin/env bash
# Set up and run the companion's main job: for now, replay a bundled game and show its standings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/camel-companion replay examples/camelup-2018.jsonl
