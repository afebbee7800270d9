#!/usr/bin/env bash
# Wasm code and data bytes that each allocator adds to a program: links the reference
# workload with `spindle cc --malloc=X -Wl,-Map=...` and sums what the allocator's
# objects contribute to the CODE section and to data/bss.
#
# usage: bench/alloc/code-size.sh [program.c]   (default: bench/alloc/ref_workload.c)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/build/alloc-bench/size"
PROG="${1:-$ROOT/bench/alloc/ref_workload.c}"
mkdir -p "$OUT"
for alloc in spindle dlmalloc mimalloc; do
    "$ROOT/bin/spindle" cc --malloc="$alloc" -O2 "$PROG" -o "$OUT/$alloc.wasm" -Wl,-Map="$OUT/$alloc.map"
done
node - "$OUT" <<'JS'
const { readFileSync, statSync } = require('node:fs');
const dir = process.argv[2];
const owners = { spindle: 'libspindle-alloc.a(', dlmalloc: 'dlmalloc.c.obj', mimalloc: 'libmimalloc-wasm.a(' };
for (const [alloc, mark] of Object.entries(owners)) {
  let section = '';
  const sum = { code: 0, data: 0, bss: 0 };
  for (const line of readFileSync(`${dir}/${alloc}.map`, 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length === 4 && /^[A-Z]+$/.test(f[3])) { section = f[3]; continue; }
    if (f.length < 4 || !line.includes(mark) || !line.includes(':(')) continue;
    const size = parseInt(f[2], 16);
    if (section === 'CODE') sum.code += size;
    else if (/\.t?bss\./.test(line)) sum.bss += size;
    else sum.data += size;
  }
  console.log(`${alloc.padEnd(9)} code ${String(sum.code).padStart(6)} B  data ${String(sum.data).padStart(6)} B  bss ${String(sum.bss).padStart(6)} B  module ${statSync(`${dir}/${alloc}.wasm`).size} B`);
}
JS
