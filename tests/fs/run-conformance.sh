#!/usr/bin/env bash
# Runs the conformance programs (tests/fs/conformance/*.c) natively on Linux,
# each in a fresh temporary directory, and, when bin/spindle exists, also as
# wasm under Spindle with the in-memory filesystem; the two outputs must be
# identical. With --mount, the wasm run also happens a second time inside a
# host directory mounted with `spindle run --mount` (docs/MOUNTS.md).
# Usage: tests/fs/run-conformance.sh [--native-only] [--mount] [name...]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
native_only=0
on_mount=0
names=()
for arg in "$@"; do
  case "$arg" in
    --native-only) native_only=1 ;;
    --mount) on_mount=1 ;;
    *) names+=("$arg") ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for src in "$here"/conformance/*.c; do names+=("$(basename "$src" .c)"); done
fi
cc_native="${CC:-$(command -v clang-22 || command -v gcc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

spindle="$repo/bin/spindle"
wasm_link=()
if [ $native_only -eq 0 ] && [ -x "$spindle" ]; then
  # `spindle cc --fs=spindle` links runtime/fs and runtime/wasi; until the
  # driver knows that option, link archives built here the same way.
  if "$spindle" cc --fs=spindle -c -x c /dev/null -o "$work/probe.o" 2>/dev/null; then
    wasm_link=(--fs=spindle)
  else
    sysroot="$repo/.toolchain/sysroot"
    for component in fs wasi; do
      objs=()
      for src in "$repo"/runtime/$component/*.c; do
        obj="$work/${component}_$(basename "$src" .c).o"
        clang-22 --target=wasm32-wasip1-threads --sysroot="$sysroot" -pthread -O2 -std=c11 \
          -Wall -Wextra -Werror -I "$repo/runtime/include" -c "$src" -o "$obj" || exit 1
        objs+=("$obj")
      done
      llvm-ar-22 crs "$work/libspindle-$component.a" "${objs[@]}" 2>/dev/null ||
        llvm-ar crs "$work/libspindle-$component.a" "${objs[@]}" || exit 1
    done
    wasm_link=("$work/libspindle-fs.a" "$work/libspindle-wasi.a")
  fi
fi

# Known difference on a host-directory mount (docs/MOUNTS.md): Node's utimes takes seconds
# as a double (no nanoseconds near 2001).
mount_known=(-e '^explicit: atime')
passed=0
failed=0
for name in "${names[@]}"; do
  src="$here/conformance/$name.c"
  if ! "$cc_native" -std=gnu11 -O1 -Wall -Wextra -pthread "$src" -o "$work/$name.native"; then
    echo "FAIL $name: native build"; failed=$((failed + 1)); continue
  fi
  mkdir -p "$work/tmp-$name"
  if ! (cd "$work/tmp-$name" && TMPDIR="$work/tmp-$name" timeout 120 "$work/$name.native" > "$work/$name.expected" 2>&1); then
    echo "FAIL $name: native run"; cat "$work/$name.expected"; failed=$((failed + 1)); continue
  fi
  if [ ${#wasm_link[@]} -eq 0 ]; then
    echo "ok   $name (native, $(wc -l < "$work/$name.expected") lines)"; passed=$((passed + 1)); continue
  fi
  if ! "$spindle" cc -O1 "$src" "${wasm_link[@]}" -o "$work/$name.wasm"; then
    echo "FAIL $name: wasm build"; failed=$((failed + 1)); continue
  fi
  if ! timeout 120 "$spindle" run "$work/$name.wasm" > "$work/$name.wasm.out" 2>&1; then
    echo "FAIL $name: wasm run"; tail -5 "$work/$name.wasm.out"; failed=$((failed + 1)); continue
  fi
  if diff -u "$work/$name.expected" "$work/$name.wasm.out" > "$work/$name.diff"; then
    echo "ok   $name (native and wasm identical, $(wc -l < "$work/$name.expected") lines)"; passed=$((passed + 1))
  else
    echo "FAIL $name: wasm output differs from Linux"; cat "$work/$name.diff"; failed=$((failed + 1))
  fi
  if [ $on_mount -eq 1 ]; then
    mkdir -p "$work/host-$name"
    if ! timeout 120 "$spindle" run --mount=/mnt/host="$work/host-$name" --env=TMPDIR=/mnt/host \
        "$work/$name.wasm" > "$work/$name.mount.out" 2>&1; then
      echo "FAIL $name on a host-directory mount: wasm run"; tail -5 "$work/$name.mount.out"; failed=$((failed + 1))
    elif diff -u <(grep -v "${mount_known[@]}" "$work/$name.expected") \
        <(grep -v "${mount_known[@]}" "$work/$name.mount.out") > "$work/$name.mount.diff"; then
      echo "ok   $name (on a host-directory mount, identical to Linux)"; passed=$((passed + 1))
    else
      echo "FAIL $name on a host-directory mount: output differs from Linux"; cat "$work/$name.mount.diff"; failed=$((failed + 1))
    fi
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
