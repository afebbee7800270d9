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
import { stampedSetting, TURBOFAN_FLAGS } from '../code-cache/defaults-stamp.js';

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
 * turns it off. A Node with V8's default compilers (Liftoff first, dynamic tiering, lazily; no
 * flags, as `spindle` runs) takes TurboFan code made for them where the cache has it
 * (host/code-cache/defaults-stamp.js): every function's code before main, so 'eager' and
 * 'optimized', cache 'hit'; else it compiles lazily, cache 'miss' (`spindle run` then has the
 * code made for the next run). `lazyModule`: a promise of the WebAssembly.Module that
 * WebAssembly.compile made of these same bytes in this thread, taken where this compile is lazy
 * (`spindle run` starts it before its JavaScript loads, cli/run/early-replay.js).
 */
export async function compileModule(bytes, mode, codeCache = false, lazyModule = undefined) {
  const given = bytes;
  checkCompilationMode(mode);
  if (!isNode) {
    return { module: await WebAssembly.compile(bytes), compilation: 'browser', tiers: 'browser', tiersReason: 'the browser\'s own flags', codeCache: 'off' };
  }
  const { tiers, compilation } = processTiers();
  const wanted = Boolean(codeCache) && process.env.SPINDLE_CODE_CACHE !== '0';
  const stamped = wanted && mode !== 'lazy' && runsDefaults() ? await stampedCode(bytes, codeCache) : null;
  if (stamped?.module) {
    return { module: stamped.module, compilation: 'eager', tiers: 'optimized', codeCache: 'hit',
      tiersReason: `Node ${process.versions.node}: V8's defaults, with TurboFan code made for them (${TURBOFAN_FLAGS.join(' ')})` };
  }
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
  const cache = wanted ? await cacheForProcess() : null;
  const entry = cache ? cacheEntryHere(cache, bytes, codeCache) : null;
  const { module, cache: did } = await inTurn(async () => {
    if (cache) return cache.compileCached(bytes, entry);
    const why = !wanted ? 'off' : stamped?.why ?? (runsDefaults() ? 'off: lazy compilation asked for' : 'off: not an eager TurboFan compile');
    if (compilation === 'lazy' && lazyModule && bytes === given) {
      try {
        return { module: await lazyModule, cache: why };
      } catch { /* compiled again below, which says what is wrong */ }
    }
    const here = compilation === 'lazy' && bytes.length <= SYNC_LAZY_COMPILE_BYTES;
    return { module: here ? new WebAssembly.Module(bytes) : await WebAssembly.compile(bytes), cache: why };
  });
  // (wire: the bytes compiled, which Node 20's Liftoff may have had changed)
  return { module, compilation, tiers, tiersReason: reason, codeCache: did, codeCacheMiss: stamped?.missWhy, wire: bytes };
}

// A lazy compile is the module's validation, which takes a hello world's 63 KB ~1 ms: done here,
// not handed to V8's threads and back, it ends ~0.3 ms sooner (docs/HOST.md, "Thirteenth
// pass"). A larger module's would hold up the caller's event loop for longer.
const SYNC_LAZY_COMPILE_BYTES = 1 << 20;

// One compile at a time. Node 24 does not count V8's background compilation as work of its
// event loop: with nothing else pending the process exited 0 before an eager compile resolved
// (docs/HOST.md), so each holds the loop.
function inTurn(compile) {
  const turn = lastCompile.then(async () => {
    const holdEventLoop = setInterval(() => {}, 1 << 30);
    try {
      return await compile();
    } finally {
      clearInterval(holdEventLoop);
    }
  });
  lastCompile = turn.catch(() => {});
  return turn;
}

/** Whether this process runs V8's default wasm compilers (Liftoff first, dynamic tiering, lazily), for which TurboFan code is made and stamped (host/code-cache/defaults-stamp.js). */
export function runsDefaults() {
  const { tiers, compilation } = processTiers();
  return tiers === 'tiered' && compilation === 'lazy';
}

// { module } with TurboFan code made for this process's V8 defaults, else { why }: 'miss' where
// the cache has none that V8 takes (missWhy: why none), 'off: WHY' where there is no cache.
async function stampedCode(bytes, codeCache) {
  const cache = await import('../code-cache/compile-cached.js');
  const entry = stampedEntry(cache, bytes, codeCache);
  if (!entry.key) return { why: `off: ${entry.why}` };
  const { module, why } = await inTurn(() => cache.compileStamped(bytes, entry));
  return module ? { module } : { why: 'miss', missWhy: why };
}

const stampedEntry = (cache, bytes, codeCache) =>
  cache.cacheEntry(bytes, { dir: typeof codeCache === 'string' ? codeCache : undefined, setting: stampedSetting() });

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
 * compileModule): { cached: true }, { cached: false, marker, dir, key } where its code may be
 * made (host/code-cache/make-turbofan-code.js; in a process with V8's defaults, TurboFan code
 * stamped for them), { cached: false, why }, or null where this process keeps no code in the
 * cache.
 */
export async function cachedCode(bytes, codeCache) {
  if (!codeCache || process.env.SPINDLE_CODE_CACHE === '0') return null;
  if (runsDefaults()) {
    const cache = await import('../code-cache/compile-cached.js');
    return cache.turbofanCode(stampedEntry(cache, bytes, codeCache));
  }
  const cache = await cacheForProcess();
  return cache ? cache.turbofanCode(cacheEntryHere(cache, bytes, codeCache)) : null;
}

/** Where this process's compilers come from: the flags Node was started with, or V8's defaults. */
function flagsReason() {
  const given = process.execArgv.filter((a) => /^--(no-)?(liftoff|wasm[-_](dynamic[-_]tiering|tier[-_]up|inlining|lazy[-_]compilation))\b/.test(a));
  return given.length ? `Node ${process.versions.node} started with ${given.join(' ')}` : `Node ${process.versions.node}: V8's defaults`;
}
