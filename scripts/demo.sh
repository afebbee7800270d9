#!/usr/bin/env bash
# The main job until `spindle bench` lands: builds a threaded C program with `spindle cc` and runs
# it at 1, 2 and 4 threads in Node and in headless Chromium, next to the native build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
out="$root/build/demo"; mkdir -p "$out"
"$root/bin/spindle" cc -O2 "$root/examples/parallel_primes.c" -o "$out/parallel_primes.wasm"
clang-22 -O2 -pthread "$root/examples/parallel_primes.c" -o "$out/parallel_primes.native"
for t in 1 2 4; do
  echo "native:   $("$out/parallel_primes.native" "$t")"
  echo "node:     $("$root/bin/spindle" run "$out/parallel_primes.wasm" "$t")"
  echo "chromium: $("$root/bin/spindle" run --browser "$out/parallel_primes.wasm" "$t")"
done
