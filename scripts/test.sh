#!/usr/bin/env bash
# Sets up (idempotent) and runs Spindle's whole test suite on Node 26 (the active LTS, which setup
# installs), then the suites a Node version can change on Node 24 and 22, and a short legacy lane
# on the system's Node 20 (past its end of life), Chromium left out of those (browsers do not
# change with Node). Each run ends with node's test runner summary (# pass N / # fail N); the
# script exits non-zero on any failure.
#   SPINDLE_TEST_BROWSER=0  skip the Chromium runs     SPINDLE_TEST_ONLY=regex  only matching programs
#   SPINDLE_TEST_LONG=1     long stress and fuzz runs  SPINDLE_TEST_LTS=0       only Node 26's run
# The other lanes run with SPINDLE_TEST_LANE=extra, which skips what the first lane checks for
# every Node (tests/mount-addon.test.js's rerun of three suites without the addon).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
source "$root/scripts/versions.env"
cd "$root"
# Every run in the suites shares one fresh compiled-code cache (docs/HOST.md), so no test sees
# code another checkout or an earlier suite left in ~/.cache, and the cache itself is exercised.
SPINDLE_CODE_CACHE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/spindle-test-code-cache.XXXXXX")
export SPINDLE_CODE_CACHE_DIR
# `spindle cc` would fill it after every link, in the background, for hundreds of test modules:
# tests/code-cache.test.js turns that on where it checks it.
export SPINDLE_CODE_CACHE_PREFILL=0
# The lanes below share the programs the suites build (tests/lib/build-cache.js): the toolchain
# is set up once, so the same source and command make the same file on every Node.
SPINDLE_TEST_BUILD_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/spindle-test-builds.XXXXXX")
export SPINDLE_TEST_BUILD_CACHE
# Each lane's output is kept too, so that the end of the run can repeat what failed: a failure in
# the first lane would otherwise scroll out of a CI log's tail behind the later lanes.
lane_logs=$(mktemp -d "${TMPDIR:-/tmp}/spindle-test-lanes.XXXXXX")
trap 'rm -rf "$SPINDLE_CODE_CACHE_DIR" "$SPINDLE_TEST_BUILD_CACHE" "$lane_logs"' EXIT
# Test files run one at a time: each uses both cores itself. A test that hangs fails after 20
# minutes (60 with SPINDLE_TEST_LONG=1) instead of holding CI until its own limit.
timeout_ms=$(( ${SPINDLE_TEST_LONG:-0} == 1 ? 3600000 : 1200000 ))
failed_lanes=()
# run_suites LANE FILE...: the lane's suites, its output shown and kept under its name.
run_suites() {
  local lane=$1; shift
  local log; log=$(mktemp "$lane_logs/lane.XXXXXX")
  if node --test --test-concurrency=1 --test-timeout="$timeout_ms" --test-reporter=spec "$@" 2>&1 | tee "$log"; then return 0; fi
  failed_lanes+=("$lane|$log")
  return 1
}

# bin/spindle starts with `#!/usr/bin/env -S node ...`, so the Node first on PATH runs every
# spindle of a suite as well as the runner.
on_node() { local version=$1; shift; PATH="$root/.toolchain/node-$version/bin:$PATH" "$@"; }

status=0
echo "== on Node $NODE_LTS_VERSION (.toolchain/node-$NODE_LTS_VERSION): every suite =="
on_node "$NODE_LTS_VERSION" run_suites "Node $NODE_LTS_VERSION" tests/*.test.js || status=$?
if [ "${SPINDLE_TEST_LTS:-1}" != 0 ]; then
  # What a Node version can change: the host and its threads, compilation and the code cache,
  # mounts (the addon), the CLI, how a run ends.
  suites="tests/compilation.test.js tests/code-cache.test.js tests/run-exit.test.js tests/node-versions.test.js tests/main-thread.test.js
    tests/programs.test.js tests/cli.test.js tests/host-api.test.js tests/mount.test.js tests/mount-addon.test.js tests/thread-limit.test.js
    tests/files-api.test.js tests/rust.test.js tests/napi.test.js tests/compile-hint.test.js tests/exit-status.test.js"
  for version in $EXTRA_NODE_VERSIONS; do
    echo "== on Node $version (.toolchain/node-$version): $(echo $suites) =="
    SPINDLE_TEST_BROWSER=0 SPINDLE_TEST_LANE=extra on_node "$version" run_suites "Node $version" $suites || status=$?
  done
  # Node 20, past its end of life, stays as long as it costs nothing: the suites of what differs.
  legacy="tests/compilation.test.js tests/node-versions.test.js tests/liftoff-wait-calls.test.js tests/run-exit.test.js tests/exit-status.test.js"
  echo "== legacy lane on the system's Node $(node --version): $legacy =="
  SPINDLE_TEST_BROWSER=0 run_suites "legacy Node $(node --version)" $legacy || status=$?
fi
# What failed, lane by lane: the runner's own "failing tests" section of each failing lane.
for entry in "${failed_lanes[@]}"; do
  echo "== failed on ${entry%%|*} =="
  sed -n '/^✖ failing tests:/,$p' "${entry#*|}" | head -n 400
done
echo "== lanes: ${#failed_lanes[@]} failed =="
exit "$status"
