// How V8 compiles a module in Node (docs/HOST.md, "Compilation"). With which compilers depends
// on the Node version and the module's code size (host/wasm-tiers.js): where Liftoff runs on
// Node 20, each wait is first moved into a call of its own (host/liftoff-wait-calls.js). Eagerly (the default), all functions compile on V8's background threads,
// in parallel, before main starts; lazily, each on the thread that first calls it, inside the
// program's run (a short file program's time 3-4x longer).
import { codeSectionSize } from './module-info.js';
import { isNode } from './platform/current.js';
import { moveWaitsIntoCalls } from './liftoff-wait-calls.js';
import { inlinesWasmCalls, liftoffLosesWaitValues, tierFlagsFor, turbofanTiers, usesLiftoff, wasmTiersFor } from './wasm-tiers.js';

export const COMPILATION_MODES = ['auto', 'eager', 'lazy'];

let v8Module = null;
let lastCompile = Promise.resolve();
// The compiler flags a lazy module was compiled under (its functions compile later, under the
// flags of that moment, so they stay set); null while no lazy module exists.
let lazyTierFlags = null;

// The V8 flags the host sets while it compiles, all on when V8 starts; in this order, because
// --no-liftoff implies --no-wasm-dynamic-tiering, so turning tiering back on needs Liftoff on.
// - liftoff, wasm-tier-up, wasm-dynamic-tiering: which compilers, per Node version
//   (host/wasm-tiers.js).
// - wasm-lazy-compilation: when functions compile, the mode chosen below.
// - wasm-inlining, where V8 inlines by default: `optimized-no-inlining` turns it off.
// A function, not a constant: this module also loads in browsers, which have no `process`.
const hostFlags = () => ['liftoff', 'wasm-tier-up', 'wasm-dynamic-tiering', 'wasm-lazy-compilation',
  ...(inlinesWasmCalls() ? ['wasm-inlining'] : [])];
const startFlag = (name) => ([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
  .includes(`--no-${name}`) ? `--no-${name}` : `--${name}`);

// Once a lazy module exists its compiler flags stay set. Otherwise every flag goes back to how
// the process started: while any V8 flag differs, V8 refuses Node's built-in code cache, and
// each worker started then took twice as long (21 -> 43 ms, docs/HOST.md "Start-up").
function flagsAfterCompile() {
  const lazyFlag = startFlag('wasm-lazy-compilation');
  return lazyTierFlags ? [...lazyTierFlags, lazyFlag] : hostFlags().map(startFlag);
}

const nodeV8 = async () => (v8Module ??= await import('node:v8'));
const flagsForCompile = (tierFlags, mode) => [...tierFlags,
  mode === 'eager' ? '--no-wasm-lazy-compilation' : '--wasm-lazy-compilation'];

/** Throws a clear error unless `mode` is one of COMPILATION_MODES (undefined: 'auto'). */
export function checkCompilationMode(mode = 'auto') {
  if (!COMPILATION_MODES.includes(mode)) {
    throw new Error(`compilation: '${mode}' is not one of ${COMPILATION_MODES.map((m) => `'${m}'`).join(', ')}`);
  }
  return mode;
}

/**
 * 'eager' or 'lazy' for `mode` ('auto' by default). auto is eager at every size: it keeps
 * compilation out of the program's run, and it lets the host put V8's flags back after the
 * compile, which makes every worker start faster than lazily compiled code allows
 * (docs/HOST.md, "Start-up").
 */
export function chooseCompilation(mode) {
  return checkCompilationMode(mode) === 'auto' ? 'eager' : mode;
}

/**
 * Compiles `bytes` in the chosen mode. Returns { module, compilation, tiers, tiersReason,
 * codeCache }: compilation 'eager' or 'lazy' and tiers a WASM_TIERS entry in Node, with the
 * reason for it; in a browser the page cannot set V8's flags, so the browser's own choice runs
 * and compilation and tiers are 'browser'. `codeCache`, in Node: true or a directory to keep
 * TurboFan's code in between runs (host/code-cache/; true: its default directory), false for
 * none; the result's codeCache says what it did. Where the module runs Liftoff code whose
 * TurboFan code the cache could hold, turbofanCodeToMake is set: a file to hand to
 * host/code-cache/make-turbofan-code.js, which makes that code (`spindle run` starts it).
 * SPINDLE_CODE_CACHE=0 turns it off.
 */
export async function compileModule(bytes, mode, codeCache = false) {
  const chosen = chooseCompilation(mode);
  if (!isNode) {
    return { module: await WebAssembly.compile(bytes), compilation: 'browser', tiers: 'browser', tiersReason: 'the browser\'s own flags', codeCache: 'off' };
  }
  const v8 = await nodeV8();
  // The flags are process-wide and V8 reads them while an asynchronous compilation runs, so
  // compilations take turns.
  let { tiers, reason } = wasmTiersFor(codeSectionSize(bytes));
  if (usesLiftoff(tiers) && liftoffLosesWaitValues()) {
    try {
      bytes = moveWaitsIntoCalls(bytes);
    } catch {
      // a module the pass cannot read: TurboFan compiles its waits right
      [tiers, reason] = ['optimized', `${reason}; its waits could not be moved into calls, so TurboFan only`];
    }
  }
  const wanted = Boolean(codeCache) && process.env.SPINDLE_CODE_CACHE !== '0';
  const cache = wanted && chosen === 'eager' ? await import('./code-cache/compile-cached.js') : null;
  const dir = typeof codeCache === 'string' ? codeCache : undefined;
  const settingOf = (compileFlags) => `${process.version} ${process.arch} ${compileFlags.join(' ')}`;
  // A module big enough for Liftoff + tiering runs TurboFan's code where the cache has it: made
  // once, after a run, by a process of its own (host/code-cache/make-turbofan-code.js), so no run
  // waits for it.
  let notCached = wanted ? 'off: not an eager TurboFan compile' : 'off';
  let turbofanCodeToMake;
  let entry = null; // the cache entry of TurboFan's code, once looked up (it hashes the whole module)
  if (cache && tiers === 'tiered' && !process.env.SPINDLE_WASM_TIERS) {
    const turbofan = turbofanTiers();
    entry = cache.cacheEntry(bytes, { dir, setting: settingOf(flagsForCompile(tierFlagsFor(turbofan), chosen)) });
    const found = cache.turbofanCode(entry);
    if (found.cached) [tiers, reason] = [turbofan, `${reason}, but its TurboFan code is cached: TurboFan`];
    else if (found.marker) [notCached, turbofanCodeToMake] = ['miss: Liftoff + tiering now, TurboFan code to be made after the run', found.marker];
    else notCached = `miss: ${found.why}`;
  }
  const tierFlags = tierFlagsFor(tiers);
  const compileFlags = flagsForCompile(tierFlags, chosen);
  const cached = cache && !usesLiftoff(tiers) ? cache : null;
  // a module whose TurboFan code was found above compiles with those very flags: the same entry
  if (cached) entry ??= cached.cacheEntry(bytes, { dir, setting: settingOf(compileFlags) });
  const turn = lastCompile.then(async () => {
    for (const flag of compileFlags) v8.setFlagsFromString(flag);
    // Node 24 does not count V8's background compilation as work of its event loop: with nothing
    // else pending the process exited 0 before an eager compile resolved (docs/HOST.md).
    const holdEventLoop = setInterval(() => {}, 1 << 30);
    try {
      if (!cached) return { module: await WebAssembly.compile(bytes), cache: notCached };
      return await cached.compileCached(bytes, entry);
    } finally {
      clearInterval(holdEventLoop);
      if (chosen === 'lazy') lazyTierFlags = tierFlags;
      for (const flag of flagsAfterCompile()) v8.setFlagsFromString(flag);
    }
  });
  lastCompile = turn.catch(() => {});
  const { module, cache: did } = await turn;
  return { module, compilation: chosen, tiers, tiersReason: reason, codeCache: did, turbofanCodeToMake };
}
