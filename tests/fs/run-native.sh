#!/usr/bin/env bash
# Builds and runs every native test of the filesystem core:
#   1. the core builds warning-free with gcc -Wpedantic and clang (C11)
#   2. semantic unit tests under AddressSanitizer+UBSan, with allocation
#      failure injection (tests/fs/unit)
#   3. the 8-thread stress test under ThreadSanitizer
#   4. the same stress test under AddressSanitizer+UBSan, readers against
#      writers of one file (every read a whole chunk version) under both,
#      path walks against changes of their directories under both, and
#      creates and removals of the same names racing in one directory under both,
#      and the inodes' reader-writer lock on its own (its sleep and wake-up too) under both
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
# To fit two cores: runtime/fs is compiled once per sanitizer flag set (two
# compilers at a time) and each test is linked with those objects; the fuzzer
# (5) runs on one core beside the steps that mostly use one (1, 2, the units of
# 4b, 6, and the semantics and fuzzer of 7); the thread stress tests come last,
# with both cores to themselves.
# Ends with "N passed, N failed"; exits non-zero on any failure.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
fuzz_seconds="${FUZZ_SECONDS:-30}"
mount_fuzz_seconds="${MOUNT_FUZZ_SECONDS:-10}"
work="$(mktemp -d)"
trap '[ -n "${fuzz_pid:-}" ] && kill "$fuzz_pid" 2>/dev/null; rm -rf "$work"' EXIT # (the background fuzzer too)
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

# The flag sets, by name: the core and the tests linked with it get the same flags
# (SPINDLE_FS_FAULT_INJECTION is for the core: runtime/fs/core/fs_memory.c).
asan=(-Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=undefined)
asan_faults=("${asan[@]}" -DSPINDLE_FS_FAULT_INJECTION)
tsan=(-Wall -Wextra -fsanitize=thread)
fuzzer=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)

build_core() { # build_core SET: runtime/fs compiled with SET's flags into $work/SET/
  local -n flags="$1"
  mkdir -p "$work/$1"
  (cd "$work/$1" && printf '%s\0' "${core[@]}" |
    xargs -0 -n 4 -P 2 clang-22 -std=gnu11 -g -O1 "${flags[@]}" "${inc[@]}" -c) > "$work/$1.log" 2>&1 &&
    touch "$work/$1.ok"
}

build() { # build SET OUT SOURCES_AND_FLAGS...: a test linked with the core built by build_core SET
  local -n flags="$1"
  # The core's own compile errors, in every step that needs it, as when each step compiled it.
  [ -e "$work/$1.ok" ] || { cat "$work/$1.log"; return 1; }
  clang-22 -std=gnu11 -g -O1 "${flags[@]}" "${inc[@]}" "$work/$1"/*.o "${@:3}" -o "$work/$2" -lpthread
}

build_and_run() { # build_and_run SET OUT SOURCES...
  build "$@" && "$work/$2"
}

run_fuzz() { # run_fuzz OUT SECONDS: runs a fuzzer built by `build fuzzer OUT ...`
  mkdir -p "$work/corpus-$1"
  "$work/$1" -max_total_time="$2" -max_len=2000 -seed=1 -print_final_stats=1 "$work/corpus-$1" 2>&1 |
    grep -E "^(Done|stat::number_of_executed_units|model mismatch|==|SUMMARY)"
  return "${PIPESTATUS[0]}"
}

for set in asan asan_faults tsan fuzzer; do build_core "$set"; done # failures: in the steps that use them

# The fuzzer is single-threaded and runs for a fixed time: start it now, report it later.
run_fuzzer() { build fuzzer fuzz "$here/fuzz/fuzz_ops.c" && run_fuzz fuzz "$fuzz_seconds"; }
run_fuzzer > "$work/fuzz.out" 2>&1 &
fuzz_pid=$!
fuzzer_result() { wait "$fuzz_pid"; local rc=$?; cat "$work/fuzz.out"; return $rc; }

step "core builds strictly" build_core_strict
step "unit semantics (ASan+UBSan, fault injection)" build_and_run asan_faults semantics "$here/unit/test_semantics.c"
step "pipes, poll, locks, /dev units (ASan+UBSan, fault injection)" build_and_run asan_faults ipc-units "$here/unit/test_ipc.c"
step "conformance programs (native)" "$here/run-conformance.sh" --native-only
mount_test=("$repo/tests/mount/posix_backend.c" "$repo/tests/mount/test_mount.c")
step "mount layer semantics (ASan+UBSan)" build_and_run asan mount-asan "${mount_test[@]}"
run_mount_fuzzer() { # the fuzzer's operations and model, inside a mount over a POSIX directory
  build fuzzer fuzz-mount -DFUZZ_ON_MOUNT "$repo/tests/mount/posix_backend.c" "$here/fuzz/fuzz_ops.c" &&
    run_fuzz fuzz-mount "$mount_fuzz_seconds"
}
step "fuzz random operations vs model on a mount (${mount_fuzz_seconds}s)" run_mount_fuzzer
step "fuzz random operations vs model (${fuzz_seconds}s)" fuzzer_result

# Thread stress tests, each with both cores to itself.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
step "stress 8 threads (TSan)" build_and_run tsan stress-tsan "$here/stress/stress.c"
step "stress 8 threads (ASan+UBSan)" build_and_run asan stress-asan "$here/stress/stress.c"
step "lock-free reads vs writers (TSan)" build_and_run tsan snapshot-tsan "$here/stress/snapshot_reads.c"
step "lock-free reads vs writers (ASan+UBSan)" build_and_run asan snapshot-asan "$here/stress/snapshot_reads.c"
step "lock-free walks vs directory changes (TSan)" build_and_run tsan walk-tsan "$here/stress/walk_stress.c"
step "lock-free walks vs directory changes (ASan+UBSan)" build_and_run asan walk-asan "$here/stress/walk_stress.c"
step "creates racing in one directory (TSan)" build_and_run tsan create-tsan "$here/stress/create_race.c"
step "creates racing in one directory (ASan+UBSan)" build_and_run asan create-asan "$here/stress/create_race.c"
step "inode lock: readers, writers, sleepers (TSan)" build_and_run tsan rwlock-tsan "$here/stress/rw_lock_stress.c"
step "inode lock: readers, writers, sleepers (ASan+UBSan)" build_and_run asan rwlock-asan "$here/stress/rw_lock_stress.c"
step "pipes and locks stress (TSan)" build_and_run tsan ipc-tsan "$here/stress/stress_ipc.c"
step "pipes and locks stress (ASan+UBSan)" build_and_run asan ipc-asan "$here/stress/stress_ipc.c"
mount_stress() {
  build tsan mount-tsan "${mount_test[@]}" && "$work/mount-tsan" stress &&
    build asan mount-asan-stress "${mount_test[@]}" && "$work/mount-asan-stress" stress
}
step "mount layer threads (TSan, then ASan+UBSan)" mount_stress

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
