#!/usr/bin/env node
// Bytes each part of the runtime adds to a module: links programs with `spindle cc -Wl,-Map=...`
// and sums, from the link map, the code and initialised data each archive contributes. Prints a
// table per build and the module's size as shipped (names and DWARF dropped, the default).
//   node bench/size/code-size.js [--json]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const out = join(root, 'build', 'size');
const hello = join(root, 'bench', 'size', 'hello_threads_files.c');
const refWorkload = join(root, 'bench', 'alloc', 'ref_workload.c');

const builds = [
  { name: 'hello, threads + files (default)', source: hello, flags: [] },
  { name: 'hello, --fs=none', source: hello, flags: ['--fs=none'] },
  { name: 'hello, --malloc=dlmalloc', source: hello, flags: ['--malloc=dlmalloc'] },
  { name: 'malloc workload, spindle', source: refWorkload, flags: [] },
  { name: 'malloc workload, dlmalloc', source: refWorkload, flags: ['--malloc=dlmalloc'] },
  { name: 'malloc workload, mimalloc', source: refWorkload, flags: ['--malloc=mimalloc'] },
];

// Where a map line's input comes from, as a part of the runtime a user would name.
const parts = [
  ['allocator', /libspindle-alloc\.a|dlmalloc\.c\.obj|libmimalloc-wasm\.a/],
  ['filesystem', /libspindle-fs\.a/],
  ['WASI layer', /libspindle-wasi\.a|libspindle-jsfs\.a/],
  ['POSIX layer', /libspindle-posix(-ipc)?\.a/],
  ['host glue', /libspindle-core\.a|runtime\/config\/settings-/],
  ['libc', /libc\.a|crt1-|libclang_rt|libcompiler_rt/],
  ['libc++', /libc\+\+/],
];

function partOf(line) {
  for (const [part, pattern] of parts) if (pattern.test(line)) return part;
  return /<internal>/.test(line) ? 'linker' : 'program';
}

/** { part: { code, data } } from a wasm-ld map: CODE entries, and DATA entries that are not bss. */
export function sizesFromMap(text) {
  const sizes = {};
  let section = '';
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length === 4 && /^[A-Z]+$/.test(f[3])) { section = f[3]; continue; }
    if (f.length < 4 || !line.includes(':(')) continue; // symbols under an input, not inputs
    if (section !== 'CODE' && (section !== 'DATA' || /\.t?bss[.)]/.test(line))) continue;
    const part = partOf(line);
    sizes[part] ??= { code: 0, data: 0 };
    sizes[part][section === 'CODE' ? 'code' : 'data'] += parseInt(f[2], 16);
  }
  return sizes;
}

function measure(build, i) {
  mkdirSync(out, { recursive: true });
  const wasm = join(out, `${i}-${basename(build.source, '.c')}.wasm`);
  const map = `${wasm}.map`;
  const r = spawnSync(join(root, 'bin', 'spindle'), ['cc', '-O2', ...build.flags, build.source, '-o', wasm, `-Wl,-Map=${map}`],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`building ${build.name} failed`);
  return { ...build, module: statSync(wasm).size, parts: sizesFromMap(readFileSync(map, 'utf8')) };
}

if (process.argv[1] === import.meta.filename) {
  const results = builds.map(measure);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results.map(({ source, ...r }) => r), null, 2));
  } else {
    const names = [...parts.map(([p]) => p), 'program', 'linker'];
    const kb = (n) => (n ? (n / 1024).toFixed(1) : '-').padStart(7);
    console.log(`${'build'.padEnd(34)} ${'module'.padStart(7)} ${names.map((n) => n.slice(0, 7).padStart(7)).join(' ')}   (KiB: code+data)`);
    for (const r of results) {
      const cells = names.map((n) => kb((r.parts[n]?.code ?? 0) + (r.parts[n]?.data ?? 0)));
      console.log(`${r.name.padEnd(34)} ${kb(r.module)} ${cells.join(' ')}`);
    }
  }
}
