// How V8 compiles a module in Node (docs/HOST.md, "Compilation"). With which compilers depends
// on the Node version (host/wasm-tiers.js); on Node 20 dynamic tiering is off (several threads of
// one module ran 2-4x slower with it), so every function is compiled once, by the optimizing
// compiler. Lazily, that happens on the thread that first calls it, inside the
// program's run; eagerly, all functions compile on V8's background threads, in parallel,
// before main starts. Eager pays for big modules (SQLite: a run 2.9x native time lazily, 1.1x
// eagerly) and costs small ones start-up time for code they never call (hello world: ~50 ms).
import { codeSectionSize } from './module-info.js';
import { isNode } from './platform/current.js';
import { WASM_TIERS, wasmTiersFor } from './wasm-tiers.js';

export const COMPILATION_MODES = ['auto', 'eager', 'lazy'];
/** `auto` compiles a module eagerly from this much code (bytes of its code section) up. */
export const EAGER_FROM_CODE_BYTES = 256 * 1024;

let v8Flags = null;
let lastCompile = Promise.resolve();
// What the process was started with (`node --no-wasm-lazy-compilation`), restored after each compile.
const processLazyFlag = () => ([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
  .includes('--no-wasm-lazy-compilation') ? '--no-wasm-lazy-compilation' : '--wasm-lazy-compilation');

async function nodeV8() {
  if (v8Flags) return v8Flags;
  const v8 = await import('node:v8');
  // Liftoff and dynamic tiering where this Node's V8 runs them safely and fast (host/wasm-tiers.js).
  for (const flag of WASM_TIERS[wasmTiersFor()]) v8.setFlagsFromString(flag);
  v8Flags = v8;
  return v8;
}

/** Throws a clear error unless `mode` is one of COMPILATION_MODES (undefined: 'auto'). */
export function checkCompilationMode(mode = 'auto') {
  if (!COMPILATION_MODES.includes(mode)) {
    throw new Error(`compilation: '${mode}' is not one of ${COMPILATION_MODES.map((m) => `'${m}'`).join(', ')}`);
  }
  return mode;
}

/** 'eager' or 'lazy' for `mode` ('auto' by default) and these module bytes. */
export function chooseCompilation(mode, bytes) {
  if (checkCompilationMode(mode) !== 'auto') return mode;
  return codeSectionSize(bytes) >= EAGER_FROM_CODE_BYTES ? 'eager' : 'lazy';
}

/**
 * Compiles `bytes` in the chosen mode. Returns { module, compilation }: 'eager' or 'lazy' in
 * Node; in a browser the page cannot set V8's flags, so the browser's own choice runs and
 * compilation is 'browser'.
 */
export async function compileModule(bytes, mode) {
  const chosen = chooseCompilation(mode, bytes);
  if (!isNode) return { module: await WebAssembly.compile(bytes), compilation: 'browser' };
  const v8 = await nodeV8();
  // The flag is process-wide and V8 reads it while an asynchronous compilation runs, so
  // compilations take turns, and the process's own setting is put back after each one.
  const turn = lastCompile.then(async () => {
    v8.setFlagsFromString(chosen === 'eager' ? '--no-wasm-lazy-compilation' : '--wasm-lazy-compilation');
    // Node 24 does not count V8's background compilation as work of its event loop: with nothing
    // else pending the process exited 0 before an eager compile resolved (docs/HOST.md).
    const holdEventLoop = setInterval(() => {}, 1 << 30);
    try {
      return await WebAssembly.compile(bytes);
    } finally {
      clearInterval(holdEventLoop);
      v8.setFlagsFromString(processLazyFlag());
    }
  });
  lastCompile = turn.catch(() => {});
  return { module: await turn, compilation: chosen };
}
