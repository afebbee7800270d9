#!/usr/bin/env bash
# Builds the sysroot's extra C libraries from Spindle's own sources, so that `-l` finds them as
# with wasi-sdk (docs/PORTING.md):
#   libsetjmp.a                     runtime/setjmp: the runtime of clang's Wasm setjmp/longjmp lowering
#   libwasi-emulated-NAME.a         runtime/wasi-emulated/NAME.c (signal, getpid, process-clocks,
#                                   mman), each compiled with the -D_WASI_EMULATED_NAME its header wants
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
sysroot="$root/.toolchain/sysroot"
libdir="$sysroot/lib/wasm32-wasip1-threads"
sources=("$root"/runtime/setjmp/* "$root"/runtime/wasi-emulated/*.c)
stamp="$libdir/.libc-extras-$(cat "$0" "${sources[@]}" | sha1sum | cut -c1-12)"
[ -f "$stamp" ] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=(clang-"$CLANG_MAJOR" --target=wasm32-wasip1-threads --sysroot="$sysroot" -pthread -O2 -std=c11
  -D_GNU_SOURCE -Wall -Wextra -Werror)

archive() { # name objects...
  local name=$1; shift
  rm -f "$libdir/lib$name.a"
  llvm-ar-"$CLANG_MAJOR" crs "$libdir/lib$name.a" "$@"
}

# __builtin_wasm_throw and the tag need the exception-handling feature.
for src in "$root"/runtime/setjmp/*; do
  "${cc[@]}" -mexception-handling -c "$src" -o "$work/$(basename "$src").o"
done
archive setjmp "$work"/*.o

for src in "$root"/runtime/wasi-emulated/*.c; do
  name=$(basename "$src" .c | tr _ -)               # process_clocks -> process-clocks
  macro=_WASI_EMULATED_$(echo "$name" | tr a-z- A-Z_) # -> _WASI_EMULATED_PROCESS_CLOCKS
  "${cc[@]}" -D"$macro" -c "$src" -o "$work/$name.o"
  archive "wasi-emulated-$name" "$work/$name.o"
done

rm -f "$libdir"/.libc-extras-*
touch "$stamp"
