#!/usr/bin/env bash
# Build mimalloc (for comparison benchmarks only) natively and for wasm32-wasip1-threads.
# Sources come from the crates.io crate libmimalloc-sys (it ships c_src/mimalloc/v2),
# fetched with cargo into a throwaway project; nothing from mimalloc is committed.
#
# Output: .toolchain/mimalloc/libmimalloc-native.a, .toolchain/mimalloc/libmimalloc-wasm.a
# usage: tools/mimalloc/build.sh [--force]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/.toolchain/mimalloc"
FETCH="$ROOT/.toolchain/mimalloc-fetch"
CRATE_REQ="${MIMALLOC_SYS_VERSION:-=0.1.49}" # Cargo version requirement (0.1.49: mimalloc 2.x in c_src/mimalloc/v2)

if [[ "${1:-}" != "--force" && -f "$OUT/libmimalloc-native.a" && -f "$OUT/libmimalloc-wasm.a" ]]; then
    echo "mimalloc already built in $OUT"
    exit 0
fi
mkdir -p "$OUT" "$FETCH/src"

# 1. fetch the crate with cargo (registry client), then find its unpacked sources
cat >"$FETCH/Cargo.toml" <<EOF
[package]
name = "mimalloc-fetch"
version = "0.0.0"
edition = "2021"

[dependencies]
libmimalloc-sys = "$CRATE_REQ"
EOF
echo 'fn main() {}' >"$FETCH/src/main.rs"
(cd "$FETCH" && cargo fetch --quiet)
CRATE_VERSION=$(awk '/name = "libmimalloc-sys"/{getline; gsub(/[^0-9.]/,""); print; exit}' "$FETCH/Cargo.lock")
SRC=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/libmimalloc-sys-"$CRATE_VERSION"/c_src/mimalloc/v2 2>/dev/null | head -n1 || true)
if [[ -z "$SRC" ]]; then # older crate layouts have no v2 folder
    SRC=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/libmimalloc-sys-"$CRATE_VERSION"/c_src/mimalloc | head -n1)
fi
[[ -f "$SRC/src/static.c" ]] || { echo "mimalloc sources not found under $SRC" >&2; exit 1; }
echo "mimalloc sources: $SRC"

# 2. native: one translation unit (src/static.c includes the rest)
clang-22 -O3 -DNDEBUG -DMI_SECURE=0 -DMI_MALLOC_OVERRIDE -fPIC -I"$SRC/include" -c "$SRC/src/static.c" -o "$OUT/mimalloc-native.o"
rm -f "$OUT/libmimalloc-native.a"
llvm-ar-22 rcs "$OUT/libmimalloc-native.a" "$OUT/mimalloc-native.o"

# 3. wasm: mimalloc assumes __wasi__ is single-threaded unless told to use pthreads.
#    MI_MALLOC_OVERRIDE makes it define malloc & co. and wasi-libc's __libc_* entry
#    points, so libc's dlmalloc is not linked.
WASI_LIB="$(rustc --print sysroot)/lib/rustlib/wasm32-wasip1-threads/lib/self-contained"
SYSROOT="$ROOT/.toolchain/sysroot"
SYSROOT_FLAGS=()
if [[ -d "$SYSROOT/include" ]]; then
    SYSROOT_FLAGS=(--sysroot="$SYSROOT")
fi
clang-22 --target=wasm32-wasip1-threads -pthread "${SYSROOT_FLAGS[@]}" -O2 -DNDEBUG -DMI_SECURE=0 -DMI_MALLOC_OVERRIDE \
    -DMI_USE_PTHREADS -include pthread.h -I"$SRC/include" -c "$SRC/src/static.c" -o "$OUT/mimalloc-wasm.o"
rm -f "$OUT/libmimalloc-wasm.a"
llvm-ar-22 rcs "$OUT/libmimalloc-wasm.a" "$OUT/mimalloc-wasm.o"
ls -l "$OUT"
