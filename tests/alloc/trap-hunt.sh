#!/usr/bin/env bash
# Runs tests/alloc/fresh_fill.c many times, short, for Spindle's allocator and for
# --malloc=dlmalloc, at each thread count, in Node; counts runs that trapped or failed.
# Ends with "N passed, N failed" (runs) and exits non-zero if any failed.
#
# usage: tests/alloc/trap-hunt.sh [runs=100] [threads...=2 16]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-tests/trap-hunt"
RUNS="${1:-100}"
shift || true
THREADS=("$@")
[[ ${#THREADS[@]} -eq 0 ]] && THREADS=(2 16)
mkdir -p "$OUT"
bad=0
total=0
for malloc in spindle dlmalloc; do
    "$ROOT/bin/spindle" cc -O2 --malloc="$malloc" "$ROOT/tests/alloc/fresh_fill.c" -o "$OUT/$malloc.wasm" || exit 1
    for t in "${THREADS[@]}"; do
        failed=0
        for ((i = 0; i < RUNS; i++)); do
            if ! "$ROOT/bin/spindle" run "$OUT/$malloc.wasm" "$t" >"$OUT/last.log" 2>&1; then
                failed=$((failed + 1))
                cp "$OUT/last.log" "$OUT/failed-$malloc-$t-$i.log"
            fi
        done
        grows=$(grep -o 'grew [0-9-]* times' "$OUT/last.log" || true)
        echo "trap hunt: --malloc=$malloc, $t threads: $failed of $RUNS runs failed ($grows)"
        bad=$((bad + failed))
        total=$((total + RUNS))
    done
done
echo "$((total - bad)) passed, $bad failed"
[[ $bad -eq 0 ]]
