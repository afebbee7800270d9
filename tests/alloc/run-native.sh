#!/usr/bin/env bash
# Build and run the allocator's native tests: strict-warning builds with clang and gcc,
# pool-invariant (debug) builds, AddressSanitizer+UBSan and ThreadSanitizer stress runs,
# the allocator replacing the system malloc of a whole process, and a libFuzzer run.
#
# usage: tests/alloc/run-native.sh [--long]   (--long: fuzz 10 minutes instead of 30 s)
# env:   FUZZ_SECONDS overrides the fuzz time.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-tests"
SRC=("$ROOT"/runtime/alloc/*.c)
T="$ROOT/tests/alloc"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
[[ "${1:-}" == "--long" ]] && FUZZ_SECONDS=600
CC="${CC:-clang-22}"
mkdir -p "$OUT"

COMMON=(-std=c11 -g -I"$ROOT/runtime/include" -I"$T")
PREFIXED=(-DSPINDLE_ALLOC_PREFIXED)
passed=0
failed=0

step() { # step NAME COMMAND...: run, count, show the tail of the output on failure
    local name="$1"
    shift
    local log="$OUT/$(echo "$name" | tr ' /' '__').log"
    if "$@" >"$log" 2>&1; then
        echo "PASS: $name"
        passed=$((passed + 1))
    else
        echo "FAIL: $name (log: $log)"
        tail -n 15 "$log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

# 6 first. libFuzzer: random operation sequences with invariants. The fuzzer is single-threaded
# and runs for a fixed time, so it runs beside the steps below and is reported at the end.
fuzz() {
    $CC "${COMMON[@]}" "${PREFIXED[@]}" -O1 -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=undefined -DSPINDLE_ALLOC_DEBUG "$T/fuzz_alloc.c" "${SRC[@]}" -o "$OUT/fuzz_alloc" -lpthread &&
        mkdir -p "$OUT/fuzz-corpus" &&
        "$OUT/fuzz_alloc" -max_total_time="$FUZZ_SECONDS" -max_len=1000 -print_final_stats=1 "$OUT/fuzz-corpus"
}
fuzz > "$OUT/fuzz.out" 2>&1 &
fuzz_pid=$!

# 1. warnings are errors, with both compilers (the wasm build uses -Wall -Wextra -Werror)
for cc in "$CC" gcc; do
    step "$cc builds every allocator file warning-free" bash -c '
        cc="$1"; inc="$2"; shift 2
        for f in "$@"; do
            "$cc" -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I"$inc" -c "$f" -o /dev/null || exit 1
        done' _ "$cc" "$ROOT/runtime/include" "${SRC[@]}"
done

# 2. contract and OOM checks, with the pool's invariants checked after every operation
step "build debug tests" bash -c "
    $CC ${COMMON[*]} ${PREFIXED[*]} -O1 -DSPINDLE_ALLOC_DEBUG $T/edge_cases.c ${SRC[*]} -o $OUT/edge_debug -lpthread &&
    $CC ${COMMON[*]} ${PREFIXED[*]} -O1 -DSPINDLE_ALLOC_DEBUG $T/oom.c ${SRC[*]} -o $OUT/oom_debug -lpthread &&
    $CC ${COMMON[*]} ${PREFIXED[*]} -O1 -DSPINDLE_ALLOC_DEBUG $T/stress.c ${SRC[*]} -o $OUT/stress_debug -lpthread"
step "edge cases (debug)" "$OUT/edge_debug"
step "out of memory: NULL + ENOMEM, then reuse (debug)" "$OUT/oom_debug" large
step "stress 4 threads (debug)" "$OUT/stress_debug" 4 20000 1

# 3. AddressSanitizer + UndefinedBehaviorSanitizer
ASAN=(-O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -DSPINDLE_ALLOC_DEBUG)
step "build ASan+UBSan" bash -c "
    $CC ${COMMON[*]} ${PREFIXED[*]} ${ASAN[*]} $T/stress.c ${SRC[*]} -o $OUT/stress_asan -lpthread &&
    $CC ${COMMON[*]} ${PREFIXED[*]} ${ASAN[*]} $T/edge_cases.c ${SRC[*]} -o $OUT/edge_asan -lpthread"
step "edge cases (ASan+UBSan)" "$OUT/edge_asan"
step "stress 4 threads (ASan+UBSan)" "$OUT/stress_asan" 4 20000 2
step "stress 16 threads (ASan+UBSan)" "$OUT/stress_asan" 16 4000 3

# 4. ThreadSanitizer: the cross-thread free protocol, adoption, the pool lock
step "build TSan" $CC "${COMMON[@]}" "${PREFIXED[@]}" -O1 -fsanitize=thread "$T/stress.c" "${SRC[@]}" \
    -o "$OUT/stress_tsan" -lpthread
step "stress 2 threads (TSan)" env TSAN_OPTIONS=halt_on_error=1 "$OUT/stress_tsan" 2 20000 4
step "stress 4 threads (TSan)" env TSAN_OPTIONS=halt_on_error=1 "$OUT/stress_tsan" 4 10000 5
# 8 threads: reserves cut while neighbours are released (found a race on a reserve's last unit)
step "stress 8 threads (TSan)" env TSAN_OPTIONS=halt_on_error=1 "$OUT/stress_tsan" 8 6000 31
step "stress 8 threads (TSan)" env TSAN_OPTIONS=halt_on_error=1 "$OUT/stress_tsan" 8 4000 6

# 5. the allocator as the malloc of a whole process (glibc and pthread internals included)
step "build as the process malloc (gcc -O2)" gcc -std=c11 -O2 -I"$ROOT/runtime/include" -I"$T" \
    "$T/stress.c" "${SRC[@]}" -o "$OUT/stress_replaced" -lpthread
step "stress 4 threads as the process malloc" "$OUT/stress_replaced" 4 20000 7
step "edge cases as the process malloc" bash -c "
    gcc -std=c11 -O2 -I$ROOT/runtime/include -I$T $T/edge_cases.c ${SRC[*]} -o $OUT/edge_replaced -lpthread &&
    $OUT/edge_replaced"

# 6. the fuzzer started above: built, then run for FUZZ_SECONDS
fuzz_result() { wait "$fuzz_pid"; local rc=$?; cat "$OUT/fuzz.out"; return $rc; }
step "build and fuzz ${FUZZ_SECONDS}s" fuzz_result

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
