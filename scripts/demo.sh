#!/usr/bin/env bash
# Set up and start the companion's main job: the demo, a whole table scoring a game of Camel Up
# by itself (rendered camera, the game's real reader, mock buttons, the dashboard on port 8000).
# Options go to `camel-companion demo`: --game camelup-2014|camelup-2018|camelup-cards|last-camel,
# --players 5, --speed 2, --pace 10 (seconds between turns), --port 8080.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/camel-companion demo "$@"
