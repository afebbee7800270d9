#!/usr/bin/env bash
# The main job: sets up (idempotent), then runs `spindle bench` with any options given
# (default: the key experiments in Node, threads 1, 2 and 2x the cores, 3 runs; --browser adds
# Chromium, --full every experiment; durations in docs/PERFORMANCE.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
exec "$root/bin/spindle" bench "$@"
