#!/usr/bin/env bash
# Assembles .toolchain/sysroot: wasi-libc headers (generic musl overlaid by the wasi ones, the
# order zig uses) + the threaded libc.a/crt1 of Rust's wasm32-wasip1-threads target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
tc="$root/.toolchain"
sysroot="$tc/sysroot"
libdir="$sysroot/lib/wasm32-wasip1-threads"
rust_libc="$(rustc +"$RUST_TOOLCHAIN" --print sysroot)/lib/rustlib/wasm32-wasip1-threads/lib/self-contained"
zig_inc="$tc/ziglang-$ZIGLANG_VERSION/ziglang/lib/libc/include"
stamp="$sysroot/.done-$RUST_TOOLCHAIN-$ZIGLANG_VERSION-$(sha1sum "$0" | cut -c1-12)"
[ -f "$stamp" ] && exit 0

rm -rf "$sysroot"
mkdir -p "$sysroot/include" "$libdir"
cp -r "$zig_inc/generic-musl/." "$sysroot/include/"
cp -r "$zig_inc/wasm-wasi-musl/." "$sysroot/include/"
# generic musl has Linux-only headers that wasi-libc does not ship; libc++ probes for these
# with __has_include and would then call functions libc.a lacks.
rm -f "$sysroot/include/sys/sendfile.h"
# This wasi-libc has no pthread_exit; Spindle's runtime/core provides it, so declare it.
sed -i 's|^#if defined(_REENTRANT) \|\| !defined(_WASI_STRICT_PTHREAD)$|&\n_Noreturn void pthread_exit(void *);|' \
  "$sysroot/include/pthread.h"
grep -q '^_Noreturn void pthread_exit' "$sysroot/include/pthread.h"
cp "$rust_libc/libc.a" "$rust_libc/crt1-command.o" "$rust_libc/crt1-reactor.o" "$libdir/"
# Programs and build systems pass -lm, -lpthread, ...: wasi-libc keeps all of it in libc.a,
# so these are empty archives, as in wasi-sdk.
for lib in m pthread rt dl util resolv crypt xnet; do
  llvm-ar-$CLANG_MAJOR crs "$libdir/lib$lib.a"
done
touch "$stamp"
