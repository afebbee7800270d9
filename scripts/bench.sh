#!/usr/bin/env bash
# The main job: sets up (idempotent), then runs `spindle bench` with any options given
# (default: Node, threads 1, 2 and 2x the cores, 5 runs; add --browser for Chromium too).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
exec "$root/bin/spindle" bench "$@"
