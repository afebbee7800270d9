#!/usr/bin/env bash
# Build the allocator tests for wasm with `spindle cc --malloc=spindle` and run them with
# `spindle run`: the contract checks, the OOM program under a small --max-memory, the
# multithreaded stress at several thread counts, and a link-map check that wasi-libc's
# dlmalloc is not linked.
#
# usage: tests/alloc/run-wasm.sh [threads...]     (default: 1 2 4 16)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-tests/wasm"
T="$ROOT/tests/alloc"
SPINDLE="$ROOT/bin/spindle"
THREADS=("$@")
[[ $# -eq 0 ]] && THREADS=(1 2 4 16)
mkdir -p "$OUT"
passed=0
failed=0

step() {
    local name="$1"
    shift
    local log="$OUT/$(echo "$name" | tr ' /' '__').log"
    if "$@" >"$log" 2>&1; then
        echo "PASS: $name"
        passed=$((passed + 1))
    else
        echo "FAIL: $name (log: $log)"
        tail -n 12 "$log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

step "build stress.wasm (with link map)" "$SPINDLE" cc --malloc=spindle -O2 -I"$T" "$T/stress.c" \
    -o "$OUT/stress.wasm" -Wl,-Map="$OUT/stress.map"
step "dlmalloc is not linked" bash -c "grep -q 'libspindle-alloc.a(malloc_api.o):(malloc)' '$OUT/stress.map' &&
    ! grep -q dlmalloc '$OUT/stress.map'"
step "build edge_cases.wasm" "$SPINDLE" cc --malloc=spindle -O2 -I"$ROOT/runtime/include" -I"$T" \
    "$T/edge_cases.c" -o "$OUT/edge_cases.wasm"
# Each program runs in Node and in headless Chromium (SPINDLE_TEST_BROWSER=0: Node only).
HOSTS=(node)
[[ "${SPINDLE_TEST_BROWSER:-1}" != 0 ]] && HOSTS+=(browser)
step "build oom.wasm (--max-memory=32MiB)" "$SPINDLE" cc --malloc=spindle --max-memory=32MiB -O2 -I"$T" \
    "$T/oom.c" -o "$OUT/oom.wasm"
for host in "${HOSTS[@]}"; do
    flags=()
    [[ $host == browser ]] && flags=(--browser)
    step "edge cases ($host)" "$SPINDLE" run "${flags[@]}" "$OUT/edge_cases.wasm"
    step "out of memory: NULL + ENOMEM, then reuse ($host)" "$SPINDLE" run "${flags[@]}" "$OUT/oom.wasm"
    for t in "${THREADS[@]}"; do
        step "stress $t threads ($host)" "$SPINDLE" run "${flags[@]}" "$OUT/stress.wasm" "$t" 4000 "$t"
    done
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
