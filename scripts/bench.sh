#!/usr/bin/env bash
# The main job: sets up (idempotent), then runs `spindle bench` with any options given
# (default: the key experiments in Node, threads 1, 2 and 2x the cores, 3 runs; --browser adds
# the browser series, in Chromium and, when it is installed, Firefox too; --full every
# experiment; durations in docs/PERFORMANCE.md). --browser=NAME[,NAME] picks them as given.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
firefox=${SPINDLE_FIREFOX:-/usr/bin/firefox-esr}
args=()
for arg in "$@"; do
  if [[ $arg == --browser && -x $firefox ]]; then arg=--browser=chromium,firefox; fi
  args+=("$arg")
done
# The main job runs on the active LTS that setup installs (bin/spindle runs on the node first on
# PATH); --node-bin=PATH runs it on another.
source "$root/scripts/versions.env"
PATH="$root/.toolchain/node-$NODE_LTS_VERSION/bin:$PATH" exec "$root/bin/spindle" bench "${args[@]}"
