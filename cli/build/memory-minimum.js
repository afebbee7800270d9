// `spindle cc --max-memory=SIZE` below what the program needs to start is refused at link time,
// naming the minimum, instead of a module that fails oddly when run. What a program needs to
// start is wasm-ld's initial memory: its static data, the main thread's stack and the heap's
// start, rounded up to 64 KiB pages. (`--max-memory=0` would otherwise mean "no maximum" to
// wasm-ld, i.e. a memory that can never grow.)
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importedMemory } from '../../host/compile/module-info.js';

const { readFileSync, rmSync } = process.getBuiltinModule('node:fs');

const WASM_PAGE = 65536;
const MiB = 1 << 20;

/** The bytes a linked module's memory starts with (its initial pages). */
export function startupBytes(wasmPath) {
  return (importedMemory(readFileSync(wasmPath))?.initial ?? 0) * WASM_PAGE;
}

export function tooSmall(maxMemory, needed) {
  const atLeast = needed % MiB ? `${Math.ceil(needed / WASM_PAGE) * 64}K` : `${needed / MiB}M`;
  return new Error(`--max-memory=${maxMemory}: the program needs ${needed} bytes to start (its static data, ` +
    `main stack and initial heap); give at least --max-memory=${atLeast}, and more for its heap and thread stacks`);
}

/**
 * After a link that failed with an explicit --max-memory: links again without a maximum into a
 * temporary file to learn what the program needs. Returns that many bytes, or null if this link
 * fails too (the failure was something else).
 */
export function probeStartupBytes(compiler, argv, maxMemoryFlag) {
  const probe = join(tmpdir(), `spindle-memory-probe-${process.pid}.wasm`);
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-o') { i++; continue; }
    if (a.startsWith('-o') && a.length > 2) continue;
    args.push(a.replace(`,${maxMemoryFlag}`, ''));
  }
  try {
    const r = spawnSync(compiler, [...args, '-o', probe], { stdio: 'ignore' });
    return r.status === 0 ? startupBytes(probe) : null;
  } finally {
    rmSync(probe, { force: true });
  }
}
