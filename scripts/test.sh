#!/usr/bin/env bash
# Sets up (idempotent) and runs Spindle's whole test suite. Ends with node's test runner summary
# (# pass N / # fail N) and exits non-zero on any failure.
#   SPINDLE_TEST_BROWSER=0  skip the Chromium runs     SPINDLE_TEST_ONLY=regex  only matching programs
#   SPINDLE_TEST_LONG=1     long stress and fuzz runs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
# Test files run one at a time: each uses both cores itself. A test that hangs fails after 20
# minutes (60 with SPINDLE_TEST_LONG=1) instead of holding CI until its own limit.
timeout_ms=$(( ${SPINDLE_TEST_LONG:-0} == 1 ? 3600000 : 1200000 ))
exec node --test --test-concurrency=1 --test-timeout="$timeout_ms" --test-reporter=spec tests/*.test.js
