#!/usr/bin/env bash
# Build the allocator benchmarks natively against glibc malloc, Spindle's allocator and
# mimalloc (tools/mimalloc/build.sh), run each at the given thread counts (best of
# REPEAT runs), and print every RESULT line plus a summary table.
#
# usage: bench/alloc/run-native.sh [threads...]      (default: 1 2)
# env:   REPEAT=3  REF_TOTAL=20000000  ALLOCATORS="glibc spindle mimalloc"
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-bench/native"
B="$ROOT/bench/alloc"
THREADS=("$@")
[[ $# -eq 0 ]] && THREADS=(1 2)
REPEAT="${REPEAT:-3}"
REF_TOTAL="${REF_TOTAL:-20000000}"
ALLOCATORS="${ALLOCATORS:-glibc spindle mimalloc}"
CC="${CC:-clang-22}"
mkdir -p "$OUT"

MIMALLOC="$ROOT/.toolchain/mimalloc/libmimalloc-native.a"
if [[ " $ALLOCATORS " == *" mimalloc "* && ! -f "$MIMALLOC" ]]; then
    bash "$ROOT/tools/mimalloc/build.sh" >&2 || ALLOCATORS="${ALLOCATORS/mimalloc/}"
fi

# benchmark name and its arguments after the thread count
declare -A ARGS=(
    [ref_workload]="$REF_TOTAL"
    [larson]="200000 10 512 1000"
    [prodcons]="2000000"
    [cache_scratch]="1000 8 10000"
    [mixed]="1000000 65536"
)

for alloc in $ALLOCATORS; do
    case "$alloc" in
    glibc) extra=() ;;
    spindle) extra=("$ROOT"/runtime/alloc/*.c -I"$ROOT/runtime/include") ;;
    mimalloc) extra=("$MIMALLOC") ;;
    *) echo "unknown allocator $alloc" >&2; exit 2 ;;
    esac
    for bench in "${!ARGS[@]}"; do
        "$CC" -std=c11 -O2 "$B/$bench.c" "${extra[@]}" -o "$OUT/$bench-$alloc" -lpthread
    done
done

RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
for bench in ref_workload larson prodcons cache_scratch mixed; do
    for t in "${THREADS[@]}"; do
        for alloc in $ALLOCATORS; do
            for ((r = 0; r < REPEAT; r++)); do
                # shellcheck disable=SC2086
                line=$("$OUT/$bench-$alloc" "$t" ${ARGS[$bench]} | grep '^RESULT ' || true)
                [[ -n "$line" ]] || { echo "$bench-$alloc $t: no RESULT" >&2; continue; }
                line="RESULT {\"allocator\":\"$alloc\",\"platform\":\"native\",${line#RESULT \{}"
                echo "$line"
                echo "${line#RESULT }" >>"$RESULTS"
            done
        done
    done
done
node "$B/summarize.mjs" "$RESULTS"
