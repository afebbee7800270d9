#!/usr/bin/env bash
# Sets up (idempotent) and runs Spindle's whole test suite on the system's Node (20), then suites
# again on each Node that setup installs (EXTRA_NODE_VERSIONS in scripts/versions.env), Chromium
# left out (browsers do not change with Node): ~3 min more on 2 cores. Each run ends with node's
# test runner summary (# pass N / # fail N); the script exits non-zero on any failure.
#   SPINDLE_TEST_BROWSER=0  skip the Chromium runs     SPINDLE_TEST_ONLY=regex  only matching programs
#   SPINDLE_TEST_LONG=1     long stress and fuzz runs  SPINDLE_TEST_LTS=0       only the system's Node
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
trap 'rm -rf "$SPINDLE_CODE_CACHE_DIR"' EXIT
# Test files run one at a time: each uses both cores itself. A test that hangs fails after 20
# minutes (60 with SPINDLE_TEST_LONG=1) instead of holding CI until its own limit.
timeout_ms=$(( ${SPINDLE_TEST_LONG:-0} == 1 ? 3600000 : 1200000 ))
run_suites() { node --test --test-concurrency=1 --test-timeout="$timeout_ms" --test-reporter=spec "$@"; }

status=0
run_suites tests/*.test.js || status=$?
if [ "${SPINDLE_TEST_LTS:-1}" != 0 ]; then
  # The current LTS (the first) runs every suite that runs programs in Node; the others, the
  # suites of what differs between Node versions (compilation, how a run ends, the compilers).
  lts=${EXTRA_NODE_VERSIONS%% *}
  for version in $EXTRA_NODE_VERSIONS; do
    suites="tests/compilation.test.js tests/code-cache.test.js tests/run-exit.test.js tests/node-versions.test.js tests/main-thread.test.js"
    [ "$version" = "$lts" ] && suites="tests/programs.test.js tests/cli.test.js tests/rust.test.js tests/napi.test.js tests/mount.test.js $suites"
    echo "== on Node $version (.toolchain/node-$version): $suites =="
    # bin/spindle starts with `#!/usr/bin/env -S node ...`, so PATH picks the Node of every run.
    PATH="$root/.toolchain/node-$version/bin:$PATH" SPINDLE_TEST_BROWSER=0 run_suites $suites || status=$?
  done
fi
exit "$status"
