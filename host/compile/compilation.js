// How V8 compiles a module in Node (docs/HOST.md, "Compilation"): with the compilers and in the
// mode of the V8 flags the process was started with (host/compile/wasm-tiers.js, processTiers), which
// nothing here changes. Where Liftoff runs on Node 20, each wait is first moved into a call of
// its own (host/compile/liftoff-wait-calls.js). Eagerly (`spindle`'s default), all functions compile on
// V8's background threads, in parallel, before main starts; lazily, each on the thread that
// first calls it, inside the program's run (a short file program's time 3-4x longer).
import { isNode } from '../platform/current.js';
import { moveWaitsIntoCalls } from './liftoff-wait-calls.js';
import { liftoffLosesWaitValues, processTiers, startFlagsFor, usesLiftoff } from './wasm-tiers.js';
import { COMPILATION_MODES } from './compilation-modes.js';

export { COMPILATION_MODES };

let lastCompile = Promise.resolve();

/** Throws a clear error unless `mode` is one of COMPILATION_MODES (undefined: 'auto'). */
export function checkCompilationMode(mode = 'auto') {
  if (!COMPILATION_MODES.includes(mode)) {
    throw new Error(`compilation: '${mode}' is not one of ${COMPILATION_MODES.map((m) => `'${m}'`).join(', ')}`);
  }
  return mode;
}

/**
 * Compiles `bytes` under the V8 flags this process was started with: the host never changes
 * them (Node 26's V8 aborts when they change under a compiled module), so `mode` 'eager' or
 * 'lazy' must be what the process runs (host/compile/wasm-tiers.js, processTiers; `spindle run` starts
 * Node with the flags its options ask for, cli/common/v8-start.js) and 'auto' takes what it is.
 * Returns { module, compilation, tiers, tiersReason, codeCache }: in Node, compilation 'eager'
 * or 'lazy' and tiers a WASM_TIERS entry; in a browser the page cannot set V8's flags, so the
 * browser's own choice runs and compilation and tiers are 'browser'. `codeCache`, in Node: true
 * or a directory to keep TurboFan's code in between runs (host/code-cache/; true: its default
 * directory), false for none; the result's codeCache says what it did. SPINDLE_CODE_CACHE=0
 * turns it off.
 */
export async function compileModule(bytes, mode, codeCache = false) {
  checkCompilationMode(mode);
  if (!isNode) {
    return { module: await WebAssembly.compile(bytes), compilation: 'browser', tiers: 'browser', tiersReason: 'the browser\'s own flags', codeCache: 'off' };
  }
  const { tiers, compilation } = processTiers();
  if (mode !== undefined && mode !== 'auto' && mode !== compilation) {
    throw new Error(`compilation: '${mode}' needs Node started with ${mode === 'eager' ? '--no-wasm-lazy-compilation' : '--wasm-lazy-compilation'} ` +
      `(this one compiles ${compilation === 'eager' ? 'eagerly' : 'lazily'}; V8's flags cannot change while a process runs)`);
  }
  let reason = flagsReason();
  if (usesLiftoff(tiers) && liftoffLosesWaitValues()) {
    try {
      bytes = moveWaitsIntoCalls(bytes);
    } catch (err) {
      throw new Error(`compilation: Node ${process.versions.node}'s Liftoff loses values across waits, and this module's waits ` +
        `could not be moved into calls (${err.message}): start Node with --no-liftoff`);
    }
    reason += '; waits moved into calls for Node 20\'s Liftoff';
  }
  const wanted = Boolean(codeCache) && process.env.SPINDLE_CODE_CACHE !== '0';
  const cache = wanted ? await cacheForProcess() : null;
  const entry = cache ? cacheEntryHere(cache, bytes, codeCache) : null;
  const turn = lastCompile.then(async () => {
    // Node 24 does not count V8's background compilation as work of its event loop: with nothing
    // else pending the process exited 0 before an eager compile resolved (docs/HOST.md).
    const holdEventLoop = setInterval(() => {}, 1 << 30);
    try {
      if (!cache) return { module: await WebAssembly.compile(bytes), cache: wanted ? 'off: not an eager TurboFan compile' : 'off' };
      return await cache.compileCached(bytes, entry);
    } finally {
      clearInterval(holdEventLoop);
    }
  });
  lastCompile = turn.catch(() => {});
  const { module, cache: did } = await turn;
  return { module, compilation, tiers, tiersReason: reason, codeCache: did };
}

// The cache holds what an eager TurboFan compile made: TurboFan's code for every function.
// Null in a process that compiles otherwise.
async function cacheForProcess() {
  const { tiers, compilation } = processTiers();
  return compilation === 'eager' && !usesLiftoff(tiers) ? import('../code-cache/compile-cached.js') : null;
}

// The entry of `bytes` for this process's flags: code made under other flags is another entry.
function cacheEntryHere(cache, bytes, codeCache) {
  const { tiers, compilation } = processTiers();
  const setting = `${process.version} ${process.arch} ${startFlagsFor(tiers, compilation).join(' ')}`;
  return cache.cacheEntry(bytes, { dir: typeof codeCache === 'string' ? codeCache : undefined, setting });
}

/**
 * What the compiled-code cache holds of `bytes` for this process (`codeCache` as for
 * compileModule): { cached: true }, { cached: false, marker } where its code may be made
 * (host/code-cache/make-turbofan-code.js), { cached: false, why }, or null where this process
 * keeps no code in the cache.
 */
export async function cachedCode(bytes, codeCache) {
  const cache = codeCache && process.env.SPINDLE_CODE_CACHE !== '0' ? await cacheForProcess() : null;
  return cache ? cache.turbofanCode(cacheEntryHere(cache, bytes, codeCache)) : null;
}

/** Where this process's compilers come from: the flags Node was started with, or V8's defaults. */
function flagsReason() {
  const given = process.execArgv.filter((a) => /^--(no-)?(liftoff|wasm[-_](dynamic[-_]tiering|tier[-_]up|inlining|lazy[-_]compilation))\b/.test(a));
  return given.length ? `Node ${process.versions.node} started with ${given.join(' ')}` : `Node ${process.versions.node}: V8's defaults`;
}
