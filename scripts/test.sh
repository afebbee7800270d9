#!/usr/bin/env bash
# Sets up (idempotent) and runs Spindle's whole test suite. Ends with node's test runner summary
# (# pass N / # fail N) and exits non-zero on any failure.
#   SPINDLE_TEST_BROWSER=0  skip the Chromium runs     SPINDLE_TEST_ONLY=regex  only matching programs
#   SPINDLE_TEST_LONG=1     long stress and fuzz runs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
# Test files run one at a time: each uses both cores itself.
exec node --test --test-concurrency=1 --test-reporter=spec tests/*.test.js
