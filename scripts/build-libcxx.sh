#!/usr/bin/env bash
# Builds libc++ and libc++abi WITH threads for wasm32-wasip1-threads from the LLVM 22 sources in
# the ziglang wheel (Debian's wasm32 libc++ has no threads). No exceptions: -fno-exceptions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
tc="$root/.toolchain"
src="$tc/ziglang-$ZIGLANG_VERSION/ziglang/lib"
sysroot="$tc/sysroot"
libdir="$sysroot/lib/wasm32-wasip1-threads"
incdir="$sysroot/include/c++/v1"
obj="$tc/libcxx-obj"
stamp="$libdir/.libcxx-$ZIGLANG_VERSION-$(ls "$sysroot"/.done-* | sha1sum | cut -c1-6)-$(sha1sum "$root/toolchain/libcxx-config-site.h" "$0" | sha1sum | cut -c1-12)"
[ -f "$stamp" ] && exit 0

rm -rf "$incdir" "$obj"
mkdir -p "$incdir" "$obj/cxx" "$obj/cxxabi"
cp -r "$src/libcxx/include/." "$incdir/"
cp "$root/toolchain/libcxx-config-site.h" "$incdir/__config_site"
# zig's copy replaced libc++'s `#include <__config_site>` with a comment (it passes -D flags);
# put the include back so the headers work with a plain clang.
grep -rl "zig patch: instead of including __config_site" "$incdir/__configuration" |
  xargs sed -i 's|/\* zig patch: instead of including __config_site.*\*/|#include <__config_site>|'
grep -q "include <__config_site>" "$incdir/__configuration/abi.h"
cp "$src/libcxxabi/include/cxxabi.h" "$src/libcxxabi/include/__cxxabi_config.h" "$incdir/"

cxx="clang++-$CLANG_MAJOR --target=wasm32-wasip1-threads --sysroot=$sysroot -pthread -O2 -DNDEBUG
  -std=c++23 -fno-exceptions -fvisibility-inlines-hidden -Wno-user-defined-literals -w"

# libc++: everything portable; no time-zone database, no Windows support, no libdispatch.
cxx_sources=$(cd "$src/libcxx/src" && ls *.cpp filesystem/*.cpp ryu/*.cpp experimental/keep.cpp \
  experimental/log_hardening_failure.cpp | grep -v -e '^filesystem/int128_builtins.cpp$')
# libc++abi without exceptions: cxa_noexception instead of cxa_exception/cxa_personality;
# operator new/delete come from libc++'s new.cpp.
cxxabi_sources=$(cd "$src/libcxxabi/src" && ls *.cpp | grep -v -e cxa_exception.cpp -e cxa_personality.cpp \
  -e stdlib_new_delete.cpp)

compile() { # dir out flags...
  local file=$1 out=$2; shift 2
  $cxx "$@" -c "$file" -o "$out"
}
export -f compile; export cxx
printf '%s\n' $cxx_sources | xargs -P "$(nproc)" -I{} bash -c \
  'compile "$0/{}" "$1/$(echo {} | tr / _).o" -D_LIBCPP_BUILDING_LIBRARY -DLIBCXX_BUILDING_LIBCXXABI -I"$0" -I"$2" -I"$0/../libc"' \
  "$src/libcxx/src" "$obj/cxx" "$src/libcxxabi/include"
printf '%s\n' $cxxabi_sources | xargs -P "$(nproc)" -I{} bash -c \
  'compile "$0/{}" "$1/{}.o" -D_LIBCXXABI_BUILDING_LIBRARY -D_LIBCPP_BUILDING_LIBRARY -D_LIBCXXABI_NO_EXCEPTIONS -I"$0" -I"$0/../../libcxx/src"' \
  "$src/libcxxabi/src" "$obj/cxxabi"

rm -f "$libdir/libc++.a" "$libdir/libc++abi.a"
llvm-ar-$CLANG_MAJOR crs "$libdir/libc++.a" "$obj"/cxx/*.o
llvm-ar-$CLANG_MAJOR crs "$libdir/libc++abi.a" "$obj"/cxxabi/*.o
rm -f "$libdir"/.libcxx-*
touch "$stamp"
