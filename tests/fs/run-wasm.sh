#!/usr/bin/env bash
# Runs the filesystem tests as wasm under Spindle (needs bin/spindle and the
# toolchain from scripts/setup.sh): the semantic unit tests and the 8-thread
# stress test compiled against the core directly (real wasm threads on shared
# memory), lock-free reads and walks against writers, creates racing in one
# directory, the same for pipes, poll, locks and /dev, filling linear memory
# until ENOSPC and EFAULT for buffers outside it, threads using relative paths
# after chdir, path lookups racing chdir and new preopens, and WASI poll_oneoff
# on pipes and files (tests/fs/wasm), then the conformance programs through
# wasi-libc and runtime/wasi, compared with Linux (run-conformance.sh). Ends
# with "N passed, N failed".
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
spindle="$repo/bin/spindle"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

wasm_test() { # wasm_test NAME FLAGS... -- SOURCES...
  local name="$1"; shift
  local flags=()
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  shift
  echo "== $name (wasm)"
  if "$spindle" cc -O2 "${flags[@]}" -I "$repo/runtime/include" "$repo"/runtime/fs/*/*.c "$@" -o "$work/$name.wasm" &&
     timeout 300 "$spindle" run "$work/$name.wasm" > "$work/$name.log" 2>&1; then
    tail -n 2 "$work/$name.log"; echo "ok   $name"; passed=$((passed + 1))
  else
    tail -n 30 "$work/$name.log" 2>/dev/null; echo "FAIL $name"; failed=$((failed + 1))
  fi
}

# linked as users get it: runtime/wasi and runtime/fs from spindle cc's component archives
wasm_program() { # wasm_program NAME SOURCE
  local name="$1" src="$2"
  echo "== $name (wasm)"
  if "$spindle" cc -O2 "$src" -o "$work/$name.wasm" &&
     timeout 300 "$spindle" run "$work/$name.wasm" > "$work/$name.log" 2>&1; then
    tail -n 2 "$work/$name.log"; echo "ok   $name"; passed=$((passed + 1))
  else
    tail -n 30 "$work/$name.log" 2>/dev/null; echo "FAIL $name"; failed=$((failed + 1))
  fi
}

wasm_test semantics -DSPINDLE_FS_FAULT_INJECTION -- "$here/unit/test_semantics.c"
wasm_test stress -- "$here/stress/stress.c"
wasm_test snapshot_reads -- "$here/stress/snapshot_reads.c"
wasm_test walk_stress -- "$here/stress/walk_stress.c"
wasm_test create_race -- "$here/stress/create_race.c"
wasm_test rw_lock_stress -- "$here/stress/rw_lock_stress.c"
# pipes, poll, locks, /dev and /proc/self/fd; their thread stress on real wasm threads
wasm_test ipc_units -DSPINDLE_FS_FAULT_INJECTION -- "$here/unit/test_ipc.c"
wasm_test ipc_stress -- "$here/stress/stress_ipc.c"
# through wasi-libc and runtime/wasi, in a 64 MiB memory that it fills up
wasm_test fill_memory --max-memory=64M -- "$repo"/runtime/wasi/*.c "$here/wasm/fill_memory.c"
wasm_test efault -- "$repo"/runtime/wasi/*.c "$here/wasm/efault.c"
# threads resolving relative paths after chdir each reach their own file
wasm_program cwd_threads "$here/wasm/cwd_threads.c"
# lookups without a lock while other threads change the cwd and register preopens
wasm_program path_lookup_threads "$here/wasm/path_lookup_threads.c"
# WASI poll_oneoff on Spindle's fds (what Rust's mio uses)
wasm_program poll_oneoff "$here/wasm/poll_oneoff.c"
# /dev/stdout & co. reach the host's stdio
wasm_program dev_stdio "$here/wasm/dev_stdio.c"
echo "== conformance (wasm vs Linux)"
if "$here/run-conformance.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
