#!/usr/bin/env bash
# Builds and runs every native test of the filesystem core:
#   1. the core builds warning-free with gcc -Wpedantic and clang (C11)
#   2. semantic unit tests under AddressSanitizer+UBSan, with allocation
#      failure injection (tests/fs/unit)
#   3. the 8-thread stress test under ThreadSanitizer
#   4. the same stress test under AddressSanitizer+UBSan, readers against
#      writers of one file (every read a whole chunk version) under both,
#      path walks against changes of their directories under both, and
#      creates and removals of the same names racing in one directory under both
#   4b. pipes, poll, locks and /dev: unit tests (ASan+UBSan, fault injection)
#      and their thread stress under TSan and ASan+UBSan (unit/test_ipc.c,
#      stress/stress_ipc.c)
#   5. the libFuzzer target against its model for FUZZ_SECONDS (default 30)
#   6. the conformance programs natively (their wasm comparison is
#      tests/fs/run-conformance.sh)
#   7. the mount layer over a POSIX directory backend (tests/mount):
#      semantics under ASan+UBSan, threads under TSan and ASan+UBSan, and
#      the fuzzer's operations vs its model inside a mount (MOUNT_FUZZ_SECONDS,
#      default 10)
# Ends with "N passed, N failed"; exits non-zero on any failure.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
fuzz_seconds="${FUZZ_SECONDS:-30}"
mount_fuzz_seconds="${MOUNT_FUZZ_SECONDS:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
core=("$repo"/runtime/fs/*/*.c)
inc=(-I "$repo/runtime/include")
passed=0
failed=0

step() { # step NAME COMMAND...
  local name="$1"; shift
  echo "== $name"
  if "$@" > "$work/log" 2>&1; then
    tail -n 3 "$work/log"
    echo "ok   $name"; passed=$((passed + 1))
  else
    tail -n 40 "$work/log"
    echo "FAIL $name"; failed=$((failed + 1))
  fi
}

build_core_strict() {
  for src in "${core[@]}"; do
    gcc -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror "${inc[@]}" -c "$src" -o "$work/gcc.o" || return 1
    clang-22 -std=c11 -O2 -Wall -Wextra -Werror "${inc[@]}" -c "$src" -o "$work/clang.o" || return 1
  done
  echo "runtime/fs: ${#core[@]} files build with gcc -Wpedantic and clang-22 -Werror"
}

asan=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
build_and_run() { # build_and_run OUT FLAGS... -- SOURCES...
  local out="$1"; shift
  local flags=()
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  shift
  clang-22 -std=gnu11 -g -O1 -Wall -Wextra "${flags[@]}" "${inc[@]}" "${core[@]}" "$@" \
    -o "$work/$out" -lpthread || return 1
  "$work/$out"
}

run_fuzzer() {
  clang-22 -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    "${inc[@]}" "${core[@]}" "$here/fuzz/fuzz_ops.c" -o "$work/fuzz" -lpthread || return 1
  mkdir -p "$work/corpus"
  "$work/fuzz" -max_total_time="$fuzz_seconds" -max_len=2000 -seed=1 -print_final_stats=1 "$work/corpus" 2>&1 |
    grep -E "^(Done|stat::number_of_executed_units|model mismatch|==|SUMMARY)"
  return "${PIPESTATUS[0]}"
}

step "core builds strictly" build_core_strict
step "unit semantics (ASan+UBSan, fault injection)" \
  build_and_run semantics "${asan[@]}" -DSPINDLE_FS_FAULT_INJECTION -- "$here/unit/test_semantics.c"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
step "stress 8 threads (TSan)" build_and_run stress-tsan -fsanitize=thread -- "$here/stress/stress.c"
step "stress 8 threads (ASan+UBSan)" build_and_run stress-asan "${asan[@]}" -- "$here/stress/stress.c"
step "lock-free reads vs writers (TSan)" build_and_run snapshot-tsan -fsanitize=thread -- "$here/stress/snapshot_reads.c"
step "lock-free reads vs writers (ASan+UBSan)" build_and_run snapshot-asan "${asan[@]}" -- "$here/stress/snapshot_reads.c"
step "lock-free walks vs directory changes (TSan)" build_and_run walk-tsan -fsanitize=thread -- "$here/stress/walk_stress.c"
step "lock-free walks vs directory changes (ASan+UBSan)" build_and_run walk-asan "${asan[@]}" -- "$here/stress/walk_stress.c"
step "creates racing in one directory (TSan)" build_and_run create-tsan -fsanitize=thread -- "$here/stress/create_race.c"
step "creates racing in one directory (ASan+UBSan)" build_and_run create-asan "${asan[@]}" -- "$here/stress/create_race.c"
step "pipes, poll, locks, /dev units (ASan+UBSan, fault injection)" \
  build_and_run ipc-units "${asan[@]}" -DSPINDLE_FS_FAULT_INJECTION -- "$here/unit/test_ipc.c"
step "pipes and locks stress (TSan)" build_and_run ipc-tsan -fsanitize=thread -- "$here/stress/stress_ipc.c"
step "pipes and locks stress (ASan+UBSan)" build_and_run ipc-asan "${asan[@]}" -- "$here/stress/stress_ipc.c"
step "fuzz random operations vs model (${fuzz_seconds}s)" run_fuzzer
step "conformance programs (native)" "$here/run-conformance.sh" --native-only
mount_test=("$repo/tests/mount/posix_backend.c" "$repo/tests/mount/test_mount.c")
step "mount layer semantics (ASan+UBSan)" build_and_run mount-asan "${asan[@]}" -- "${mount_test[@]}"
mount_stress() {
  clang-22 -std=gnu11 -g -O1 -Wall -Wextra -fsanitize=thread "${inc[@]}" "${core[@]}" "${mount_test[@]}" \
    -o "$work/mount-tsan" -lpthread || return 1
  "$work/mount-tsan" stress || return 1
  clang-22 -std=gnu11 -g -O1 -Wall -Wextra "${asan[@]}" "${inc[@]}" "${core[@]}" "${mount_test[@]}" \
    -o "$work/mount-asan-stress" -lpthread || return 1
  "$work/mount-asan-stress" stress
}
step "mount layer threads (TSan, then ASan+UBSan)" mount_stress
run_mount_fuzzer() { # the fuzzer's operations and model, inside a mount over a POSIX directory
  clang-22 -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DFUZZ_ON_MOUNT "${inc[@]}" "${core[@]}" "$repo/tests/mount/posix_backend.c" "$here/fuzz/fuzz_ops.c" \
    -o "$work/fuzz-mount" -lpthread || return 1
  mkdir -p "$work/corpus-mount"
  "$work/fuzz-mount" -max_total_time="$mount_fuzz_seconds" -max_len=2000 -seed=1 -print_final_stats=1 \
    "$work/corpus-mount" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|model mismatch|==|SUMMARY)"
  return "${PIPESTATUS[0]}"
}
step "fuzz random operations vs model on a mount (${mount_fuzz_seconds}s)" run_mount_fuzzer

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
