#!/usr/bin/env bash
# Build the allocator benchmarks for wasm with `spindle cc --malloc=X` (Spindle's
# allocator, wasi-libc's dlmalloc, mimalloc) and run them with `spindle run` at the given
# thread counts (best of REPEAT runs); prints every RESULT line plus a summary table.
#
# usage: bench/alloc/run-wasm.sh [threads...]      (default: 1 2)
# env:   REPEAT=3  REF_TOTAL=20000000  ALLOCATORS="spindle dlmalloc mimalloc"  BENCHES="..."
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-bench/wasm"
B="$ROOT/bench/alloc"
SPINDLE="$ROOT/bin/spindle"
THREADS=("$@")
[[ $# -eq 0 ]] && THREADS=(1 2)
REPEAT="${REPEAT:-3}"
REF_TOTAL="${REF_TOTAL:-20000000}"
ALLOCATORS="${ALLOCATORS:-spindle dlmalloc mimalloc}"
BENCHES="${BENCHES:-ref_workload larson prodcons cache_scratch mixed}"
mkdir -p "$OUT"

declare -A ARGS=(
    [ref_workload]="$REF_TOTAL"
    [larson]="100000 5 512 1000"
    [prodcons]="1000000"
    [cache_scratch]="1000 8 10000"
    [mixed]="500000 65536"
)

for alloc in $ALLOCATORS; do
    for bench in $BENCHES; do
        "$SPINDLE" cc --malloc="$alloc" -O2 "$B/$bench.c" -o "$OUT/$bench-$alloc.wasm"
    done
done

RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
for bench in $BENCHES; do
    for t in "${THREADS[@]}"; do
        for alloc in $ALLOCATORS; do
            for ((r = 0; r < REPEAT; r++)); do
                # shellcheck disable=SC2086
                line=$("$SPINDLE" run --wait-for-pool "$OUT/$bench-$alloc.wasm" "$t" ${ARGS[$bench]} | grep '^RESULT ' || true)
                [[ -n "$line" ]] || { echo "$bench-$alloc $t: no RESULT" >&2; continue; }
                line="RESULT {\"allocator\":\"$alloc\",\"platform\":\"wasm\",${line#RESULT \{}"
                echo "$line"
                echo "${line#RESULT }" >>"$RESULTS"
            done
        done
    done
done
node "$B/summarize.mjs" "$RESULTS"
