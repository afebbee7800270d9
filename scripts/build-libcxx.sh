#!/usr/bin/env bash
# Builds libc++ and libc++abi WITH threads for wasm32-wasip1-threads from the LLVM 22 sources in
# the ziglang wheel (Debian's wasm32 libc++ has no threads), twice:
#   lib/wasm32-wasip1-threads/       with Wasm exception handling (-fwasm-exceptions, the default
#                                    of `spindle c++`); libunwind's Wasm unwinder is inside libc++abi.a
#   lib/wasm32-wasip1-threads/noeh/  -fno-exceptions (`spindle c++ -fno-exceptions` links these)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
tc="$root/.toolchain"
src="$tc/ziglang-$ZIGLANG_VERSION/ziglang/lib"
sysroot="$tc/sysroot"
libdir="$sysroot/lib/wasm32-wasip1-threads"
incdir="$sysroot/include/c++/v1"
obj="$tc/libcxx-obj"
runtime_source="$root/runtime/exceptions/cpp_exception.cpp"
stamp="$libdir/.libcxx-$ZIGLANG_VERSION-$(ls "$sysroot"/.done-* | sha1sum | cut -c1-6)-$(sha1sum "$root/toolchain/libcxx-config-site.h" "$runtime_source" "$0" | sha1sum | cut -c1-12)"
[ -f "$stamp" ] && exit 0

rm -rf "$incdir" "$obj"
mkdir -p "$incdir"
cp -r "$src/libcxx/include/." "$incdir/"
cp "$root/toolchain/libcxx-config-site.h" "$incdir/__config_site"
# zig's copy replaced libc++'s `#include <__config_site>` with a comment (it passes -D flags);
# put the include back so the headers work with a plain clang.
grep -rl "zig patch: instead of including __config_site" "$incdir/__configuration" |
  xargs sed -i 's|/\* zig patch: instead of including __config_site.*\*/|#include <__config_site>|'
grep -q "include <__config_site>" "$incdir/__configuration/abi.h"
cp "$src/libcxxabi/include/cxxabi.h" "$src/libcxxabi/include/__cxxabi_config.h" "$incdir/"

cxx="clang++-$CLANG_MAJOR --target=wasm32-wasip1-threads --sysroot=$sysroot -pthread -O2 -DNDEBUG
  -std=c++23 -fvisibility-inlines-hidden -Wno-user-defined-literals -w"

# libc++: everything portable; no time-zone database, no Windows support, no libdispatch.
cxx_sources=$(cd "$src/libcxx/src" && ls *.cpp filesystem/*.cpp ryu/*.cpp experimental/keep.cpp \
  experimental/log_hardening_failure.cpp | grep -v -e '^filesystem/int128_builtins.cpp$')
# libc++abi: operator new/delete come from libc++'s new.cpp. With exceptions it has
# cxa_exception/cxa_personality, without them cxa_noexception instead.
abi_common=$(cd "$src/libcxxabi/src" && ls *.cpp | grep -v -e cxa_exception.cpp -e cxa_personality.cpp \
  -e cxa_noexception.cpp -e stdlib_new_delete.cpp)

compile() { # file out flags...
  local file=$1 out=$2; shift 2
  $cxx $variant_flags "$@" -c "$file" -o "$out"
}
export -f compile; export cxx

build_variant() { # out-dir clang-flags abi-sources
  local out=$1 abi_sources=$3
  export variant_flags=$2
  mkdir -p "$obj/$out/cxx" "$obj/$out/cxxabi"
  printf '%s\n' $cxx_sources | xargs -P "$(nproc)" -I{} bash -c \
    'compile "$0/{}" "$1/$(echo {} | tr / _).o" -D_LIBCPP_BUILDING_LIBRARY -DLIBCXX_BUILDING_LIBCXXABI -I"$0" -I"$2" -I"$0/../libc"' \
    "$src/libcxx/src" "$obj/$out/cxx" "$src/libcxxabi/include"
  printf '%s\n' $abi_sources | xargs -P "$(nproc)" -I{} bash -c \
    'compile "$0/{}" "$1/{}.o" -D_LIBCXXABI_BUILDING_LIBRARY -D_LIBCPP_BUILDING_LIBRARY $2 -I"$0" -I"$0/../../libcxx/src"' \
    "$src/libcxxabi/src" "$obj/$out/cxxabi" "$4"
  mkdir -p "$libdir/$out"
  rm -f "$libdir/$out/libc++.a" "$libdir/$out/libc++abi.a"
  llvm-ar-$CLANG_MAJOR crs "$libdir/$out/libc++.a" "$obj/$out"/cxx/*.o
  llvm-ar-$CLANG_MAJOR crs "$libdir/$out/libc++abi.a" "$obj/$out"/cxxabi/*.o
}

build_variant noeh "-fno-exceptions" "$abi_common cxa_noexception.cpp" "-D_LIBCXXABI_NO_EXCEPTIONS"
build_variant . "-fwasm-exceptions" "$abi_common cxa_exception.cpp cxa_personality.cpp" ""
# The unwinder for Wasm is one file (the engine unwinds; this calls the personality routine in
# landing pads). It goes into libc++abi.a, as libc++abi's CMake option
# LIBCXXABI_STATICALLY_LINK_UNWINDER_IN_STATIC_LIBRARY does, so `-lc++abi` is all a link needs;
# so does runtime/exceptions: the __cpp_exception tag, which compiled code only references, and
# the host's way to std::terminate for an exception no handler caught.
cc="clang-$CLANG_MAJOR --target=wasm32-wasip1-threads --sysroot=$sysroot -pthread -O2 -DNDEBUG -fwasm-exceptions"
$cc -std=c11 -w -D_LIBUNWIND_HIDE_SYMBOLS -I"$src/libunwind/include" -c "$src/libunwind/src/Unwind-wasm.c" -o "$obj/Unwind-wasm.o"
$cxx -fwasm-exceptions -c "$runtime_source" -o "$obj/cpp_exception.o"
llvm-ar-$CLANG_MAJOR rs "$libdir/libc++abi.a" "$obj/Unwind-wasm.o" "$obj/cpp_exception.o"
llvm-nm-$CLANG_MAJOR "$libdir/libc++abi.a" 2>/dev/null | grep ' T __spindle_uncaught_exception$' >/dev/null
rm -f "$libdir"/.libcxx-*
touch "$stamp"
